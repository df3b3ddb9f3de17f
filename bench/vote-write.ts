// The vote write's cost on embedded SQLite, statement by statement and index by index (issue: keep only what a read
// needs). The real write (src/storage/sqlite/votes.ts, createSqliteVoteWrite, with its job insert) runs in batches
// of BENCH_BATCH votes, one IMMEDIATE transaction each, on a fresh database made by the real migrations; one
// organization, one provider, one HTTP callback and chat on (each vote: the vote row, two jobs, two rollups).
// The commits use synchronous=NORMAL here, so the figures are the statements' CPU and page work, not the disk's
// fsync (bench/ingest.ts measures the whole path with it).
//
// Variants, each on its own fresh database, in alternating rounds (BENCH_ROUNDS, 3): the full write; without each
// secondary index of Vote and DeliveryJob in turn (DROP INDEX before the run); and the baseline, a bare INSERT of
// the same vote row into a table with only its primary key (the floor of any vote write). Reported: votes/s (the
// median of the rounds) and the time one vote costs, and each index's share (full − without it).
// Writes its section of BENCHMARKS.md (`vote-write`). Options: BENCH_VOTES (20000), BENCH_BATCH (32), BENCH_ROUNDS (3),
// BENCH_ONLY=full (the full write alone, for a profile; BENCHMARKS.md left alone).
import { voterOfVote } from '../src/domain/voter-identity.js';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { loadConfig } from '../src/config/config.js';
import { PLAN_RULES } from '../src/delivery/callback-kinds/registry.js';
import { NEW_ORG_DEFAULTS, type NewVote } from '../src/domain/votes.js';
import { applyMigrations } from '../src/storage/index.js';
import { createSqliteJobWrites } from '../src/storage/sqlite/jobs.js';
import { createSqliteVoteWrite } from '../src/storage/sqlite/votes.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { ROOT, envNumber } from './lib/service.js';

const VOTES = envNumber('BENCH_VOTES', 20_000, true);
const BATCH = envNumber('BENCH_BATCH', 32, true);
const ROUNDS = envNumber('BENCH_ROUNDS', 3, true);

const VOTE_INDEXES = [
  'Vote_organizationId_receivedAt_idx',
  'Vote_providerId_receivedAt_idx',
  'Vote_organizationId_voterKey_receivedAt_idx',
  'Vote_providerId_dedupKey_receivedAt_idx',
  'Vote_providerId_idempotencyKey_receivedAt_idx',
  'Vote_organizationId_chatStatus_receivedAt_idx',
  'Vote_organizationId_callbackStatus_receivedAt_idx',
  'Vote_organizationId_test_receivedAt_idx',
  'Vote_publicId_key',
  'DeliveryJob_status_runAt_voteId_priority_idx',
  'DeliveryJob_voteId_idx',
  'DeliveryJob_organizationId_kind_status_runAt_idx',
  'DeliveryJob_callbackId_status_idx',
];

const dir = mkdtempSync(join(os.tmpdir(), 'vote-write-bench-'));
let made = 0;

/** A fresh migrated database with one organization, provider and callback; the votes to write. */
async function prepare(dropIndex: string | null) {
  const file = join(dir, `db-${made++}.db`);
  const config = loadConfig({ DATABASE_URL: `file:${file}`, SECRET_KEY: 'x'.repeat(44) });
  await applyMigrations(config);
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  if (process.env.BENCH_NO_CHECKPOINT === '1') db.pragma('wal_autocheckpoint = 0');
  const now = Date.now();
  const org = {
    id: randomUUID(),
    slug: `o${made}`,
    plan: 'business',
    status: 'active',
    chatNotificationsEnabled: true,
    chatWebhookUrl: 'https://chat.example/hook',
    serverCallbackUrl: null,
    ...NEW_ORG_DEFAULTS,
  };
  db.prepare(
    `INSERT INTO "Organization" (id, slug, name, plan, status, chatNotificationsEnabled, chatWebhookUrl, createdAt, updatedAt) VALUES (?, ?, 'Bench', 'business', 'active', 1, ?, ?, ?)`,
  ).run(org.id, org.slug, org.chatWebhookUrl, now, now);
  const providerId = randomUUID();
  db.prepare(
    `INSERT INTO "Provider" (id, organizationId, key, name, authMethod, authField, authValueEnc, voteePath, createdAt, updatedAt) VALUES (?, ?, 'topgg', 'top.gg', 'header', 'Authorization', 'x', 'user', ?, ?)`,
  ).run(providerId, org.id, now, now);
  db.prepare(
    `INSERT INTO "Callback" (id, organizationId, name, kind, url, enabled, priority, payloadTemplateJson, signingSecretEnc, createdAt, updatedAt)
     VALUES (?, ?, 'game', 'http', 'https://game.example/votes', 1, 0, '{}', 'x', ?, ?)`,
  ).run(randomUUID(), org.id, now, now);
  if (dropIndex) db.exec(`DROP INDEX "${dropIndex}"`);
  const provider = { id: providerId, key: 'topgg' } as NewVote['provider'];
  const votes: NewVote[] = Array.from({ length: VOTES }, (_, i) => {
    const body = `{"bot":"1","user":"${100000000 + i}","type":"upvote","isWeekend":false,"query":""}`;
    return {
      org,
      provider,
      voterName: String(100000000 + i),
      voter: voterOfVote(String(100000000 + i), null, 'name', null),
      rawPayload: body,
      dedupKey: randomUUID().replaceAll('-', ''),
      idempotencyKey: null,
      receivedAt: new Date(now + i),
    };
  });
  return { db, config, votes };
}

