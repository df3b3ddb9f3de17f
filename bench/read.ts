// Read benchmark: statistics, vote lists, the players' vote page and the CSV export over a large history, on embedded
// SQLite or, with DATABASE_URL=postgres://… (as bench/ingest.ts, delivery.ts and live.ts), on PostgreSQL.
//
// 1. Seeding (skipped when a cached database of the same seed version and row count exists; BENCH_READ_RESEED=1 forces
//    it): the CLI creates a business organization (applying the migrations, as the service does at start), then the
//    real service (child process) sets it up through the API: PATCH /v1/organization turns the vote page on
//    (settings.vote_page), POST /v1/providers creates 20 providers (no template, no voter_kind: `name`, the default for
//    a non-Votifier site; every other one, the busiest first, with a vote_url `https://example.test/<key>/vote/{{player}}`
//    and top.gg's 12-hour vote_cooldown, so the page has 10 sites), POST /v1/callbacks one HTTP callback ("Survival").
//    Then the service is stopped and the history is written straight into the database. Both databases get the same
//    data, from one generator (SeedHistory): votes cover the last 2 years (more of them recently), 500,000 voter names
//    with Zipf-like popularity, statuses and the monthly plan limit as the service applies them, and what the hook
//    path writes with each vote, counted the same way:
//    - voters as the service resolves them (README "Voters"): one `Voter` per lower-cased name (two names that differ
//      only in case are one voter; its display name is the spelling of its latest vote, nameAt when that spelling
//      began, createdAt its first vote) with id `vtr_` + a UUIDv7 made of its first vote's time and bits of its name
//      (unique, reproducible from the history), and one `VoterIdentity` each (kind from the providers' voter_kind:
//      `name` here, `minecraft` for Minecraft sites; value the lower-cased name);
//    - every per-voter column keyed by the voter's id: Vote.voterKey, VoterDailyCount.voterKey (the day's latest
//      spelling in voterName, the service's rule), VoterStanding (total, month, streaks, per-site totals as of the
//      newest vote); each vote's own standing columns (voterTotal … providerVoterTotal) and nextVoteAt (sites with a
//      cooldown); ProviderDailyCount. No VoterDay (UTC organization), Reminder (reminders off) or party counter.
//    - delivery jobs (chat and callback, finished as the vote's statuses say) and the callback's attempts (a 503 before
//      each retry) only for the votes of the last 30 days of the two voters whose vote page is measured (what their
//      receipts read); no others (no other measured path reads them).
//    Checks afterwards: row count and rollup sums (votes = SUM(ProviderDailyCount) = SUM(VoterDailyCount) =
//    SUM(VoterStanding.total)), one Voter, identity and standing per voter, sampled provider-days and voter-days against
//    the raw votes, and each sampled voter's identity, id and standing.
//    - SQLite (cached as /tmp/vote-relay-bench-read-v<seed version>-<votes>.db + .json): better-sqlite3, prepared
//      statements, one transaction per 50,000 votes, synchronous=OFF (seeding only), with the same columns and value
//      formats as src/storage/sqlite/votes.ts; rollups accumulated per chunk and upserted, voters and standings written
//      at the end. The secondary indexes of Vote and the rollups are dropped during the load and re-created from their
//      own SQL afterwards (one sort per index instead of millions of random B-tree inserts).
//    - PostgreSQL (cached as the database vote_relay_bench_read_v<seed version>_<votes> on the DATABASE_URL server,
//      described in /tmp/vote-relay-bench-read-v<seed version>-<votes>.postgresql.json; seeded as …_seeding and renamed
//      once complete and checked): node-postgres, one `INSERT … SELECT FROM unnest(…)` per 50,000 votes (the next chunk
//      is generated while one is written), synchronous_commit=off and triggers off (session_replication_role=replica:
//      no per-row foreign-key checks) for the seeding session only, same columns and value formats as
//      src/storage/postgres/votes.ts. The rollups of each completed day are inserted once; voters and standings at the
//      end, 50,000 rows a statement. The indexes, primary keys and the foreign keys that reference "Vote" are dropped
//      for the load and re-created from their own definitions afterwards (pg_get_indexdef / pg_get_constraintdef, i.e.
//      the migrations'), then VACUUM (ANALYZE).
//    The seed version (SEED_VERSION) is in the cache names: a cache of an older shape (e.g. voters keyed by their
//    lower-cased name, before voters existed) is never reused; delete old ones by hand.
// 2. Measuring: the real service on that database (deliveries off, rate limits out of the way, the vote page's own
//    VOTE_PAGE_RATE_LIMIT_PER_MINUTE included); per endpoint, sequential requests over one keep-alive connection
//    (latency, not throughput): warm-up, then p50/p99. The statistics and vote lists with the API key; the vote page
//    without one, as a player: GET /vote/<slug> (the HTML page, no player), GET /vote/<slug>.json?player=<the most
//    popular voter> and ?player=<a rare voter> (fewest votes among those who voted in the seed's last 7 days).
//    Then the whole-range CSV export, streamed and counted, with the server's RSS sampled every 250 ms. Then, with the
//    service stopped, the baseline: the same reads as plain SQL on the same database (bench/baselines/raw-sql-reads.ts).
// Writes its section of BENCHMARKS.md: `read` on SQLite, `read-postgresql` on PostgreSQL (not with BENCH_READ_REPORT=0).
//
// Options: BENCH_READ_VOTES (10000000), BENCH_READ_RESEED=1, BENCH_READ_SEED_ONLY=1 (seed, then stop), BENCH_READ_REQUESTS (200), BENCH_READ_WARMUP (20),
// BENCH_READ_ENDPOINT_MAX_S (60, per endpoint), BENCH_READ_EXPORT_MAX_S (300), BENCH_READ_REPORT=0 (leave BENCHMARKS.md alone),
// BENCH_CPU_PROF=<dir> (server --cpu-prof), DATABASE_URL=postgres://… (PostgreSQL mode: the server to create the benchmark database on).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import {
  ROOT,
  api,
  createClient,
  createOrg,
  duration,
  envNumber,
  machineLoad,
  mib,
  ms,
  percentile,
  processMemory,
  serviceEnv,
  sortedCopy,
  startService,
  thousands,
} from './lib/service.js';
import type { RunningChild } from './lib/child.js';
import { openRawReads, openRawReadsPostgres } from './baselines/raw-sql-reads.js';
import { benchDialect, benchPostgresServer, postgresDatabaseUrl } from './lib/database.js';
import { mulberry32 } from '../test/kit/prng.js';
import { spellingWins, spellingWinsSql } from '../src/domain/voter-name.js';

const VOTES = envNumber('BENCH_READ_VOTES', 10_000_000, true);
const RESEED = process.env.BENCH_READ_RESEED === '1';
const SEED_ONLY = process.env.BENCH_READ_SEED_ONLY === '1';
const REQUESTS = envNumber('BENCH_READ_REQUESTS', 200, true);
const WARMUP = envNumber('BENCH_READ_WARMUP', 20, true);
const ENDPOINT_MAX_S = envNumber('BENCH_READ_ENDPOINT_MAX_S', 60, false);
const EXPORT_MAX_S = envNumber('BENCH_READ_EXPORT_MAX_S', 300, false);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const REPORT = process.env.BENCH_READ_REPORT !== '0';

const FULL_SIZE = 10_000_000;
const DAYS = 730;
const PROVIDERS = 20;
const VOTERS = 500_000;
/** Zipf–Mandelbrot offset: the busiest voter casts ~0.1 % of all votes (~15 a day at 10M), the rarest a couple. */
const ZIPF_Q = 100;
const CHUNK = 50_000;
const BUSINESS_VOTES_PER_MONTH = 250_000; // src/domain/plans.ts; votes past it are stored with overLimit = 1
const SECRET_KEY = 'bench-read-secret-key-0123456789abcdef';
const ORG_SLUG = 'bench-read';
/**
 * Bumped whenever the seeded data changes shape; part of the cache names (file and database), so an old cache is never
 * reused. 2: voters (Voter, VoterIdentity, VoterStanding; per-voter columns hold the voter's id), the vote page.
 */
const SEED_VERSION = 2;
const DAY_MS = 86_400_000;
/** Providers with a vote page (vote_url, and top.gg's 12-hour cooldown): every other one, the busiest first. */
const hasVotePage = (p: number) => p % 2 === 0;
const VOTE_COOLDOWN_HOURS = 12;
const CALLBACK_NAME = 'Survival';
/** How far back the vote page's receipt reaches (src/modules/vote-page/vote-page.service.ts). */
const RECEIPT_DAYS = 30;

const TARGET_STATS_P99_MS = 50;
const TARGET_PAGE_P99_MS = 20;
/** The vote page's server time (issue 37): under 50 ms at p99 with 10 million votes. */
const TARGET_VOTE_PAGE_P99_MS = 50;
/** Endpoints measured (for the time budget). */
const ENDPOINTS = 9;
const TARGET_EXPORT_ROWS_PER_S = 100_000;
/**
 * "Memory flat" = it does not grow with the rows exported: the median RSS over the last quarter of the export exceeds the
 * median over the first quarter by less than FLAT_GROWTH_BYTES, and no sample exceeds the RSS before the export by
 * FLAT_PEAK_BYTES or more (garbage collection makes RSS wander; rows held in memory would add gigabytes at 10M).
 */
const FLAT_GROWTH_BYTES = 50 * 1024 ** 2;
const FLAT_PEAK_BYTES = 256 * 1024 ** 2;

// Hard bound on the whole run: seeding (~15 min at 10M) + index builds + measurements, with room to spare.
const BUDGET_MS = (Math.max(10, (VOTES / FULL_SIZE) * 45) * 60 + ENDPOINTS * (WARMUP + REQUESTS) + ENDPOINTS * ENDPOINT_MAX_S + EXPORT_MAX_S + 300) * 1000;
setTimeout(() => {
  console.error(`\n!!! read benchmark exceeded its ${duration(BUDGET_MS / 1000)} budget; stopping`);
  process.exit(1);
}, BUDGET_MS).unref();

const DIALECT = benchDialect();
const CACHE_BASE = join(os.tmpdir(), `vote-relay-bench-read-v${SEED_VERSION}-${VOTES}`);
const DB_FILE = `${CACHE_BASE}.db`;
const META_FILE = `${CACHE_BASE}.json`;
// PostgreSQL mode: the database on the DATABASE_URL server, named after the seed version and the scale; its
// description (API key, ids, …) in a JSON file beside the SQLite cache.
const PG_SERVER = benchPostgresServer();
const PG_DATABASE = `vote_relay_bench_read_v${SEED_VERSION}_${VOTES}`;
const PG_SEEDING_DATABASE = `${PG_DATABASE}_seeding`;
const PG_META_FILE = `${CACHE_BASE}.postgresql.json`;

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
  /** Voters (one Voter, VoterIdentity and VoterStanding row each). */
  voters: number;
  /** Their identities' kind (from the providers' voter_kind). */
  identityKind: string;
  /** Keys of the providers the vote page lists (with a vote_url). */
  votePageSites: string[];
  /** The voters whose vote page is measured: the most popular one, and a rare one who voted recently. */
  popular: SeededVoter;
  rare: SeededVoter;
  /** Delivery jobs seeded for their receipts. */
  receiptJobs: number;
  /** PostgreSQL only: the database's name and the server (host:port) it is on. */
  database?: string;
  server?: string;
}

