// Read benchmark: statistics, vote pages and the CSV export over a large history, on embedded SQLite.
//
// 1. Seeding (skipped when a cached database for the same row count exists; BENCH_READ_RESEED=1 forces it):
//    the CLI creates a business organization, the real service (child process) creates 20 providers through
//    POST /v1/providers, then the service is stopped and the votes are written straight into the SQLite file with
//    better-sqlite3 — prepared statements, one transaction per 50,000 votes, synchronous=OFF (seeding only) —
//    with the same columns and value formats as src/modules/votes/sqlite-vote-store.ts, and the rollups
//    (ProviderDailyCount, VoterDailyCount) accumulated per chunk and upserted the way the service counts them.
//    The secondary indexes are dropped during the load and re-created from their own SQL afterwards (one sort per
//    index instead of millions of random B-tree inserts). Votes cover the last 2 years (more of them recently),
//    20 providers, 500,000 voters with Zipf-like popularity. Checks afterwards: row count and rollup sums.
// 2. Measuring: the real service on that file (deliveries off, rate limits out of the way); per endpoint,
//    sequential requests over one keep-alive connection (latency, not throughput): warm-up, then p50/p99.
//    Then the whole-range CSV export, streamed and counted, with the server's RSS sampled every 250 ms.
// Writes its section of BENCHMARKS.md.
//
// Options: BENCH_READ_VOTES (10000000), BENCH_READ_RESEED=1, BENCH_READ_SEED_ONLY=1 (seed, then stop), BENCH_READ_REQUESTS (200), BENCH_READ_WARMUP (20),
// BENCH_READ_ENDPOINT_MAX_S (60, per endpoint), BENCH_READ_EXPORT_MAX_S (300), BENCH_CPU_PROF=<dir> (server --cpu-prof).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import {
  ROOT, api, createClient, createOrg, duration, envNumber, machineLoad, mib, ms, percentile, processMemory, serviceEnv, sortedCopy,
  startService, thousands,
} from './lib/service.js';
import type { RunningChild } from './lib/child.js';
import { openRawReads } from './baselines/raw-sql-reads.js';

const VOTES = envNumber('BENCH_READ_VOTES', 10_000_000, true);
const RESEED = process.env.BENCH_READ_RESEED === '1';
const SEED_ONLY = process.env.BENCH_READ_SEED_ONLY === '1';
const REQUESTS = envNumber('BENCH_READ_REQUESTS', 200, true);
const WARMUP = envNumber('BENCH_READ_WARMUP', 20, true);
const ENDPOINT_MAX_S = envNumber('BENCH_READ_ENDPOINT_MAX_S', 60, false);
const EXPORT_MAX_S = envNumber('BENCH_READ_EXPORT_MAX_S', 300, false);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;

const FULL_SIZE = 10_000_000;
const DAYS = 730;
const PROVIDERS = 20;
const VOTERS = 500_000;
/** Zipf–Mandelbrot offset: the busiest voter casts ~0.1 % of all votes (~15 a day at 10M), the rarest a couple. */
const ZIPF_Q = 100;
const CHUNK = 50_000;
const BUSINESS_VOTES_PER_MONTH = 250_000; // src/auth/plans.ts; votes past it are stored with overLimit = 1
const SECRET_KEY = 'bench-read-secret-key-0123456789abcdef';
const ORG_SLUG = 'bench-read';
/** Bumped whenever the seeded data changes shape, so an old cached file is not reused. */
const SEED_VERSION = 1;
const DAY_MS = 86_400_000;

const TARGET_STATS_P99_MS = 50;
const TARGET_PAGE_P99_MS = 20;
const TARGET_EXPORT_ROWS_PER_S = 100_000;
/**
 * "Memory flat" = it does not grow with the rows exported: the median RSS over the last quarter of the export exceeds the
 * median over the first quarter by less than FLAT_GROWTH_BYTES, and no sample exceeds the RSS before the export by
 * FLAT_PEAK_BYTES or more (garbage collection makes RSS wander; rows held in memory would add gigabytes at 10M).
 */
const FLAT_GROWTH_BYTES = 50 * 1024 ** 2;
const FLAT_PEAK_BYTES = 256 * 1024 ** 2;

// Hard bound on the whole run: seeding (~15 min at 10M) + index builds + measurements, with room to spare.
const BUDGET_MS = (Math.max(10, (VOTES / FULL_SIZE) * 40) * 60 + 6 * (WARMUP + REQUESTS) + 6 * ENDPOINT_MAX_S + EXPORT_MAX_S + 300) * 1000;
setTimeout(() => {
  console.error(`\n!!! read benchmark exceeded its ${duration(BUDGET_MS / 1000)} budget; stopping`);
  process.exit(1);
}, BUDGET_MS).unref();

const CACHE_BASE = join(os.tmpdir(), `vote-relay-bench-read-${VOTES}`);
const DB_FILE = `${CACHE_BASE}.db`;
const META_FILE = `${CACHE_BASE}.json`;

