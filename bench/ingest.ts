// Ingest benchmark: accepted votes per second, p50/p99 latency, for three targets on embedded SQLite
// (WAL, synchronous=FULL), each acknowledging only after the write:
//   ours  the real service (src/main.ts), POST /hooks/<org>/<provider> with a top.gg-legacy body and header auth;
//   (a)   bench/baselines/topgg-sdk-express.ts: express + the official @top-gg/sdk Webhook listener, one INSERT;
//   (b)   bench/baselines/bare-http.ts: bare node:http, JSON.parse, header check, one INSERT (the ceiling).
// Each target is its own child process; autocannon drives it from this process (warm-up first, not counted),
// with a unique body per request (the service answers repeated bodies as duplicates without storing them).
// Only 2xx answers count as accepted; afterwards the target's database must hold at least that many new rows.
// On Linux it also prints each target's CPU per accepted vote over the measured run (its process, every thread, and on
// PostgreSQL the backends serving it: bench/lib/cpu.ts), which says where the time went when the machine's speed moves.
// Writes its section of BENCHMARKS.md. Options: BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_WARMUP_S (2);
// for investigations: BENCH_TARGETS=ours,a,b (a subset; BENCHMARKS.md is then left alone) and
// BENCH_SERVICE_NODE_ARGS (extra node flags for ours, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), and
// BENCH_REWARDS=1 (ours with rewards events set up: setUpRewards; BENCHMARKS.md is then left alone),
// BENCH_VOTERS=N (votes from N returning voters in turn instead of a new voter per vote; BENCHMARKS.md is then left alone),
// BENCH_WEB_CONCURRENCY=N (ours as N processes; on SQLite they write through the primary; BENCHMARKS.md is then left alone) with
// BENCH_REDIS_URL (ours's REDIS_URL; several processes need one, redis://127.0.0.1:6379 unless set), and
// BENCH_DIRECT_HOOK=node|graphql|express|rest (ours's hooks taken a leaner way beside the service: without Express, or
// without GraphQL, or both: bench/diagnostics/direct-hook.ts, to measure what those layers cost; BENCHMARKS.md is then
// left alone).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { runNode, startChild, type RunningChild } from './lib/child.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { benchDialect, openBenchDatabase } from './lib/database.js';
import { cpuSeconds } from './lib/cpu.js';

