// Voters (issue 37): what resolving each vote to a voter by its identities costs on ingest. The issue's budget: "ingest
// with identities on, beside the commit before it, measured in the same run: the identity step costs at most 10% of
// accepted votes per second", on both databases. Each stored vote is resolved in its transaction to a voter by its
// identities (a Discord id before a name: src/domain/voter-identity.ts, written by src/storage/sqlite/votes.ts and
// src/storage/postgres/votes.ts into Voter and VoterIdentity).
//
// Two services, each run from its own directory with `node --import tsx src/main.ts` (cwd that directory) and its own
// CLI for the organization, as for bench/marks.ts (both through bench/lib/sides.ts): "ours" (BENCH_OURS_DIR, default
// this repository's root) and "before" (c7649d3, the last commit before voters, unless BENCH_IDENTITIES_BEFORE names
// another: a `git worktree add --detach` under the system's temporary directory, node_modules symlinked to the
// repository's, `npm run -s prisma:generate` run in it, removed at the end). Both: LOG_LEVEL=info, deliveries off, rate limits out of the way,
// one business organization with one custom provider (header auth) whose `votee_path` is a name field (`username`) and
// whose `discord_id_path` is a snowflake field (`user`, 18 digits), as on a Discord bot list. `voter_kind` is not sent
// (before does not know it; ours defaults it to `name`): ours keys each vote to the voter holding its Discord id.
//
// Per round (BENCH_IDENTITIES_ROUNDS) both services are started, each on its own fresh SQLite file (or PostgreSQL
// database) that its CLI migrates, and get the same preparation: one probe vote, one vote from each of
// BENCH_IDENTITIES_VOTERS returning voters (each a fixed snowflake and name) and BENCH_WARMUP_S of returning-voter load
// (not counted). Then, per phase, BENCH_IDENTITIES_PAIRS pairs, each once both services are quiet (under 5% of a core
// over 0.5 s) and 1.5 s on (on PostgreSQL after a CHECKPOINT, with no autovacuum worker running: BenchDatabase.settle):
//   together (BENCH_IDENTITIES_MODE, the default): the two services measured at once, each under its own load. They
//            share every moment of the machine (its cores, the disk's flushes, other work). Measured one after the
//            other on a quiet machine (2026-11-29, PostgreSQL), one service moved from 804 to 1,552 votes/s within
//            minutes and the pairs' ratios from 0.69x to 1.64x; measured together they spread from 0.78x to 1.07x;
//   apart:   back to back, ours first in odd pairs and before first in even ones (numbered over the run per phase; the
//            pairs as bench/lib/pairs.ts runs and reports them for both this and bench/marks.ts).
// One measurement: autocannon in this process against the hook for BENCH_DURATION_S with BENCH_CONNECTIONS connections
// (per service), a unique body per request (the service answers a repeated body as a duplicate); only 2xx answers
// count as accepted; afterwards the database must hold at least that many new votes, and ours's Voter and
// VoterIdentity rows must have moved as the phase says.
//   returning: the BENCH_IDENTITIES_VOTERS voters again, in a fixed shuffled order (the realistic case: every vote
//              finds its voter by its Discord id; ours must make no voter and no identity; until session 22 they came
//              in turn, the order of their names, which let before's name-keyed rows share pages);
//   new:       a new voter per vote (the worst case: each vote of ours makes one Voter and one VoterIdentity row, after
//              looking up the id, the id as a name and the name).
// Each pair's ratio ours / before is one sample under one machine state (the machine has 2 cores and other sessions'
// work: single figures move by tens of percent); reported per pair with their median, geometric mean and a 95%
// t-interval of the log ratios, and the verdict against the budget: "within 10%" only when the whole interval is at or
// above 0.90x. Also the service's CPU per accepted vote over the measured run (every thread; on PostgreSQL plus its
// backends' CPU: bench/lib/cpu.ts) and the machine load at each pair's start.
//
// Writes its sections of BENCHMARKS.md (`identities`, `identities-postgresql`). SQLite by default; PostgreSQL with
// DATABASE_URL=postgres://… (as bench/run.ts sets it from BENCH_POSTGRES_URL): each service makes its own database.
// Options: BENCH_IDENTITIES_ROUNDS (4), BENCH_IDENTITIES_PAIRS (2 per phase per round), BENCH_IDENTITIES_VOTERS
// (5000), BENCH_IDENTITIES_PHASES (returning,new: a subset leaves BENCHMARKS.md alone), BENCH_DURATION_S (8),
// BENCH_CONNECTIONS (50), BENCH_WARMUP_S (2), BENCH_OURS_DIR, BENCH_IDENTITIES_BEFORE (c7649d3; `off`: the identity step
// alone, against ours's own commit with bench/identities-off.patch, in sections of their own),
// BENCH_IDENTITIES_BUDGET_S (from the counts above; ~14 min by default, a run takes ~11), BENCH_CPU_PROF=<dir>
// (--cpu-prof on both services, a directory per side and round; BENCHMARKS.md is then left alone),
// BENCH_IDENTITIES_REPORT=0 (leave BENCHMARKS.md alone), BENCH_KEEP_DB=1.
//
// Reading (2026-11-29, session 24; the source of 20a2857; 12 pairs a phase; BENCHMARKS.md, "…the identity step alone,
// and the commit before it"): the identity step alone (BENCH_IDENTITIES_BEFORE=off) reads 0.97x (95% interval
// 0.94-1.00x) for returning voters and 0.95x (0.93-0.97x) for a new voter per vote on SQLite, 0.94x (0.91-0.96x) and
// 0.96x (0.94-0.98x) on PostgreSQL: within 10% on both. Against c7649d3: SQLite 0.93x (0.91-0.96x) and 0.91x
// (0.89-0.94x), PostgreSQL 0.93x (0.91-0.96x) and 0.97x (0.94-0.99x). Earlier readings and profiles are in
// BENCHMARKS.md under "Voters' identities on ingest".
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type { RunningChild } from './lib/child.js';
import { cpuPerVote, nowMs, startCpuMeter } from './lib/cpu.js';
import { benchDialect, openBenchDatabase, type BenchDatabase } from './lib/database.js';
import { QUIET_LIMIT_MS, QUIET_SHARE, QUIET_WINDOW_MS, SETTLE_MS, oursFirst, pairHeader, pairRow, pairSummary, pairUp, quiet, verdict } from './lib/pairs.js';
import { attempter, consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { ROOT, api, createClient, duration, envNumber, machineLoad, ms, percentile, serviceEnv, thousands } from './lib/service.js';
import { LogWatch, type Side, createOrgIn, makeRunDir, prepareSides, removeRunFiles, startServiceIn, stopAfter } from './lib/sides.js';

const DIALECT = benchDialect();
const ROUNDS = envNumber('BENCH_IDENTITIES_ROUNDS', 4, true);
/** Pairs per phase per round (each service started once per round). */
const PAIRS = envNumber('BENCH_IDENTITIES_PAIRS', 2, true);
const VOTERS = envNumber('BENCH_IDENTITIES_VOTERS', 5_000, true);
const DURATION_S = envNumber('BENCH_DURATION_S', 8, false);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50, true);
const WARMUP_S = envNumber('BENCH_WARMUP_S', 2, false);
const OURS_DIR = resolve(process.env.BENCH_OURS_DIR || ROOT);
/**
 * `off`: before is ours's own commit with bench/identities-off.patch applied (no identities: each vote keyed on its
 * name as before voters, nothing looked up, locked or written for voters), so the pairs measure the identity step
 * alone; BENCHMARKS.md's sections are then `identities-step` and `identities-step-postgresql`.
 */