/** A seeded voter, as the checks and the vote page measurements need them. */
interface SeededVoter {
  id: string;
  /** The display name (the spelling of their latest vote). */
  name: string;
  total: number;
  /** Epoch ms of their latest vote. */
  lastVoteAt: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding

/** Small, fast, deterministic (the fuzz tests' generator). */
const rng = mulberry32;

const NAME_STEMS = [
  'Steve',
  'alex',
  'Notch',
  'creeper',
  'MinerMax',
  'builder',
  'ShadowFox',
  'dragon',
  'PixelPanda',
  'redstone',
  'NightOwl',
  'blaze',
  'Frosty',
  'enderman',
  'GhostRider',
  'wolf',
];
const voterName = (rank: number) => `${NAME_STEMS[rank % NAME_STEMS.length]}_${rank.toString(36)}${rank % 7 === 0 ? 'X' : ''}`;

function progressLine(label: string, done: number, total: number, startedMs: number, finalNewline = false): void {
  const elapsed = (performance.now() - startedMs) / 1000;
  const rate = done / Math.max(elapsed, 1e-9);
  const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line =
    `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${((done / total) * 100).toFixed(1).padStart(5)}% ` +
    `${thousands(done)}/${thousands(total)} rows, ${thousands(rate)} rows/s, elapsed ${duration(elapsed)}, ETA ${duration(eta)}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K${finalNewline ? '\n' : ''}`);
  else process.stderr.write(`${line}\n`);
}

/**
 * The organization (CLI, which applies the migrations first) on the database at `databaseUrl`, and through the API:
 * its vote page turned on, the providers (every other one with a vote page), and one HTTP callback (never called:
 * deliveries are off; the receipts name it).
 */
async function createOrgAndProviders(databaseUrl: string): Promise<{ apiKey: string; providerKeys: string[] }> {
  const env = serviceEnv({
    DATABASE_URL: databaseUrl,
    SECRET_KEY,
    DELIVERY_ENABLED: 'false',
    LOG_LEVEL: 'info',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
    ALLOW_PRIVATE_TARGETS: 'true', // the callback's host is not looked up (example.test does not resolve)
  });
  const apiKey = await createOrg(env, ORG_SLUG, 'business');
  const server = await startService(env);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    await api(base, apiKey, 'PATCH', '/v1/organization', { settings: { vote_page: { enabled: true, title: 'Vote for Bench Read' } } });
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
        ...(hasVotePage(i) ? { vote_url: `https://example.test/${key}/vote/{{player}}`, vote_cooldown: { hours: VOTE_COOLDOWN_HOURS } } : {}),
      });
      providerKeys.push(key);
    }
    await api(base, apiKey, 'POST', '/v1/callbacks', { name: CALLBACK_NAME, url: 'https://game.example.test/vote-relay' });
    return { apiKey, providerKeys };
  } finally {
    await server.stop();
  }
}

/** The identity kind a name from a provider of this voter_kind gets (src/domain/voter-identity.ts, voterOfVote). */
function identityKindOf(voterKinds: string[]): 'name' | 'minecraft' | 'hytale' {
  const kinds = [...new Set(voterKinds)];
  if (kinds.length !== 1 || !['name', 'minecraft', 'hytale'].includes(kinds[0])) {
    // A Discord site keys voters by their id, and mixed kinds would need the generator to resolve across them.
    throw new Error(`the seeded providers' voter_kind is ${kinds.join(', ')}; the seeder handles one of name, minecraft or hytale`);
  }
  return kinds[0] as 'name' | 'minecraft' | 'hytale';
}

/**
 * A voter's id as the service makes one (`vtr_` + a UUIDv7, src/domain/voter-identity.ts): the 48-bit time of their first
 * vote, then bits of their lower-cased name instead of random ones, so unique and the same for the same history.
 */