const DIALECT = benchDialect();

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function envNumber(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    console.error(`${name} must be a positive ${integer ? 'integer' : 'number'} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const DURATION_S = envNumber('BENCH_DURATION_S', 10, false);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50, true);
const WARMUP_S = envNumber('BENCH_WARMUP_S', 2, false);
const PROCESSES = envNumber('BENCH_WEB_CONCURRENCY', 1, true);
const REDIS_URL = process.env.BENCH_REDIS_URL || (PROCESSES > 1 ? 'redis://127.0.0.1:6379' : '');
const PIPELINING = 1;
const REWARDS = process.env.BENCH_REWARDS === '1';
const DIRECT_HOOK = process.env.BENCH_DIRECT_HOOK ?? '';
/** BENCH_VOTERS=N: votes come from N returning voters in turn (each body still unique), not a new voter per vote. */
const VOTERS = process.env.BENCH_VOTERS ? envNumber('BENCH_VOTERS', 1, true) : null;
const AUTH = 'bench-secret-0123456789';
/** top.gg legacy webhook body; autocannon replaces [<id>] with a fresh id per request. */
const BODY = '{"bot":"1","user":"[<id>]","type":"upvote","isWeekend":false,"query":""}';
const HEADERS = { 'content-type': 'application/json', authorization: AUTH };

// Hard bound on the whole run: a target that hangs must not hold a CI job (or `npm run bench`) forever.
const BUDGET_MS = 3 * (WARMUP_S + DURATION_S + 30) * 1000;
setTimeout(() => {
  console.error(`\n!!! ingest benchmark exceeded its ${BUDGET_MS / 1000} s budget; stopping`);
  process.exit(1);
}, BUDGET_MS).unref();

/** The service reads only its own variables; drop any the caller's shell sets so the run is reproducible. */
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'PUBLIC_BASE_URL',
  'HOOK_BASE_URL',
  'REDIS_URL',
  'SECRET_KEY',
  'ALLOW_PRIVATE_TARGETS',
  'RETRY_SCHEDULE',
  'LOG_LEVEL',
  'API_RATE_LIMIT_PER_MINUTE',
  'HOOK_RATE_LIMIT_PER_MINUTE',
  'IP_RATE_LIMIT_PER_MINUTE',
  'DELIVERY_CONCURRENCY',
  'DELIVERY_ENABLED',
  'GRAPHQL_INTROSPECTION',
  'TRUST_PROXY',
  'SHUTDOWN_TIMEOUT_MS',
  'WEB_CONCURRENCY',
  'INSTANCE_ID',
];

function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete env[name];
  return env;
}

interface PreparedTarget {
  child: RunningChild;
  url: string;
  /** Rows stored so far. */
  count(): Promise<number>;
  /** Drops a PostgreSQL database made for the run (nothing for SQLite files). */
  drop(): Promise<void>;
  /** The database server's processes serving the target (PostgreSQL backends; none for SQLite). */
  backendPids(): Promise<number[]>;
}

interface TargetSpec {
  id: 'ours' | 'a' | 'b';
  label: string;
  prepare(dir: string): Promise<PreparedTarget>;
}

/**
 * BENCH_REWARDS=1: the organization counts rewards events too (README "Rewards"): a milestone rule, a vote party every
 * 100 votes, reminders on a site with a 12-hour cooldown, and a callback taking those events (delivery stays off, so
 * their jobs wait in the queue). Every vote then also moves its voter's reminder and the party count.
 */
async function setUpRewards(base: string, apiKey: string) {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  };
  await call('PATCH', '/v1/providers/topgg', { vote_cooldown: { hours: 12 } });
  await call('PATCH', '/v1/organization', { settings: { milestones: [{ type: 'total', every: 10 }], vote_party_every: 100, reminders_enabled: true } });
  await call('POST', '/v1/callbacks', { name: 'rewards', url: 'http://127.0.0.1:9/rewards', events: ['milestone', 'vote_party', 'reminder'] });
}

async function prepareOurs(dir: string): Promise<PreparedTarget> {
  const database = await openBenchDatabase(join(dir, 'vr.db'));
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    SECRET_KEY: 'bench-secret-key-0123456789abcdef',
    DELIVERY_ENABLED: 'false',
    HOOK_RATE_LIMIT_PER_MINUTE: '100000000',
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    WEB_CONCURRENCY: String(PROCESSES),
    ...(REDIS_URL ? { REDIS_URL } : {}),
    // The rewards callback's receiver is on this machine (it is never called: delivery is off).
    ...(REWARDS ? { ALLOW_PRIVATE_TARGETS: 'true' } : {}),
  };
  const created = await runNode(['--import', 'tsx', 'src/cli/main.ts', 'org', 'create', '--slug', 'bench', '--name', 'Bench', '--plan', 'business', '--json'], {
    cwd: ROOT,
    env,
    timeoutMs: 60_000,
  });
  const jsonLine = created
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .at(-1);
  const apiKey = jsonLine ? (JSON.parse(jsonLine) as { api_key?: { key?: unknown } }).api_key?.key : undefined;
  if (typeof apiKey !== 'string') throw new Error(`org create printed no API key:\n${created}`);

  const extraArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (DIRECT_HOOK && PROCESSES > 1) throw new Error('BENCH_DIRECT_HOOK runs one process');
  const child = await startChild({
    name: 'ours',
    args: [...extraArgs, '--import', 'tsx', DIRECT_HOOK ? 'bench/diagnostics/direct-hook.ts' : 'src/main.ts'],
    cwd: ROOT,
    env,
    // Several processes: once every worker listens (the primary's line), not the first worker's banner.
    listeningMessage: DIRECT_HOOK ? 'direct hook listening' : PROCESSES > 1 ? 'all workers listening' : 'vote relay listening',
  });
  try {
    const base = `http://127.0.0.1:${child.port}`;
    const res = await fetch(`${base}/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'topgg', name: 'top.gg', auth_method: 'header', auth_field: 'Authorization', auth_value: AUTH, votee_path: 'user' }),
    });
    if (!res.ok) throw new Error(`POST /v1/providers answered ${res.status}: ${await res.text()}`);
    if (REWARDS) await setUpRewards(base, apiKey);
    return {
      child,
      url: `${base}/hooks/bench/topgg`,
      count: () => database.count('SELECT COUNT(*) AS n FROM "Vote"'),
      drop: () => database.drop(),
      backendPids: () => database.backendPids(),
    };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

function baseline(script: string, path: string) {
  return async (dir: string): Promise<PreparedTarget> => {
    const dbPath = join(dir, 'votes.db');
    // Same database kind as ours: a fresh PostgreSQL database in the PostgreSQL mode, else a SQLite file.
    const database = await openBenchDatabase(dbPath);
    const env = {
      ...baseEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      BENCH_DB: dbPath,
      BENCH_DB_URL: database.dialect === 'postgresql' ? database.url : '',
      WEBHOOK_AUTH: AUTH,
    };
    const child = await startChild({ name: script, args: ['--import', 'tsx', `bench/baselines/${script}`], cwd: ROOT, env, listeningMessage: 'listening' });
    return {
      child,
      url: `http://127.0.0.1:${child.port}${path}`,
      count: () => database.count('SELECT COUNT(*) AS n FROM votes'),
      drop: () => database.drop(),
      backendPids: () => database.backendPids(),
    };
  };
}