const STEP_ONLY = process.env.BENCH_IDENTITIES_BEFORE === 'off';
const BEFORE_REF = STEP_ONLY ? 'HEAD' : process.env.BENCH_IDENTITIES_BEFORE || 'c7649d3';
const OFF_PATCH = 'bench/identities-off.patch';
const RATE = envNumber('BENCH_RATE', 0, false);
/** together (default): both sides of a pair under load at once; apart: one after the other, the order swapping. */
const MODE = process.env.BENCH_IDENTITIES_MODE ?? 'together';
if (MODE !== 'together' && MODE !== 'apart') {
  console.error(`BENCH_IDENTITIES_MODE is ${MODE}: together or apart`);
  process.exit(2);
}
const TOGETHER = MODE === 'together';
type Phase = 'returning' | 'new';
const ALL_PHASES: Phase[] = ['returning', 'new'];
const PHASES = ALL_PHASES.filter((p) =>
  (process.env.BENCH_IDENTITIES_PHASES ?? 'returning,new')
    .split(',')
    .map((s) => s.trim())
    .includes(p),
);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
/** Hard bound: per round two services started (~40 s each with their seeding) and per pair two measurements, with room. */
const BUDGET_S = envNumber('BENCH_IDENTITIES_BUDGET_S', ROUNDS * (100 + PHASES.length * PAIRS * 2 * (DURATION_S + 12)) + 180, false);
/** The verdict's line: ours / before at or above this over the whole interval. */
const BUDGET_RATIO = 0.9;
if (PHASES.length === 0) {
  console.error('BENCH_IDENTITIES_PHASES names no phase (returning, new)');
  process.exit(2);
}