function seededVoterId(firstVoteAt: number, key: string): string {
  const bytes = createHash('sha256').update(`bench-read-voter\u0000${key}`).digest().subarray(0, 16);
  bytes.writeUIntBE(firstVoteAt, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `vtr_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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

/** One generated vote. The generator reuses the object: copy what you keep. */
interface GeneratedVote {
  uuid: string;
  /** Provider index (0 = the busiest). */
  p: number;
  /** Voter name rank (0 = the busiest); its spelling is `names[rank]`. */
  rank: number;
  /** The voter it resolves to (index into SeedHistory's voter arrays), and that voter's id (Vote.voterKey). */
  voter: number;
  voterId: string;
  /** Epoch ms. */
  at: number;
  rawPayload: string;
  dedupKey: string;
  overLimit: boolean;
  chatStatus: string;
  chatSentAt: number | null;
  callbackStatus: string;
  callbackSentAt: number | null;
  attempts: number;
  /** The standing this vote made (Vote.voterTotal … providerVoterTotal), and when the voter may vote again on the site. */
  voterTotal: number;
  voterMonthTotal: number;
  voterStreakDays: number;
  voterBestStreakDays: number;
  providerVoterTotal: number;
  nextVoteAt: number | null;
}

/** What is written per voter once the history is generated: Voter, VoterIdentity and VoterStanding. */
interface VoterRow {
  id: string;
  /** Display name (their latest vote's spelling) and its lower-cased form (Voter.displayKey, the identity's value). */
  displayName: string;
  key: string;
  nameAt: number;
  createdAt: number;
  total: number;
  monthTotal: number;
  streakDays: number;
  bestStreakDays: number;
  lastDay: string;
  lastVoteAt: number;
  providerTotalsJson: string;
}

/**
 * The seeded history, the same whichever database it goes to: the days, providers, voters and statuses all come
 * from one seeded random sequence, drawn in one order (only the vote UUIDs, and so the dedup keys, differ between
 * runs). `votes()` generates it oldest first and, as the hook path does for each vote, resolves its voter, moves the
 * voter's standing and counts the rollups; the caller writes the votes and the rollups (removing the rollup entries it
 * has written from the maps), then the voters (`voterRows()`).
 *
 * Voters: the providers' voter_kind is `name` (or a Minecraft/Hytale kind): a name is one identity, lower-cased, so
 * each lower-cased name is one voter, and two names that differ only in case (e.g. `builder_3pX` and `builder_3px`) are
 * one voter whose display name follows their latest vote. The organization's time zone is UTC: standing days are the
 * rollups' days.
 */
class SeedHistory {
  readonly random = rng(20261121);
  readonly days: { dayStart: number; span: number; count: number }[];
  /** Month (year × 12 + month) of each day index. */
  readonly monthOfDay: Int32Array;
  readonly names = Array.from({ length: VOTERS }, (_, rank) => voterName(rank));
  /** The voter of each name rank. */
  readonly voterOfRank = new Int32Array(VOTERS);
  /** Lower-cased name of each voter: its identity's value. */
  readonly voterKeys: string[] = [];
  // Per voter, set from their first vote on: id ('' before), display spelling (a rank) and when it was set, first vote.
  readonly voterIds: string[];
  readonly displayRank: Int32Array;
  readonly nameAt: Float64Array;
  readonly firstVoteAt: Float64Array;
  // Per voter: the standing (src/domain/voter-standing.ts, `advance`) with the day index of their latest vote (-1: none).
  readonly total: Int32Array;
  readonly monthTotal: Int32Array;
  readonly streakDays: Int32Array;
  readonly bestStreakDays: Int32Array;
  readonly lastDay: Int32Array;
  readonly lastVoteAt: Float64Array;
  /** (voter × PROVIDERS + provider) → the voter's votes there. */
  readonly siteTotals: Int32Array;
  /** Voters in the order of their first vote (so of their ids). */
  readonly voterOrder: number[] = [];
  /** Index (into `days`) of the day of the vote generated last. */
  day = 0;
  written = 0;
  overLimitVotes = 0;
  readonly perProvider = new Array<number>(PROVIDERS).fill(0);
  /** (day × PROVIDERS + provider) → votes. */
  readonly providerDay = new Map<number, number>();
  /**
   * ((day × PROVIDERS + provider) × VOTERS + voter) → votes, the newest one's time (epoch ms) and the rank whose
   * spelling the row shows (the service's rule, voter-name.ts: the latest vote's; on one millisecond the greater).
   */
  readonly voterDay = new Map<number, { count: number; last: number; rank: number }>();

  constructor(readonly now: number) {
    this.days = dailyCounts(VOTES, now, this.random);
    this.monthOfDay = Int32Array.from(this.days, ({ dayStart }) => new Date(dayStart).getUTCFullYear() * 12 + new Date(dayStart).getUTCMonth());
    const byKey = new Map<string, number>();
    for (let rank = 0; rank < VOTERS; rank++) {
      const key = this.names[rank].toLowerCase();
      let voter = byKey.get(key);
      if (voter === undefined) {
        voter = this.voterKeys.length;
        byKey.set(key, voter);
        this.voterKeys.push(key);
      }
      this.voterOfRank[rank] = voter;
    }
    const n = this.voterKeys.length;
    this.voterIds = new Array<string>(n).fill('');
    this.displayRank = new Int32Array(n).fill(-1);
    this.nameAt = new Float64Array(n);
    this.firstVoteAt = new Float64Array(n);
    this.total = new Int32Array(n);
    this.monthTotal = new Int32Array(n);
    this.streakDays = new Int32Array(n);
    this.bestStreakDays = new Int32Array(n);
    this.lastDay = new Int32Array(n).fill(-1);
    this.lastVoteAt = new Float64Array(n);
    this.siteTotals = new Int32Array(n * PROVIDERS);
  }

  /** UTC day (YYYY-MM-DD) of day index d. */
  dayText(d: number): string {
    return new Date(this.days[d].dayStart).toISOString().slice(0, 10);
  }

  /** Decodes a providerDay key into provider and day indexes. */
  static providerDayKey(key: number): { p: number; d: number } {
    const p = key % PROVIDERS;
    return { p, d: (key - p) / PROVIDERS };
  }

  /** Decodes a voterDay key into voter, provider and day indexes. */
  static voterDayKey(key: number): { voter: number; p: number; d: number } {
    const voter = key % VOTERS;
    const rest = (key - voter) / VOTERS;
    const p = rest % PROVIDERS;
    return { voter, p, d: (rest - p) / PROVIDERS };
  }

  /**
   * Generates every vote (onVote), oldest first. Yields true after every CHUNK votes (flush the rollups, commit), and
   * false every 1,024 votes otherwise (a point where the caller may let its I/O progress); prints progress.
   */
  *votes(onVote: (vote: GeneratedVote) => void, startedMs: number): Generator<boolean, void, undefined> {
    const { random, days, names, perProvider, providerDay, voterDay, voterOfRank, voterIds, displayRank, siteTotals, monthOfDay } = this;
    const { total, monthTotal, streakDays, bestStreakDays, lastDay, lastVoteAt } = this;
    // Providers: uneven shares (the first is the busiest).
    const providerCdf: number[] = [];
    {
      const weights = Array.from({ length: PROVIDERS }, (_, i) => 1 / (i + 3));
      const sum = weights.reduce((s, w) => s + w, 0);
      let acc = 0;
      for (const w of weights) providerCdf.push((acc += w / sum));
      providerCdf[PROVIDERS - 1] = 1;
    }
    const botIds = Array.from({ length: PROVIDERS }, (_, i) => String(264811613708746752n + BigInt(i) * 7919n));
    const cooldownMs = Array.from({ length: PROVIDERS }, (_, p) => (hasVotePage(p) ? VOTE_COOLDOWN_HOURS * 3_600_000 : null));
    const zipfBase = (VOTERS + ZIPF_Q) / ZIPF_Q;
    const vote: GeneratedVote = {
      uuid: '',
      p: 0,
      rank: 0,
      voter: 0,
      voterId: '',
      at: 0,
      rawPayload: '',
      dedupKey: '',
      overLimit: false,
      chatStatus: '',
      chatSentAt: null,
      callbackStatus: '',
      callbackSentAt: null,
      attempts: 0,
      voterTotal: 0,
      voterMonthTotal: 0,
      voterStreakDays: 0,
      voterBestStreakDays: 0,
      providerVoterTotal: 0,
      nextVoteAt: null,
    };

    let inChunk = 0;
    let month = '';
    let monthCount = 0;
    let lastProgress = startedMs;
    for (let d = 0; d < days.length; d++) {
      this.day = d;
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
        if (overLimit) this.overLimitVotes++;
        else {
          // As if a chat webhook and one callback were configured: nearly everything sent, a few failures.
          const s = random();
          chatStatus = s < 0.995 ? 'sent' : 'failed';
          if (chatStatus === 'sent') chatSentAt = at + 40 + Math.floor(s * 400);
          callbackStatus = s < 0.99 ? 'sent' : 'failed';
          attempts = callbackStatus === 'sent' ? (s < 0.95 ? 1 : 2) : 11;
          if (callbackStatus === 'sent') callbackSentAt = at + 20 + Math.floor(s * 200) + (attempts - 1) * 1000;
        }

        // The voter (voter-identity.ts, voterBatch): the one holding the lower-cased name, else a new one; the display
        // name follows the latest vote. Votes come oldest first, so each is the voter's latest so far.
        const voter = voterOfRank[rank];
        if (voterIds[voter] === '') {
          voterIds[voter] = seededVoterId(at, this.voterKeys[voter]);
          displayRank[voter] = rank;
          this.nameAt[voter] = at;
          this.firstVoteAt[voter] = at;
          this.voterOrder.push(voter);
        } else if (displayRank[voter] !== rank) {
          displayRank[voter] = rank;
          this.nameAt[voter] = at;
        }
        // Every vote but a test vote counts (over the plan's limit too): the standing (voter-standing.ts, `advance`).
        const previous = lastDay[voter];
        if (previous < 0) {
          total[voter] = monthTotal[voter] = streakDays[voter] = bestStreakDays[voter] = 1;
        } else if (previous === d) {
          total[voter]++;
          monthTotal[voter]++;
        } else {
          total[voter]++;
          monthTotal[voter] = monthOfDay[previous] === monthOfDay[d] ? monthTotal[voter] + 1 : 1;
          streakDays[voter] = previous === d - 1 ? streakDays[voter] + 1 : 1;
          if (streakDays[voter] > bestStreakDays[voter]) bestStreakDays[voter] = streakDays[voter];
        }
        lastDay[voter] = d;
        if (at > lastVoteAt[voter]) lastVoteAt[voter] = at;
        const site = ++siteTotals[voter * PROVIDERS + p];
        const cooldown = cooldownMs[p];

        vote.uuid = uuid;
        vote.p = p;
        vote.rank = rank;
        vote.voter = voter;
        vote.voterId = voterIds[voter];
        vote.at = at;
        vote.rawPayload = rawPayload;
        vote.dedupKey = dedupKey;
        vote.overLimit = overLimit;
        vote.chatStatus = chatStatus;
        vote.chatSentAt = chatSentAt;
        vote.callbackStatus = callbackStatus;
        vote.callbackSentAt = callbackSentAt;
        vote.attempts = attempts;
        vote.voterTotal = total[voter];
        vote.voterMonthTotal = monthTotal[voter];
        vote.voterStreakDays = streakDays[voter];
        vote.voterBestStreakDays = bestStreakDays[voter];
        vote.providerVoterTotal = site;
        vote.nextVoteAt = cooldown === null ? null : at + cooldown;
        onVote(vote);
        perProvider[p]++;
        const pdKey = d * PROVIDERS + p;
        providerDay.set(pdKey, (providerDay.get(pdKey) ?? 0) + 1);
        const vdKey = pdKey * VOTERS + voter;
        const vd = voterDay.get(vdKey);
        if (vd) {
          vd.count++;
          if (spellingWins(name, at, names[vd.rank], vd.last)) vd.rank = rank;
          if (at > vd.last) vd.last = at;
        } else voterDay.set(vdKey, { count: 1, last: at, rank });

        this.written++;
        if (++inChunk === CHUNK) {
          inChunk = 0;
          yield true;
        }
        if ((this.written & 1023) === 0) {
          const t = performance.now();
          if (t - lastProgress >= 2_000) {
            lastProgress = t;
            progressLine('seeding votes', this.written, VOTES, startedMs);
          }
          yield false;
        }
      }
    }
  }

  /** Voters with at least one vote, in the order of their first vote (of their ids), as their rows hold them. */
  *voterRows(providerIds: string[]): Generator<VoterRow, void, undefined> {
    for (const voter of this.voterOrder) yield this.voterRow(voter, providerIds);
  }

  voterRow(voter: number, providerIds: string[]): VoterRow {
    const sites: Record<string, number> = {};
    for (let p = 0; p < PROVIDERS; p++) {
      const n = this.siteTotals[voter * PROVIDERS + p];
      if (n > 0) sites[providerIds[p]] = n;
    }
    return {
      id: this.voterIds[voter],
      displayName: this.names[this.displayRank[voter]],
      key: this.voterKeys[voter],
      nameAt: this.nameAt[voter],
      createdAt: this.firstVoteAt[voter],
      total: this.total[voter],
      monthTotal: this.monthTotal[voter],
      streakDays: this.streakDays[voter],
      bestStreakDays: this.bestStreakDays[voter],
      lastDay: this.dayText(this.lastDay[voter]),
      lastVoteAt: this.lastVoteAt[voter],
      providerTotalsJson: JSON.stringify(sites),
    };
  }

  /**
   * The voters whose vote page is measured: the most popular (most votes; the first to vote among equals), and a rare
   * one: the fewest votes among those who voted in the last 7 days (all voters when none did), the latest to vote first
   * among equals.
   */
  measuredVoters(): { popular: SeededVoter; rare: SeededVoter } {
    const seeded = (voter: number): SeededVoter => ({
      id: this.voterIds[voter],
      name: this.names[this.displayRank[voter]],
      total: this.total[voter],
      lastVoteAt: this.lastVoteAt[voter],
    });
    let popular = this.voterOrder[0];
    for (const v of this.voterOrder) if (this.total[v] > this.total[popular]) popular = v;
    const recent = this.voterOrder.filter((v) => this.lastVoteAt[v] >= this.now - 7 * DAY_MS);
    const pool = recent.length > 0 ? recent : this.voterOrder;
    let rare = pool[0];
    for (const v of pool) if (this.total[v] < this.total[rare] || (this.total[v] === this.total[rare] && this.lastVoteAt[v] > this.lastVoteAt[rare])) rare = v;
    return { popular: seeded(popular), rare: seeded(rare) };
  }
}

type SeedResult = Pick<
  SeedMeta,
  'seededAt' | 'loadSeconds' | 'indexSeconds' | 'overLimitVotes' | 'voterDays' | 'voters' | 'popular' | 'rare' | 'receiptJobs'
> & { perProvider: number[] };

/** What the setup made through the API, as the seeders need it. */
interface SeedSetup {
  orgId: string;
  providerIds: string[];
  callbackId: string;
  identityKind: string;
}

/** What both databases record of a seeding (times and size are filled in after it). */
function seedMeta(apiKey: string, setup: SeedSetup, providerKeys: string[], seeded: SeedResult): SeedMeta {
  const { orgId, providerIds, identityKind } = setup;
  return {
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
    voters: seeded.voters,
    identityKind,
    votePageSites: providerKeys.filter((_, i) => hasVotePage(i)),
    popular: seeded.popular,
    rare: seeded.rare,
    receiptJobs: seeded.receiptJobs,
  };
}

/** A vote a receipt shows, as read back for its delivery jobs. */
interface ReceiptVote {
  id: string;
  at: number;
  overLimit: boolean;
  chatStatus: string;
  chatSentAt: number | null;
  callbackStatus: string;
  callbackSentAt: number | null;
  attempts: number;
}

interface JobRow {
  id: string;
  voteId: string;
  callbackId: string | null;
  kind: 'chat' | 'callback';
  status: string;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lastError: string | null;
  sentAt: number | null;
  updatedAt: number;
}

interface AttemptRow {
  id: string;
  jobId: string;
  voteId: string;
  attempt: number;
  target: string;
  statusCode: number;
  success: boolean;
  durationMs: number;
  error: string | null;
  createdAt: number;
}

const CALLBACK_TARGET = 'https://game.example.test/vote-relay';

/**
 * The delivery jobs the service planned for these votes (src/domain/job-plan.ts: none past the plan's limit, else a
 * chat job and one for the callback), finished as the votes' statuses say, with the callback's attempts (a 503 before
 * each retry). Only the measured voters' recent votes get them: what their receipts read.
 */
function receiptJobRows(votes: ReceiptVote[], callbackId: string): { jobs: JobRow[]; attempts: AttemptRow[] } {
  const jobs: JobRow[] = [];
  const attempts: AttemptRow[] = [];
  for (const v of votes) {
    if (v.overLimit) continue;
    const chatDone = v.chatSentAt ?? v.at + 30_000;
    jobs.push({
      id: randomUUID(),
      voteId: v.id,
      callbackId: null,
      kind: 'chat',
      status: v.chatStatus,
      attempts: v.chatStatus === 'sent' ? 1 : 5,
      maxAttempts: 5,
      runAt: v.at,
      lastError: v.chatStatus === 'sent' ? null : 'HTTP 503',
      sentAt: v.chatSentAt,
      updatedAt: chatDone,
    });
    const jobId = randomUUID();
    const sent = v.callbackStatus === 'sent';
    for (let a = 1; a <= v.attempts; a++) {
      const ok = sent && a === v.attempts;
      attempts.push({
        id: randomUUID(),
        jobId,
        voteId: v.id,
        attempt: a,
        target: CALLBACK_TARGET,
        statusCode: ok ? 200 : 503,
        success: ok,
        durationMs: 20 + a,
        error: ok ? null : 'HTTP 503',
        createdAt: v.at + 20 + (a - 1) * 1000,
      });
    }
    jobs.push({
      id: jobId,
      voteId: v.id,
      callbackId,
      kind: 'callback',
      status: v.callbackStatus,
      attempts: v.attempts,
      maxAttempts: 11,
      runAt: v.at,
      lastError: sent ? null : 'HTTP 503',
      sentAt: v.callbackSentAt,
      updatedAt: v.callbackSentAt ?? v.at + 20 + v.attempts * 1000,
    });
  }
  return { jobs, attempts };
}

function seed(dbPath: string, setup: SeedSetup): SeedResult {
  const { orgId, providerIds } = setup;
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // seeding only: the file is renamed into place only once it is complete
  db.pragma('foreign_keys = OFF'); // every id written is one that exists
  db.pragma(`cache_size = -${Math.floor(Math.min(8 * 1024 ** 3, os.totalmem() / 3) / 1024)}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('threads = 2');

  // Secondary indexes: dropped for the load, re-created from their own SQL (exactly the migration's) afterwards.
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('Vote', 'ProviderDailyCount', 'VoterDailyCount') ORDER BY tbl_name, name`,
    )
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);

  const insertVote = db.prepare(
    `INSERT INTO "Vote" (id, publicId, organizationId, providerId, voterName, voterKey, receivedAt, rawPayload, dedupKey, overLimit,
       chatStatus, chatSentAt, callbackStatus, callbackSentAt, callbackAttempts,
       voterTotal, voterMonthTotal, voterStreakDays, voterBestStreakDays, providerVoterTotal, nextVoteAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertProviderDay = db.prepare(
    `INSERT INTO "ProviderDailyCount" (organizationId, providerId, day, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (providerId, day) DO UPDATE SET count = count + excluded.count`,
  );
  // A (provider, voter, day) spans two chunks now and then: the spelling rule of the service's own upsert.
  const upsertVoterDay = db.prepare(
    `INSERT INTO "VoterDailyCount" (organizationId, providerId, voterKey, day, voterName, count, lastVoteAt) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (providerId, voterKey, day) DO UPDATE SET count = count + excluded.count,
       voterName = ${spellingWinsSql('"VoterDailyCount"')}, lastVoteAt = max(lastVoteAt, excluded.lastVoteAt)`,
  );
  const insertVoter = db.prepare('INSERT INTO "Voter" (id, organizationId, displayName, displayKey, nameAt, createdAt) VALUES (?, ?, ?, ?, ?, ?)');
  const insertIdentity = db.prepare('INSERT INTO "VoterIdentity" (organizationId, kind, value, voterId, createdAt) VALUES (?, ?, ?, ?, ?)');
  const insertStanding = db.prepare(
    `INSERT INTO "VoterStanding" (organizationId, voterKey, total, monthTotal, streakDays, bestStreakDays, lastDay, lastVoteAt, providerTotalsJson)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const history = new SeedHistory(Date.now());
  const { providerDay, voterDay, names, voterIds } = history;
  const startedMs = performance.now();

  const flushRollups = () => {
    for (const [key, count] of providerDay) {
      const { p, d } = SeedHistory.providerDayKey(key);
      upsertProviderDay.run(orgId, providerIds[p], history.dayText(d), count);
    }
    for (const [key, { count, last, rank }] of voterDay) {
      const { voter, p, d } = SeedHistory.voterDayKey(key);
      upsertVoterDay.run(orgId, providerIds[p], voterIds[voter], history.dayText(d), names[rank], count, last);
    }
    providerDay.clear();
    voterDay.clear();
  };

  db.exec('BEGIN');
  const insert = (v: GeneratedVote) =>
    insertVote.run(
      v.uuid,
      `vt_${v.uuid}`,
      orgId,
      providerIds[v.p],
      names[v.rank],
      v.voterId,
      v.at,
      v.rawPayload,
      v.dedupKey,
      v.overLimit ? 1 : 0,
      v.chatStatus,
      v.chatSentAt,
      v.callbackStatus,
      v.callbackSentAt,
      v.attempts,
      v.voterTotal,
      v.voterMonthTotal,
      v.voterStreakDays,
      v.voterBestStreakDays,
      v.providerVoterTotal,
      v.nextVoteAt,
    );
  for (const chunkDone of history.votes(insert, startedMs)) {
    if (!chunkDone) continue;
    flushRollups();
    db.exec('COMMIT');
    db.exec('BEGIN');
  }
  flushRollups();
  db.exec('COMMIT');
  progressLine('seeding votes', history.written, VOTES, startedMs, true);
  // The voters, their identities and standings, as the last vote left them.
  const votersStarted = performance.now();
  db.exec('BEGIN');
  for (const v of history.voterRows(providerIds)) {
    insertVoter.run(v.id, orgId, v.displayName, v.key, v.nameAt, v.createdAt);
    insertIdentity.run(orgId, setup.identityKind, v.key, v.id, v.createdAt);
    insertStanding.run(orgId, v.id, v.total, v.monthTotal, v.streakDays, v.bestStreakDays, v.lastDay, v.lastVoteAt, v.providerTotalsJson);
  }
  db.exec('COMMIT');
  process.stderr.write(`${thousands(history.voterOrder.length)} voters written in ${duration((performance.now() - votersStarted) / 1000)}\n`);
  const loadSeconds = (performance.now() - startedMs) / 1000;

  const indexStarted = performance.now();
  for (const [i, { name, sql }] of indexes.entries()) {
    const t = performance.now();
    db.exec(sql);
    process.stderr.write(`index ${i + 1}/${indexes.length} ${name} built in ${duration((performance.now() - t) / 1000)}\n`);
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;

  // The measured voters' receipts: their votes of the last RECEIPT_DAYS (+1) days get their delivery jobs.
  const { popular, rare } = history.measuredVoters();
  const recent = db.prepare(
    `SELECT id, receivedAt AS at, overLimit, chatStatus, chatSentAt, callbackStatus, callbackSentAt, callbackAttempts AS attempts
     FROM "Vote" WHERE organizationId = ? AND voterKey = ? AND receivedAt >= ?`,
  );
  const receiptVotes = [popular, rare].flatMap((voter) =>
    (recent.all(orgId, voter.id, history.now - (RECEIPT_DAYS + 1) * DAY_MS) as (Omit<ReceiptVote, 'overLimit'> & { overLimit: number })[]).map((v) => ({
      ...v,
      overLimit: v.overLimit === 1,
    })),
  );
  const { jobs, attempts } = receiptJobRows(receiptVotes, setup.callbackId);
  const insertJob = db.prepare(
    `INSERT INTO "DeliveryJob" (id, organizationId, voteId, callbackId, kind, status, origin, attempts, maxAttempts, runAt, lastError, sentAt, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, 'vote', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO "DeliveryAttempt" (id, organizationId, jobId, voteId, attempt, target, statusCode, success, durationMs, error, createdAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const j of jobs)
      insertJob.run(j.id, orgId, j.voteId, j.callbackId, j.kind, j.status, j.attempts, j.maxAttempts, j.runAt, j.lastError, j.sentAt, j.runAt, j.updatedAt);
    for (const a of attempts)
      insertAttempt.run(a.id, orgId, a.jobId, a.voteId, a.attempt, a.target, a.statusCode, a.success ? 1 : 0, a.durationMs, a.error, a.createdAt);
  })();

  const voterDays = (db.prepare('SELECT COUNT(*) AS n FROM "VoterDailyCount"').get() as { n: number }).n;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return {
    seededAt: history.now,
    loadSeconds,
    indexSeconds,
    overLimitVotes: history.overLimitVotes,
    voterDays,
    voters: history.voterOrder.length,
    popular,
    rare,
    receiptJobs: jobs.length,
    perProvider: history.perProvider,
  };
}

/** A connection to `url` for the duration of fn. */
async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * PostgreSQL: the same history as seed() (SeedHistory), written with node-postgres into the database at `url`, whose
 * organization and providers exist (created through the CLI and the API, so the migrations are the service's).
 */
async function seedPostgres(url: string, setup: SeedSetup): Promise<SeedResult> {
  const { orgId, providerIds } = setup;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    // Seeding only (the database is renamed into place only once it is complete and checked): no waiting for the
    // WAL flush at each commit, and no triggers, i.e. no per-row foreign-key checks (every id written exists).
    await db.query('SET synchronous_commit = off');
    await db.query(`SET maintenance_work_mem = '${Math.max(64, Math.min(1024, Math.floor(os.totalmem() / 1024 ** 2 / 8)))}MB'`);
    let triggersOff = true;
    try {
      await db.query('SET session_replication_role = replica');
    } catch {
      triggersOff = false; // not a superuser: the foreign keys are checked row by row (slower, same data)
      process.stderr.write('note: cannot SET session_replication_role (not a superuser); foreign keys are checked during the load\n');
    }

    // Indexes, primary keys and unique constraints of the three tables, and the foreign keys that need "Vote"'s
    // primary key: dropped for the load, re-created from their own definitions (exactly the migrations') afterwards.
    const tables = ['"Vote"', '"ProviderDailyCount"', '"VoterDailyCount"'];
    const constraints = (
      await db.query<{ name: string; table: string; type: string; def: string }>(
        `SELECT c.conname AS name, c.conrelid::regclass::text AS "table", c.contype AS type, pg_get_constraintdef(c.oid) AS def
         FROM pg_constraint c
         WHERE (c.conrelid = ANY($1::regclass[]) AND c.contype IN ('p', 'u')) OR (c.confrelid = '"Vote"'::regclass AND c.contype = 'f')
         ORDER BY c.conrelid::regclass::text, c.conname`,
        [tables],
      )
    ).rows;
    const indexes = (
      await db.query<{ name: string; def: string }>(
        `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i
         WHERE i.indrelid = ANY($1::regclass[])
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
         ORDER BY i.indrelid::regclass::text, 1`,
        [tables],
      )
    ).rows;
    const foreignKeys = constraints.filter((c) => c.type === 'f');
    const keys = constraints.filter((c) => c.type !== 'f');
    await db.query('BEGIN');
    for (const c of foreignKeys) await db.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${quoteIdent(c.name)}`);
    for (const c of keys) await db.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${quoteIdent(c.name)}`);
    for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
    await db.query('COMMIT');

    const history = new SeedHistory(Date.now());
    const { providerDay, voterDay, names, voterIds } = history;
    const iso = (ms: number) => new Date(ms).toISOString();
    const newColumns = () => ({
      id: [] as string[],
      p: [] as string[],
      n: [] as string[],
      k: [] as string[],
      r: [] as string[],
      raw: [] as string[],
      d: [] as string[],
      ol: [] as boolean[],
      cs: [] as string[],
      csa: [] as (string | null)[],
      cbs: [] as string[],
      cbsa: [] as (string | null)[],
      a: [] as number[],
      vt: [] as number[],
      vm: [] as number[],
      vs: [] as number[],
      vb: [] as number[],
      pt: [] as number[],
      nv: [] as (string | null)[],
    });
    type Columns = ReturnType<typeof newColumns>;
    let columns = newColumns();
    const collect = (v: GeneratedVote) => {
      columns.id.push(v.uuid);
      columns.p.push(providerIds[v.p]);
      columns.n.push(names[v.rank]);
      columns.k.push(v.voterId);
      columns.r.push(iso(v.at));
      columns.raw.push(v.rawPayload);
      columns.d.push(v.dedupKey);
      columns.ol.push(v.overLimit);
      columns.cs.push(v.chatStatus);
      columns.csa.push(v.chatSentAt === null ? null : iso(v.chatSentAt));
      columns.cbs.push(v.callbackStatus);
      columns.cbsa.push(v.callbackSentAt === null ? null : iso(v.callbackSentAt));
      columns.a.push(v.attempts);
      columns.vt.push(v.voterTotal);
      columns.vm.push(v.voterMonthTotal);
      columns.vs.push(v.voterStreakDays);
      columns.vb.push(v.voterBestStreakDays);
      columns.pt.push(v.providerVoterTotal);
      columns.nv.push(v.nextVoteAt === null ? null : iso(v.nextVoteAt));
    };
    interface Rollups {
      providerDays: { p: string[]; d: string[]; c: number[] };
      voterDays: { p: string[]; k: string[]; d: string[]; n: string[]; c: number[]; l: string[] };
    }
    /**
     * The rollup rows of the days before `beforeDay` (all when null), taken out of the maps. Votes come oldest first,
     * so those days are complete: each (provider, day) and (provider, voter, day) is inserted once, with the count,
     * newest vote and spelling the hook path would have reached.
     */
    const takeRollups = (beforeDay: number | null): Rollups => {
      const out: Rollups = { providerDays: { p: [], d: [], c: [] }, voterDays: { p: [], k: [], d: [], n: [], c: [], l: [] } };
      for (const [key, count] of providerDay) {
        const { p, d } = SeedHistory.providerDayKey(key);
        if (beforeDay !== null && d >= beforeDay) continue;
        out.providerDays.p.push(providerIds[p]);
        out.providerDays.d.push(history.dayText(d));
        out.providerDays.c.push(count);
        providerDay.delete(key);
      }
      for (const [key, { count, last, rank }] of voterDay) {
        const { voter, p, d } = SeedHistory.voterDayKey(key);
        if (beforeDay !== null && d >= beforeDay) continue;
        voterDay.delete(key);
        out.voterDays.p.push(providerIds[p]);
        out.voterDays.k.push(voterIds[voter]);
        out.voterDays.d.push(history.dayText(d));
        out.voterDays.n.push(names[rank]);
        out.voterDays.c.push(count);
        out.voterDays.l.push(iso(last));
      }
      return out;
    };
    const write = async (v: Columns, rollups: Rollups) => {
      if (v.id.length > 0) {
        await db.query(
          `INSERT INTO "Vote" (id, "publicId", "organizationId", "providerId", "voterName", "voterKey", "receivedAt", "rawPayload", "dedupKey",
             "overLimit", "chatStatus", "chatSentAt", "callbackStatus", "callbackSentAt", "callbackAttempts",
             "voterTotal", "voterMonthTotal", "voterStreakDays", "voterBestStreakDays", "providerVoterTotal", "nextVoteAt")
           SELECT id, 'vt_' || id, $1, p, n, k, r, raw, d, ol, cs, csa, cbs, cbsa, a, vt, vm, vs, vb, pt, nv
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[], $7::text[], $8::text[], $9::boolean[], $10::text[],
                       $11::timestamp(3)[], $12::text[], $13::timestamp(3)[], $14::int[], $15::int[], $16::int[], $17::int[], $18::int[], $19::int[],
                       $20::timestamp(3)[]) AS v(id, p, n, k, r, raw, d, ol, cs, csa, cbs, cbsa, a, vt, vm, vs, vb, pt, nv)`,
          [orgId, v.id, v.p, v.n, v.k, v.r, v.raw, v.d, v.ol, v.cs, v.csa, v.cbs, v.cbsa, v.a, v.vt, v.vm, v.vs, v.vb, v.pt, v.nv],
        );
      }
      const { providerDays: pd, voterDays: vd } = rollups;
      if (vd.p.length > 0) {
        await db.query(
          `INSERT INTO "VoterDailyCount" ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
           SELECT $1, p, k, d, n, c, l FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamp(3)[]) AS u(p, k, d, n, c, l)`,
          [orgId, vd.p, vd.k, vd.d, vd.n, vd.c, vd.l],
        );
      }
      if (pd.p.length > 0) {
        await db.query(
          `INSERT INTO "ProviderDailyCount" ("organizationId", "providerId", day, count)
           SELECT $1, p, d, c FROM unnest($2::text[], $3::text[], $4::int[]) AS u(p, d, c)`,
          [orgId, pd.p, pd.d, pd.c],
        );
      }
    };

    // One chunk written while the next one is generated (the generator lets the socket drain every 1,024 votes).
    const startedMs = performance.now();
    let inFlight: Promise<void> | null = null;
    let settled = true;
    const send = async (v: Columns, rollups: Rollups) => {
      if (inFlight) await inFlight;
      settled = false;
      inFlight = write(v, rollups).finally(() => {
        settled = true;
      });
      inFlight.catch(() => {}); // awaited before the next chunk or at the end; this only keeps it from counting as unhandled
    };
    for (const chunkDone of history.votes(collect, startedMs)) {
      if (chunkDone) {
        const chunk = columns;
        columns = newColumns();
        await send(chunk, takeRollups(history.day));
      } else if (!settled) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await send(columns, takeRollups(null));
    await inFlight;
    progressLine('seeding votes', history.written, VOTES, startedMs, true);
    // The voters, their identities and standings, as the last vote left them: CHUNK rows a statement.
    const votersStarted = performance.now();
    const voterRows = [...history.voterRows(providerIds)];
    for (let from = 0; from < voterRows.length; from += CHUNK) {
      const rows = voterRows.slice(from, from + CHUNK);
      const column = <T>(f: (r: VoterRow) => T) => rows.map(f);
      const ids = column((r) => r.id);
      const created = column((r) => iso(r.createdAt));
      await db.query(
        `INSERT INTO "Voter" (id, "organizationId", "displayName", "displayKey", "nameAt", "createdAt")
         SELECT id, $1, n, k, a, c FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamp(3)[], $6::timestamp(3)[]) AS u(id, n, k, a, c)`,
        [orgId, ids, column((r) => r.displayName), column((r) => r.key), column((r) => iso(r.nameAt)), created],
      );
      await db.query(
        `INSERT INTO "VoterIdentity" ("organizationId", kind, value, "voterId", "createdAt")
         SELECT $1, $2, v, id, c FROM unnest($3::text[], $4::text[], $5::timestamp(3)[]) AS u(v, id, c)`,
        [orgId, setup.identityKind, column((r) => r.key), ids, created],
      );
      await db.query(
        `INSERT INTO "VoterStanding" ("organizationId", "voterKey", total, "monthTotal", "streakDays", "bestStreakDays", "lastDay", "lastVoteAt",
           "providerTotalsJson")
         SELECT $1, k, t, m, s, b, d, l, j
         FROM unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::text[], $8::timestamp(3)[], $9::text[]) AS u(k, t, m, s, b, d, l, j)`,
        [
          orgId,
          ids,
          column((r) => r.total),
          column((r) => r.monthTotal),
          column((r) => r.streakDays),
          column((r) => r.bestStreakDays),
          column((r) => r.lastDay),
          column((r) => iso(r.lastVoteAt)),
          column((r) => r.providerTotalsJson),
        ],
      );
    }
    process.stderr.write(`${thousands(voterRows.length)} voters written in ${duration((performance.now() - votersStarted) / 1000)}\n`);
    const loadSeconds = (performance.now() - startedMs) / 1000;
    if (triggersOff) await db.query('RESET session_replication_role');

    const indexStarted = performance.now();
    const rebuild = [
      ...keys.map((c) => ({ name: c.name, sql: `ALTER TABLE ${c.table} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.def}` })),
      ...indexes.map((i) => ({ name: i.name.replaceAll('"', ''), sql: i.def })),
      ...foreignKeys.map((c) => ({ name: c.name, sql: `ALTER TABLE ${c.table} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.def}` })),
    ];
    for (const [i, { name, sql }] of rebuild.entries()) {
      const t = performance.now();
      await db.query(sql);
      process.stderr.write(`index ${i + 1}/${rebuild.length} ${name} built in ${duration((performance.now() - t) / 1000)}\n`);
    }

    // The measured voters' receipts: their votes of the last RECEIPT_DAYS (+1) days get their delivery jobs.
    const { popular, rare } = history.measuredVoters();
    const receiptVotes = (
      await db.query<Omit<ReceiptVote, 'at' | 'chatSentAt' | 'callbackSentAt'> & { at: number; chatSentAt: number | null; callbackSentAt: number | null }>(
        `SELECT id, (extract(epoch FROM "receivedAt") * 1000)::float8 AS at, "overLimit", "chatStatus",
           (extract(epoch FROM "chatSentAt") * 1000)::float8 AS "chatSentAt", "callbackStatus",
           (extract(epoch FROM "callbackSentAt") * 1000)::float8 AS "callbackSentAt", "callbackAttempts" AS attempts
         FROM "Vote" WHERE "organizationId" = $1 AND "voterKey" = ANY($2::text[]) AND "receivedAt" >= $3::timestamp(3)`,
        [orgId, [popular.id, rare.id], iso(history.now - (RECEIPT_DAYS + 1) * DAY_MS)],
      )
    ).rows;
    const { jobs, attempts } = receiptJobRows(receiptVotes, setup.callbackId);
    const nullableIso = (ms: number | null) => (ms === null ? null : iso(ms));
    await db.query(
      `INSERT INTO "DeliveryJob" (id, "organizationId", "voteId", "callbackId", kind, status, origin, attempts, "maxAttempts", "runAt", "lastError",
         "sentAt", "createdAt", "updatedAt")
       SELECT id, $1, v, c, k, s, 'vote', a, m, r, e, sa, r, u
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::timestamp(3)[], $10::text[],
                   $11::timestamp(3)[], $12::timestamp(3)[]) AS j(id, v, c, k, s, a, m, r, e, sa, u)`,
      [
        orgId,
        jobs.map((j) => j.id),
        jobs.map((j) => j.voteId),
        jobs.map((j) => j.callbackId),
        jobs.map((j) => j.kind),
        jobs.map((j) => j.status),
        jobs.map((j) => j.attempts),
        jobs.map((j) => j.maxAttempts),
        jobs.map((j) => iso(j.runAt)),
        jobs.map((j) => j.lastError),
        jobs.map((j) => nullableIso(j.sentAt)),
        jobs.map((j) => iso(j.updatedAt)),
      ],
    );
    await db.query(
      `INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error, "createdAt")
       SELECT id, $1, j, v, n, t, sc, ok, ms, e, c
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::boolean[], $9::int[], $10::text[], $11::timestamp(3)[])
         AS a(id, j, v, n, t, sc, ok, ms, e, c)`,
      [
        orgId,
        attempts.map((a) => a.id),
        attempts.map((a) => a.jobId),
        attempts.map((a) => a.voteId),
        attempts.map((a) => a.attempt),
        attempts.map((a) => a.target),
        attempts.map((a) => a.statusCode),
        attempts.map((a) => a.success),
        attempts.map((a) => a.durationMs),
        attempts.map((a) => a.error),
        attempts.map((a) => iso(a.createdAt)),
      ],
    );

    // Statistics for the planner, and the visibility map a long-lived table would have from autovacuum (index-only
    // scans), so that neither arrives in the middle of the measurements.
    const vacuumStarted = performance.now();
    await db.query(`VACUUM (ANALYZE) ${[...tables, '"Voter"', '"VoterIdentity"', '"VoterStanding"', '"DeliveryJob"', '"DeliveryAttempt"'].join(', ')}`);
    process.stderr.write(`VACUUM (ANALYZE) in ${duration((performance.now() - vacuumStarted) / 1000)}\n`);
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const voterDays = Number((await db.query<{ n: string }>('SELECT COUNT(*) AS n FROM "VoterDailyCount"')).rows[0].n);
    return {
      seededAt: history.now,
      loadSeconds,
      indexSeconds,
      overLimitVotes: history.overLimitVotes,
      voterDays,
      voters: voterRows.length,
      popular,
      rare,
      receiptJobs: jobs.length,
      perProvider: history.perProvider,
    };
  } finally {
    await db.end();
  }
}

/** What the checks read of a seeding. */
type SeedCheck = Pick<SeedMeta, 'orgId' | 'providers' | 'voters' | 'identityKind' | 'popular' | 'rare'>;

/** The line both checks print when everything matches. */
const verifiedLine = (votes: number, voters: number) =>
  `verified: ${thousands(votes)} votes = SUM(ProviderDailyCount) = SUM(VoterDailyCount) = SUM(VoterStanding.total); ${thousands(voters)} voters, ` +
  'each with one identity and one standing; 3 provider-days and 3 voter-days match the raw votes, and their voters and the measured ones ' +
  'their identity and standing';

/** Cheap consistency checks (a full `stats verify` would recompute everything from 10M rows). */
function verifySeed(dbPath: string, meta: SeedCheck): void {
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
    const standingTotal = one('SELECT SUM(total) AS n FROM "VoterStanding" WHERE organizationId = ?', meta.orgId);
    if (standingTotal !== VOTES) problems.push(`SUM(VoterStanding.total) ${standingTotal} ≠ ${VOTES}`);
    for (const table of ['Voter', 'VoterIdentity', 'VoterStanding']) {
      const n = one(`SELECT COUNT(*) AS n FROM "${table}" WHERE organizationId = ?`, meta.orgId);
      if (n !== meta.voters) problems.push(`${table} rows ${n} ≠ ${meta.voters} voters`);
    }
    // A voter as the service finds one by name (src/storage/voter-lookup.ts: the identity), with its standing and days.
    const checkVoter = (label: string, name: string, expectedId: string | null, expectedTotal: number | null) => {
      const held = db
        .prepare(
          `SELECT i.voterId AS id, v.displayKey AS displayKey, s.total AS total FROM "VoterIdentity" i JOIN "Voter" v ON v.id = i.voterId
           LEFT JOIN "VoterStanding" s ON s.organizationId = i.organizationId AND s.voterKey = i.voterId
           WHERE i.organizationId = ? AND i.kind = ? AND i.value = ?`,
        )
        .get(meta.orgId, meta.identityKind, name.toLowerCase()) as { id: string; displayKey: string; total: number | null } | undefined;
      if (!held) return void problems.push(`${label} ${name}: no ${meta.identityKind} identity`);
      const days = one('SELECT SUM(count) AS n FROM "VoterDailyCount" WHERE organizationId = ? AND voterKey = ?', meta.orgId, held.id);
      if (!held.id.startsWith('vtr_') || (expectedId !== null && held.id !== expectedId))
        problems.push(`${label} ${name}: voter ${held.id}, expected ${expectedId}`);
      if (held.displayKey !== name.toLowerCase()) problems.push(`${label} ${name}: displayKey ${held.displayKey}`);
      if (held.total !== days || (expectedTotal !== null && held.total !== expectedTotal))
        problems.push(
          `${label} ${name}: standing total ${held.total}, SUM(VoterDailyCount) ${days}${expectedTotal === null ? '' : `, expected ${expectedTotal}`}`,
        );
    };
    checkVoter('popular voter', meta.popular.name, meta.popular.id, meta.popular.total);
    checkVoter('rare voter', meta.rare.name, meta.rare.id, meta.rare.total);
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
      .prepare('SELECT providerId, voterKey, voterName, day, count, lastVoteAt FROM "VoterDailyCount" WHERE organizationId = ? ORDER BY random() LIMIT 3')
      .all(meta.orgId) as { providerId: string; voterKey: string; voterName: string; day: string; count: number; lastVoteAt: number }[];
    for (const s of voterSamples) {
      checkVoter('sampled voter', s.voterName, s.voterKey, null);
      const from = Date.parse(`${s.day}T00:00:00.000Z`);
      const raw = db
        .prepare(
          'SELECT COUNT(*) AS n, MAX(receivedAt) AS last FROM "Vote" WHERE organizationId = ? AND voterKey = ? AND receivedAt >= ? AND receivedAt < ? AND providerId = ?',
        )
        .get(meta.orgId, s.voterKey, from, from + DAY_MS, s.providerId) as { n: number; last: number };
      if (raw.n !== s.count || raw.last !== s.lastVoteAt)
        problems.push(`VoterDailyCount ${s.voterKey}/${s.day}: ${s.count}@${s.lastVoteAt}, raw ${raw.n}@${raw.last}`);
    }
    if (problems.length > 0) throw new Error(`seeded database is inconsistent:\n  ${problems.join('\n  ')}`);
    console.log(verifiedLine(votes, meta.voters));
  } finally {
    db.close();
  }
}

/** The same checks as verifySeed, on PostgreSQL. */
async function verifySeedPostgres(url: string, meta: SeedCheck): Promise<void> {
  await withPg(url, async (db) => {
    const one = async (sql: string, ...args: unknown[]) => Number((await db.query<{ n: string | number | null }>(sql, args)).rows[0]?.n ?? 0);
    const iso = (ms: number) => new Date(ms).toISOString();
    const problems: string[] = [];
    const votes = await one('SELECT COUNT(*) AS n FROM "Vote" WHERE "organizationId" = $1', meta.orgId);
    const providerDays = await one('SELECT SUM(count) AS n FROM "ProviderDailyCount" WHERE "organizationId" = $1', meta.orgId);
    const voterDays = await one('SELECT SUM(count) AS n FROM "VoterDailyCount" WHERE "organizationId" = $1', meta.orgId);
    if (votes !== VOTES) problems.push(`Vote rows ${votes} ≠ ${VOTES}`);
    if (providerDays !== VOTES) problems.push(`SUM(ProviderDailyCount.count) ${providerDays} ≠ ${VOTES}`);
    if (voterDays !== VOTES) problems.push(`SUM(VoterDailyCount.count) ${voterDays} ≠ ${VOTES}`);
    const standingTotal = await one('SELECT SUM(total) AS n FROM "VoterStanding" WHERE "organizationId" = $1', meta.orgId);
    if (standingTotal !== VOTES) problems.push(`SUM(VoterStanding.total) ${standingTotal} ≠ ${VOTES}`);
    for (const table of ['Voter', 'VoterIdentity', 'VoterStanding']) {
      const n = await one(`SELECT COUNT(*) AS n FROM "${table}" WHERE "organizationId" = $1`, meta.orgId);
      if (n !== meta.voters) problems.push(`${table} rows ${n} ≠ ${meta.voters} voters`);
    }
    // A voter as the service finds one by name (src/storage/voter-lookup.ts: the identity), with its standing and days.
    const checkVoter = async (label: string, name: string, expectedId: string | null, expectedTotal: number | null) => {
      const held = (
        await db.query<{ id: string; displayKey: string; total: number | null }>(
          `SELECT i."voterId" AS id, v."displayKey" AS "displayKey", s.total AS total FROM "VoterIdentity" i JOIN "Voter" v ON v.id = i."voterId"
           LEFT JOIN "VoterStanding" s ON s."organizationId" = i."organizationId" AND s."voterKey" = i."voterId"
           WHERE i."organizationId" = $1 AND i.kind = $2 AND i.value = $3`,
          [meta.orgId, meta.identityKind, name.toLowerCase()],
        )
      ).rows[0];
      if (!held) return void problems.push(`${label} ${name}: no ${meta.identityKind} identity`);
      const days = await one('SELECT SUM(count) AS n FROM "VoterDailyCount" WHERE "organizationId" = $1 AND "voterKey" = $2', meta.orgId, held.id);
      if (!held.id.startsWith('vtr_') || (expectedId !== null && held.id !== expectedId))
        problems.push(`${label} ${name}: voter ${held.id}, expected ${expectedId}`);
      if (held.displayKey !== name.toLowerCase()) problems.push(`${label} ${name}: displayKey ${held.displayKey}`);
      if (held.total !== days || (expectedTotal !== null && held.total !== expectedTotal))
        problems.push(
          `${label} ${name}: standing total ${held.total}, SUM(VoterDailyCount) ${days}${expectedTotal === null ? '' : `, expected ${expectedTotal}`}`,
        );
    };
    await checkVoter('popular voter', meta.popular.name, meta.popular.id, meta.popular.total);
    await checkVoter('rare voter', meta.rare.name, meta.rare.id, meta.rare.total);
    // A few provider-days and voter-days against the raw votes (through the indexes, so cheap).
    const samples = (
      await db.query<{ providerId: string; day: string; count: number }>(
        'SELECT "providerId", day, count FROM "ProviderDailyCount" WHERE "organizationId" = $1 ORDER BY random() LIMIT 3',
        [meta.orgId],
      )
    ).rows;
    for (const s of samples) {
      const from = Date.parse(`${s.day}T00:00:00.000Z`);
      const raw = await one(
        'SELECT COUNT(*) AS n FROM "Vote" WHERE "providerId" = $1 AND "receivedAt" >= $2::timestamp(3) AND "receivedAt" < $3::timestamp(3)',
        s.providerId,
        iso(from),
        iso(from + DAY_MS),
      );
      if (raw !== s.count) problems.push(`ProviderDailyCount ${s.providerId}/${s.day}: ${s.count}, raw votes ${raw}`);
    }
    // Times as epoch ms (exact for timestamp(3)), compared as numbers.
    const voterSamples = (
      await db.query<{ providerId: string; voterKey: string; voterName: string; day: string; count: number; lastVoteAt: number }>(
        `SELECT "providerId", "voterKey", "voterName", day, count, (extract(epoch FROM "lastVoteAt") * 1000)::float8 AS "lastVoteAt"
         FROM "VoterDailyCount" WHERE "organizationId" = $1 ORDER BY random() LIMIT 3`,
        [meta.orgId],
      )
    ).rows;
    for (const s of voterSamples) {
      await checkVoter('sampled voter', s.voterName, s.voterKey, null);
      const from = Date.parse(`${s.day}T00:00:00.000Z`);
      const raw = (
        await db.query<{ n: string; last: number | null }>(
          `SELECT COUNT(*) AS n, (extract(epoch FROM MAX("receivedAt")) * 1000)::float8 AS last FROM "Vote"
           WHERE "organizationId" = $1 AND "voterKey" = $2 AND "receivedAt" >= $3::timestamp(3) AND "receivedAt" < $4::timestamp(3) AND "providerId" = $5`,
          [meta.orgId, s.voterKey, iso(from), iso(from + DAY_MS), s.providerId],
        )
      ).rows[0];
      if (Number(raw.n) !== s.count || raw.last !== s.lastVoteAt) {
        problems.push(`VoterDailyCount ${s.voterKey}/${s.day}: ${s.count}@${s.lastVoteAt}, raw ${raw.n}@${raw.last}`);
      }
    }
    if (problems.length > 0) throw new Error(`seeded database is inconsistent:\n  ${problems.join('\n  ')}`);
    console.log(verifiedLine(votes, meta.voters));
  });
}

interface ProviderRow {
  id: string;
  key: string;
  voterKind: string;
}

/** The ids the seeders write, in the generator's provider order, and the identity kind the providers' voter_kind gives. */
function seedSetup(orgId: string, providerKeys: string[], providerRows: ProviderRow[], callbackId: string): SeedSetup {
  const rows = providerKeys.map((key) => providerRows.find((r) => r.key === key)!);
  const identityKind = identityKindOf(rows.map((r) => r.voterKind));
  console.log(`providers' voter_kind: ${identityKind} (so each voter has one \`${identityKind}\` identity)`);
  return { orgId, providerIds: rows.map((r) => r.id), callbackId, identityKind };
}

async function seededDatabase(): Promise<{ meta: SeedMeta; reused: boolean }> {
  return DIALECT === 'sqlite' ? seededSqlite() : seededPostgres(PG_SERVER!);
}

async function seededSqlite(): Promise<{ meta: SeedMeta; reused: boolean }> {
  if (!RESEED && existsSync(DB_FILE) && existsSync(META_FILE)) {
    try {
      const meta = JSON.parse(readFileSync(META_FILE, 'utf8')) as SeedMeta;
      if (meta.version === SEED_VERSION && meta.votes === VOTES) {
        console.log(
          `reusing the seeded database ${DB_FILE} (${thousands(VOTES)} votes, seeded ${new Date(meta.seededAt).toISOString()}; BENCH_READ_RESEED=1 to redo)`,
        );
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
  const { apiKey, providerKeys } = await createOrgAndProviders(`file:${seeding}`);
  const made = new Database(seeding, { readonly: true, fileMustExist: true });
  const orgId = (made.prepare('SELECT id FROM "Organization" WHERE slug = ?').get(ORG_SLUG) as { id: string }).id;
  const providerRows = made.prepare('SELECT id, key, voterKind FROM "Provider" WHERE organizationId = ?').all(orgId) as ProviderRow[];
  const callbackId = (made.prepare('SELECT id FROM "Callback" WHERE organizationId = ?').get(orgId) as { id: string }).id;
  made.close();
  const setup = seedSetup(orgId, providerKeys, providerRows, callbackId);
  const seeded = seed(seeding, setup);
  const meta = seedMeta(apiKey, setup, providerKeys, seeded);
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

/** host:port of a postgres:// URL: which server a cached database is on. */
function serverName(server: string): string {
  const url = new URL(server);
  return `${url.hostname}:${url.port || '5432'}`;
}

/**
 * PostgreSQL: the database PG_DATABASE on the DATABASE_URL server, reused when PG_META_FILE describes it (same scale,
 * same server) and it holds that organization; else seeded afresh as PG_SEEDING_DATABASE and renamed once checked.
 */
async function seededPostgres(server: string): Promise<{ meta: SeedMeta; reused: boolean }> {
  const where = serverName(server);
  const url = postgresDatabaseUrl(server, PG_DATABASE);
  if (!RESEED && existsSync(PG_META_FILE)) {
    try {
      const meta = JSON.parse(readFileSync(PG_META_FILE, 'utf8')) as SeedMeta;
      if (
        meta.version === SEED_VERSION &&
        meta.votes === VOTES &&
        meta.database === PG_DATABASE &&
        meta.server === where &&
        (await withPg(server, async (db) => (await db.query('SELECT 1 FROM pg_database WHERE datname = $1', [PG_DATABASE])).rowCount === 1)) &&
        (await withPg(url, async (db) => (await db.query('SELECT 1 FROM "Organization" WHERE id = $1', [meta.orgId])).rowCount === 1))
      ) {
        console.log(
          `reusing the seeded PostgreSQL database ${PG_DATABASE} on ${where} (${thousands(VOTES)} votes, seeded ${new Date(meta.seededAt).toISOString()}; ` +
            'BENCH_READ_RESEED=1 to redo)',
        );
        return { meta, reused: true };
      }
    } catch {
      // unreadable, or the database is gone or different: seed again
    }
  }
  rmSync(PG_META_FILE, { force: true });
  await withPg(server, async (db) => {
    for (const name of [PG_DATABASE, PG_SEEDING_DATABASE]) await db.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await db.query(`CREATE DATABASE ${quoteIdent(PG_SEEDING_DATABASE)}`);
  });
  const seedingUrl = postgresDatabaseUrl(server, PG_SEEDING_DATABASE);
  console.log(`seeding ${thousands(VOTES)} votes into the PostgreSQL database ${PG_SEEDING_DATABASE} on ${where}`);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { apiKey, providerKeys } = await createOrgAndProviders(seedingUrl);
  const setup = await withPg(seedingUrl, async (db) => {
    const id = (await db.query<{ id: string }>('SELECT id FROM "Organization" WHERE slug = $1', [ORG_SLUG])).rows[0].id;
    const rows = (await db.query<ProviderRow>('SELECT id, key, "voterKind" FROM "Provider" WHERE "organizationId" = $1', [id])).rows;
    const callbackId = (await db.query<{ id: string }>('SELECT id FROM "Callback" WHERE "organizationId" = $1', [id])).rows[0].id;
    return seedSetup(id, providerKeys, rows, callbackId);
  });
  const seeded = await seedPostgres(seedingUrl, setup);
  const meta: SeedMeta = {
    ...seedMeta(apiKey, setup, providerKeys, seeded),
    database: PG_DATABASE,
    server: where,
  };
  await verifySeedPostgres(seedingUrl, meta);
  // No session may remain on it (PostgreSQL waits a few seconds for closing ones and stops autovacuum workers itself).
  await withPg(server, (db) => db.query(`ALTER DATABASE ${quoteIdent(PG_SEEDING_DATABASE)} RENAME TO ${quoteIdent(PG_DATABASE)}`));
  meta.seedSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  meta.seedCpuSeconds = (cpu.user + cpu.system) / 1e6;
  meta.seedMachineLoad = machineLoad();
  meta.dbBytes = await postgresDatabaseBytes(url);
  writeFileSync(PG_META_FILE, JSON.stringify(meta, null, 2));
  console.log(
    `seeded in ${duration(meta.seedSeconds)} (load ${duration(meta.loadSeconds)}, indexes and VACUUM (ANALYZE) ${duration(meta.indexSeconds)}; ` +
      `${duration(meta.seedCpuSeconds)} of CPU in this process; ${meta.seedMachineLoad}); ${(meta.dbBytes / 1024 ** 3).toFixed(2)} GiB`,
  );
  return { meta, reused: false };
}

async function postgresDatabaseBytes(url: string): Promise<number> {
  return withPg(url, async (db) => Number((await db.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0].n));
}

/** PostgreSQL's version and the settings that matter most here, for the report. */
async function postgresDescription(url: string): Promise<string> {
  return withPg(url, async (db) => {
    const show = async (name: string) => (await db.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
    return (
      `PostgreSQL ${await show('server_version')}, shared_buffers ${await show('shared_buffers')}, work_mem ${await show('work_mem')}, ` +
      `effective_cache_size ${await show('effective_cache_size')}`
    );
  });
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
  check: (body: string) => string | null,
): Promise<EndpointResult> {
  const first = await client.request('GET', path);
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}: ${first.body.slice(0, 500)}`);
  const problem = check(first.body);
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
  const result = {
    label,
    path,
    target,
    first: first.ms,
    samples: times.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    cappedByTime,
  };
  console.log(
    `${label}: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms (${result.samples} requests${cappedByTime ? `, stopped after ${ENDPOINT_MAX_S} s` : ''})`,
  );
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
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('end', () => reject(new Error(`export answered ${res.statusCode}: ${text.slice(0, 500)}`)));
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
    rows,
    bytes,
    seconds,
    complete,
    rssStart: before?.rss ?? Number.NaN,
    rssPeak: peak,
    rssEnd: after?.rss ?? Number.NaN,
    hwm: after?.hwm ?? Number.NaN,
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
  const databaseUrl = DIALECT === 'sqlite' ? `file:${DB_FILE}` : postgresDatabaseUrl(PG_SERVER!, PG_DATABASE);
  const server = await startService(
    serviceEnv({
      DATABASE_URL: databaseUrl,
      SECRET_KEY: meta.secretKey,
      DELIVERY_ENABLED: 'false',
      LOG_LEVEL: 'info',
      API_RATE_LIMIT_PER_MINUTE: '1000000000',
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000000',
      VOTE_PAGE_RATE_LIMIT_PER_MINUTE: '1000000000',
    }),
    CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : [],
  );
  const measureStarted = performance.now();
  const endpoints: EndpointResult[] = [];
  let exported: ExportResult;
  const client = createClient(server.port, { authorization: `Bearer ${meta.apiKey}` });
  // The vote page is public: a player's browser or a game server's /vote command, no key.
  const publicClient = createClient(server.port, {});
  const raw = DIALECT === 'sqlite' ? openRawReads(DB_FILE, meta.orgId) : await openRawReadsPostgres(databaseUrl, meta.orgId);
  const baseline: { p50: number; p99: number }[] = [];
  type Body = { data: Record<string, unknown> & { summary?: { all_time?: number } }; meta?: { total?: number } };
  type PageBody = {
    data: { sites: { key: string; status: string }[]; player: { known: boolean; total: number; receipt: { deliveries: unknown[] }[] } | null };
  };
  interface Case {
    label: string;
    path: string;
    target: number;
    /** A problem with the first answer's body, or null. */
    check: (body: string) => string | null;
    /** The same reads as plain SQL. */
    baseline: () => unknown;
    /** Asked without the API key (the vote page). */
    public?: true;
  }
  const json =
    <T>(check: (b: T) => string | null) =>
    (body: string) =>
      check(JSON.parse(body) as T);
  const sites = meta.votePageSites.length;
  /** The vote page's JSON for a seeded voter: every site, the voter known, their total. */
  const playerCheck = (voter: SeededVoter) =>
    json<PageBody>(({ data }) =>
      data.sites.length !== sites
        ? `${data.sites.length} sites, expected ${sites}`
        : !data.player?.known
          ? `player ${voter.name} not known`
          : data.player.total !== voter.total
            ? `total ${data.player.total}, expected ${voter.total}`
            : null,
    );
  let cases: Case[] = [];
  try {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const yearAgo = new Date(now.getTime() - 365 * DAY_MS).toISOString().slice(0, 10);
    const pagePath = `/vote/${encodeURIComponent(ORG_SLUG)}`;
    const playerPath = (voter: SeededVoter) => `${pagePath}.json?player=${encodeURIComponent(voter.name)}`;
    cases = [
      {
        label: 'dashboard',
        path: '/v1/stats/dashboard',
        target: TARGET_STATS_P99_MS,
        check: json<Body>((b) => (b.data.summary?.all_time === VOTES ? null : `all_time ${b.data.summary?.all_time} ≠ ${VOTES}`)),
        baseline: () => raw.dashboard(),
      },
      {
        label: 'trend (day, 1 year)',
        path: `/v1/stats/trend?granularity=day&from=${yearAgo}&to=${today}`,
        target: TARGET_STATS_P99_MS,
        check: json<Body>((b) => ((b.data.trend as unknown[]).length >= 365 ? null : `${(b.data.trend as unknown[]).length} buckets`)),
        baseline: () => raw.trend(yearAgo, today),
      },
      {
        label: 'by-provider',
        path: '/v1/stats/by-provider',
        target: TARGET_STATS_P99_MS,
        check: json<Body>((b) => ((b.data.providers as unknown[]).length === PROVIDERS ? null : `${(b.data.providers as unknown[]).length} providers`)),
        baseline: () => raw.byProvider(),
      },
      {
        label: 'leaderboard (30 days)',
        path: '/v1/stats/leaderboard?days=30',
        target: TARGET_STATS_P99_MS,
        check: json<Body>((b) => ((b.data.voters as unknown[]).length > 0 ? null : 'no voters')),
        baseline: () => raw.leaderboard(30, 10),
      },
      {
        label: `votes page, filtered (provider=${top.key}, page 3 of 50)`,
        path: `/v1/votes?provider=${top.key}&limit=50&page=3`,
        target: TARGET_PAGE_P99_MS,
        check: json<Body>((b) =>
          (b.data.votes as unknown[]).length === 50 && b.meta?.total === top.votes
            ? null
            : `${(b.data.votes as unknown[]).length} votes, total ${b.meta?.total} (expected ${top.votes})`,
        ),
        baseline: () => raw.votesPage(top.id, 50, 100),
      },
      {
        label: 'votes page, unfiltered (first 50)',
        path: '/v1/votes?limit=50',
        target: TARGET_PAGE_P99_MS,
        check: json<Body>((b) =>
          (b.data.votes as unknown[]).length === 50 && b.meta?.total === VOTES ? null : `${(b.data.votes as unknown[]).length} votes, total ${b.meta?.total}`,
        ),
        baseline: () => raw.votesPage(null, 50, 0),
      },
      {
        label: 'vote page (HTML, no player)',
        path: pagePath,
        target: TARGET_VOTE_PAGE_P99_MS,
        check: (html) => {
          const listed = html.split('class="site"').length - 1;
          return listed === sites ? null : `${listed} sites listed, expected ${sites}`;
        },
        baseline: () => raw.votePage(ORG_SLUG, null),
        public: true,
      },
      {
        label: `vote page JSON, popular voter (${thousands(meta.popular.total)} votes)`,
        path: playerPath(meta.popular),
        target: TARGET_VOTE_PAGE_P99_MS,
        check: playerCheck(meta.popular),
        baseline: () => raw.votePage(ORG_SLUG, meta.popular.name),
        public: true,
      },
      {
        label: `vote page JSON, rare voter (${thousands(meta.rare.total)} vote${meta.rare.total === 1 ? '' : 's'})`,
        path: playerPath(meta.rare),
        target: TARGET_VOTE_PAGE_P99_MS,
        check: playerCheck(meta.rare),
        baseline: () => raw.votePage(ORG_SLUG, meta.rare.name),
        public: true,
      },
    ];
    if (cases.length !== ENDPOINTS) throw new Error(`${cases.length} endpoints, ENDPOINTS says ${ENDPOINTS}`);
    console.log(`\nmeasuring: ${WARMUP} warm-up + up to ${REQUESTS} sequential requests per endpoint, one keep-alive connection`);
    for (const c of cases) endpoints.push(await measureEndpoint(c.public ? publicClient : client, c.label, c.path, c.target, c.check));
    // What the measured players' pages showed (their receipts read the seeded delivery jobs).
    for (const voter of [meta.popular, meta.rare]) {
      const page = (JSON.parse((await publicClient.request('GET', playerPath(voter))).body) as PageBody).data;
      console.log(
        `  ${voter.name}: ${page.player?.receipt.length ?? 0} receipt lines (${page.player?.receipt.reduce((n, r) => n + r.deliveries.length, 0) ?? 0} deliveries); ` +
          `sites: ${[...new Set(page.sites.map((s) => s.status.replace(/\d+/g, 'n')))].join('; ')}`,
      );
    }
    console.log(`\nexport: GET /v1/votes/export (whole range, up to ${EXPORT_MAX_S} s)`);
    exported = await measureExport(server, meta.apiKey);
  } finally {
    client.close();
    publicClient.close();
    await server.stop();
  }
  // The baseline, with the service stopped: the same reads as plain SQL on the same database (bench/baselines/raw-sql-reads.ts).
  // better-sqlite3 answers synchronously; node-postgres with a promise, awaited (only then) inside the timing.
  console.log(
    `\nbaseline: the same reads as plain SQL through ${DIALECT === 'sqlite' ? 'better-sqlite3' : 'node-postgres (one connection, prepared statements)'} ` +
      `(${WARMUP} warm-up + ${REQUESTS} calls each)`,
  );
  for (const [i, { label, baseline: call }] of cases.entries()) {
    const capped = performance.now() + ENDPOINT_MAX_S * 1000;
    for (let n = 0; n < WARMUP && performance.now() < capped; n++) {
      const answer = call();
      if (answer instanceof Promise) await answer;
    }
    const times: number[] = [];
    for (let n = 0; n < REQUESTS && (n === 0 || performance.now() < capped + ENDPOINT_MAX_S * 1000); n++) {
      const t = performance.now();
      const answer = call();
      if (answer instanceof Promise) await answer;
      times.push(performance.now() - t);
    }
    const sorted = sortedCopy(times);
    baseline[i] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    console.log(`${label}: p50 ${ms(baseline[i].p50)} ms, p99 ${ms(baseline[i].p99)} ms (${times.length} calls)`);
  }
  const rawExport = await raw.exportAll();
  await raw.close();
  console.log(`export: ${thousands(rawExport.rows)} rows in ${duration(rawExport.seconds)} = ${thousands(rawExport.rows / rawExport.seconds)} rows/s`);
  const measureSeconds = (performance.now() - measureStarted) / 1000;
  const loadAfter = machineLoad();
  const databaseLine =
    DIALECT === 'sqlite'
      ? `${(statSync(DB_FILE).size / 1024 ** 3).toFixed(2)} GiB file`
      : `${await postgresDescription(databaseUrl)}; database \`${PG_DATABASE}\` ${((await postgresDatabaseBytes(databaseUrl)) / 1024 ** 3).toFixed(2)} GiB (pg_database_size)`;
  const totalSeconds = (performance.now() - runStarted) / 1000;

  // ------------------------------------------------------------------------------------------------ report
  const verdict = (met: boolean) => (met ? 'met' : '**NOT MET**');
  const header = [
    'Endpoint',
    'First request ms',
    'Requests',
    'p50 ms',
    'p99 ms',
    'max ms',
    'Baseline: plain SQL p50 / p99 ms',
    'Ours ÷ baseline (p99)',
    'Target (p99)',
    'Result',
  ];
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
  const exportHeader = [
    'Export',
    'Rows',
    'Time',
    'Rows/s',
    'Baseline: plain SQL + CSV rows/s',
    'Ours ÷ baseline',
    'Server RSS start / peak / end',
    'RSS growth (last − first quarter)',
    'Target',
    'Result',
  ];
  const exportRows = [
    [
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
    ],
  ];
  const missed = [
    ...endpoints.filter((e) => !(e.p99 < e.target)).map((e) => `${e.label}: p99 ${ms(e.p99)} ms against < ${e.target} ms`),
    ...(rowsPerS > TARGET_EXPORT_ROWS_PER_S ? [] : [`export: ${thousands(rowsPerS)} rows/s against > ${thousands(TARGET_EXPORT_ROWS_PER_S)}`]),
    ...(memoryFlat ? [] : [`export memory: RSS grew by ${mib(memoryGrowth)} (first to last quarter), peak ${mib(memoryPeak)} over the start`]),
    ...(exported.complete ? [] : [`export did not finish within ${EXPORT_MAX_S} s (${thousands(exported.rows)} of ${thousands(VOTES)} rows)`]),
  ];

  const sizeNote = VOTES === FULL_SIZE ? '' : ` **Measured at ${thousands(VOTES)} votes, not the 10,000,000 of the target.**`;
  console.log(`\nRead benchmark — ${thousands(VOTES)} votes${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}\n`);
  console.log(
    consoleTable(
      header,
      rows.map((r) => [r[0].replace(/<br>.*/, ''), ...r.slice(1).map((c) => c.replaceAll('**', ''))]),
    ),
  );
  console.log('');
  console.log(
    consoleTable(
      exportHeader,
      exportRows.map((r) => r.map((c) => c.replaceAll('**', '').replaceAll('`', ''))),
    ),
  );
  const exportDetail =
    `${(exported.bytes / 1024 ** 2).toFixed(0)} MiB of CSV; rows/s over the first minute ${thousands(exported.firstMinuteRate)}, over the last minute ` +
    `${thousands(exported.lastMinuteRate)}; server RSS at 25/50/75 % of the export ${exported.rssQuartiles.map(mib).join(' / ')} ` +
    `(${exported.samples} samples); server peak RSS over its whole life (VmHWM) ${mib(exported.hwm)}`;
  console.log(`\nexport: ${exportDetail}`);
  console.log(missed.length === 0 ? 'all targets met' : `targets missed:\n  ${missed.join('\n  ')}`);

  const seedCost =
    `${duration(meta.seedSeconds)} (organization, vote page, providers and callback through the CLI and API; load of votes, rollups and voters ${duration(meta.loadSeconds)} = ` +
    `${thousands(VOTES / meta.loadSeconds)} votes/s; index builds ${duration(meta.indexSeconds)}${DIALECT === 'sqlite' ? '' : ' with VACUUM (ANALYZE)'}` +
    `${meta.seedCpuSeconds ? `; ${duration(meta.seedCpuSeconds)} of CPU in the seeding process` : ''}` +
    `${meta.seedMachineLoad ? `; machine at the end: ${meta.seedMachineLoad}` : ''})`;
  const cached =
    DIALECT === 'sqlite' ? `the database cached in \`${DB_FILE}\`` : `the PostgreSQL database \`${PG_DATABASE}\` cached on the \`DATABASE_URL\` server`;
  const seedLine = reused ? `This run reused ${cached}, seeded ${new Date(meta.seededAt).toISOString()} in ${seedCost}.` : `Seeding took ${seedCost}.`;
  const written =
    DIALECT === 'sqlite'
      ? 'The votes, both rollup tables and the voters are written straight into the file with better-sqlite3 ' +
        '(same columns and formats as the service; rollups, voters and standings made exactly as the hook path makes them; checked afterwards: '
      : 'The votes, both rollup tables and the voters are written straight into the database with node-postgres (one ' +
        `\`INSERT … SELECT … FROM unnest(…)\` per ${thousands(CHUNK)} votes; same columns and formats as the service's PostgreSQL hook path; ` +
        'rollups, voters and standings made exactly as the hook path makes them; indexes and keys dropped for the load, re-created from their ' +
        'own definitions afterwards, then `VACUUM (ANALYZE)`; checked afterwards: ';
  const section = [
    `## Reads: statistics, vote lists, the vote page and export over a large history${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}`,
    '',
    `Measured by \`bench/read.ts\` on ${DIALECT === 'sqlite' ? 'embedded SQLite' : 'PostgreSQL (a database of its own on the `DATABASE_URL` server)'}.${sizeNote} The database holds ${thousands(VOTES)} votes of one business ` +
      `organization over the last ${DAYS} days (more recently: the newest days get ~3× the votes of the oldest), ${PROVIDERS} providers ` +
      `(uneven shares; the busiest, \`${top.key}\`, has ${thousands(top.votes)}; voter_kind \`name\` by default, so each lower-cased name is one voter), ` +
      `${thousands(VOTERS)} voter names with Zipf-like popularity: ${thousands(meta.voters)} voters (\`Voter\`, one \`${meta.identityKind}\` ` +
      `\`VoterIdentity\` and one \`VoterStanding\` each; every per-voter column holds the voter's id \`vtr_…\`) and ` +
      `${thousands(meta.voterDays)} voter-day rollup rows. Votes past the plan's 250,000 a month are stored with \`overLimit\` as the service ` +
      `does (${thousands(meta.overLimitVotes)} of them); the others carry \`sent\`/\`failed\` statuses. The vote page is on, with ` +
      `${meta.votePageSites.length} sites (providers with a \`vote_url\` and a 12-hour \`vote_cooldown\`) and one HTTP callback ("${CALLBACK_NAME}"). ` +
      `Delivery jobs and attempts are seeded only for the measured voters' votes of the last ${RECEIPT_DAYS} days, what their receipts read ` +
      `(${thousands(meta.receiptJobs)} jobs; no other measured path reads them). ` +
      written +
      "row count = SUM of each rollup = SUM of the standings' totals, one identity and standing per voter, and sampled provider-days and " +
      'voter-days against the raw votes). ' +
      seedLine,
    '',
    `The service (\`src/main.ts\`, \`LOG_LEVEL=info\`, deliveries off) runs as a child process on that ${DIALECT === 'sqlite' ? 'file' : 'database'}. Each endpoint gets ` +
      `${WARMUP} warm-up requests, then ${REQUESTS} sequential requests over one keep-alive connection (latency, not throughput; ` +
      `time from sending the request to the last byte of the answer). The statistics and vote lists are asked with the API key; the ` +
      `vote page without one, as a player: the HTML page without a player, and its JSON for the most popular voter (\`${meta.popular.name}\`, ` +
      `${thousands(meta.popular.total)} votes) and for a rare one who voted in the seed's last week (\`${meta.rare.name}\`, ` +
      `${thousands(meta.rare.total)}). The export is read whole and its lines counted; the server's ` +
      'RSS (`/proc/<pid>/status`) is sampled every 250 ms meanwhile.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the service and this client share it): before the measurements ${loadBefore}; after ${loadAfter}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Database: ${databaseLine}; run took ${duration(totalSeconds)} (measurements ${duration(measureSeconds)})`,
    '',
    markdownTable(header, rows),
    '',
    markdownTable(exportHeader, exportRows),
    '',
    `Export: ${exportDetail}.`,
    '',
    missed.length === 0 ? 'All targets met.' : `Targets missed:\n\n${missed.map((m) => `- ${m}`).join('\n')}`,
  ].join('\n');
  if (!REPORT) {
    console.log(`\nBENCHMARKS.md left unchanged (BENCH_READ_REPORT=0; run took ${duration(totalSeconds)}).`);
    return 0;
  }
  writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'sqlite' ? 'read' : 'read-postgresql', section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalSeconds)}).`);
  return 0;
}

process.exitCode = await main();
