// Crash safety of the fast path (docs/architecture.md, "From vote to reward"): a new vote's jobs are written leased to
// the instance that stored it and sent from memory, with no claim. A real server process is SIGKILLed while votes
// come in at 1,000/s and most of their jobs are still leased to it, unsent:
//   - restarted with the same INSTANCE_ID, it takes its leased jobs back at once (not after the 120 s lease): every
//     acknowledged vote arrives, those it had leased within 5 s of the new process being ready;
//   - on PostgreSQL with two instances, the survivor delivers the dead one's leased jobs once their lease lapses.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { killAll, startTimingReceiver, startTrackedServer, waitUntil, type TimingReceiver } from '../kit/crash.js';
import { runCli, type ServerProcess } from '../kit/processes.js';

const VOTES = 1_000;
const RATE_PER_S = 1_000;
const TEST_TIMEOUT_MS = 120_000;
/** The restarted instance must have sent every job the dead one had leased within this long of being ready. */
const TAKEN_BACK_WITHIN_MS = 5_000;

describe.skipIf(databaseUnavailable)('the fast path after a SIGKILL', () => {
  const databaseUrl = testDatabaseUrl();
  const base = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: TEST_SECRET_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_POLL_MS: '200',
    HOOK_RATE_LIMIT_PER_MINUTE: '10000000',
    API_RATE_LIMIT_PER_MINUTE: '10000000',
    DELIVERY_CONCURRENCY: '16',
  };
  const children: ChildProcess[] = [];
  const receivers: TimingReceiver[] = [];
  afterAll(async () => {
    await killAll(children);
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function api(server: ServerProcess, method: string, path: string, key: string, body?: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function setupOrg(server: ServerProcess, env: Record<string, string>, receiver: TimingReceiver) {
    const created = await runCli(['org', 'create', '--slug', uniqueSlug('handoff'), '--name', 'Handoff', '--plan', 'business', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const key: string = created.json.api_key.key;
    const provider = await api(server, 'POST', '/v1/providers', key, {
      key: 'site',
      name: 'List',
      auth_method: 'url_path',
      auth_field: 's',
      votee_path: 'user',
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const callback = await api(server, 'POST', '/v1/callbacks', key, { name: 'game', url: `${receiver.url}/votes`, timeout_ms: 5000 });
    expect(callback.status, JSON.stringify(callback.body)).toBe(201);
    return { key, orgId: created.json.organization.id as string, hookPath: new URL(provider.body.data.webhook_url).pathname };
  }

  /** Posts VOTES unique votes open-loop at RATE_PER_S (10 every 10 ms), to `target(i)`; the vote ids acknowledged. */
  async function sendAtRate(target: (i: number) => ServerProcess, hookPath: string): Promise<string[]> {
    const run = randomBytes(4).toString('hex');
    const posts: Promise<string>[] = [];
    const started = performance.now();
    for (let i = 0; i < VOTES; i++) {
      const due = started + (i * 1000) / RATE_PER_S;
      const wait = due - performance.now();
      if (wait > 2) await new Promise((r) => setTimeout(r, wait));
      const server = target(i);
      posts.push(
        fetch(`${server.url}${hookPath}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: `V${i}`, run }),
        }).then(async (res) => {
          const text = await res.text();
          if (res.status !== 200) throw new Error(`hook answered ${res.status}: ${text}`);
          return JSON.parse(text).data.vote_id as string;
        }),
      );
    }
    return Promise.all(posts);
  }

  /** Jobs of the organization still running under `holder` (leased, unsent), straight from the database. */
  async function leasedTo(orgId: string, holder: string): Promise<number> {
    if (dialect === 'sqlite') {
      const db = new Sqlite(databaseUrl.slice('file:'.length).split('?')[0], { readonly: true, timeout: 5_000 });
      try {
        return (
          db.prepare(`SELECT count(*) AS n FROM "DeliveryJob" WHERE organizationId = ? AND status = 'running' AND lockedBy = ?`).get(orgId, holder) as {
            n: number;
          }
        ).n;
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const r = await client.query(`SELECT count(*)::int AS n FROM "DeliveryJob" WHERE "organizationId" = $1 AND status = 'running' AND "lockedBy" = $2`, [
        orgId,
        holder,
      ]);
      return r.rows[0].n;
    } finally {
      await client.end();
    }
  }

  /** The end of each leased job's lease (epoch ms) by vote, for jobs still running under `holder` (PostgreSQL). */
  async function leasesOf(orgId: string, holder: string): Promise<Map<string, number>> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const r = await client.query(
        `SELECT "voteId", (extract(epoch FROM "lockedUntil") * 1000)::float8 AS until FROM "DeliveryJob" WHERE "organizationId" = $1 AND status = 'running' AND "lockedBy" = $2`,
        [orgId, holder],
      );
      return new Map(r.rows.map((row) => [row.voteId as string, Number(row.until)]));
    } finally {
      await client.end();
    }
  }

  /** When each vote's callback first arrived (performance.now() of this process). */
  const firstArrivals = (receiver: TimingReceiver) => {
    const at = new Map<string, number>();
    for (const r of receiver.requests) if (r.voteId && !at.has(r.voteId)) at.set(r.voteId, r.start);
    return at;
  };

  it(
    'restarted with the same INSTANCE_ID, an instance sends the jobs it had leased at once, not after their lease',
    async () => {
      // Slow at first, so that most jobs are still leased in memory when the process dies; fast after.
      const receiverOptions = { delayMs: 1_000 };
      const receiver = await startTimingReceiver(receiverOptions);
      receivers.push(receiver);
      const env = { ...base, INSTANCE_ID: `handoff-${randomBytes(4).toString('hex')}` };
      const first = await startTrackedServer(env, children);
      const { orgId, hookPath } = await setupOrg(first, env, receiver);

      const acked = await sendAtRate(() => first, hookPath);
      expect(new Set(acked).size).toBe(VOTES);
      first.child.kill('SIGKILL');
      await first.exited;
      const received = receiver.voteIds();
      const leased = await leasedTo(orgId, env.INSTANCE_ID);
      // The crash lands with most of the work leased to the dead process and not sent.
      expect(leased).toBeGreaterThan(VOTES / 2);

      receiverOptions.delayMs = 0;
      const second = await startTrackedServer({ ...env, DELIVERY_CONCURRENCY: '64' }, children);
      const ready = performance.now();
      try {
        const missing = () => acked.filter((id) => !receiver.voteIds().has(id));
        await waitUntil(
          () => missing().length === 0,
          60_000,
          () => `${missing().length} acknowledged votes never reached the receiver`,
        );
        const arrivals = firstArrivals(receiver);
        const afterRestart = acked.filter((id) => !received.has(id)).map((id) => arrivals.get(id)! - ready);
        const latest = Math.max(...afterRestart);
        console.log(
          `[handoff-crash ${dialect}] acknowledged=${VOTES} received-before-kill=${received.size} leased-at-kill=${leased}` +
            ` sent-after-restart=${afterRestart.length} last-of-them=${Math.round(latest)} ms after the restarted process was ready`,
        );
        expect(latest).toBeLessThan(TAKEN_BACK_WITHIN_MS);
      } finally {
        second.child.kill('SIGKILL');
        await second.exited;
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(dialect === 'postgresql')(
    'with two instances, the survivor sends the dead one’s leased jobs once their lease lapses',
    async () => {
      const receiverOptions = { delayMs: 1_000 };
      const receiver = await startTimingReceiver(receiverOptions);
      receivers.push(receiver);
      const leaseMs = 4_000;
      const a = { ...base, DELIVERY_LEASE_MS: String(leaseMs), INSTANCE_ID: `handoff-a-${randomBytes(4).toString('hex')}` };
      const b = { ...base, DELIVERY_LEASE_MS: String(leaseMs), INSTANCE_ID: `handoff-b-${randomBytes(4).toString('hex')}` };
      const first = await startTrackedServer(a, children);
      const survivor = await startTrackedServer(b, children);
      const { orgId, hookPath } = await setupOrg(first, a, receiver);

      const acked = await sendAtRate(() => first, hookPath);
      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = performance.now();
      const received = receiver.voteIds();
      const leases = await leasesOf(orgId, a.INSTANCE_ID);
      const leased = leases.size;
      expect(leased).toBeGreaterThan(VOTES / 2);
      receiverOptions.delayMs = 0;

      const missing = () => acked.filter((id) => !receiver.voteIds().has(id));
      await waitUntil(
        () => missing().length === 0,
        60_000,
        () => `${missing().length} acknowledged votes never reached the receiver`,
      );
      const arrivals = firstArrivals(receiver);
      const taken = acked.filter((id) => !received.has(id)).map((id) => arrivals.get(id)! - killedAt);
      console.log(
        `[handoff-crash ${dialect}, two instances] acknowledged=${VOTES} received-before-kill=${received.size} leased-at-kill=${leased}` +
          ` sent-by-the-survivor=${taken.length} first=${Math.round(Math.min(...taken))} ms last=${Math.round(Math.max(...taken))} ms after the kill (lease ${leaseMs} ms)`,
      );
      // Nobody else sends a job while its holder's lease runs: the survivor waits for each to lapse.
      const early = [...leases].filter(([voteId, until]) => performance.timeOrigin + arrivals.get(voteId)! < until);
      expect(early, 'jobs sent by the survivor before the dead instance’s lease on them ended').toEqual([]);
      survivor.child.kill('SIGKILL');
      await survivor.exited;
    },
    TEST_TIMEOUT_MS,
  );
});
