// Several service processes on one machine (WEB_CONCURRENCY=2, src/app/cluster.ts) through the real entry point, on
// PostgreSQL and on embedded SQLite (where the primary keeps the one writer: src/app/sqlite-cluster.ts): both workers
// take hooks on the one port, every vote is stored once and delivered once (on SQLite worker 1 sends the other's
// too); a worker killed with SIGKILL is started again under its index while the other keeps taking hooks, and no vote
// is lost or sent twice; /metrics sums every worker's counts; SIGTERM stops them all and the primary exits 0.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, createOwnPostgresDatabase, databaseUnavailable, dialect, uniqueSlug } from '../kit/app.js';
import { runCli, serviceEntry, startServerProcess, type ServerProcess } from '../kit/processes.js';
import { freePort, v2Frame, votifierSession } from '../kit/votifier-sender.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';
const AUTH = 'cluster-test-secret-0123456789';

interface LogEntry {
  msg: string;
  worker?: number;
  pid?: number;
  workerPid?: number;
  instance?: string;
  [key: string]: unknown;
}

const entries = (server: ServerProcess): LogEntry[] =>
  server.logs.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogEntry];
    } catch {
      return [];
    }
  });

async function eventually<T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One POST on a connection of its own (no keep-alive), so the primary hands each request to the next worker. */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': data.length, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(databaseUnavailable)(`two service processes on ${dialect} (WEB_CONCURRENCY=2)`, () => {
  // A database of its own: on PostgreSQL both workers apply the migrations at once on it (one waits for the other's
  // lock); on SQLite the primary applies them before it forks.
  let own: Awaited<ReturnType<typeof createOwnPostgresDatabase>> | undefined;
  let server: ServerProcess | undefined;
  let db: pg.Client | undefined;
  let sqlite: Sqlite.Database | undefined;
  let game: Receiver | undefined;
  const children: ChildProcess[] = [];
  const env: Record<string, string> = {
    DATABASE_URL: '',
    SECRET_KEY: TEST_SECRET_KEY,
    REDIS_URL: SHARED_REDIS_URL,
    WEB_CONCURRENCY: '2',
    LOG_LEVEL: 'debug', // a line per stored vote, carrying the worker that stored it
    INSTANCE_ID: `cluster-test-${uniqueSlug('i')}`,
  };
  let organizationId = '';
  let apiKey = '';
  let hookUrl = '';
  const workerPids = new Set<number>();

  const vote = (user: string) => post(hookUrl, { bot: '1', user, type: 'upvote', isWeekend: false, query: '' }, { authorization: AUTH });
  /** The worker index that stored each vote, from the debug lines (`vote stored: <id> …`). */
  const storedBy = () =>
    new Map(
      entries(server!)
        .filter((e) => e.msg.startsWith('vote stored: '))
        .map((e) => [e.msg.split(' ')[2], { worker: e.worker, pid: e.pid }] as const),
    );
  /** Each voter's stored votes, read from the database itself. */
  const storedRows = async (users: string[]): Promise<{ voterName: string; n: string }[]> =>
    sqlite
      ? (sqlite
          .prepare(
            `SELECT "voterName", CAST(COUNT(*) AS TEXT) AS n FROM "Vote" WHERE "organizationId" = ? AND "voterName" IN (${users.map(() => '?').join(',')}) GROUP BY "voterName"`,
          )
          .all(organizationId, ...users) as { voterName: string; n: string }[])
      : (
          await db!.query<{ voterName: string; n: string }>(
            'SELECT "voterName", COUNT(*) AS n FROM "Vote" WHERE "organizationId" = $1 AND "voterName" = ANY($2) GROUP BY "voterName"',
            [organizationId, users],
          )
        ).rows;
  const storedCount = async () =>
    sqlite
      ? Number((sqlite.prepare('SELECT COUNT(*) AS n FROM "Vote"').get() as { n: number }).n)
      : Number((await db!.query<{ n: string }>('SELECT COUNT(*) AS n FROM "Vote"')).rows[0].n);
  /** The game server's callbacks, by vote id: each vote must arrive once. */
  const deliveredTimes = () => {
    const times = new Map<string, number>();
    for (const r of game!.requests) times.set(r.json.vote_id, (times.get(r.json.vote_id) ?? 0) + 1);
    return times;
  };
  const deliveredOnce = async (ids: string[]) => {
    const times = await eventually(() => (ids.every((id) => deliveredTimes().has(id)) ? deliveredTimes() : undefined), 30_000, 'a callback per vote');
    expect(ids.filter((id) => times.get(id) !== 1)).toEqual([]);
  };

  beforeAll(async () => {
    if (dialect === 'postgresql') {
      own = await createOwnPostgresDatabase();
      env.DATABASE_URL = own.url;
    } else {
      env.DATABASE_URL = `file:${join(mkdtempSync(join(tmpdir(), 'vote-relay-cluster-')), 'relay.db')}`;
    }
    game = await startReceiver();
    env.ALLOW_PRIVATE_TARGETS = `127.0.0.1:${new URL(game.url).port}`;
    env.VOTIFIER_PORT = String(await freePort());
    const ownPort = await freePort();
    env.VOTIFIER_DEDICATED_PORTS = `${ownPort}-${ownPort}`;
    server = await startServerProcess(env, children, serviceEntry(), { readyMessage: 'all workers listening', startTimeoutMs: 100_000 });
    const created = await runCli(['org', 'create', '--slug', uniqueSlug('cluster'), '--name', 'Cluster', '--plan', 'growth', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    organizationId = created.json.organization.id;
    apiKey = created.json.api_key.key;
    const res = await fetch(`${server.url}/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'topgg', name: 'top.gg', auth_method: 'header', auth_field: 'Authorization', auth_value: AUTH, votee_path: 'user' }),
    });
    const provider = await res.json();
    expect(res.status, JSON.stringify(provider)).toBe(201);
    hookUrl = `${server.url}${new URL(provider.data.webhook_url).pathname}`;
    const callback = await fetch(`${server.url}/v1/callbacks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Game', url: `${game.url}/votes` }),
    });
    expect(callback.status, await callback.clone().text()).toBe(201);
    if (own) {
      db = new pg.Client({ connectionString: own.url });
      await db.connect();
    } else {
      sqlite = new Sqlite(env.DATABASE_URL.slice('file:'.length), { readonly: true });
    }
  }, 150_000); // two workers and a CLI, each loading the app through tsx, while the rest of the suite shares the cores

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const pid of workerPids) if (alive(pid)) process.kill(pid, 'SIGKILL'); // they also exit with their primary
    await db?.end();
    sqlite?.close();
    await own?.drop();
    await game?.close();
  });

  it('starts two workers on one port, each saying which worker and instance it is', () => {
    const banners = entries(server!).filter((e) => e.msg === 'vote relay listening');
    expect(banners.map((b) => b.worker).sort()).toEqual([1, 2]);
    for (const banner of banners) {
      expect(banner.instance).toBe(`${env.INSTANCE_ID}/${banner.worker}`);
      expect(banner.port).toBe(Number(new URL(server!.url).port));
      expect(banner.votifier).toBe(`localhost:${env.VOTIFIER_PORT}`); // VOTIFIER_HOST: the host of PUBLIC_BASE_URL
      workerPids.add(banner.pid!);
    }
    expect(workerPids.size).toBe(2);
    expect(workerPids.has(server!.child.pid!)).toBe(false); // the primary serves nothing itself
  });

  it('both workers take hooks, and every vote is stored once', async () => {
    const users = Array.from({ length: 40 }, (_, i) => `both-${i}`);
    const answers = await Promise.all(users.map((user) => vote(user)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ids = answers.map((a) => a.body.data.vote_id as string);
    expect(new Set(ids).size).toBe(users.length);
    expect(answers.every((a) => a.body.data.duplicate === false)).toBe(true);

    const rows = await storedRows(users);
    expect(rows.map((r) => r.voterName).sort()).toEqual([...users].sort());
    expect(rows.every((r) => r.n === '1')).toBe(true);

    const by = await eventually(() => (storedBy().size >= 40 ? storedBy() : undefined), 5_000, 'a debug line per stored vote');
    const workers = new Set(ids.map((id) => by.get(id)?.worker));
    expect([...workers].sort()).toEqual([1, 2]);
    // Delivered once each, those worker 2 took too (on SQLite worker 1 sends them all).
    await deliveredOnce(ids);
  });

  it("/metrics answers the machine's counts whichever worker the scrape reaches", async () => {
    const stored = await storedCount();
    expect(stored).toBeGreaterThan(0);
    // Each scrape on a connection of its own: the primary hands them to the workers in turn.
    for (let i = 0; i < 6; i++) {
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        request(`${server!.url}/metrics`, { agent: false }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
        })
          .on('error', reject)
          .end();
      });
      expect(status, text).toBe(200);
      // Both workers stored some of these votes (the test above): one worker's own count would be less.
      expect(text).toMatch(new RegExp(`^vote_relay_votes_stored_total ${stored}$`, 'm'));
      expect(text.match(/^vote_relay_delivery_backlog_seconds /gm)).toHaveLength(1);
    }
  });

  it("both workers take Votifier sessions, on the shared port and on a provider's own port", async () => {
    const providers = await Promise.all(
      [
        { key: 'mc', name: 'Minecraft lists', auth_method: 'votifier' },
        { key: 'mc-own', name: 'Own port', auth_method: 'votifier', votifier_port: Number(env.VOTIFIER_DEDICATED_PORTS.split('-')[0]) },
      ].map(async (body) => {
        const res = await fetch(`${server!.url}/v1/providers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = await res.json();
        expect(res.status, JSON.stringify(json)).toBe(201);
        return json.data.votifier as { port: number; token: string };
      }),
    );
    const session = (setup: { port: number; token: string }, username: string) =>
      votifierSession(setup.port, (challenge) =>
        v2Frame({ serviceName: 'MinecraftServers.org', username, address: '203.0.113.7', timestamp: Date.now() }, setup.token, challenge),
      );
    const shared = Array.from({ length: 12 }, (_, i) => `mc-shared-${i}`);
    const results = await Promise.all(shared.map((user) => session(providers[0], user)));
    for (const result of results) expect(JSON.parse(result.answer)).toEqual({ status: 'ok' });
    // Each worker opens the provider's own port once it reads the routing table again (within 6 s).
    const onOwnPort = async (user: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const result = await session(providers[1], user);
        if (result.answer) return JSON.parse(result.answer);
        if (Date.now() > deadline) throw new Error(`the provider's own port did not answer: ${JSON.stringify(result)}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    };
    await onOwnPort('mc-own-first');
    // Both workers have read the table again and listen on the provider's own port (each says so once).
    const ownPort = providers[1].port;
    await eventually(
      () => {
        const ready = entries(server!).filter((e) => e.msg === "Votifier provider's own port ready" && e.port === ownPort);
        return new Set(ready.map((e) => e.worker)).size >= 2 || undefined;
      },
      15_000,
      'both workers listening on the provider’s own port',
    );
    const own = Array.from({ length: 8 }, (_, i) => `mc-own-${i}`);
    for (const answer of await Promise.all(own.map(onOwnPort))) expect(answer).toEqual({ status: 'ok' });

    const rows = await storedRows([...shared, ...own]);
    expect(rows).toHaveLength(shared.length + own.length);
    expect(rows.every((r) => r.n === '1')).toBe(true);
    const stored = await eventually(
      () => {
        const lines = entries(server!).filter((e) => e.msg.startsWith('vote stored: ') && / for mc-(shared|own)-\d+ from /.test(e.msg));
        return lines.length >= shared.length + own.length ? lines : undefined;
      },
      5_000,
      'a debug line per stored vote',
    );
    const workersOf = (prefix: string) => new Set(stored.filter((e) => e.msg.includes(` for ${prefix}`)).map((e) => e.worker));
    expect([...workersOf('mc-shared-')].sort()).toEqual([1, 2]);
    expect([...workersOf('mc-own-')].sort()).toEqual([1, 2]);
  }, 60_000);

  it('a worker killed with SIGKILL is started again under its index, and hooks keep being taken meanwhile', async () => {
    const banner = entries(server!).find((e) => e.msg === 'vote relay listening' && e.worker === 1)!;
    const killedPid = banner.pid!;
    process.kill(killedPid, 'SIGKILL');

    const died = await eventually(
      () => entries(server!).find((e) => e.workerPid === killedPid && e.msg.startsWith('worker 1 (pid')),
      10_000,
      'the primary noticing the death',
    );
    expect(died.msg).toBe(`worker 1 (pid ${killedPid}) exited (signal SIGKILL); starting it again in 1 s`);
    expect(died).toMatchObject({ level: 50, worker: 1, signal: 'SIGKILL', restartInMs: 1_000 });

    // While worker 1 is away, worker 2 takes every hook.
    const meanwhile = Array.from({ length: 6 }, (_, i) => `meanwhile-${i}`);
    const answers = await Promise.all(meanwhile.map((user) => vote(user)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    const back = await eventually(() => entries(server!).find((e) => e.msg.startsWith('worker 1 is back (pid ')), 45_000, 'worker 1 starting again');
    const newPid = back.workerPid!;
    expect(newPid).not.toBe(killedPid);
    workerPids.add(newPid);
    const again = entries(server!).find((e) => e.msg === 'vote relay listening' && e.pid === newPid)!;
    expect(again).toMatchObject({ worker: 1, instance: `${env.INSTANCE_ID}/1` }); // the same identity as before

    const after = Array.from({ length: 30 }, (_, i) => `after-${i}`);
    const afterAnswers = await Promise.all(after.map((user) => vote(user)));
    for (const answer of afterAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = await storedRows([...meanwhile, ...after]);
    expect(rows).toHaveLength(meanwhile.length + after.length);
    expect(rows.every((r) => r.n === '1')).toBe(true);
    const by = await eventually(
      () => {
        const map = storedBy();
        return afterAnswers.every((a) => map.has(a.body.data.vote_id)) ? map : undefined;
      },
      5_000,
      'a debug line per stored vote',
    );
    const pids = new Set(afterAnswers.map((a) => by.get(a.body.data.vote_id)?.pid));
    expect(pids.has(newPid)).toBe(true); // the restarted worker takes hooks
    expect(server!.child.exitCode).toBeNull();
    // Every vote sent once, those taken while worker 1 was away too (on SQLite its next start takes them back).
    await deliveredOnce([...answers, ...afterAnswers].map((a) => a.body.data.vote_id));
  }, 60_000);

  it('SIGTERM stops every worker and the primary exits 0', async () => {
    const pids = entries(server!)
      .filter((e) => e.msg === 'vote relay listening')
      .map((e) => e.pid!)
      .filter(alive);
    expect(pids).toHaveLength(2);
    server!.child.kill('SIGTERM');
    const [code] = (await once(server!.child, 'exit')) as [number | null];
    expect(code, server!.logs.slice(-10).join('\n')).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    const stoppedLines = entries(server!).filter((e) => e.msg === 'stopped');
    expect(stoppedLines.map((e) => e.worker ?? 'primary').sort()).toEqual([1, 2, 'primary']);
  }, 30_000);
});
