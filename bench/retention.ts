// Retention benchmark (embedded SQLite): hook latency while retention deletes a backlog of old votes (with their
// delivery jobs) in the service process, beside the same load on the same database with retention off, in the
// same run. The database holds BENCH_OLD_VOTES (100,000) votes 60 days old, each with a delivery job; the service
// starts with VOTE_RETENTION_DAYS=30 (its first run starts at once) and the load starts as soon as it listens.
// Each phase: BENCH_DURATION_S (10) of closed-loop hook POSTs from BENCH_CONNECTIONS (16) senders.
// Writes its section of BENCHMARKS.md (`retention`).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import {
  ROOT,
  createClient,
  createOrg,
  createTopggProvider,
  envNumber,
  machineLoad,
  ms,
  percentile,
  ratio,
  serviceEnv,
  sortedCopy,
  startService,
  thousands,
} from './lib/service.js';

const OLD_VOTES = envNumber('BENCH_OLD_VOTES', 100_000, true);
const DURATION_S = envNumber('BENCH_DURATION_S', 10, false);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 16, true);
const AUTH = 'bench-retention-secret';

interface Phase {
  name: string;
  votes: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  oldLeft: number;
}

async function load(port: number, path: string): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const client = createClient(port, { 'content-type': 'application/json', authorization: AUTH }, CONNECTIONS);
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const until = Date.now() + DURATION_S * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const res = await client.request('POST', path, JSON.stringify({ user: `voter${(n++ % 5000).toString(36)}`, n }));
        if (res.status === 200) latencies.push(res.ms);
        else errors++;
      }
    }),
  );
  client.close();
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  if (process.env.DATABASE_URL && !process.env.DATABASE_URL.startsWith('file:')) {
    console.error('bench/retention.ts measures embedded SQLite only');
    process.exit(2);
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-retention-'));
  const seeded = join(dir, 'seeded.db');
  const base = {
    DATABASE_URL: `file:${seeded}`,
    SECRET_KEY: 'bench-retention-secret-key-0123456789',
    LOG_LEVEL: 'info',
    RETENTION_INTERVAL: '0',
    VOTIFIER_PORT: '0',
    ALERTS_INTERVAL_MS: '0',
    RECOVERY_INTERVAL: '0',
    HOOK_RATE_LIMIT_PER_MINUTE: '100000000',
    IP_RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const apiKey = await createOrg(serviceEnv(base), 'bench-retention', 'business');
  const setup = await startService(serviceEnv(base));
  const path = await createTopggProvider(`http://127.0.0.1:${setup.port}`, apiKey, AUTH);
  await setup.stop();

  // The backlog: votes 60 days old, each with a sent delivery job, written directly.
  const db = new Sqlite(seeded);
  const { id: organizationId } = db.prepare('SELECT id FROM "Organization" WHERE slug = ?').get('bench-retention') as { id: string };
  const { id: providerId } = db.prepare('SELECT id FROM "Provider" WHERE organizationId = ?').get(organizationId) as { id: string };
  const old = Date.now() - 60 * 86_400_000;
  const vote = db.prepare(
    `INSERT INTO "Vote" (id, publicId, organizationId, providerId, voterName, voterKey, receivedAt, rawPayload, dedupKey, chatStatus, callbackStatus, callbackAttempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'skipped', 'sent', 1)`,
  );
  const job = db.prepare(
    `INSERT INTO "DeliveryJob" (id, organizationId, voteId, kind, status, priority, attempts, maxAttempts, runAt, createdAt, updatedAt, sentAt)
     VALUES (?, ?, ?, 'callback', 'sent', 0, 1, 11, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < OLD_VOTES; i++) {
      const id = randomUUID();
      const at = old + i;
      vote.run(id, `vt_${id}`, organizationId, providerId, `old${i}`, `old${i}`, at, `{"user":"old"}`, randomUUID());
      job.run(randomUUID(), organizationId, id, at, at, at, at);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  const phases: Phase[] = [];
  for (const [name, retention] of [
    ['retention off', '0'],
    ['retention deleting the backlog', '30'],
  ] as const) {
    const file = join(dir, `${retention}.db`);
    copyFileSync(seeded, file);
    const env = serviceEnv({ ...base, DATABASE_URL: `file:${file}`, VOTE_RETENTION_DAYS: retention, RETENTION_INTERVAL: '1h' });
    const service = await startService(env);
    const run = await load(service.port, path);
    await service.stop();
    const check = new Sqlite(file, { readonly: true });
    const oldLeft = (check.prepare('SELECT COUNT(*) AS n FROM "Vote" WHERE receivedAt < ?').get(Date.now() - 30 * 86_400_000) as { n: number }).n;
    check.close();
    const sorted = sortedCopy(run.latencies);
    phases.push({
      name,
      votes: run.latencies.length,
      perSecond: run.latencies.length / run.seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
      errors: run.errors,
      oldLeft,
    });
    console.error(`${name}: ${run.latencies.length} votes, p99 ${ms(percentile(sorted, 99))} ms, old votes left ${oldLeft}`);
  }
  rmSync(dir, { recursive: true, force: true });

  const [off, on] = phases;
  const header = ['Phase', 'Votes accepted', 'Votes/s', 'p50 ms', 'p99 ms', 'max ms', 'Errors', `Old votes left (of ${thousands(OLD_VOTES)})`];
  const rows = phases.map((p) => [p.name, thousands(p.votes), thousands(p.perSecond), ms(p.p50), ms(p.p99), ms(p.max), String(p.errors), thousands(p.oldLeft)]);
  console.log(consoleTable(header, rows));
  writeSection(
    join(ROOT, 'BENCHMARKS.md'),
    'retention',
    [
      '## Retention: hook latency while old votes are deleted',
      '',
      `Measured by \`bench/retention.ts\`: embedded SQLite holding ${thousands(OLD_VOTES)} votes 60 days old (each with a sent delivery job). The same load (${DURATION_S} s of closed-loop hook POSTs from ${CONNECTIONS} senders) runs twice on copies of that database: once with retention off, once with \`VOTE_RETENTION_DAYS=30\`, whose first run starts with the service and deletes the backlog in batches of 500 (at most 200 batches a run) while the load runs. The last column says how much of the backlog was gone when the load ended.`,
      '',
      `- Date: ${new Date().toISOString()}`,
      `- Machine: ${machineDescription()}`,
      `- Machine load: ${machineLoad()}`,
      `- Commit: ${gitCommit(ROOT)}`,
      '',
      markdownTable(header, rows),
      '',
      `Hooks while retention deletes: ${ratio(on.perSecond, off.perSecond)} the votes per second and p99 ${ms(on.p99)} ms against ${ms(off.p99)} ms with retention off.`,
    ].join('\n'),
  );
}

await main();