const SECRET_KEY = 'bench-identities-secret-key-0123456789abcdef';
const AUTH = 'bench-identities-hook-secret';
const HEADERS = { 'content-type': 'application/json', authorization: AUTH };
/** Keep-alive sockets seeding the returning voters (not measured). */
const SEED_SOCKETS = 50;

// ---- the votes ----------------------------------------------------------------------------------------------------

/** Returning voter i: a fixed 18-digit snowflake and a fixed name. */
const returningId = (i: number) => (300_000_000_000_000_000n + BigInt(i) * 104_729n).toString();
const returningName = (i: number) => `Player_${String(i).padStart(5, '0')}`;
/** A new voter per vote: snowflake and name from the run's vote counter (never repeated within a run). */
const newId = (n: number) => (700_000_000_000_000_000n + BigInt(n)).toString();
const newName = (n: number) => `Newcomer_${n}`;
/** Makes every body unique (the duplicate window would drop a repeated one). */
let nonce = 0;
/**
 * The order returning voters come back in: a fixed shuffle (the same every run), not the order they first voted in.
 * Their key order in before's tables is their names' (Player_00000 …) and in ours's their voter ids' (the order of
 * their first votes): voters in turn would write neighbouring index entries, few pages a batch, on both sides, and
 * before's more neighbouring than ours's; a site's voters come back in no such order.
 */
const returnOrder = (() => {
  const order = Array.from({ length: VOTERS }, (_, i) => i);
  let seed = 0x9e3779b9;
  const next = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
})();
/** Where the returning voters' turn is. */
let cycle = 0;
const voteBody = (discordId: string, name: string) =>
  JSON.stringify({ bot: '1', user: discordId, username: name, type: 'upvote', isWeekend: false, query: `?n=${nonce++}` });
const returningBody = (i: number) => voteBody(returningId(i), returningName(i));
function nextBody(phase: Phase): string {
  if (phase === 'returning') return returningBody(returnOrder[cycle++ % VOTERS]);
  const n = nonce;
  return voteBody(newId(n), newName(n));
}

const started = performance.now();
/** Past BUDGET_S the run stops (and the before worktree goes). */
stopAfter(BUDGET_S, 'identities');

// ---- the services (bench/lib/sides.ts) ----------------------------------------------------------------------------

const envFor = (database: BenchDatabase) =>
  serviceEnv({
    DATABASE_URL: database.url,
    SECRET_KEY,
    LOG_LEVEL: 'info',
    DELIVERY_ENABLED: 'false',
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
    // Two services at once: neither takes the default Votifier port from the other.
    VOTIFIER_PORT: '0',
  });

// ---- measuring --------------------------------------------------------------------------------------------------

interface Counts {
  votes: number;
  /** Ours only (before has no such tables). */
  voters: number | null;
  identities: number | null;
}

async function counts(database: BenchDatabase, side: Side): Promise<Counts> {
  const votes = await database.count('SELECT COUNT(*) AS n FROM "Vote"');
  if (side.id !== 'ours') return { votes, voters: null, identities: null };
  return {
    votes,
    voters: await database.count('SELECT COUNT(*) AS n FROM "Voter"'),
    identities: await database.count('SELECT COUNT(*) AS n FROM "VoterIdentity"'),
  };
}

/** Counts once requests still in flight have landed (two equal vote counts 300 ms apart, at most ~5 s). */
async function settledCounts(database: BenchDatabase, side: Side): Promise<Counts> {
  let previous = await counts(database, side);
  for (let i = 0; i < 16; i++) {
    await sleep(300);
    const current = await counts(database, side);
    if (current.votes === previous.votes) return current;
    previous = current;
  }
  return previous;
}