/** Votes per second of the real write over all votes, in batches. */
async function runFull(dropIndex: string | null): Promise<number> {
  const { db, config, votes } = await prepare(dropIndex);
  const jobs = createSqliteJobWrites(db);
  const write = createSqliteVoteWrite(config, db, PLAN_RULES, jobs.insertJobs);
  const tx = db.transaction((batch: NewVote[]) => write.write(batch));
  const started = process.hrtime.bigint();
  for (let i = 0; i < votes.length; i += BATCH) {
    tx.immediate(votes.slice(i, i + BATCH));
    write.settled(true);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return votes.length / seconds;
}

/** The floor: the same vote row inserted into a table with its primary key only, in the same batches. */
async function runBaseline(): Promise<number> {
  const { db, votes } = await prepare(null);
  db.exec(
    `CREATE TABLE "BareVote" (id TEXT PRIMARY KEY, organizationId TEXT, providerId TEXT, voterName TEXT, receivedAt INTEGER, rawPayload TEXT, dedupKey TEXT)`,
  );
  const insert = db.prepare(`INSERT INTO "BareVote" VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const tx = db.transaction((batch: NewVote[]) => {
    for (const v of batch) insert.run(randomUUID(), v.org.id, v.provider.id, v.voterName, v.receivedAt.getTime(), v.rawPayload, v.dedupKey);
  });
  const started = process.hrtime.bigint();
  for (let i = 0; i < votes.length; i += BATCH) tx.immediate(votes.slice(i, i + BATCH));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return votes.length / seconds;
}

const variants: { name: string; run: () => Promise<number> }[] = [
  { name: 'full write', run: () => runFull(null) },
  ...VOTE_INDEXES.map((index) => ({ name: `without ${index}`, run: () => runFull(index) })),
  { name: 'baseline: bare INSERT, primary key only', run: runBaseline },
];
// BENCH_ONLY=full (investigations, with --cpu-prof): the full write alone; BENCHMARKS.md is then left alone.
const ONLY_FULL = process.env.BENCH_ONLY === 'full';
if (ONLY_FULL) variants.splice(1);
const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const rate = await variant.run();
      results.get(variant.name)!.push(rate);
      console.error(`round ${round + 1}: ${variant.name}: ${Math.round(rate)} votes/s`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const full = median(results.get('full write')!);
const usPerVote = (rate: number) => 1e6 / rate;
const rows = variants.map((v) => {
  const rate = median(results.get(v.name)!);
  const share = v.name.startsWith('without') ? `${(usPerVote(full) - usPerVote(rate)).toFixed(1)} µs` : '';
  return [v.name, Math.round(rate).toLocaleString('en-US'), usPerVote(rate).toFixed(1), share];
});
const header = ['Variant', 'votes/s (median)', 'µs per vote', 'cost of the index (full − without)'];
console.log(consoleTable(header, rows));

if (!ONLY_FULL)
  writeSection(
    join(ROOT, 'BENCHMARKS.md'),
    'vote-write',
    `## The vote write on SQLite, statement and index costs (bench/vote-write.ts)

The real vote write (\`src/storage/sqlite/votes.ts\` with its job insert) in batches of ${BATCH} votes, one IMMEDIATE
transaction each, ${VOTES.toLocaleString('en-US')} votes per run on a fresh migrated database; one organization with chat and one HTTP
callback (each vote: the vote row, two jobs, two rollups). \`synchronous=NORMAL\` here, so the figures are the
statements' own work, not the fsync. Each variant is run ${ROUNDS} times in alternating rounds; the median is shown.
The baseline is a bare INSERT of the same vote row into a table with only a primary key.

- Date: ${new Date().toISOString()}
- Machine: ${machineDescription()}
- Node: ${process.version}
- Commit: ${gitCommit(ROOT)}

${markdownTable(header, rows)}
`,
  );