interface SeedMeta {
  version: number;
  votes: number;
  apiKey: string;
  secretKey: string;
  orgId: string;
  providers: { key: string; id: string; votes: number }[];
  /** Epoch ms: the newest vote is just before it. */
  seededAt: number;
  seedSeconds: number;
  loadSeconds: number;
  indexSeconds: number;
  /** CPU time (user + system) this process spent seeding; wall time above it means the CPU was shared. */
  seedCpuSeconds?: number;
  /** Machine load when the seeding ended. */
  seedMachineLoad?: string;
  dbBytes: number;
  overLimitVotes: number;
  voterDays: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAME_STEMS = ['Steve', 'alex', 'Notch', 'creeper', 'MinerMax', 'builder', 'ShadowFox', 'dragon', 'PixelPanda', 'redstone', 'NightOwl', 'blaze', 'Frosty', 'enderman', 'GhostRider', 'wolf'];
const voterName = (rank: number) => `${NAME_STEMS[rank % NAME_STEMS.length]}_${rank.toString(36)}${rank % 7 === 0 ? 'X' : ''}`;

function progressLine(label: string, done: number, total: number, startedMs: number, finalNewline = false): void {
  const elapsed = (performance.now() - startedMs) / 1000;
  const rate = done / Math.max(elapsed, 1e-9);
  const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${((done / total) * 100).toFixed(1).padStart(5)}% ` +
    `${thousands(done)}/${thousands(total)} rows, ${thousands(rate)} rows/s, elapsed ${duration(elapsed)}, ETA ${duration(eta)}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K${finalNewline ? '\n' : ''}`);
  else process.stderr.write(`${line}\n`);
}

async function createOrgAndProviders(dbPath: string): Promise<{ apiKey: string; providerKeys: string[] }> {
  const env = serviceEnv({
    DATABASE_URL: `file:${dbPath}`,
    SECRET_KEY,
    DELIVERY_ENABLED: 'false',
    LOG_LEVEL: 'info',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const apiKey = await createOrg(env, ORG_SLUG, 'business');
  const server = await startService(env);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const providerKeys: string[] = [];
    for (let i = 0; i < PROVIDERS; i++) {
      const key = i === 0 ? 'topgg' : `list-${String(i).padStart(2, '0')}`;
      await api(base, apiKey, 'POST', '/v1/providers', {
        key,
        name: i === 0 ? 'top.gg' : `Server list ${i}`,
        auth_method: 'header',
        auth_field: 'Authorization',
        auth_value: `bench-read-hook-secret-${i}`,
        votee_path: 'user',
      });
      providerKeys.push(key);
    }
    return { apiKey, providerKeys };
  } finally {
    await server.stop();
  }
}

/** Votes per day, oldest first: more recent days get more (up to ~3×), weekends a little more; today only so far. */
function dailyCounts(total: number, now: number, random: () => number): { dayStart: number; span: number; count: number }[] {
  const todayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const days = Array.from({ length: DAYS }, (_, d) => {
    const dayStart = todayStart - (DAYS - 1 - d) * DAY_MS;
    const span = d === DAYS - 1 ? Math.max(1, now - 1 - todayStart) : DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    const weight = (0.6 + 1.4 * (d / (DAYS - 1)) ** 1.5) * (weekday === 0 || weekday === 6 ? 1.15 : 1) * (0.9 + 0.2 * random()) * (span / DAY_MS);
    return { dayStart, span, weight, count: 0 };
  });
  const sum = days.reduce((s, d) => s + d.weight, 0);
  let given = 0;
  const remainders = days.map((d, i) => {
    const exact = (d.weight / sum) * total;
    d.count = Math.floor(exact);
    given += d.count;
    return { i, r: exact - d.count };
  });
  remainders.sort((a, b) => b.r - a.r);
  for (let k = 0; given < total; k++, given++) days[remainders[k % remainders.length].i].count++;
  return days;
}

function seed(dbPath: string, orgId: string, providerIds: string[]): Pick<SeedMeta, 'seededAt' | 'loadSeconds' | 'indexSeconds' | 'overLimitVotes' | 'voterDays'> & { perProvider: number[] } {
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // seeding only: the file is renamed into place only once it is complete
  db.pragma('foreign_keys = OFF'); // every id written is one that exists
  db.pragma(`cache_size = -${Math.floor(Math.min(8 * 1024 ** 3, os.totalmem() / 3) / 1024)}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('threads = 2');

  // Secondary indexes: dropped for the load, re-created from their own SQL (exactly the migration's) afterwards.
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('Vote', 'ProviderDailyCount', 'VoterDailyCount') ORDER BY tbl_name, name`)
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);

  const insertVote = db.prepare(
    `INSERT INTO "Vote" (id, publicId, organizationId, providerId, voterName, voterKey, receivedAt, rawPayload, dedupKey, overLimit,
       chatStatus, chatSentAt, callbackStatus, callbackSentAt, callbackAttempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertProviderDay = db.prepare(
    `INSERT INTO "ProviderDailyCount" (organizationId, providerId, day, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (providerId, day) DO UPDATE SET count = count + excluded.count`,
  );
  const upsertVoterDay = db.prepare(
    `INSERT INTO "VoterDailyCount" (organizationId, providerId, voterKey, day, voterName, count, lastVoteAt) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (providerId, voterKey, day) DO UPDATE SET count = count + excluded.count,
       lastVoteAt = max(lastVoteAt, excluded.lastVoteAt), voterName = excluded.voterName`,
  );

  const random = rng(20261121);
  const now = Date.now();
  const days = dailyCounts(VOTES, now, random);
  const names = Array.from({ length: VOTERS }, (_, rank) => voterName(rank));
  const keys = names.map((n) => n.toLowerCase());
  // Providers: uneven shares (the first is the busiest).
  const providerCdf: number[] = [];
  {
    const weights = Array.from({ length: PROVIDERS }, (_, i) => 1 / (i + 3));
    const sum = weights.reduce((s, w) => s + w, 0);
    let acc = 0;
    for (const w of weights) providerCdf.push((acc += w / sum));
    providerCdf[PROVIDERS - 1] = 1;
  }
  const botIds = providerIds.map((_, i) => String(264811613708746752n + BigInt(i) * 7919n));
  const zipfBase = (VOTERS + ZIPF_Q) / ZIPF_Q;

  let written = 0;
  let inChunk = 0;
  let overLimitVotes = 0;
  let voterDays = 0;
  let month = '';
  let monthCount = 0;
  const perProvider = new Array<number>(PROVIDERS).fill(0);
  const voterDay = new Map<number, { count: number; last: number }>();
  const providerDay = new Map<number, number>();
  const startedMs = performance.now();
  let lastProgress = startedMs;

  const flushRollups = () => {
    for (const [key, count] of providerDay) {
      const p = key % PROVIDERS;
      const d = (key - p) / PROVIDERS;
      upsertProviderDay.run(orgId, providerIds[p], new Date(days[d].dayStart).toISOString().slice(0, 10), count);
    }
    for (const [key, { count, last }] of voterDay) {
      const rank = key % VOTERS;
      const rest = (key - rank) / VOTERS;
      const p = rest % PROVIDERS;
      const d = (rest - p) / PROVIDERS;
      upsertVoterDay.run(orgId, providerIds[p], keys[rank], new Date(days[d].dayStart).toISOString().slice(0, 10), names[rank], count, last);
    }
    providerDay.clear();
    voterDay.clear();
  };

  db.exec('BEGIN');
  for (let d = 0; d < days.length; d++) {
    const { dayStart, span, count } = days[d];
    const dayText = new Date(dayStart).toISOString();
    if (dayText.slice(0, 7) !== month) {
      month = dayText.slice(0, 7);
      monthCount = 0;
    }
    const weekend = [0, 6].includes(new Date(dayStart).getUTCDay());
    const offsets = new Float64Array(count);
    for (let i = 0; i < count; i++) offsets[i] = Math.floor(random() * span);
    offsets.sort();
    for (let i = 0; i < count; i++) {
      const at = dayStart + offsets[i];
      const rank = Math.min(VOTERS - 1, Math.floor(ZIPF_Q * zipfBase ** random() - ZIPF_Q));
      const u = random();
      let p = 0;
      while (providerCdf[p] < u) p++;
      const uuid = randomUUID();
      const name = names[rank];
      const rawPayload = `{"bot":"${botIds[p]}","user":"${name}","type":"upvote","isWeekend":${weekend},"query":""}`;
      const dedupKey = createHash('sha256').update(uuid).digest('hex');
      // The monthly plan limit, as the service applies it: past it the vote is kept but nothing is sent.
      const overLimit = monthCount >= BUSINESS_VOTES_PER_MONTH;
      monthCount++;
      let chatStatus = 'skipped';
      let callbackStatus = 'skipped';
      let chatSentAt: number | null = null;
      let callbackSentAt: number | null = null;
      let attempts = 0;
      if (overLimit) overLimitVotes++;
      else {
        // As if a chat webhook and one callback were configured: nearly everything sent, a few failures.
        const s = random();
        chatStatus = s < 0.995 ? 'sent' : 'failed';
        if (chatStatus === 'sent') chatSentAt = at + 40 + Math.floor(s * 400);
        callbackStatus = s < 0.99 ? 'sent' : 'failed';
        attempts = callbackStatus === 'sent' ? (s < 0.95 ? 1 : 2) : 11;
        if (callbackStatus === 'sent') callbackSentAt = at + 20 + Math.floor(s * 200) + (attempts - 1) * 1000;
      }
      insertVote.run(
        uuid, `vt_${uuid}`, orgId, providerIds[p], name, keys[rank], at, rawPayload, dedupKey, overLimit ? 1 : 0,
        chatStatus, chatSentAt, callbackStatus, callbackSentAt, attempts,
      );
      perProvider[p]++;
      const pdKey = d * PROVIDERS + p;
      providerDay.set(pdKey, (providerDay.get(pdKey) ?? 0) + 1);
      const vdKey = pdKey * VOTERS + rank;
      const vd = voterDay.get(vdKey);
      if (vd) {
        vd.count++;
        vd.last = at;
      } else voterDay.set(vdKey, { count: 1, last: at });

      written++;
      if (++inChunk === CHUNK) {
        flushRollups();
        db.exec('COMMIT');
        db.exec('BEGIN');
        inChunk = 0;
      }
      if ((written & 1023) === 0) {
        const t = performance.now();
        if (t - lastProgress >= 2_000) {
          lastProgress = t;
          progressLine('seeding votes', written, VOTES, startedMs);
        }
      }
    }
  }
  flushRollups();
  db.exec('COMMIT');
  progressLine('seeding votes', written, VOTES, startedMs, true);
  const loadSeconds = (performance.now() - startedMs) / 1000;

  const indexStarted = performance.now();
  for (const [i, { name, sql }] of indexes.entries()) {
    const t = performance.now();
    db.exec(sql);
    process.stderr.write(`index ${i + 1}/${indexes.length} ${name} built in ${duration((performance.now() - t) / 1000)}\n`);
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  voterDays = (db.prepare('SELECT COUNT(*) AS n FROM "VoterDailyCount"').get() as { n: number }).n;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { seededAt: now, loadSeconds, indexSeconds, overLimitVotes, voterDays, perProvider };
}

/** Cheap consistency checks (a full `stats verify` would recompute everything from 10M rows). */
function verifySeed(dbPath: string, meta: Pick<SeedMeta, 'orgId' | 'providers'>): void {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string, ...args: unknown[]) => Number((db.prepare(sql).get(...args) as { n: number | bigint | null }).n ?? 0);
    const problems: string[] = [];
    const votes = one('SELECT COUNT(*) AS n FROM "Vote" WHERE organizationId = ?', meta.orgId);
    const providerDays = one('SELECT SUM(count) AS n FROM "ProviderDailyCount" WHERE organizationId = ?', meta.orgId);
    const voterDays = one('SELECT SUM(count) AS n FROM "VoterDailyCount" WHERE organizationId = ?', meta.orgId);
    if (votes !== VOTES) problems.push(`Vote rows ${votes} ≠ ${VOTES}`);
    if (providerDays !== VOTES) problems.push(`SUM(ProviderDailyCount.count) ${providerDays} ≠ ${VOTES}`);
    if (voterDays !== VOTES) problems.push(`SUM(VoterDailyCount.count) ${voterDays} ≠ ${VOTES}`);
    // A few provider-days and voter-days against the raw votes (through the indexes, so cheap).
    const samples = db
      .prepare('SELECT providerId, day, count FROM "ProviderDailyCount" WHERE organizationId = ? ORDER BY random() LIMIT 3')
      .all(meta.orgId) as { providerId: string; day: string; count: number }[];
    for (const s of samples) {
      const from = Date.parse(`${s.day}T00:00:00.000Z`);
      const raw = one('SELECT COUNT(*) AS n FROM "Vote" WHERE providerId = ? AND receivedAt >= ? AND receivedAt < ?', s.providerId, from, from + DAY_MS);
      if (raw !== s.count) problems.push(`ProviderDailyCount ${s.providerId}/${s.day}: ${s.count}, raw votes ${raw}`);
    }
    const voterSamples = db
      .prepare('SELECT providerId, voterKey, day, count, lastVoteAt FROM "VoterDailyCount" WHERE organizationId = ? ORDER BY random() LIMIT 3')
      .all(meta.orgId) as { providerId: string; voterKey: string; day: string; count: number; lastVoteAt: number }[];
    for (const s of voterSamples) {
      const from = Date.parse(`${s.day}T00:00:00.000Z`);
      const raw = db
        .prepare('SELECT COUNT(*) AS n, MAX(receivedAt) AS last FROM "Vote" WHERE organizationId = ? AND voterKey = ? AND receivedAt >= ? AND receivedAt < ? AND providerId = ?')
        .get(meta.orgId, s.voterKey, from, from + DAY_MS, s.providerId) as { n: number; last: number };
      if (raw.n !== s.count || raw.last !== s.lastVoteAt) problems.push(`VoterDailyCount ${s.voterKey}/${s.day}: ${s.count}@${s.lastVoteAt}, raw ${raw.n}@${raw.last}`);
    }
    if (problems.length > 0) throw new Error(`seeded database is inconsistent:\n  ${problems.join('\n  ')}`);
    console.log(`verified: ${thousands(votes)} votes = SUM(ProviderDailyCount) = SUM(VoterDailyCount); 3 provider-days and 3 voter-days match the raw votes`);
  } finally {
    db.close();
  }
}

async function seededDatabase(): Promise<{ meta: SeedMeta; reused: boolean }> {
  if (!RESEED && existsSync(DB_FILE) && existsSync(META_FILE)) {
    try {
      const meta = JSON.parse(readFileSync(META_FILE, 'utf8')) as SeedMeta;
      if (meta.version === SEED_VERSION && meta.votes === VOTES) {
        console.log(`reusing the seeded database ${DB_FILE} (${thousands(VOTES)} votes, seeded ${new Date(meta.seededAt).toISOString()}; BENCH_READ_RESEED=1 to redo)`);
        return { meta, reused: true };
      }
    } catch {
      // unreadable: seed again
    }
  }
  const seeding = `${CACHE_BASE}.seeding.db`;
  for (const f of [DB_FILE, META_FILE, seeding].flatMap((f) => [f, `${f}-wal`, `${f}-shm`])) rmSync(f, { force: true });
  console.log(`seeding ${thousands(VOTES)} votes into ${seeding}`);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { apiKey, providerKeys } = await createOrgAndProviders(seeding);
  const setup = new Database(seeding, { readonly: true, fileMustExist: true });
  const orgId = (setup.prepare('SELECT id FROM "Organization" WHERE slug = ?').get(ORG_SLUG) as { id: string }).id;
  const providerRows = setup.prepare('SELECT id, key FROM "Provider" WHERE organizationId = ?').all(orgId) as { id: string; key: string }[];
  setup.close();
  const providerIds = providerKeys.map((key) => providerRows.find((r) => r.key === key)!.id);
  const seeded = seed(seeding, orgId, providerIds);
  const meta: SeedMeta = {
    version: SEED_VERSION,
    votes: VOTES,
    apiKey,
    secretKey: SECRET_KEY,
    orgId,
    providers: providerKeys.map((key, i) => ({ key, id: providerIds[i], votes: seeded.perProvider[i] })),
    seededAt: seeded.seededAt,
    seedSeconds: 0,
    loadSeconds: seeded.loadSeconds,
    indexSeconds: seeded.indexSeconds,
    dbBytes: 0,
    overLimitVotes: seeded.overLimitVotes,
    voterDays: seeded.voterDays,
  };
  verifySeed(seeding, meta);
  for (const suffix of ['-wal', '-shm']) rmSync(`${seeding}${suffix}`, { force: true });
  renameSync(seeding, DB_FILE);
  meta.seedSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  meta.seedCpuSeconds = (cpu.user + cpu.system) / 1e6;
  meta.seedMachineLoad = machineLoad();
  meta.dbBytes = statSync(DB_FILE).size;
  writeFileSync(META_FILE, JSON.stringify(meta, null, 2));
  console.log(
    `seeded in ${duration(meta.seedSeconds)} (load ${duration(meta.loadSeconds)}, indexes ${duration(meta.indexSeconds)}; ` +
      `${duration(meta.seedCpuSeconds)} of CPU in this process; ${meta.seedMachineLoad}); ${(meta.dbBytes / 1024 ** 3).toFixed(2)} GiB`,
  );
  return { meta, reused: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface EndpointResult {
  label: string;
  path: string;
  target: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  cappedByTime: boolean;
  /** The very first request on a fresh service (cold caches: SQLite pages, the leaderboard's kept list). */
  first: number;
}

async function measureEndpoint(
  client: ReturnType<typeof createClient>,
  label: string,
  path: string,
  target: number,
  check: (body: unknown) => string | null,
): Promise<EndpointResult> {
  const first = await client.request('GET', path);
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}: ${first.body.slice(0, 500)}`);
  const problem = check(JSON.parse(first.body));
  if (problem) throw new Error(`GET ${path}: ${problem}`);
  for (let i = 1; i < WARMUP; i++) await client.request('GET', path);
  const times: number[] = [];
  const started = performance.now();
  let cappedByTime = false;
  for (let i = 0; i < REQUESTS; i++) {
    const res = await client.request('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 500)}`);
    times.push(res.ms);
    if (performance.now() - started > ENDPOINT_MAX_S * 1000 && i + 1 < REQUESTS) {
      cappedByTime = true;
      break;
    }
  }
  const sorted = sortedCopy(times);
  const result = { label, path, target, first: first.ms, samples: times.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1], cappedByTime };
  console.log(`${label}: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms (${result.samples} requests${cappedByTime ? `, stopped after ${ENDPOINT_MAX_S} s` : ''})`);
  return result;
}