const ALL_TARGETS: TargetSpec[] = [
  { id: 'ours', label: DIRECT_HOOK ? `ours, hooks taken the ${DIRECT_HOOK} way` : 'ours (vote relay hook)', prepare: prepareOurs },
  { id: 'a', label: '(a) express + @top-gg/sdk', prepare: baseline('topgg-sdk-express.ts', '/dblwebhook') },
  { id: 'b', label: '(b) bare node:http', prepare: baseline('bare-http.ts', '/votes') },
];
const ONLY = process.env.BENCH_TARGETS ? new Set(process.env.BENCH_TARGETS.split(',').map((id) => id.trim())) : null;
const TARGETS = ONLY ? ALL_TARGETS.filter((spec) => ONLY.has(spec.id)) : ALL_TARGETS;

/** Row count once requests still in flight have landed (two equal reads 300 ms apart, at most ~5 s). */
async function settledCount(target: PreparedTarget): Promise<number> {
  let previous = await target.count();
  for (let i = 0; i < 16; i++) {
    await sleep(300);
    const current = await target.count();
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}

/** One request by hand before the load: fail fast (with the answer) if the target does not accept a vote. */
async function probe(url: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: BODY.replace('[<id>]', `probe-${Date.now()}`) });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300) throw new Error(`probe answered ${res.status}: ${text.slice(0, 500)}`);
}

interface LoadResult {
  result: autocannon.Result;
  /** Latency (ms) of every 2xx answer, for exact percentiles (autocannon's histogram rounds to whole ms). */
  latencies: Float64Array;
  accepted: number;
  errorKinds: Map<string, number>;
}

let sent = 0;
/** BENCH_VOTERS: the next voter of the pool, with a body no earlier request had (a new vote, not a duplicate). */
function returningVoter(request: { body?: string }) {
  const n = sent++;
  return { ...request, body: JSON.stringify({ bot: '1', user: `voter-${n % VOTERS!}`, type: 'upvote', isWeekend: false, query: `?n=${n}` }) };
}

