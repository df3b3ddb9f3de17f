// Several processes on embedded SQLite (WEB_CONCURRENCY=2; README "Scaling out"): the primary keeps the one writer and
// the workers write through it. Under a steady load of hooks the primary is SIGKILLed (its workers go with it: their
// IPC channel closes); a single process started on the same file must hold every vote a worker acknowledged, once,
// and send each one's callback. Then the same with worker 1, the one that delivers, SIGKILLed while worker 2 keeps
// taking hooks: nothing acknowledged is lost, and a callback cut off by a kill is sent again under its own
// webhook-id. SQLite only: on PostgreSQL each worker writes itself.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, dialect, uniqueSlug } from '../kit/app.js';
import { processApi as api, runCli, serviceEntry, startServerProcess, type ServerProcess } from '../kit/processes.js';
import { killAll, startTimingReceiver, waitUntil, type TimingReceiver } from '../kit/crash.js';

const SENDERS = 8;

interface Acked {
  voter: string;
  voteId: string;
}

/** Hooks from `SENDERS` senders until stopped: what was acknowledged, and what got another answer. */
function steadyVotes(url: string, hook: string, prefix: string, logs: () => string[]) {
  const acked: Acked[] = [];
  const other: string[] = [];
  let stopped = false;
  let sent = 0;
  const loops = Array.from({ length: SENDERS }, async () => {
    while (!stopped) {
      const voter = `${prefix}${sent++}`;
      const res = await fetch(`${url}${hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: voter }),
      }).catch(() => null);
      const body = res ? await res.json().catch(() => null) : null;
      if (res?.status === 200) acked.push({ voter, voteId: body.data.vote_id });
      else other.push(`${voter}: ${res?.status ?? 'no answer'}`);
      if (!res) await new Promise((r) => setTimeout(r, 20)); // the service is gone: do not spin
    }
  });
  return {
    acked,
    other,
    async until(count: number) {
      await waitUntil(
        () => acked.length >= count,
        60_000,
        () =>
          `${acked.length} of ${count} votes acknowledged; others: ${other.slice(-3).join(', ')}; the service's last lines:\n${logs().slice(-8).join('\n')}`,
      );
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(dialect !== 'sqlite')('several processes on SQLite, killed with SIGKILL under load', () => {
  const children: ChildProcess[] = [];
  let receiver: TimingReceiver | undefined;
  afterAll(async () => {
    await killAll(children);
    await receiver?.close();
  });

  it('every acknowledged vote is stored once and sent, after the primary or the delivering worker is killed', async () => {
    const began = performance.now();
    const mark = (what: string) => console.log(`[sqlite-cluster-crash] ${Math.round(performance.now() - began)} ms: ${what}`);
    receiver = await startTimingReceiver({ delayMs: 5 });
    const databaseUrl = `file:${join(mkdtempSync(join(tmpdir(), 'vote-relay-sqlite-cluster-')), 'relay.db')}`;
    const base = {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: TEST_SECRET_KEY,
      REDIS_URL: 'redis://127.0.0.1:6379',
      ALLOW_PRIVATE_TARGETS: `127.0.0.1:${new URL(receiver.url).port}`,
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000',
      DELIVERY_POLL_MS: '200',
      DELIVERY_LEASE_MS: '3000',
      INSTANCE_ID: `sqlite-cluster-${uniqueSlug('i')}`,
    };
    const cluster = { ...base, WEB_CONCURRENCY: '2' };
    const startCluster = () => startServerProcess(cluster, children, serviceEntry(), { readyMessage: 'all workers listening', startTimeoutMs: 60_000 });

    let server: ServerProcess = await startCluster();
    mark('cluster up');
    const org = await runCli(['org', 'create', '--slug', uniqueSlug('sqlc'), '--name', 'SQLite cluster', '--plan', 'business', '--json'], base);
    expect(org.code, org.stderr).toBe(0);
    const key: string = org.json.api_key.key;
    const provider = await api(server, 'POST', '/v1/providers', key, {
      key: 'site',
      name: 'Site',
      auth_method: 'url_path',
      auth_field: 's',
      votee_path: 'user',
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const hook = new URL(provider.body.data.webhook_url).pathname;
    const callback = await api(server, 'POST', '/v1/callbacks', key, { name: 'Game', url: `${receiver.url}/votes` });
    expect(callback.status, JSON.stringify(callback.body)).toBe(201);

    // 1. The primary, and with it the one writer, is killed while both workers take hooks.
    const workerPids = server.logs.flatMap((line) => {
      const entry = JSON.parse(line);
      return entry.msg === 'vote relay listening' ? [entry.pid as number] : [];
    });
    expect(workerPids).toHaveLength(2);
    const first = steadyVotes(server.url, hook, 'A', () => server.logs);
    await first.until(300);
    server.child.kill('SIGKILL');
    mark('primary killed');
    await first.stop();
    await server.exited;
    // The workers leave with their primary.
    await waitUntil(
      () =>
        workerPids.every((pid) => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        }),
      10_000,
      () => `workers ${workerPids.join(', ')} still running after their primary was killed`,
    );

    // 2. Started again; worker 1 (which sends every delivery) is killed while worker 2 keeps taking hooks.
    server = await startCluster();
    mark('restarted');
    const second = steadyVotes(server.url, hook, 'B', () => server.logs);
    await second.until(150);
    const worker1 = server.logs.map((line) => JSON.parse(line)).find((e) => e.msg === 'vote relay listening' && e.worker === 1);
    process.kill(worker1.pid, 'SIGKILL');
    // Worker 2 takes the hooks meanwhile; its votes' jobs wait, leased to worker 1.
    await second.until(second.acked.length + 100);
    await second.stop();
    mark('hooks stopped');
    await waitUntil(
      () => server.logs.some((line) => line.includes('"msg":"worker 1 is back')),
      30_000,
      () => 'worker 1 starting again',
    );
    mark('worker 1 back');
    const acked = [...first.acked, ...second.acked];
    // Every acknowledged vote sent: those left by the primary's kill after the restart, those worker 2 took while
    // worker 1 was away once worker 1 is back (its own leases, taken back at its start).
    await waitUntil(
      () => acked.every((a) => receiver!.voteIds().has(a.voteId)),
      60_000,
      () => `${acked.filter((a) => !receiver!.voteIds().has(a.voteId)).length} of ${acked.length} acknowledged votes not sent`,
    );
    mark('all sent');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const db = new Sqlite(databaseUrl.slice('file:'.length), { readonly: true });
    const rows = db.prepare('SELECT id, "voterName" AS voter FROM "Vote"').all() as { id: string; voter: string }[];
    db.close();
    const stored = new Map<string, number>();
    for (const row of rows) stored.set(row.voter, (stored.get(row.voter) ?? 0) + 1);
    expect(acked.filter((a) => stored.get(a.voter) !== 1).map((a) => a.voter)).toEqual([]);
    // A callback in flight when its sender was killed is sent again (HTTP callbacks are at least once, README
    // "Delivery guarantees"), with the same webhook-id, so that the receiver can drop the repeat.
    const ids = new Map<string, Set<string | null>>();
    for (const request of receiver.requests) if (request.voteId) ids.set(request.voteId, (ids.get(request.voteId) ?? new Set()).add(request.webhookId));
    expect([...ids].filter(([, webhookIds]) => webhookIds.size !== 1)).toEqual([]);
    const repeats = receiver.requests.length - ids.size;
    console.log(
      `[sqlite-cluster-crash] ${Math.round(performance.now() - began)} ms; repeated callbacks ${repeats}; acknowledged before the primary's kill ${first.acked.length} (other answers ${first.other.length}), around worker 1's kill ${second.acked.length} (other answers ${second.other.length}); stored ${rows.length}; callbacks ${receiver.requests.length}`,
    );
  }, 180_000);
});