interface ExportResult {
  rows: number;
  bytes: number;
  seconds: number;
  complete: boolean;
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  hwm: number;
  samples: number;
  /** Server RSS at 25 %, 50 % and 75 % of the export's duration. */
  rssQuartiles: number[];
  /** Median server RSS over the first and over the last quarter of the export's duration. */
  rssFirstQuarter: number;
  rssLastQuarter: number;
  /** Rows/s over the first and the last minute (a rate that falls as the export advances shows here). */
  firstMinuteRate: number;
  lastMinuteRate: number;
}

function median(values: number[]): number {
  return values.length === 0 ? Number.NaN : percentile(sortedCopy(values), 50);
}

async function measureExport(server: RunningChild, apiKey: string): Promise<ExportResult> {
  const pid = server.process.pid!;
  const before = processMemory(pid);
  let peak = before?.rss ?? Number.NaN;
  const rssSamples: [number, number][] = [];
  const progress: [number, number][] = [[0, 0]];
  const sampler = setInterval(() => {
    const m = processMemory(pid);
    if (m) {
      rssSamples.push([performance.now() - started, m.rss]);
      if (!(m.rss <= peak)) peak = m.rss;
    }
  }, 250);
  let newlines = 0;
  let bytes = 0;
  const started = performance.now();
  let lastProgress = started;
  let lastMark = started;
  const complete = await new Promise<boolean>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: '/v1/votes/export', headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => reject(new Error(`export answered ${res.statusCode}: ${text.slice(0, 500)}`)));
        return;
      }
      const timer = setTimeout(() => {
        res.destroy();
        resolve(false);
      }, EXPORT_MAX_S * 1000);
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
        const t = performance.now();
        if (t - lastMark >= 1_000) {
          lastMark = t;
          progress.push([t - started, Math.max(newlines - 1, 0)]);
        }
        if (t - lastProgress >= 2_000) {
          lastProgress = t;
          progressLine('export', Math.min(Math.max(newlines - 1, 0), VOTES), VOTES, started);
        }
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve(true);
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = processMemory(pid);
  if (after && !(after.rss <= peak)) peak = after.rss;
  const rows = Math.max(newlines - 1, 0); // the header line
  progressLine('export', Math.min(rows, VOTES), VOTES, started, true);
  progress.push([seconds * 1000, rows]);
  const rowsAt = (tMs: number) => {
    // Linear between the two marks around tMs.
    const i = progress.findIndex(([t]) => t >= tMs);
    if (i <= 0) return i === 0 ? progress[0][1] : rows;
    const [t0, r0] = progress[i - 1];
    const [t1, r1] = progress[i];
    return r0 + ((r1 - r0) * (tMs - t0)) / Math.max(t1 - t0, 1e-9);
  };
  const windowMs = Math.min(60_000, seconds * 1000);
  const rssAt = (fraction: number) => {
    const t = seconds * 1000 * fraction;
    let best = Number.NaN;
    let bestDistance = Infinity;
    for (const [st, rss] of rssSamples) if (Math.abs(st - t) < bestDistance) [best, bestDistance] = [rss, Math.abs(st - t)];
    return best;
  };
  return {
    rows, bytes, seconds, complete,
    rssStart: before?.rss ?? Number.NaN, rssPeak: peak, rssEnd: after?.rss ?? Number.NaN, hwm: after?.hwm ?? Number.NaN,
    samples: rssSamples.length,
    rssQuartiles: [0.25, 0.5, 0.75].map(rssAt),
    rssFirstQuarter: median(rssSamples.filter(([t]) => t <= seconds * 250).map(([, r]) => r)),
    rssLastQuarter: median(rssSamples.filter(([t]) => t >= seconds * 750).map(([, r]) => r)),
    firstMinuteRate: rowsAt(windowMs) / (windowMs / 1000),
    lastMinuteRate: (rows - rowsAt(seconds * 1000 - windowMs)) / (windowMs / 1000),
  };
}