async function load(url: string, durationS: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds = new Map<string, number>();
  const instance = autocannon({
    url,
    method: 'POST',
    headers: HEADERS,
    body: BODY,
    idReplacement: true,
    ...(VOTERS ? { requests: [{ setupRequest: returningVoter }] } : {}),
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    duration: durationS,
    timeout: 10,
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  instance.on('reqError', (err: Error) => {
    const kind = (err as NodeJS.ErrnoException).code ?? err.message;
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  });
  const result = await instance;
  return { result, latencies: Float64Array.from(latencies).sort(), accepted: latencies.length, errorKinds };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Measurement {
  spec: TargetSpec;
  acceptedPerSecond: number;
  accepted: number;
  p50: number;
  p99: number;
  non2xx: number;
  non2xxByStatus: string;
  errors: number;
  errorKinds: string;
  stored: number;
  durationS: number;
  warmupAccepted: number;
  storageOk: boolean;
}

async function measure(spec: TargetSpec, dir: string): Promise<Measurement> {
  console.log(`\n[${spec.id}] starting ${spec.label}`);
  const target = await spec.prepare(dir);
  try {
    await probe(target.url);
    console.log(`[${spec.id}] listening on port ${target.child.port}; warm-up ${WARMUP_S} s (not counted)`);
    const warmup = await load(target.url, WARMUP_S);
    const before = await settledCount(target);
    console.log(`[${spec.id}] measuring ${DURATION_S} s with ${CONNECTIONS} connections`);
    const processes = { service: [target.child.process.pid!], database: await target.backendPids() };
    const cpuBefore = { service: cpuSeconds(processes.service), database: cpuSeconds(processes.database) };
    const run = await load(target.url, DURATION_S);
    // CPU per accepted vote over the measured run: the target's process (every thread) and, on PostgreSQL, the
    // backends serving it. Several processes (BENCH_WEB_CONCURRENCY) are not summed: left out.
    const cpuAfter = { service: cpuSeconds(processes.service), database: cpuSeconds(processes.database) };
    const perVote = (key: 'service' | 'database') => {
      const [from, to] = [cpuBefore[key], cpuAfter[key]];
      return from === null || to === null || PROCESSES > 1 || run.accepted === 0 ? null : ((to - from) * 1e6) / run.accepted;
    };
    const cpu = { service: perVote('service'), database: processes.database.length > 0 ? perVote('database') : null };
    if (cpu.service !== null)
      console.log(
        `[${spec.id}] CPU per accepted vote: ${Math.round(cpu.service)} µs in the target's process` +
          (cpu.database !== null ? `, ${Math.round(cpu.database)} µs in its ${processes.database.length} database backends` : ''),
      );
    // Stopping the target lets requests still in flight finish; then every acknowledged vote must be on disk.
    await target.child.stop();
    const after = await target.count();
    // BENCH_KEEP_DB=1 keeps the PostgreSQL databases too (for pgbench of the statements the log showed).
    if (process.env.BENCH_KEEP_DB !== '1') await target.drop();
    const { result } = run;
    const stored = after - before;
    const non2xxByStatus = Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${code}×${count}`)
      .join(', ');
    if (run.accepted !== result['2xx']) {
      console.warn(`[${spec.id}] note: counted ${run.accepted} 2xx answers, autocannon reports ${result['2xx']}`);
    }
    return {
      spec,
      acceptedPerSecond: run.accepted / result.duration,
      accepted: run.accepted,
      p50: percentile(run.latencies, 50),
      p99: percentile(run.latencies, 99),
      non2xx: result.non2xx,
      non2xxByStatus,
      errors: result.errors,
      errorKinds: [...run.errorKinds].map(([kind, count]) => `${kind}×${count}`).join(', '),
      stored,
      durationS: result.duration,
      warmupAccepted: warmup.accepted,
      storageOk: stored >= run.accepted,
    };
  } finally {
    await target.child.stop();
  }
}

const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : 'n/a');

async function main(): Promise<number> {
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-'));
  const started = Date.now();
  const measurements: Measurement[] = [];
  const failures: string[] = [];
  try {
    for (const spec of TARGETS) {
      try {
        const targetDir = join(dir, spec.id);
        mkdirSync(targetDir);
        measurements.push(await measure(spec, targetDir));
      } catch (err) {
        failures.push(`${spec.label}: ${(err as Error).message}`);
        console.error(`\n!!! ${spec.label} could not be measured: ${(err as Error).message}`);
      }
    }
  } finally {
    if (process.env.BENCH_KEEP_DB === '1') console.log(`\ndatabases kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }

  const header = ['Target', 'Accepted req/s', 'p50 ms', 'p99 ms', 'Non-2xx', 'Errors', 'Stored rows'];
  const rows = measurements.map((m) => [
    m.spec.label,
    m.acceptedPerSecond.toFixed(0),
    ms(m.p50),
    ms(m.p99),
    String(m.non2xx),
    String(m.errors),
    `${m.stored} / ${m.accepted}`,
  ]);
  const byId = new Map(measurements.map((m) => [m.spec.id, m]));
  const ours = byId.get('ours');
  const a = byId.get('a');
  const b = byId.get('b');
  const ratios =
    ours && a && b
      ? `ours/(a) = ${ratio(ours.acceptedPerSecond, a.acceptedPerSecond)}, ours/(b) = ${ratio(ours.acceptedPerSecond, b.acceptedPerSecond)} (accepted req/s)`
      : 'n/a (a target could not be measured)';
  // The targets (issue 39) at 50 connections: on SQLite ≥ 1.5 × (a) and ≥ 1.2 × (b) accepted req/s, on PostgreSQL
  // ≥ 1.0 × both; p99 < 50 ms (issue 26).
  const [aTimes, bTimes] = DIALECT === 'sqlite' ? [1.5, 1.2] : [1.0, 1.0];
  const aMet = !!ours && !!a && ours.acceptedPerSecond >= aTimes * a.acceptedPerSecond;
  const bMet = !!ours && !!b && ours.acceptedPerSecond >= bTimes * b.acceptedPerSecond;
  const p99Met = !!ours && ours.p99 < 50;
  const targetLine =
    `Target: ours ≥ ${aTimes.toFixed(1)} × (a) and ≥ ${bTimes.toFixed(1)} × (b) accepted req/s, ours p99 < 50 ms — ` +
    `vs (a) ${aMet ? 'met' : '**not met**'}${ours && a ? ` (${ratio(ours.acceptedPerSecond, a.acceptedPerSecond)})` : ''}, ` +
    `vs (b) ${bMet ? 'met' : '**not met**'}${ours && b ? ` (${ratio(ours.acceptedPerSecond, b.acceptedPerSecond)})` : ''}, ` +
    `p99 ${p99Met ? 'met' : '**not met**'}${ours ? ` (${ms(ours.p99)} ms)` : ''}.`;

  const notes: string[] = [];
  for (const m of measurements) {
    if (m.non2xx > 0) notes.push(`${m.spec.label}: non-2xx answers ${m.non2xxByStatus}`);
    if (m.errors > 0) notes.push(`${m.spec.label}: errors ${m.errorKinds || m.errors}`);
  }
  const storageWarnings = measurements
    .filter((m) => !m.storageOk)
    .map((m) => `${m.spec.label}: ${m.accepted} votes acknowledged with 2xx but only ${m.stored} new rows stored`);

  const ourProcesses = `ours: ${PROCESSES} process${PROCESSES > 1 ? 'es' : ''}${REDIS_URL ? ', with REDIS_URL' : ''}`;
  console.log(
    `\nIngest benchmark — ${DURATION_S} s per target after ${WARMUP_S} s warm-up, ${CONNECTIONS} connections, pipelining ${PIPELINING}; ${ourProcesses}\n`,
  );
  console.log(consoleTable(header, rows));
  console.log(`\nStored rows = new rows in the target's database during the measured run / 2xx answers in it.`);
  console.log(ratios);
  console.log(targetLine.replaceAll('**', ''));
  for (const note of notes) console.log(`note: ${note}`);
  for (const failure of failures) console.error(`\n!!! FAILED: ${failure}`);
  for (const warning of storageWarnings) {
    console.error(`\n${'!'.repeat(78)}\n!!! STORAGE CHECK FAILED — ${warning}\n${'!'.repeat(78)}`);
  }

  if (failures.length > 0) {
    console.error('\nBENCHMARKS.md left unchanged (not every target could be measured).');
    return 1;
  }
  if (ONLY || REWARDS || VOTERS || DIRECT_HOOK) {
    console.log(
      `\nBENCHMARKS.md left unchanged (${ONLY ? 'BENCH_TARGETS ran a subset' : 'BENCH_REWARDS, BENCH_VOTERS and BENCH_DIRECT_HOOK are investigations'}).`,
    );
    return 0;
  }
  if (PROCESSES > 1 || REDIS_URL) {
    console.log('\nBENCHMARKS.md left unchanged (BENCH_WEB_CONCURRENCY or BENCH_REDIS_URL: not the configuration its section describes).');
    return 0;
  }

  const section = [
    `## Ingest: accepted votes per second${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}`,
    '',
    `Measured by \`bench/ingest.ts\`. Each target runs as its own process on ${DIALECT === 'sqlite' ? 'embedded SQLite (WAL, `synchronous=FULL`)' : 'PostgreSQL (each target on a fresh database of the `DATABASE_URL` server; the baselines through a pool of 10 connections)'}` +
      ` and ` +
      'answers only after the vote is written; autocannon (in the parent process) sends the top.gg legacy body ' +
      '`{"bot":"1","user":"<unique id>","type":"upvote","isWeekend":false,"query":""}` with header auth. ' +
      'Only 2xx answers count as accepted; afterwards the rows in each database are counted.',
    '',
    '- **ours**: the service (`src/main.ts`, `LOG_LEVEL=info`, deliveries off), `POST /hooks/bench/topgg`, provider with `auth_method: header`',
    `- **(a)**: \`bench/baselines/topgg-sdk-express.ts\`, express + the official \`@top-gg/sdk\` \`Webhook.listener\`, one ${DIALECT === 'sqlite' ? 'better-sqlite3' : 'PostgreSQL'} INSERT`,
    `- **(b)**: \`bench/baselines/bare-http.ts\`, bare \`node:http\` + JSON.parse + header check, one ${DIALECT === 'sqlite' ? 'better-sqlite3' : 'PostgreSQL'} INSERT (the ceiling)`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Settings: ${DURATION_S} s measured per target after a ${WARMUP_S} s warm-up (not counted), ${CONNECTIONS} connections, pipelining ${PIPELINING}`,
    '',
    markdownTable(header, rows),
    '',
    "Stored rows: new rows in the target's database during the measured run / 2xx answers in it.",
    '',
    `Ratios: ${ratios}.`,
    '',
    targetLine,
    ...(notes.length > 0 ? ['', ...notes.map((n) => `- ${n}`)] : []),
    ...(storageWarnings.length > 0 ? ['', ...storageWarnings.map((w) => `- **STORAGE CHECK FAILED**: ${w}`)] : []),
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'sqlite' ? 'ingest' : 'ingest-postgresql', section);
  console.log(`\nBENCHMARKS.md updated (run took ${((Date.now() - started) / 1000).toFixed(0)} s).`);
  return storageWarnings.length > 0 ? 1 : 0;
}

process.exitCode = await main();