interface LoadResult {
  accepted: number;
  durationS: number;
  latencies: Float64Array;
  non2xx: string;
  errors: string;
}

async function load(url: string, phase: Phase, durationS: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds = new Map<string, number>();
  // `requests` is autocannon's, outside bench/types' minimal typings: passed through a variable.
  const options: autocannon.Options & { requests: { setupRequest: (r: { body?: string }) => { body: string } }[] } = {
    url,
    method: 'POST',
    headers: HEADERS,
    body: '{}',
    requests: [{ setupRequest: (request) => ({ ...request, body: nextBody(phase) }) }],
    connections: CONNECTIONS,
    pipelining: 1,
    duration: durationS,
    timeout: 10,
    // An investigation's fixed rate (the code's CPU per vote without the contention of a saturated machine).
    ...(RATE ? { overallRate: RATE } : {}),
  };
  const instance = autocannon(options);
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  instance.on('reqError', (err: Error) => {
    const kind = (err as NodeJS.ErrnoException).code ?? err.message;
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  });
  const result = await instance;
  return {
    accepted: latencies.length,
    durationS: result.duration,
    latencies: Float64Array.from(latencies).sort(),
    non2xx: Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${code}×${count}`)
      .join(', '),
    errors: [...errorKinds].map(([kind, n]) => `${kind}×${n}`).join(', '),
  };
}

/** One vote by hand: fail fast (with the answer) if the hook does not take a vote. */
async function probe(url: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: voteBody('123456789012345678', 'Probe') });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`probe answered ${res.status}: ${text.slice(0, 500)}`);
}

/** One vote from each returning voter (throws unless all are answered 200). */
async function seed(port: number, path: string): Promise<void> {
  const client = createClient(port, HEADERS, SEED_SOCKETS);
  const refused = new Map<string, number>();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: SEED_SOCKETS }, async () => {
        while (next < VOTERS) {
          const res = await client.request('POST', path, returningBody(next++));
          if (res.status !== 200) refused.set(`${res.status} ${res.body.slice(0, 200)}`, (refused.get(`${res.status} ${res.body.slice(0, 200)}`) ?? 0) + 1);
        }
      }),
    );
  } finally {
    client.close();
  }
  if (refused.size > 0) throw new Error(`the hook refused seeding votes: ${[...refused].map(([answer, n]) => `${n}× ${answer}`).join('; ')}`);
}

interface Run {
  round: number;
  side: Side;
  database: BenchDatabase;
  logs: LogWatch;
  service: RunningChild | null;
  url: string;
}

/** A fresh database and the service of `side` on it: organization, provider, probe, the returning voters, warm-up. */
async function prepareRun(round: number, side: Side, dir: string): Promise<Run> {
  const tag = `[round ${round} ${side.id}]`;
  const database = await openBenchDatabase(join(dir, `${round}-${side.id}.db`));
  const run: Run = { round, side, database, logs: new LogWatch(), service: null, url: '' };
  try {
    const env = envFor(database);
    const apiKey = await createOrgIn(side, env);
    const profDir = CPU_PROF_DIR ? join(CPU_PROF_DIR, `${side.id}-${round}`) : null;
    if (profDir) mkdirSync(profDir, { recursive: true });
    run.service = await startServiceIn(side, env, run.logs, profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []);
    const base = `http://127.0.0.1:${run.service.port}`;
    const provider = await api<{ data: { webhook_url: string } }>(base, apiKey, 'POST', '/v1/providers', {
      key: 'botlist',
      name: 'Bot list',
      auth_method: 'header',
      auth_field: 'Authorization',
      auth_value: AUTH,
      votee_path: 'username',
      discord_id_path: 'user',
    });
    const read = await api<{ data?: { discord_id_path?: unknown }; discord_id_path?: unknown }>(base, apiKey, 'GET', '/v1/providers/botlist');
    if ((read.data ?? read).discord_id_path !== 'user') throw new Error(`the provider was made without discord_id_path: ${JSON.stringify(read)}`);
    const path = new URL(provider.data.webhook_url).pathname;
    run.url = `${base}${path}`;
    await probe(run.url);
    const startedSeeding = nowMs();
    await seed(run.service.port, path);
    console.log(
      `${tag} ${thousands(VOTERS)} returning voters seeded in ${((nowMs() - startedSeeding) / 1000).toFixed(1)} s; warm-up ${WARMUP_S} s (not counted)`,
    );
    await load(run.url, 'returning', WARMUP_S);
    if (side.id === 'ours') {
      const c = await settledCounts(database, side);
      if ((c.voters ?? 0) < VOTERS + 1) throw new Error(`only ${c.voters} voters after seeding ${VOTERS} (and the probe)`);
    }
    return run;
  } catch (err) {
    await closeRun(run);
    throw err;
  }
}