async function main(): Promise<number> {
  const runStarted = performance.now();
  const { meta, reused } = await seededDatabase();
  if (SEED_ONLY) return 0;
  const loadBefore = machineLoad();
  const top = [...meta.providers].sort((a, b) => b.votes - a.votes)[0];

  if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });
  const server = await startService(
    serviceEnv({
      DATABASE_URL: `file:${DB_FILE}`,
      SECRET_KEY: meta.secretKey,
      DELIVERY_ENABLED: 'false',
      LOG_LEVEL: 'info',
      API_RATE_LIMIT_PER_MINUTE: '1000000000',
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000000',
    }),
    CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : [],
  );
  const measureStarted = performance.now();
  const endpoints: EndpointResult[] = [];
  let exported: ExportResult;
  const client = createClient(server.port, { authorization: `Bearer ${meta.apiKey}` });
  const raw = openRawReads(DB_FILE, meta.orgId);
  const baseline: { p50: number; p99: number }[] = [];
  type Body = { data: Record<string, unknown> & { summary?: { all_time?: number } }; meta?: { total?: number } };
  let cases: [string, string, number, (b: Body) => string | null, () => unknown][] = [];
  try {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const yearAgo = new Date(now.getTime() - 365 * DAY_MS).toISOString().slice(0, 10);
    cases = [
      ['dashboard', '/v1/stats/dashboard', TARGET_STATS_P99_MS,
        (b) => (b.data.summary?.all_time === VOTES ? null : `all_time ${b.data.summary?.all_time} ≠ ${VOTES}`), () => raw.dashboard()],
      ['trend (day, 1 year)', `/v1/stats/trend?granularity=day&from=${yearAgo}&to=${today}`, TARGET_STATS_P99_MS,
        (b) => ((b.data.trend as unknown[]).length >= 365 ? null : `${(b.data.trend as unknown[]).length} buckets`), () => raw.trend(yearAgo, today)],
      ['by-provider', '/v1/stats/by-provider', TARGET_STATS_P99_MS,
        (b) => ((b.data.providers as unknown[]).length === PROVIDERS ? null : `${(b.data.providers as unknown[]).length} providers`), () => raw.byProvider()],
      ['leaderboard (30 days)', '/v1/stats/leaderboard?days=30', TARGET_STATS_P99_MS,
        (b) => ((b.data.voters as unknown[]).length > 0 ? null : 'no voters'), () => raw.leaderboard(30, 10)],
      [`votes page, filtered (provider=${top.key}, page 3 of 50)`, `/v1/votes?provider=${top.key}&limit=50&page=3`, TARGET_PAGE_P99_MS,
        (b) => ((b.data.votes as unknown[]).length === 50 && b.meta?.total === top.votes ? null : `${(b.data.votes as unknown[]).length} votes, total ${b.meta?.total} (expected ${top.votes})`),
        () => raw.votesPage(top.id, 50, 100)],
      ['votes page, unfiltered (first 50)', '/v1/votes?limit=50', TARGET_PAGE_P99_MS,
        (b) => ((b.data.votes as unknown[]).length === 50 && b.meta?.total === VOTES ? null : `${(b.data.votes as unknown[]).length} votes, total ${b.meta?.total}`),
        () => raw.votesPage(null, 50, 0)],
    ];
    console.log(`\nmeasuring: ${WARMUP} warm-up + up to ${REQUESTS} sequential requests per endpoint, one keep-alive connection`);
    for (const [label, path, target, check] of cases) {
      endpoints.push(await measureEndpoint(client, label, path, target, check as (b: unknown) => string | null));
    }
    console.log(`\nexport: GET /v1/votes/export (whole range, up to ${EXPORT_MAX_S} s)`);
    exported = await measureExport(server, meta.apiKey);
  } finally {
    client.close();
    await server.stop();
  }
  // The baseline, with the service stopped: the same reads as plain SQL on the same file (bench/baselines/raw-sql-reads.ts).
  console.log(`\nbaseline: the same reads as plain SQL through better-sqlite3 (${WARMUP} warm-up + ${REQUESTS} calls each)`);
  for (const [i, [label, , , , call]] of cases.entries()) {
    const capped = performance.now() + ENDPOINT_MAX_S * 1000;
    for (let n = 0; n < WARMUP && performance.now() < capped; n++) call();
    const times: number[] = [];
    for (let n = 0; n < REQUESTS && (n === 0 || performance.now() < capped + ENDPOINT_MAX_S * 1000); n++) {
      const t = performance.now();
      call();
      times.push(performance.now() - t);
    }
    const sorted = sortedCopy(times);
    baseline[i] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    console.log(`${label}: p50 ${ms(baseline[i].p50)} ms, p99 ${ms(baseline[i].p99)} ms (${times.length} calls)`);
  }
  const rawExport = raw.exportAll();
  raw.close();
  console.log(`export: ${thousands(rawExport.rows)} rows in ${duration(rawExport.seconds)} = ${thousands(rawExport.rows / rawExport.seconds)} rows/s`);
  const measureSeconds = (performance.now() - measureStarted) / 1000;
  const loadAfter = machineLoad();
  const totalSeconds = (performance.now() - runStarted) / 1000;

  // ------------------------------------------------------------------------------------------------ report
  const verdict = (met: boolean) => (met ? 'met' : '**NOT MET**');
  const header = ['Endpoint', 'First request ms', 'Requests', 'p50 ms', 'p99 ms', 'max ms', 'Baseline: plain SQL p50 / p99 ms', 'Ours ÷ baseline (p99)', 'Target (p99)', 'Result'];
  const rows = endpoints.map((e, i) => [
    `${e.label}<br>\`GET ${e.path}\``,
    ms(e.first),
    `${e.samples}${e.cappedByTime ? ` (time cap ${ENDPOINT_MAX_S} s)` : ''}`,
    ms(e.p50),
    ms(e.p99),
    ms(e.max),
    `${ms(baseline[i].p50)} / ${ms(baseline[i].p99)}`,
    `${(e.p99 / baseline[i].p99).toFixed(1)}×`,
    `< ${e.target} ms`,
    verdict(e.p99 < e.target),
  ]);
  const rowsPerS = exported.rows / exported.seconds;
  const memoryGrowth = exported.rssLastQuarter - exported.rssFirstQuarter;
  const memoryPeak = exported.rssPeak - exported.rssStart;
  const memoryFlat = memoryGrowth < FLAT_GROWTH_BYTES && memoryPeak < FLAT_PEAK_BYTES;
  const exportHeader = ['Export', 'Rows', 'Time', 'Rows/s', 'Baseline: plain SQL + CSV rows/s', 'Ours ÷ baseline', 'Server RSS start / peak / end', 'RSS growth (last − first quarter)', 'Target', 'Result'];
  const exportRows = [[
    `\`GET /v1/votes/export\` (whole range, CSV)${exported.complete ? '' : ` — **stopped after ${EXPORT_MAX_S} s, incomplete**`}`,
    `${thousands(exported.rows)}${exported.complete && exported.rows !== VOTES ? ` (**expected ${thousands(VOTES)}**)` : ''}`,
    duration(exported.seconds),
    thousands(rowsPerS),
    thousands(rawExport.rows / rawExport.seconds),
    `${(rowsPerS / (rawExport.rows / rawExport.seconds)).toFixed(2)}×`,
    `${mib(exported.rssStart)} / ${mib(exported.rssPeak)} / ${mib(exported.rssEnd)}`,
    `${memoryGrowth >= 0 ? '+' : '−'}${mib(Math.abs(memoryGrowth))}`,
    `> ${thousands(TARGET_EXPORT_ROWS_PER_S)} rows/s; memory flat (growth < ${mib(FLAT_GROWTH_BYTES)}, peak < start + ${mib(FLAT_PEAK_BYTES)})`,
    `rate ${verdict(rowsPerS > TARGET_EXPORT_ROWS_PER_S)}, memory ${verdict(memoryFlat)}`,
  ]];
  const missed = [
    ...endpoints.filter((e) => !(e.p99 < e.target)).map((e) => `${e.label}: p99 ${ms(e.p99)} ms against < ${e.target} ms`),
    ...(rowsPerS > TARGET_EXPORT_ROWS_PER_S ? [] : [`export: ${thousands(rowsPerS)} rows/s against > ${thousands(TARGET_EXPORT_ROWS_PER_S)}`]),
    ...(memoryFlat ? [] : [`export memory: RSS grew by ${mib(memoryGrowth)} (first to last quarter), peak ${mib(memoryPeak)} over the start`]),
    ...(exported.complete ? [] : [`export did not finish within ${EXPORT_MAX_S} s (${thousands(exported.rows)} of ${thousands(VOTES)} rows)`]),
  ];

  const sizeNote = VOTES === FULL_SIZE ? '' : ` **Measured at ${thousands(VOTES)} votes, not the 10,000,000 of the target.**`;
  console.log(`\nRead benchmark — ${thousands(VOTES)} votes\n`);
  console.log(consoleTable(header, rows.map((r) => [r[0].replace(/<br>.*/, ''), ...r.slice(1).map((c) => c.replaceAll('**', ''))])));
  console.log('');
  console.log(consoleTable(exportHeader, exportRows.map((r) => r.map((c) => c.replaceAll('**', '').replaceAll('`', '')))));
  const exportDetail =
    `${(exported.bytes / 1024 ** 2).toFixed(0)} MiB of CSV; rows/s over the first minute ${thousands(exported.firstMinuteRate)}, over the last minute ` +
    `${thousands(exported.lastMinuteRate)}; server RSS at 25/50/75 % of the export ${exported.rssQuartiles.map(mib).join(' / ')} ` +
    `(${exported.samples} samples); server peak RSS over its whole life (VmHWM) ${mib(exported.hwm)}`;
  console.log(`\nexport: ${exportDetail}`);
  console.log(missed.length === 0 ? 'all targets met' : `targets missed:\n  ${missed.join('\n  ')}`);

  const seedCost =
    `${duration(meta.seedSeconds)} (organization and providers through the CLI and API; load ${duration(meta.loadSeconds)} = ` +
    `${thousands(VOTES / meta.loadSeconds)} votes/s; index builds ${duration(meta.indexSeconds)}` +
    `${meta.seedCpuSeconds ? `; ${duration(meta.seedCpuSeconds)} of CPU in the seeding process` : ''}` +
    `${meta.seedMachineLoad ? `; machine at the end: ${meta.seedMachineLoad}` : ''})`;
  const seedLine = reused
    ? `This run reused the database cached in \`${DB_FILE}\`, seeded ${new Date(meta.seededAt).toISOString()} in ${seedCost}.`
    : `Seeding took ${seedCost}.`;
  const section = [
    '## Reads: statistics, vote pages and export over a large history',
    '',
    `Measured by \`bench/read.ts\` on embedded SQLite.${sizeNote} The database holds ${thousands(VOTES)} votes of one business ` +
      `organization over the last ${DAYS} days (more recently: the newest days get ~3× the votes of the oldest), ${PROVIDERS} providers ` +
      `(uneven shares; the busiest, \`${top.key}\`, has ${thousands(top.votes)}), ${thousands(VOTERS)} voters with Zipf-like popularity ` +
      `(${thousands(meta.voterDays)} voter-day rollup rows). Votes past the plan's 250,000 a month are stored with \`overLimit\` as the service ` +
      `does (${thousands(meta.overLimitVotes)} of them); the others carry \`sent\`/\`failed\` statuses. Delivery jobs and attempts are not seeded ` +
      '(no measured path reads them). The votes and both rollup tables are written straight into the file with better-sqlite3 ' +
      '(same columns and formats as the service; the rollups counted exactly as the hook path counts them; checked afterwards: ' +
      'row count = SUM of each rollup, and sampled provider-days and voter-days against the raw votes). ' + seedLine,
    '',
    `The service (\`src/main.ts\`, \`LOG_LEVEL=info\`, deliveries off) runs as a child process on that file. Each endpoint gets ` +
      `${WARMUP} warm-up requests, then ${REQUESTS} sequential requests over one keep-alive connection (latency, not throughput; ` +
      `time from sending the request to the last byte of the answer). The export is read whole and its lines counted; the server's ` +
      'RSS (`/proc/<pid>/status`) is sampled every 250 ms meanwhile.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the service and this client share it): before the measurements ${loadBefore}; after ${loadAfter}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Database: ${(statSync(DB_FILE).size / 1024 ** 3).toFixed(2)} GiB file; run took ${duration(totalSeconds)} (measurements ${duration(measureSeconds)})`,
    '',
    markdownTable(header, rows),
    '',
    markdownTable(exportHeader, exportRows),
    '',
    `Export: ${exportDetail}.`,
    '',
    missed.length === 0 ? 'All targets met.' : `Targets missed:\n\n${missed.map((m) => `- ${m}`).join('\n')}`,
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), 'read', section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalSeconds)}).`);
  return 0;
}

process.exitCode = await main();
