// Marks before sending (issue 40, commit cca6152): what they cost, and how many sends a kill -9 at full load leaves
// uncertain. Before each delivery attempt to a target that cannot drop a repeat (Votifier, RCON, chat, Discord DMs)
// the delivery worker group-commits the job's mark (`DeliveryJob.sendingAt`; SQLite: in the write thread's `attempts`
// batch with the finishes since 4a6c5e9 (its own named write before), without its own fsync since 6f86221 (synced
// before); PostgreSQL: one unnest UPDATE per batch), and the attempt's finish clears it; a job claimed with its mark
// set is not sent again but ends `uncertain`.
//
// Two services, each run from its own directory with `node --import tsx src/main.ts` (cwd that directory) and its own
// CLI for the organization (bench/lib/sides.ts, as for bench/identities.ts): "ours" (BENCH_OURS_DIR, default this
// repository's root) and "before" (the commit before the marks, `cca6152^` unless BENCH_MARKS_BEFORE names another
// commit: a `git worktree add --detach` under the system's temporary directory, node_modules symlinked to the
// repository's, `npm run -s prisma:generate` run in it, removed at the end). Every run gets a fresh SQLite file (or PostgreSQL database) that the service migrates itself.
// Both: DELIVERY_THREAD=true, DELIVERY_CONCURRENCY 64, LOG_LEVEL=info, ALLOW_PRIVATE_TARGETS=true, one business
// organization, one provider (header auth), ONE callback, and the same INSTANCE_ID on every start.
//
// 1. Cost. Votifier callback deliveries per second. The Votifier server: the tests' NuVotifier-compatible receiver
//    (test/kit/votifier-receiver.ts, protocol v2 with a token, answering at once) in a worker thread of this process
//    (bench/lib/votifier-receiver-thread.ts), which records when each vote arrived. Per round (BENCH_MARKS_ROUNDS)
//    both services are started, each on its own fresh database, and get BENCH_MARKS_WARMUP votes through the hook,
//    waited for until sent. Then BENCH_MARKS_BURSTS pairs of bursts: for each pair both callbacks are disabled in the
//    database (enabled false with a reason, as the service disables a callback that keeps failing: new jobs are stored
//    held), BENCH_MARKS_VOTES votes from distinct voters are posted to each service through its hook, and the two
//    bursts run back to back, each once both services are quiet (under 5% of a core over 0.5 s) and 1.5 s on (ours first in odd pairs, before first in even ones, numbered over the run;
//    an even count of pairs per round keeps the orders balanced whatever the number of rounds): the callback
//    is enabled through the API (PATCH /v1/callbacks/:id) and every held job is due at once. Measured: from the first
//    vote of the burst reaching the receiver until the database shows every one of them with callback_status sent
//    (read every 20 ms once the receiver has them all); votes/s = votes / that time. Checked: the receiver got every
//    measured vote exactly once and nothing else. The two figures of a pair are seconds apart, so each pair's ratio
//    ours / before is one sample under one machine state; reported per pair, with their median and geometric mean and
//    a 95% t-interval of the log ratios (the machine has 2 cores and other sessions' work: single figures move by tens
//    of percent; the waits, the order and these statistics: bench/lib/pairs.ts, shared with bench/identities.ts). Also
//    the service's CPU per vote (every thread, from the PATCH to the votes recorded sent; on PostgreSQL plus its
//    backends' CPU: bench/lib/cpu.ts).
//    Control: the same with an HTTP callback (to bench/lib/callback-receiver.ts, answering 200 at once), where HTTP
//    can drop a repeat and no mark is written: BENCH_MARKS_HTTP_ROUNDS rounds (default 1; 0 skips).
// 2. Window (ours only, BENCH_MARKS_KILLS runs, each on a fresh database): the same burst, the receiver holding each
//    answer back BENCH_MARKS_KILL_DELAY_MS (20 ms) so that sends are in flight; once half the votes reached the
//    receiver the service is killed with SIGKILL. Read from the database right after: the jobs with their mark set
//    (the sends in flight), the running (leased) ones. Then the service is started again with the same INSTANCE_ID
//    (it takes its own leases back at once) and left until no callback job is open. Reported: what ended uncertain
//    (and whether the receiver had each one), votes the receiver got twice (must be 0), votes lost (must be 0: every
//    vote sent and received once, or uncertain), the operator's log line and GET /v1/votes?callback_status=uncertain
//    against the database.
//
// Writes its sections of BENCHMARKS.md (`marks`, `marks-postgresql`). SQLite by default; PostgreSQL with
// DATABASE_URL=postgres://… (as bench/run.ts sets it from BENCH_POSTGRES_URL): each service makes its own database.
// Options: BENCH_MARKS_VOTES (5000), BENCH_MARKS_WARMUP (200), BENCH_MARKS_ROUNDS (3), BENCH_MARKS_BURSTS (2),
// BENCH_MARKS_HTTP_ROUNDS (1), BENCH_MARKS_KILLS (3), BENCH_MARKS_KILL_DELAY_MS (20), BENCH_MARKS_WAIT_S (120: the
// longest wait for one burst), BENCH_MARKS_BUDGET_S (from the counts above; ~20 min by default, a run takes ~9),
// BENCH_DELIVERY_CONCURRENCY (64), BENCH_OURS_DIR, BENCH_MARKS_BEFORE, BENCH_MARKS_PHASES (cost,http,kills: a subset
// leaves BENCHMARKS.md alone), BENCH_CPU_PROF=<dir> (--cpu-prof on both services, cost rounds only; BENCHMARKS.md is
// then left alone), BENCH_MARKS_REPORT=0 (leave BENCHMARKS.md alone), BENCH_KEEP_DB=1.
//
// Reading (2026-11-28; BENCHMARKS.md "Marks before sending: reading" has the figures and the profiles). SQLite, ours
// 234f992 against before 0de6a04, 30 pairs: 0.98x (95% interval 0.96-1.00x), CPU per vote 1.00x: within 5%. It took
// four changes, each measured here: marks without their own fsync (6f86221), marks in the same write thread batch as
// the attempts' finishes, a Votifier send's mark committed while it connects, and two savings on the delivery path
// (secrets opened once, metrics relayed per event-loop turn). The mark alone (ours against ours with Votifier declared
// as dropping repeats) costs about 2%. PostgreSQL: 0.99x (0.94-1.04x) against 0de6a04 in session 19 (0.91x,
// 0.84-0.99x, on session 18's slower machine), after two delivery-path savings (claims along the index, finishes in
// three round trips; HTTP control 1.14x); the mark alone costs about 12% there (0.87x), heap-only or not. Session 25
// (afcdf9f): on PostgreSQL a claimed Votifier job is marked by the claim's own statement, so these bursts write no mark
// of their own: 1.00x (0.96-1.04x), 20 pairs. Session 26 (c4bd231): so on SQLite too, in the claim's one UPDATE; the
// mark alone 0.97x (0.93-1.01x, 20 pairs), the same as the same code against itself (0.97x, 0.92-1.03x, once the side
// started first swaps every round: before that swap the A/A run read 0.95x); against 0de6a04 0.97x (0.91-1.04x), HTTP
// control 0.94x. A kill -9 leaves about one send per delivery slot uncertain (36-87 of 64 slots: the answered sends
// whose record was not committed yet count too), none received twice, none lost.
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { startReceiver as startHttpReceiver, type Receiver as HttpReceiver } from './lib/callback-receiver.js';
import type { RunningChild } from './lib/child.js';
import { cpuPerVote, nowMs, startCpuMeter } from './lib/cpu.js';
import { benchDialect, openBenchDatabase, type BenchDatabase } from './lib/database.js';
import { QUIET_LIMIT_MS, QUIET_SHARE, QUIET_WINDOW_MS, SETTLE_MS, oursFirst, pairHeader, pairRow, pairSummary, pairUp, quiet, verdict } from './lib/pairs.js';
import { attempter, consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { ROOT, api, createClient, createTopggProvider, duration, envNumber, machineLoad, serviceEnv, thousands } from './lib/service.js';
import {
  LogWatch as ServiceLogWatch,
  type LogEntry,
  type Side,
  createOrgIn,
  makeRunDir,
  prepareSides,
  removeRunFiles,
  startServiceIn,
  stopAfter,
} from './lib/sides.js';
import { startVotifierReceiverThread, type VotifierReceiverThread } from './lib/votifier-receiver-thread.js';

const DIALECT = benchDialect();
const VOTES = envNumber('BENCH_MARKS_VOTES', 5_000, true);
const WARMUP = envNumber('BENCH_MARKS_WARMUP', 200, true);
const ROUNDS = envNumber('BENCH_MARKS_ROUNDS', 3, true);
/** Pairs of bursts per round (each service started once per round). */
const BURSTS = envNumber('BENCH_MARKS_BURSTS', 2, true);
const HTTP_ROUNDS = process.env.BENCH_MARKS_HTTP_ROUNDS === '0' ? 0 : envNumber('BENCH_MARKS_HTTP_ROUNDS', 1, true);
const KILLS = process.env.BENCH_MARKS_KILLS === '0' ? 0 : envNumber('BENCH_MARKS_KILLS', 3, true);
const KILL_DELAY_MS = envNumber('BENCH_MARKS_KILL_DELAY_MS', 20, false);
const WAIT_S = envNumber('BENCH_MARKS_WAIT_S', 120, false);
/** Hard bound: per round two services started (~30 s each) and per pair two postings and two bursts (~8 s each), with room. */
const BUDGET_S = envNumber('BENCH_MARKS_BUDGET_S', (ROUNDS + HTTP_ROUNDS) * (90 + BURSTS * 50) + KILLS * 100 + 120, false);
const CONCURRENCY = envNumber('BENCH_DELIVERY_CONCURRENCY', 64, true);
const OURS_DIR = resolve(process.env.BENCH_OURS_DIR || ROOT);
const BEFORE_REF = process.env.BENCH_MARKS_BEFORE || 'cca6152^';
const PHASES = new Set((process.env.BENCH_MARKS_PHASES ?? 'cost,http,kills').split(',').map((s) => s.trim()));
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
if (VOTES > 999_999 || WARMUP > 999_999) {
  console.error('BENCH_MARKS_VOTES and BENCH_MARKS_WARMUP must be at most 999999 (Votifier names have at most 16 characters)');
  process.exit(2);
}

const SECRET_KEY = 'bench-marks-secret-key-0123456789abcdef';
const AUTH = 'bench-marks-hook-secret';
const TOKEN = 'bench-marks-votifier-token-0123456789';
const SERVICE_NAME = 'VoteRelay';
const INSTANCE_ID = 'bench-marks';
/** Keep-alive sockets posting the votes to the hook (not measured: the jobs wait held until the callback is enabled). */
const HOOK_SOCKETS = 16;
/** How often the database is read once the receiver has every vote (the "recorded" time is at most this late). */
const POLL_MS = 20;
const OPEN_STATUSES = ['pending', 'retrying', 'running', 'held', 'parked'];

const voterName = (i: number) => `Voter_${String(i).padStart(6, '0')}`;
const warmName = (i: number) => `Warm_${String(i).padStart(6, '0')}`;
const VOTERS = Array.from({ length: VOTES }, (_, i) => voterName(i + 1));
const WARM_VOTERS = Array.from({ length: WARMUP }, (_, i) => warmName(i + 1));

const started = performance.now();
/** Past BUDGET_S the run stops (and the before worktree goes). */
stopAfter(BUDGET_S, 'marks');

// ---- the services (bench/lib/sides.ts) ----------------------------------------------------------------------------

/** Warnings and errors the service printed, and the uncertain counts of its "marked uncertain and not sent again" lines. */
class LogWatch extends ServiceLogWatch {
  readonly uncertainLines: number[] = [];
  protected override entry(entry: LogEntry): void {
    const { msg, uncertain } = entry as { msg?: string; uncertain?: number };
    if (typeof uncertain === 'number' && msg?.includes('marked uncertain and not sent again')) this.uncertainLines.push(uncertain);
  }
}

interface Service {
  child: RunningChild;
  port: number;
  base: string;
}

/** The service of `side` (bench/lib/sides.ts) with its port and base URL. */
async function startSide(side: Side, env: NodeJS.ProcessEnv, logs: LogWatch, nodeArgs: string[] = []): Promise<Service> {
  const child = await startServiceIn(side, env, logs, nodeArgs);
  return { child, port: child.port, base: `http://127.0.0.1:${child.port}` };
}

function envFor(database: BenchDatabase): NodeJS.ProcessEnv {
  return serviceEnv({
    DATABASE_URL: database.url,
    SECRET_KEY,
    LOG_LEVEL: 'info',
    DELIVERY_ENABLED: 'true',
    DELIVERY_THREAD: 'true',
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
    VOTIFIER_PORT: '0',
    INSTANCE_ID,
  });
}

// ---- the database, directly ---------------------------------------------------------------------------------------

const sqlitePath = (url: string) => url.replace(/^file:/, '');
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** Rows of a query written with `?` placeholders. */
async function rows<T>(database: BenchDatabase, sql: string, ...params: unknown[]): Promise<T[]> {
  if (database.dialect === 'sqlite') {
    const db = new Sqlite(sqlitePath(database.url), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(numbered(sql), params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** One write (SQLite: waits up to 10 s for the write lock the service's write thread takes in turns). */
async function execute(database: BenchDatabase, sql: string, ...params: unknown[]): Promise<number> {
  if (database.dialect === 'sqlite') {
    const db = new Sqlite(sqlitePath(database.url), { timeout: 10_000 });
    try {
      return db.prepare(sql).run(...params).changes;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(numbered(sql), params)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

const sentCount = (database: BenchDatabase, prefix: string) =>
  database.count('SELECT COUNT(*) AS n FROM "Vote" WHERE "callbackStatus" = ? AND "voterName" LIKE ?', 'sent', `${prefix}%`);
const openJobs = (database: BenchDatabase) =>
  database.count(`SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE status IN (${OPEN_STATUSES.map(() => '?').join(', ')})`, ...OPEN_STATUSES);

async function jobStatuses(database: BenchDatabase): Promise<string> {
  const counted = await rows<{ status: string; n: number | string }>(
    database,
    'SELECT status, COUNT(*) AS n FROM "DeliveryJob" GROUP BY status ORDER BY status',
  );
  return counted.map((r) => `${thousands(Number(r.n))} ${r.status}`).join(', ') || 'no jobs';
}

/** Reads `read` every `everyMs` until it returns `want` or `limitMs` passes; returns when it did (hrtime ms) or null. */
async function pollUntil(read: () => Promise<number>, want: number, everyMs: number, limitMs: number): Promise<{ at: number | null; last: number }> {
  const begin = nowMs();
  let last = await read();
  while (last !== want && nowMs() - begin < limitMs) {
    await sleep(everyMs);
    last = await read();
  }
  return { at: last === want ? nowMs() : null, last };
}

// ---- one organization with one callback, and its votes ------------------------------------------------------------

type Kind = 'votifier' | 'http';

interface Target {
  votifier: VotifierReceiverThread;
  http: HttpReceiver;
}

/** Posts one vote per name to the hook; returns the votes' public ids in the same order (throws unless all are 200). */
async function postVotes(port: number, path: string, names: string[]): Promise<string[]> {
  const client = createClient(port, { 'content-type': 'application/json', authorization: AUTH }, HOOK_SOCKETS);
  const refused = new Map<string, number>();
  const ids = new Array<string>(names.length);
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: HOOK_SOCKETS }, async () => {
        while (next < names.length) {
          const i = next++;
          const res = await client.request('POST', path, JSON.stringify({ bot: '1', user: names[i], type: 'upvote', isWeekend: false, query: '' }));
          if (res.status === 200) ids[i] = (JSON.parse(res.body) as { data: { vote_id: string } }).data.vote_id;
          else refused.set(`${res.status} ${res.body.slice(0, 200)}`, (refused.get(`${res.status} ${res.body.slice(0, 200)}`) ?? 0) + 1);
        }
      }),
    );
  } finally {
    client.close();
  }
  if (refused.size > 0) throw new Error(`the hook refused votes: ${[...refused].map(([answer, n]) => `${n}× ${answer}`).join('; ')}`);
  return ids;
}

interface Prepared {
  database: BenchDatabase;
  env: NodeJS.ProcessEnv;
  service: Service;
  apiKey: string;
  callbackId: string;
  callbackPath: string;
  hookPath: string;
}

/** The service of `side` on `database` with one callback of `kind`, warmed up (the warm-up votes sent). */
async function prepare(side: Side, kind: Kind, target: Target, database: BenchDatabase, logs: LogWatch, tag: string, nodeArgs: string[] = []) {
  const env = envFor(database);
  const apiKey = await createOrgIn(side, env);
  const service = await startSide(side, env, logs, nodeArgs);
  try {
    const hookPath = await createTopggProvider(service.base, apiKey, AUTH);
    const created = await api<{ data: { id: string } }>(
      service.base,
      apiKey,
      'POST',
      '/v1/callbacks',
      kind === 'votifier'
        ? {
            name: 'bench votifier',
            kind: 'votifier',
            host: target.votifier.host,
            port: target.votifier.port,
            service_name: SERVICE_NAME,
            token: TOKEN,
            timeout_ms: 5000,
          }
        : { name: 'bench http', url: `http://127.0.0.1:${target.http.port}/callback`, timeout_ms: 5000 },
    );
    console.log(`${tag} warm-up: ${WARMUP} votes through the hook, waited for until sent`);
    await postVotes(service.port, hookPath, WARM_VOTERS);
    const warm = await pollUntil(() => sentCount(database, 'Warm_'), WARMUP, 100, 60_000);
    if (warm.at === null)
      throw new Error(`warm-up: ${warm.last} of ${WARMUP} votes sent after 60 s (jobs: ${await jobStatuses(database)})\n${service.child.tail()}`);
    const prepared: Prepared = { database, env, service, apiKey, callbackId: created.data.id, callbackPath: `/v1/callbacks/${created.data.id}`, hookPath };
    return prepared;
  } catch (err) {
    await service.child.stop();
    throw err;
  }
}

/**
 * The callback disabled as the service disables one that keeps failing (enabled false with a reason: a callback
 * disabled by hand takes no votes at all), then one vote per name through the hook: their jobs are stored held, and
 * enabling the callback through the API makes them all due at once. Returns the votes' public ids.
 */
async function hold(prepared: Prepared, names: string[], tag: string): Promise<string[]> {
  const { database, service } = prepared;
  await execute(
    database,
    'UPDATE "Callback" SET enabled = false, "disabledReason" = ? WHERE id = ?',
    'bench/marks.ts: votes held until the callback is enabled again',
    prepared.callbackId,
  );
  console.log(`${tag} callback disabled; posting ${thousands(names.length)} votes (their jobs wait held)`);
  const ids = await postVotes(service.port, prepared.hookPath, names);
  const held = await database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE status = ?', 'held');
  if (held !== names.length) throw new Error(`${held} jobs held after posting ${names.length} votes (jobs: ${await jobStatuses(database)})`);
  return ids;
}

// ---- 1. cost ------------------------------------------------------------------------------------------------------

interface Delivery {
  ok: boolean;
  once: number;
  missing: number;
  repeated: number;
  unexpected: number;
}

interface Burst {
  round: number;
  burst: number;
  side: Side;
  kind: Kind;
  /** From the first measured vote at the receiver until the database shows every one sent. */
  deliveredS: number;
  check: Delivery;
  cpuUs: number | null;
  cpuShare: number;
  pgCpuUs: number | null;
  load: string;
  notes: string[];
}

/** The measured voters of one burst: distinct from the other bursts' in the same database (at most 16 characters). */
const burstNames = (burst: number) => Array.from({ length: VOTES }, (_, i) => `V${burst}x${String(i + 1).padStart(6, '0')}`);
const burstPrefix = (burst: number) => `V${burst}x`;

function checkNames(names: string[], wantedNames: string[]): Delivery {
  const wanted = new Map(wantedNames.map((n) => [n, 0]));
  let unexpected = 0;
  for (const name of names) {
    const seen = wanted.get(name);
    if (seen === undefined) unexpected++;
    else wanted.set(name, seen + 1);
  }
  const counts = [...wanted.values()];
  const once = counts.filter((n) => n === 1).length;
  const missing = counts.filter((n) => n === 0).length;
  const repeated = counts.filter((n) => n > 1).length;
  return { ok: once === wantedNames.length && unexpected === 0, once, missing, repeated, unexpected };
}

interface Run {
  round: number;
  side: Side;
  kind: Kind;
  database: BenchDatabase;
  logs: LogWatch;
  prepared: Prepared | null;
  profDir: string | null;
}

/** A fresh database and the service of `side` on it, warmed up: ready for its bursts. */
async function prepareRun(round: number, side: Side, kind: Kind, target: Target, dir: string): Promise<Run> {
  const database = await openBenchDatabase(join(dir, `${kind}-${round}-${side.id}.db`));
  const profDir = CPU_PROF_DIR && kind === 'votifier' ? join(CPU_PROF_DIR, `${side.id}-${round}`) : null;
  if (profDir) mkdirSync(profDir, { recursive: true });
  const run: Run = { round, side, kind, database, logs: new LogWatch(), prepared: null, profDir };
  try {
    run.prepared = await prepare(
      side,
      kind,
      target,
      database,
      run.logs,
      `[${kind} round ${round} ${side.id}]`,
      profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
    );
    return run;
  } catch (err) {
    await closeRun(run);
    throw err;
  }
}

async function closeRun(run: Run): Promise<void> {
  await run.prepared?.service.child.stop();
  if (process.env.BENCH_KEEP_DB !== '1') await run.database.drop();
}

/** One burst: the callback enabled, every held job due at once; measured until the database shows every vote sent. */
async function measureBurst(run: Run, burst: number, names: string[], ids: string[], target: Target): Promise<Burst> {
  const { round, side, kind, database, profDir } = run;
  const prepared = run.prepared!;
  const tag = `[${kind} round ${round}.${burst} ${side.id}]`;
  await sleep(SETTLE_MS);
  const load = machineLoad();
  const { service } = prepared;
  if (kind === 'votifier') await target.votifier.mark();
  const meter = await startCpuMeter(service.child.process.pid!, database);
  console.log(`${tag} callback enabled: measuring`);
  await api(service.base, prepared.apiKey, 'PATCH', prepared.callbackPath, { enabled: true });

  const prefix = burstPrefix(burst);
  const notes: string[] = [];
  if (kind === 'votifier') {
    const arrived = await target.votifier.waitForVotes(VOTES, WAIT_S * 1000);
    if (!arrived.reached)
      throw new Error(
        `${arrived.count} of ${VOTES} votes reached the receiver within ${WAIT_S} s (jobs: ${await jobStatuses(database)})\n${service.child.tail()}`,
      );
  } else {
    const deadline = nowMs() + WAIT_S * 1000;
    while (ids.some((id) => !target.http.arrivals.has(id)) && nowMs() < deadline) await sleep(10);
  }
  const recorded = await pollUntil(() => sentCount(database, prefix), VOTES, POLL_MS, 30_000);
  const spent = await meter.stop();
  if (recorded.at === null) notes.push(`only ${recorded.last} of ${VOTES} votes recorded sent 30 s after the receiver had them`);
  await sleep(200); // a repeat would arrive after the last first copy
  let arrivedNames: string[];
  let times: number[];
  if (kind === 'votifier') {
    const window = await target.votifier.window();
    arrivedNames = window.usernames;
    times = window.times;
    if (window.errors.length > 0) notes.push(`the receiver refused ${window.errors.length} frames: ${[...new Set(window.errors)].join('; ')}`);
  } else {
    arrivedNames = [];
    times = [];
    ids.forEach((id, i) => {
      for (const at of target.http.arrivals.get(id) ?? []) {
        arrivedNames.push(names[i]);
        times.push(at);
      }
    });
  }
  const first = Math.min(...times);
  const last = Math.max(...times);
  const measuredAttempts = 'FROM "DeliveryAttempt" a JOIN "Vote" v ON v.id = a."voteId" WHERE v."voterName" LIKE ?';
  const attempts = await database.count(`SELECT COUNT(*) AS n ${measuredAttempts}`, `${prefix}%`);
  const failed = await database.count(`SELECT COUNT(*) AS n ${measuredAttempts} AND NOT a.success`, `${prefix}%`);
  const attemptAt = (p: number) =>
    database.count(
      `SELECT a."durationMs" ${measuredAttempts} ORDER BY a."durationMs" LIMIT 1 OFFSET ?`,
      `${prefix}%`,
      Math.max(0, Math.ceil((p / 100) * attempts) - 1),
    );
  if (attempts !== VOTES || failed > 0) notes.push(`**${thousands(attempts)} attempts for the measured votes (${thousands(failed)} failed)**`);
  notes.push(
    `attempt duration as recorded p50 ${attempts > 0 ? await attemptAt(50) : 'n/a'} ms, p99 ${attempts > 0 ? await attemptAt(99) : 'n/a'} ms; ` +
      `last vote at the receiver → all recorded sent ${((recorded.at ?? Number.NaN) - last).toFixed(0)} ms`,
  );
  if (profDir)
    notes.push(`profiles in ${profDir}; the burst in --cpu-prof's clock (µs): ${Math.round(first * 1000)}–${Math.round((recorded.at ?? last) * 1000)}`);
  return {
    round,
    burst,
    side,
    kind,
    deliveredS: ((recorded.at ?? Number.NaN) - first) / 1000,
    check: checkNames(arrivedNames, names),
    ...cpuPerVote(spent, VOTES, database.dialect),
    load,
    notes,
  };
}

// ---- 2. the window of a kill -9 -----------------------------------------------------------------------------------

interface Kill {
  run: number;
  /** Votes the receiver had when the kill was sent, and the answers it was still holding back then. */
  receivedAtKill: number;
  holdingAtKill: number;
  /** Read from the database right after the kill: jobs with their mark set, and jobs leased (running). */
  markedAtKill: number;
  runningAtKill: number;
  sentAtKill: number;
  uncertain: number;
  uncertainReceived: number;
  uncertainNotReceived: number;
  sentOnce: number;
  twice: number;
  lost: number;
  unexpected: number;
  /** The restart's log line (its `uncertain` counts) and GET /v1/votes?callback_status=uncertain's total. */
  logLine: number[];
  listed: number | null;
  restartS: number;
  settleS: number;
  load: string;
  notes: string[];
}

async function measureKill(run: number, side: Side, target: Target, dir: string): Promise<Kill> {
  const tag = `[kill ${run}]`;
  const load = machineLoad();
  const database = await openBenchDatabase(join(dir, `kill-${run}.db`));
  const logs = new LogWatch();
  let prepared: Prepared | null = null;
  let restarted: Service | null = null;
  try {
    await target.votifier.answerDelay(KILL_DELAY_MS);
    prepared = await prepare(side, 'votifier', target, database, logs, tag);
    await hold(prepared, VOTERS, tag);
    await target.votifier.mark();
    await api(prepared.service.base, prepared.apiKey, 'PATCH', prepared.callbackPath, { enabled: true });
    const half = await target.votifier.waitForVotes(Math.floor(VOTES / 2), WAIT_S * 1000);
    const killAt = nowMs();
    const exited = once(prepared.service.child.process, 'exit');
    prepared.service.child.process.kill('SIGKILL');
    await exited;
    if (!half.reached) throw new Error(`only ${half.count} votes reached the receiver before the kill`);
    console.log(`${tag} killed (SIGKILL) with ${half.count} votes at the receiver`);
    const markedAtKill = await database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE "sendingAt" IS NOT NULL');
    const markedRunning = await database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE "sendingAt" IS NOT NULL AND status = ?', 'running');
    const runningAtKill = await database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE status = ?', 'running');
    const sentAtKill = await sentCount(database, 'Voter_');

    const restartBegin = nowMs();
    restarted = await startSide(side, prepared.env, logs);
    const restartS = (nowMs() - restartBegin) / 1000;
    const settled = await pollUntil(() => openJobs(database), 0, 100, WAIT_S * 1000);
    const settleS = (nowMs() - restartBegin) / 1000;
    await sleep(1_000); // a repeat, or the log line, would come now
    const notes: string[] = [];
    if (settled.at === null) notes.push(`**${settled.last} jobs still open ${WAIT_S} s after the restart** (jobs: ${await jobStatuses(database)})`);
    if (markedRunning !== markedAtKill) notes.push(`${markedAtKill - markedRunning} marked jobs were not running at the kill`);

    const window = await target.votifier.window();
    const killTimes = window.times.filter((t) => t <= killAt);
    const received = new Map<string, number>();
    for (const name of window.usernames) received.set(name, (received.get(name) ?? 0) + 1);
    const statuses = await rows<{ voterName: string; callbackStatus: string }>(
      database,
      'SELECT "voterName", "callbackStatus" FROM "Vote" WHERE "voterName" LIKE ?',
      'Voter_%',
    );
    let uncertainReceived = 0;
    let uncertainNotReceived = 0;
    let sentOnce = 0;
    let lost = 0;
    const wrong: string[] = [];
    for (const { voterName, callbackStatus } of statuses) {
      const n = received.get(voterName) ?? 0;
      if (callbackStatus === 'uncertain') n > 0 ? uncertainReceived++ : uncertainNotReceived++;
      else if (callbackStatus === 'sent' && n === 1) sentOnce++;
      else if (callbackStatus !== 'sent' || n === 0) {
        lost++;
        if (wrong.length < 5) wrong.push(`${voterName}: ${callbackStatus}, received ${n}×`);
      }
    }
    if (statuses.length !== VOTES) notes.push(`**${statuses.length} measured votes in the database, not ${VOTES}**`);
    if (wrong.length > 0) notes.push(`**lost: ${wrong.join('; ')}**`);
    const twice = [...received.entries()].filter(([, n]) => n > 1);
    if (twice.length > 0)
      notes.push(
        `**received more than once: ${twice
          .slice(0, 5)
          .map(([name, n]) => `${name} ${n}× (${statuses.find((s) => s.voterName === name)?.callbackStatus})`)
          .join('; ')}**`,
      );
    const wanted = new Set(VOTERS);
    const unexpected = window.usernames.filter((name) => !wanted.has(name)).length;
    // The vote list's total is in its pagination (meta), the page in data.votes.
    const listedAnswer = await api<any>(restarted.base, prepared.apiKey, 'GET', '/v1/votes?callback_status=uncertain&limit=100');
    const total = listedAnswer.meta?.total ?? listedAnswer.meta?.pagination?.total ?? listedAnswer.data?.total;
    const listed = typeof total === 'number' ? total : null;
    if (listed === null) notes.push(`GET /v1/votes?callback_status=uncertain answered no total: ${JSON.stringify(listedAnswer).slice(0, 300)}`);
    await restarted.child.stop();
    notes.push(`jobs at the end: ${await jobStatuses(database)}`);
    notes.push(...logs.summary().map((l) => `service log: ${l}`));
    return {
      run,
      receivedAtKill: killTimes.length,
      holdingAtKill: killTimes.filter((t) => t > killAt - KILL_DELAY_MS).length,
      markedAtKill,
      runningAtKill,
      sentAtKill,
      uncertain: uncertainReceived + uncertainNotReceived,
      uncertainReceived,
      uncertainNotReceived,
      sentOnce,
      twice: twice.length,
      lost,
      unexpected,
      logLine: logs.uncertainLines,
      listed,
      restartS,
      settleS,
      load,
      notes,
    };
  } finally {
    await target.votifier.answerDelay(0);
    await prepared?.service.child.stop();
    await restarted?.child.stop();
    if (process.env.BENCH_KEEP_DB !== '1') await database.drop();
  }
}

// ---- the run ------------------------------------------------------------------------------------------------------

const perS = (b: Burst) => VOTES / b.deliveredS;
function describeCheck(c: Delivery): string {
  if (c.ok) return `${thousands(c.once)}, each once`;
  const problems = [c.missing && `${c.missing} missing`, c.repeated && `${c.repeated} repeated`, c.unexpected && `${c.unexpected} unexpected`].filter(Boolean);
  return `${thousands(c.once)} once: **${problems.join(', ')}**`;
}

async function main(): Promise<number> {
  const wantsBefore = PHASES.has('cost') || (PHASES.has('http') && HTTP_ROUNDS > 0);
  const { ours, before } = prepareSides({ oursDir: OURS_DIR, beforeRef: BEFORE_REF, bench: 'marks', dialect: DIALECT, withBefore: wantsBefore });
  const dir = makeRunDir('marks');
  const target: Target = { votifier: await startVotifierReceiverThread({ tokens: { [SERVICE_NAME]: TOKEN } }), http: await startHttpReceiver() };
  const bursts: Burst[] = [];
  const kills: Kill[] = [];
  const failures: string[] = [];
  /** Warnings and errors the services printed during the cost rounds (none expected). */
  const serviceLog: string[] = [];
  const load1 = machineLoad();
  const attempt = attempter(failures);
  try {
    const rounds: [Kind, number][] = [
      ...(PHASES.has('cost') ? Array.from({ length: ROUNDS }, (_, i) => ['votifier', i + 1] as [Kind, number]) : []),
      ...(PHASES.has('http') ? Array.from({ length: HTTP_ROUNDS }, (_, i) => ['http', i + 1] as [Kind, number]) : []),
    ];
    for (const [kind, round] of rounds) {
      // Both services are made ready first (each on its own fresh database, warmed up); then per pair both get their
      // votes held and their bursts run back to back, the order swapping every pair, so the two figures of a pair are
      // seconds apart and a drift of the machine's speed favours neither side.
      // Which side is started and has its votes posted first swaps every round too: with ours always first, the same
      // code on both sides measured 0.95× (0.89–1.02×, 12 pairs, 2026-11-30).
      const runs: Run[] = [];
      try {
        for (const side of round % 2 === 1 ? [ours, before] : [before, ours]) {
          const run = await attempt(`${kind} round ${round}, ${side.id}`, () => prepareRun(round, side, kind, target, dir));
          if (run) runs.push(run);
        }
        for (let burst = 1; burst <= BURSTS && runs.length > 0; burst++) {
          const names = burstNames(burst);
          const held = new Map<Run, string[]>();
          for (const run of runs) {
            const ids = await attempt(`${kind} round ${round}.${burst}, ${run.side.id}`, () =>
              hold(run.prepared!, names, `[${kind} round ${round}.${burst} ${run.side.id}]`),
            );
            if (ids) held.set(run, ids);
          }
          const oursRun = runs.find((r) => r.side === ours);
          const order = [...held.keys()].sort((a, b) => Number(b === oursRun) - Number(a === oursRun));
          if (!oursFirst(round, burst, BURSTS)) order.reverse();
          for (const run of order) {
            const waited = await quiet(runs.map((r) => r.prepared!.service.child.process.pid!));
            const b = await attempt(`${kind} round ${round}.${burst}, ${run.side.id}`, () => measureBurst(run, burst, names, held.get(run)!, target));
            if (!b) continue;
            if (waited === null)
              b.notes.push(`the services were not quiet (under ${QUIET_SHARE * 100}% of a core) within ${QUIET_LIMIT_MS / 1000} s before this burst`);
            bursts.push(b);
            console.log(
              `[${kind} round ${round}.${burst} ${run.side.id}] ${thousands(perS(b))} votes/s (${b.deliveredS.toFixed(2)} s), receiver: ${describeCheck(b.check).replaceAll('**', '')}` +
                `${b.cpuUs === null ? '' : `, service CPU ${thousands(b.cpuUs)} µs/vote`}${b.pgCpuUs === null ? '' : ` + ${thousands(b.pgCpuUs)} µs in PostgreSQL`}`,
            );
          }
        }
      } finally {
        for (const run of runs) await closeRun(run);
        for (const run of runs) for (const line of run.logs.summary()) serviceLog.push(`${kind} round ${round} ${run.side.id}: ${line}`);
      }
    }
    if (PHASES.has('kills') && !CPU_PROF_DIR) {
      for (let run = 1; run <= KILLS; run++) {
        const k = await attempt(`kill ${run}`, () => measureKill(run, ours, target, dir));
        if (!k) continue;
        kills.push(k);
        console.log(
          `[kill ${run}] at the kill: ${k.receivedAtKill} received (${k.holdingAtKill} answers held), ${k.markedAtKill} marked, ${k.runningAtKill} running; ` +
            `after: ${k.uncertain} uncertain (${k.uncertainReceived} at the receiver), ${k.sentOnce} sent once, ${k.twice} twice, ${k.lost} lost; log ${k.logLine.join('+') || 'none'}, list ${k.listed}`,
        );
      }
    }
  } finally {
    await target.votifier.stop();
    await target.http.stop();
    removeRunFiles(dir);
  }
  const load2 = machineLoad();
  const totalS = (performance.now() - started) / 1000;

  // ---- tables
  const costHeader = pairHeader('Pair (round.burst)', ['Votes at the receiver (ours; before)']);
  const burstsOf = (kind: Kind) => bursts.filter((b) => b.kind === kind);
  const pairsOf = (kind: Kind) => pairUp(burstsOf(kind), (b) => b.burst);
  const costRows = (kind: Kind) =>
    pairsOf(kind).map((pair) => {
      const { o, p } = pair;
      return pairRow(pair, perS, BURSTS, [`${o ? describeCheck(o.check) : 'n/a'}; ${p ? describeCheck(p.check) : 'n/a'}`]);
    });
  const summaryOf = (kind: Kind) => pairSummary(burstsOf(kind), pairsOf(kind), perS, DIALECT);
  const killHeader = [
    'Kill',
    'Votes at the receiver at the kill',
    'Answers the receiver was holding back',
    'Marked in the database at the kill (leased)',
    'Ended uncertain',
    '… of them at the receiver / not',
    'Sent and received once',
    'Received twice',
    'Lost',
    'Log line / GET ?callback_status=uncertain',
    'Restart → no open job',
  ];
  const killRows = kills.map((k) => [
    String(k.run),
    thousands(k.receivedAtKill),
    String(k.holdingAtKill),
    `${k.markedAtKill} (${k.runningAtKill})`,
    String(k.uncertain),
    `${k.uncertainReceived} / ${k.uncertainNotReceived}`,
    thousands(k.sentOnce),
    k.twice === 0 ? '0' : `**${k.twice}**`,
    k.lost === 0 ? '0' : `**${k.lost}**`,
    `${k.logLine.length === 0 ? 'no line' : k.logLine.join(' + ')} / ${k.listed ?? 'n/a'}`,
    `${k.settleS.toFixed(1)} s (listening after ${k.restartS.toFixed(1)} s)`,
  ]);
  const killSummary =
    kills.length === 0
      ? 'No kill measured in this run.'
      : `Over ${kills.length} kills: ${kills.map((k) => k.uncertain).join(', ')} sends left uncertain ` +
        `(${CONCURRENCY} delivery slots; besides the sends under way, a slot's answered send stays marked until its record commits) out of ${thousands(VOTES)}; received twice ${kills.reduce((s, k) => s + k.twice, 0)}, ` +
        `lost ${kills.reduce((s, k) => s + k.lost, 0)}; every uncertain one ${kills.every((k) => k.uncertain === k.markedAtKill) ? 'was' : '**was not always**'} marked in the database at the kill.`;

  const within = verdict(pairsOf('votifier'), perS, 0.95, { above: 'above', spread: 'the 5% to be shown' });
  const title = `Marks before sending: their cost and the kill -9 window${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}`;
  const plain = (rows: string[][]) => rows.map((r) => r.map((c) => c.replaceAll('**', '')));
  console.log(`\n${title} — ${thousands(VOTES)} votes per burst, DELIVERY_CONCURRENCY ${CONCURRENCY}\n`);
  console.log('Votifier callback (marked):');
  console.log(consoleTable(costHeader, plain(costRows('votifier'))));
  console.log(summaryOf('votifier'));
  console.log(`Within 5%: ${within.replaceAll('**', '')}`);
  console.log('\nHTTP callback (control: no marks):');
  console.log(consoleTable(costHeader, plain(costRows('http'))));
  console.log(summaryOf('http'));
  console.log('\nkill -9 at full load:');
  console.log(consoleTable(killHeader, plain(killRows)));
  console.log(killSummary);
  const notes = [
    ...bursts.map((b) => [`${b.kind} ${b.round}.${b.burst} ${b.side.id}`, b.notes] as const),
    ...kills.map((k) => [`kill ${k.run} (${k.load}; sent before the kill ${thousands(k.sentAtKill)})`, k.notes] as const),
  ].flatMap(([who, list]) => list.map((n) => `${who}: ${n}`));
  notes.push(...(serviceLog.length > 0 ? serviceLog.map((l) => `service log, ${l}`) : ['service log of the cost rounds: no warning, no error']));
  for (const n of notes) console.log(`note: ${n}`);
  for (const f of failures) console.error(`\n!!! FAILED: ${f}`);

  const wrong =
    bursts.some((b) => !b.check.ok || !Number.isFinite(b.deliveredS)) ||
    kills.some((k) => k.twice > 0 || k.lost > 0 || k.unexpected > 0 || k.uncertain !== k.markedAtKill);
  const code = failures.length > 0 || wrong ? 1 : 0;
  if (bursts.length === 0 && kills.length === 0) {
    console.error('\nBENCHMARKS.md left unchanged (nothing could be measured).');
    return 1;
  }
  if (CPU_PROF_DIR || PHASES.size !== 3 || !['cost', 'http', 'kills'].every((p) => PHASES.has(p)) || process.env.BENCH_MARKS_REPORT === '0') {
    console.log(`\nBENCHMARKS.md left unchanged (BENCH_CPU_PROF, BENCH_MARKS_PHASES or BENCH_MARKS_REPORT=0: an investigation; run took ${duration(totalS)}).`);
    return code;
  }

  const section = [
    `## ${title}`,
    '',
    `Measured by \`bench/marks.ts\` (\`npx tsx bench/run.ts marks\`). Before each delivery attempt to a target that cannot drop a repeat ` +
      "(Votifier, RCON, chat, Discord DMs) the delivery worker group-commits the job's mark (`DeliveryJob.sendingAt`: on SQLite in the write " +
      "thread's `attempts` batch with the finishes, without its own fsync; on PostgreSQL one `unnest` UPDATE per batch, synced; a Votifier job " +
      "handed over by its vote's write commits its mark while it connects and writes the vote once it is in; a Votifier job a worker claims, " +
      "as in these bursts, is marked by the claim's own statement: on PostgreSQL since afcdf9f, on SQLite since c4bd231); the finish clears it, and a job claimed with its mark set " +
      'ends `uncertain` instead of being sent again (issue 40).',
    '',
    `- **ours**: ${ours.commit} (${resolve(ours.dir) === resolve(ROOT) ? 'the repository' : 'a worktree of it'}); **before**: ${before.commit}, the commit before the marks (a worktree ` +
      'of it, its own generated Prisma clients, no `sendingAt` column). Each service: a fresh ' +
      `${DIALECT === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'} migrated by the service itself, \`node --import tsx src/main.ts\` from the ` +
      `side's own directory (\`DELIVERY_THREAD=true\`, \`DELIVERY_CONCURRENCY=${CONCURRENCY}\`, \`LOG_LEVEL=info\`, \`ALLOW_PRIVATE_TARGETS=true\`), one ` +
      'organization, one provider, one callback.',
    `- **Cost**: a Votifier callback (protocol v2 with a token, \`timeout_ms\` 5000) to the tests' NuVotifier-compatible receiver ` +
      '(`test/kit/votifier-receiver.ts`, answering at once) in a worker thread of the benchmark. Per round both services are started and get ' +
      `${thousands(WARMUP)} warm-up votes through the hook, waited for. Then ${BURSTS} pairs of bursts: for each, both callbacks are disabled in ` +
      `the database (as the service disables a failing one: new jobs are stored held), ${thousands(VOTES)} votes from distinct voters are posted ` +
      `to each service, and the two bursts run back to back (each once both services are quiet, under ${QUIET_SHARE * 100}% of a core over ${QUIET_WINDOW_MS / 1000} s, and ${SETTLE_MS / 1000} s after the previous step), ours first in odd pairs and before first in even ones: the callback is enabled ` +
      'through the API (`PATCH /v1/callbacks/:id`) and all held jobs are due at once. Delivered votes/s: votes / the time from the first of ' +
      `them at the receiver until the database shows every one with \`callback_status\` sent (read every ${POLL_MS} ms once the receiver has ` +
      'them all). "Votes at the receiver": every measured vote must arrive exactly once, nothing else. "Service CPU per vote": the service ' +
      'process, every thread, from the PATCH to the votes recorded sent (idle work included)' +
      `${DIALECT === 'postgresql' ? ', plus the CPU of the PostgreSQL backends serving it' : ''}. The interval is a 95% t-interval of the ` +
      "pairs' log ratios: each pair is one sample of ours / before under the conditions of its few seconds.",
    `- **Control**: the same with an HTTP callback (to \`bench/lib/callback-receiver.ts\`, answering 200 at once): HTTP can drop a repeat, so ` +
      'no mark is written; ours and before should not differ beyond noise.',
    `- **Window** (ours only): a fresh database, the same burst with the receiver holding each answer back ${KILL_DELAY_MS} ms (the vote is ` +
      'recorded when its frame is read, before the answer), so sends are in flight; once half the votes reached the receiver the service gets ' +
      'SIGKILL. Read from the database right after: jobs with their mark set (the sends in flight or claimed to start, and the answered ones not yet recorded) and jobs ' +
      'leased (`running`: claimed, marked or not). Then the service is started again with the same `INSTANCE_ID` (it takes its own leases ' +
      'back at once) and left until no callback job is open. "Lost": a vote neither sent and received once nor uncertain (must be 0); ' +
      '"received twice" must be 0; an uncertain one may or may not have reached the receiver (both counted). "Log line": the `uncertain` count ' +
      'of the restart\'s warning ("… marked uncertain and not sent again"); then the `total` of `GET /v1/votes?callback_status=uncertain`.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the services, both receivers and the benchmark share these cores; other sessions' work ran too): before ${load1}; after ${load2}`,
    `- Node: ${process.version}`,
    `- Commits: ours ${ours.commit}, before ${before.commit}; bench/marks.ts at ${gitCommit(ROOT)}`,
    `- Run took ${duration(totalS)}`,
    '',
    '### Cost: Votifier callback (marked before each send)',
    '',
    markdownTable(costHeader, costRows('votifier')),
    '',
    summaryOf('votifier'),
    '',
    `Within 5%: ${within}`,
    '',
    '### Control: HTTP callback (no marks)',
    '',
    markdownTable(costHeader, costRows('http')),
    '',
    summaryOf('http'),
    '',
    `### Window: kill -9 in the middle of a burst (receiver answering after ${KILL_DELAY_MS} ms)`,
    '',
    markdownTable(killHeader, killRows),
    '',
    killSummary,
    '',
    ...notes.map((n) => `- ${n}`),
    ...failures.map((f) => `- **FAILED**: ${f}`),
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'sqlite' ? 'marks' : 'marks-postgresql', section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalS)}).`);
  return code;
}

process.exitCode = await main();