async function closeRun(run: Run): Promise<void> {
  await run.service?.stop();
  if (process.env.BENCH_KEEP_DB !== '1') await run.database.drop();
}

interface Measurement {
  round: number;
  pair: number;
  phase: Phase;
  side: Side;
  perS: number;
  accepted: number;
  stored: number;
  /** Ours: new Voter and VoterIdentity rows. */
  voters: number | null;
  identities: number | null;
  ok: boolean;
  p50: number;
  p99: number;
  cpuUs: number | null;
  cpuShare: number;
  pgCpuUs: number | null;
  load: string;
  notes: string[];
}

/** One side's measurement begun: its counts and CPU meter before the load. */
interface Begun {
  run: Run;
  loadText: string;
  countsBefore: Counts;
  meter: Awaited<ReturnType<typeof startCpuMeter>>;
}

async function begin(run: Run): Promise<Begun> {
  return {
    run,
    loadText: machineLoad(),
    countsBefore: await counts(run.database, run.side),
    meter: await startCpuMeter(run.service!.process.pid!, run.database),
  };
}

/** One side measured on its own (the other one idle). */
async function measure(run: Run, phase: Phase, pair: number): Promise<Measurement> {
  await sleep(SETTLE_MS);
  const begun = await begin(run);
  const result = await load(run.url, phase, DURATION_S);
  return finish(begun, result, await begun.meter.stop(), phase, pair);
}

/**
 * Both sides measured at once, each under its own load of CONNECTIONS connections (MODE together): they share every
 * moment of the machine (its cores, the disk's flushes, other work), so the pair's ratio is the two services' cost
 * under one machine state, where two measurements back to back saw that state change within seconds.
 */
async function measureTogether(runs: Run[], phase: Phase, pair: number): Promise<Measurement[]> {
  await sleep(SETTLE_MS);
  const begun = await Promise.all(runs.map(begin));
  const results = await Promise.all(runs.map((run) => load(run.url, phase, DURATION_S)));
  const spent = await Promise.all(begun.map((b) => b.meter.stop()));
  const out: Measurement[] = [];
  for (const [i, b] of begun.entries()) out.push(await finish(b, results[i], spent[i], phase, pair));
  return out;
}

async function finish(
  { run, loadText, countsBefore }: Begun,
  result: LoadResult,
  spent: Awaited<ReturnType<Begun['meter']['stop']>>,
  phase: Phase,
  pair: number,
): Promise<Measurement> {
  const { round, side, database } = run;
  const tag = `[${phase} ${round}.${pair} ${side.id}${TOGETHER ? ', together' : ''}]`;
  const countsAfter = await settledCounts(database, side);
  const stored = countsAfter.votes - countsBefore.votes;
  const voters = countsAfter.voters === null || countsBefore.voters === null ? null : countsAfter.voters - countsBefore.voters;
  const identities = countsAfter.identities === null || countsBefore.identities === null ? null : countsAfter.identities - countsBefore.identities;
  const notes: string[] = [];
  let ok = stored >= result.accepted && result.accepted > 0;
  if (!ok) notes.push(`**${thousands(result.accepted)} votes answered 2xx but ${thousands(stored)} new rows stored**`);
  if (voters !== null && identities !== null) {
    // Returning voters: every vote finds its voter (none made); new voters: one voter and one identity per stored vote.
    const want = phase === 'returning' ? 0 : stored;
    if (voters !== want || identities !== want) {
      ok = false;
      notes.push(
        `**${thousands(voters)} new voters and ${thousands(identities)} new identities for ${thousands(stored)} stored votes (expected ${thousands(want)} each)**`,
      );
    }
  }
  if (CPU_PROF_DIR)
    notes.push(
      `profiles in ${CPU_PROF_DIR}/${side.id}-${round}; the measurement in --cpu-prof's clock (µs): ${Math.round(spent.from * 1000)}–${Math.round(spent.to * 1000)}`,
    );
  if (result.non2xx) notes.push(`non-2xx answers ${result.non2xx}`);
  if (result.errors) notes.push(`request errors ${result.errors}`);
  const m: Measurement = {
    round,
    pair,
    phase,
    side,
    perS: result.accepted / result.durationS,
    accepted: result.accepted,
    stored,
    voters,
    identities,
    ok,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    ...cpuPerVote(spent, result.accepted, database.dialect),
    load: loadText,
    notes,
  };
  console.log(
    `${tag} ${thousands(m.perS)} votes/s (p50 ${ms(m.p50)} ms, p99 ${ms(m.p99)} ms), stored ${thousands(stored)} / ${thousands(result.accepted)}` +
      `${voters === null ? '' : `, +${thousands(voters)} voters, +${thousands(identities ?? 0)} identities`}` +
      `${m.cpuUs === null ? '' : `, service CPU ${thousands(m.cpuUs)} µs/vote`}${m.pgCpuUs === null ? '' : ` + ${thousands(m.pgCpuUs)} µs in PostgreSQL`}` +
      `${notes.length > 0 ? `; ${notes.join('; ').replaceAll('**', '')}` : ''}`,
  );
  return m;
}

// ---- the tables (the pairs' statistics: bench/lib/pairs.ts) ---------------------------------------------------

const storedText = (m: Measurement | undefined) => {
  if (!m) return 'n/a';
  const rows = `${thousands(m.stored)} / ${thousands(m.accepted)}`;
  const voters = m.voters === null ? '' : ` (+${thousands(m.voters)} voters, +${thousands(m.identities ?? 0)} identities)`;
  return m.ok ? `${rows}${voters}` : `**${rows}${voters}**`;
};
const perS = (m: Measurement) => m.perS;

// ---- the run ------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const { ours, before } = prepareSides({
    // Off: ours's own commit (a worktree's HEAD, BENCH_OURS_DIR), the patch applied.
    oursDir: OURS_DIR,
    beforeRef: STEP_ONLY ? execFileSync('git', ['-C', OURS_DIR, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim() : BEFORE_REF,
    bench: 'identities',
    dialect: DIALECT,
    patch: STEP_ONLY ? OFF_PATCH : undefined,
  });
  const dir = makeRunDir('identities');
  const measurements: Measurement[] = [];
  const failures: string[] = [];
  const serviceLog: string[] = [];
  const quietNotes: string[] = [];
  const load1 = machineLoad();
  const attempt = attempter(failures);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Both services made ready first (each on its own fresh database, seeded and warmed up); then per pair the two
      // measurements back to back, the order swapping every pair, so a drift of the machine's speed favours neither.
      const runs: Run[] = [];
      try {
        for (const side of [ours, before]) {
          const run = await attempt(`round ${round}, ${side.id}`, () => prepareRun(round, side, dir));
          if (run) runs.push(run);
        }
        if (runs.length < 2) continue;
        for (const phase of PHASES) {
          for (let pair = 1; pair <= PAIRS; pair++) {
            if (TOGETHER) {
              for (const run of runs) {
                const unsettled = await run.database.settle();
                if (unsettled) quietNotes.push(`${phase} ${round}.${pair} ${run.side.id}: ${unsettled}`);
              }
              const waited = await quiet(runs.map((r) => r.service!.process.pid!));
              const both = await attempt(`${phase} ${round}.${pair}, together`, () => measureTogether(runs, phase, pair));
              if (!both) continue;
              if (waited === null)
                quietNotes.push(
                  `${phase} ${round}.${pair}: the services were not quiet (under ${QUIET_SHARE * 100}% of a core) within ${QUIET_LIMIT_MS / 1000} s`,
                );
              measurements.push(...both);
              continue;
            }
            const order = oursFirst(round, pair, PAIRS) ? runs : [...runs].reverse();
            for (const run of order) {
              // The server left as each measurement should find it: the run before's pages written, no autovacuum
              // (without it, whichever side went second paid for the first's writes: 10-15% in a run).
              const unsettled = await run.database.settle();
              if (unsettled) quietNotes.push(`${phase} ${round}.${pair} ${run.side.id}: ${unsettled}`);
              const waited = await quiet(runs.map((r) => r.service!.process.pid!));
              const m = await attempt(`${phase} ${round}.${pair}, ${run.side.id}`, () => measure(run, phase, pair));
              if (!m) continue;
              if (waited === null)
                quietNotes.push(
                  `${phase} ${round}.${pair} ${run.side.id}: the services were not quiet (under ${QUIET_SHARE * 100}% of a core) within ${QUIET_LIMIT_MS / 1000} s`,
                );
              measurements.push(m);
            }
          }
        }
      } finally {
        for (const run of runs) await closeRun(run);
        for (const run of runs) for (const line of run.logs.summary()) serviceLog.push(`round ${round} ${run.side.id}: ${line}`);
      }
    }
  } finally {
    removeRunFiles(dir);
  }
  const load2 = machineLoad();
  const totalS = (performance.now() - started) / 1000;

  // ---- tables
  const header = pairHeader('Pair (round.pair)', ['p99 ms (ours; before)', 'Stored / accepted (ours; before)']);
  const measuredIn = (phase: Phase) => measurements.filter((m) => m.phase === phase);
  const pairsOf = (phase: Phase) => pairUp(measuredIn(phase), (m) => m.pair);
  const rowsOf = (phase: Phase) =>
    pairsOf(phase).map((pair) => {
      const { o, p } = pair;
      return pairRow(
        pair,
        perS,
        PAIRS,
        [`${o ? ms(o.p99) : 'n/a'}; ${p ? ms(p.p99) : 'n/a'}`, `${storedText(o)}; ${storedText(p)}`],
        TOGETHER ? 'together' : undefined,
      );
    });
  const summaryOf = (phase: Phase) => pairSummary(measuredIn(phase), pairsOf(phase), perS, DIALECT);
  const verdictOf = (phase: Phase) => verdict(pairsOf(phase), perS, BUDGET_RATIO, { above: 'at or above', spread: 'what is to be shown' });
  const phaseTitle = (phase: Phase) =>
    phase === 'returning'
      ? `Returning voters (${thousands(VOTERS)} voters again, in a fixed shuffled order: each vote finds its voter by its Discord id)`
      : 'A new voter per vote (each vote makes a voter and its identity: the worst case)';
  const title = `Voters: what ${STEP_ONLY ? 'the identity step alone costs' : 'identities cost'} on ingest${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}`;
  const plain = (rows: string[][]) => rows.map((r) => r.map((c) => c.replaceAll('**', '')));
  console.log(`\n${title} — ${DURATION_S} s per measurement, ${CONNECTIONS} connections\n`);
  for (const phase of PHASES) {
    console.log(`${phaseTitle(phase)}:`);
    console.log(consoleTable(header, plain(rowsOf(phase))));
    console.log(summaryOf(phase));
    console.log(`Within 10%: ${verdictOf(phase).replaceAll('**', '')}\n`);
  }
  const notes = [
    ...measurements.flatMap((m) => m.notes.map((n) => `${m.phase} ${m.round}.${m.pair} ${m.side.id}: ${n}`)),
    ...quietNotes,
    ...(serviceLog.length > 0 ? serviceLog.map((l) => `service log, ${l}`) : ['service log: no warning, no error']),
  ];
  for (const n of notes) console.log(`note: ${n.replaceAll('**', '')}`);
  for (const f of failures) console.error(`\n!!! FAILED: ${f}`);

  const code = failures.length > 0 || measurements.some((m) => !m.ok) ? 1 : 0;
  if (measurements.length === 0) {
    console.error('\nBENCHMARKS.md left unchanged (nothing could be measured).');
    return 1;
  }
  if (CPU_PROF_DIR || PHASES.length !== ALL_PHASES.length || process.env.BENCH_IDENTITIES_REPORT === '0') {
    console.log(
      `\nBENCHMARKS.md left unchanged (BENCH_CPU_PROF, BENCH_IDENTITIES_PHASES or BENCH_IDENTITIES_REPORT=0: an investigation; run took ${duration(totalS)}).`,
    );
    return code;
  }

  const section = [
    `## ${title}`,
    '',
    'Measured by `bench/identities.ts` (`npx tsx bench/run.ts identities`). Each stored vote is resolved in its transaction to a voter by its ' +
      'identities, a Discord id before a name (`Voter`, `VoterIdentity`; issue 37, whose budget is: the identity step costs at most 10% of ' +
      'accepted votes per second, against the commit before it, measured in the same run).',
    '',
    `- **ours**: ${ours.commit} (${ours.dir === ROOT ? 'the repository' : 'a worktree of it'}); **before**: ${before.commit}, ` +
      (STEP_ONLY
        ? `the same commit with \`${OFF_PATCH}\` applied (\`BENCH_IDENTITIES_BEFORE=off\`): no identities, each vote keyed on its name as ` +
          'before voters, nothing looked up, locked or written for voters, everything else the same; so ours / before is the identity step alone'
        : 'the last commit before voters') +
      ' (a worktree of it, its own generated Prisma clients). Each service: a fresh ' +
      `${DIALECT === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'} migrated by its own CLI, \`node --import tsx src/main.ts\` from the ` +
      "side's own directory (`LOG_LEVEL=info`, deliveries off), one organization with one provider (header auth, `votee_path` `username`, " +
      '`discord_id_path` `user`; no `voter_kind`, which before does not know). Body: ' +
      '`{"bot":"1","user":"<18-digit snowflake>","username":"<name>","type":"upvote","isWeekend":false,"query":"?n=<unique>"}`.',
    `- Per round (${ROUNDS}) both services are started and get a probe vote, one vote from each of ${thousands(VOTERS)} returning voters and ` +
      `${WARMUP_S} s of returning-voter load (not counted). Then per phase ${PAIRS} pairs: ` +
      (TOGETHER
        ? 'the two services measured at once, each under its own load (`BENCH_IDENTITIES_MODE=together`: they share every moment of the machine, ' +
          "its cores, the disk's flushes and other work; measured one after the other on this machine, one service moved from 804 to 1,552 " +
          'votes/s within minutes, its CPU per vote with it)'
        : 'the two services measured back to back (`BENCH_IDENTITIES_MODE=apart`), ours first in odd pairs and before first in even ones') +
      `, once both services are quiet (under ${QUIET_SHARE * 100}% of a core over ${QUIET_WINDOW_MS / 1000} s) and ${SETTLE_MS / 1000} s on` +
      `${DIALECT === 'postgresql' ? '; on PostgreSQL first a CHECKPOINT, and no autovacuum worker running, so that no side pays for the writes of the measurement before it' : ''}. ` +
      `One measurement: autocannon in the benchmark's process, ${DURATION_S} s, ${CONNECTIONS} ` +
      'connections per service, a unique body per request; only 2xx answers count. "Stored / accepted": new votes in the database / 2xx answers ' +
      '(must be at least 1), and for ours the new Voter and VoterIdentity rows (returning voters: none; new voters: one each per stored vote). ' +
      '"Service CPU per vote": the service process, every thread, over the measured run' +
      `${DIALECT === 'postgresql' ? ', plus the CPU of the PostgreSQL backends serving it' : ''}. The interval is a 95% t-interval of the ` +
      "pairs' log ratios: each pair is one sample of ours / before under the conditions of its few seconds. Within 10%: only when the whole " +
      `interval is at or above ${BUDGET_RATIO.toFixed(2)}×.`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the services, autocannon and other sessions' work share these cores): before ${load1}; after ${load2}`,
    `- Node: ${process.version}`,
    `- Commits: ours ${ours.commit}, before ${before.commit}; bench/identities.ts at ${gitCommit(ROOT)}`,
    `- Run took ${duration(totalS)}`,
    ...PHASES.flatMap((phase) => [
      '',
      `### ${phaseTitle(phase)}`,
      '',
      markdownTable(header, rowsOf(phase)),
      '',
      summaryOf(phase),
      '',
      `Within 10%: ${verdictOf(phase)}`,
    ]),
    '',
    ...notes.map((n) => `- ${n}`),
    ...failures.map((f) => `- **FAILED**: ${f}`),
  ].join('\n');
  const id = STEP_ONLY ? 'identities-step' : 'identities';
  writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'sqlite' ? id : `${id}-postgresql`, section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalS)}).`);
  return code;
}

process.exitCode = await main();
