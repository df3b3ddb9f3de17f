// Delivery benchmark: callbacks delivered per second to a local receiver, and the latency from a hook's acceptance
// (its 200 arriving at the sender) to the receiver getting that vote's callback, while votes come in at a fixed rate.
//
// Per rate (fresh SQLite file each time): the CLI creates a business organization; the real service runs as a child
// process with deliveries on (ALLOW_PRIVATE_TARGETS=true, DELIVERY_CONCURRENCY 64, rate limits out of the way); one
// provider (header auth) and ONE callback to a receiver on 127.0.0.1 (bench/lib/callback-receiver.ts: node:http in a
// worker thread of this process, answering 200 at once and recording when each vote_id arrived; the default payload
// template carries vote_id). A paced, open-loop sender (bench/lib/vote-sender.ts, its own keep-alive sockets) posts
// unique top.gg-style votes at the target rate — first a short warm-up (not counted; its backlog drained), then the
// measured window. Afterwards it waits up to BENCH_DELIVERY_DRAIN_S for every accepted vote's callback and reports
// what is still undelivered.
// Timestamps on both sides come from process.hrtime (one monotonic clock for both threads).
// Baseline, at each rate right after ours, with the same receiver, sender, warm-up and drain: bench/baselines/
// bare-relay.ts (bare node:http hook, one better-sqlite3 INSERT with WAL + synchronous=FULL, 200, then the callback
// forwarded at once with undici over a keep-alive pool of DELIVERY_CONCURRENCY sockets; no retries, no queue), the
// ceiling of a relay that persists and forwards. Figures are reported beside it, with the ratio ours/baseline.
// Writes its section of BENCHMARKS.md (`delivery`, `delivery-postgresql`: the default, delivery on its own thread;
// with DELIVERY_THREAD=false, `…-in-process`).
//
// Options: BENCH_DELIVERY_RATES ("2000,1000,500": votes/s; 2000 is the target's), BENCH_DURATION_S (10),
// BENCH_WARMUP_S (2), BENCH_DELIVERY_DRAIN_S (30), BENCH_DELIVERY_CONCURRENCY (64), BENCH_BASELINE=0 (skip the
// baseline), BENCH_CPU_PROF=<dir> (server --cpu-prof, ours only), BENCH_KEEP_DB=1, BENCH_DELIVERY_TRACE=<dir> (per vote:
// sent, accepted, callback arrival; CSV per rate and target).
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningChild } from './lib/child.js';
import { startReceiver, waitForCallbacks as drain } from './lib/callback-receiver.js';
import { sendLoad as send } from './lib/vote-sender.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { benchDialect, openBenchDatabase } from './lib/database.js';

const DIALECT = benchDialect();
/** The service's delivery on its own thread (its default), unless DELIVERY_THREAD=false in this process's environment. */
const THREAD = !/^(false|0|no)$/.test(process.env.DELIVERY_THREAD ?? '');
import {
  ROOT,
  api,
  baselineEnabled,
  createOrg,
  createTopggProvider,
  duration,
  envNumber,
  machineLoad,
  ms,
  percentile,
  processCpuSeconds,
  ratio,
  serviceEnv,
  sortedCopy,
  startBaseline,
  startService,
  thousands,
} from './lib/service.js';

const RATES = (process.env.BENCH_DELIVERY_RATES ?? '2000,1000,500').split(',').map((s) => Number(s.trim()));
if (RATES.length === 0 || RATES.some((r) => !Number.isFinite(r) || r <= 0)) {
  console.error(`BENCH_DELIVERY_RATES must be a comma-separated list of positive numbers (got "${process.env.BENCH_DELIVERY_RATES}")`);
  process.exit(2);
}
const DURATION_S = envNumber('BENCH_DURATION_S', 10, false);
const WARMUP_S = envNumber('BENCH_WARMUP_S', 2, false);
const DRAIN_S = envNumber('BENCH_DELIVERY_DRAIN_S', 30, false);
const CONCURRENCY = envNumber('BENCH_DELIVERY_CONCURRENCY', 64, true);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const TRACE_DIR = process.env.BENCH_DELIVERY_TRACE ? resolve(process.env.BENCH_DELIVERY_TRACE) : null;
const WITH_BASELINE = baselineEnabled();

const TARGET_RATE = 2_000;
const TARGET_P50_MS = 20;
const TARGET_P99_MS = 100;
const AUTH = 'bench-delivery-hook-secret';
const SENDER_SOCKETS = 128;
/** Open loop, but bounded: past this many hooks in flight the sender stops adding more (and says how many it skipped). */
const MAX_IN_FLIGHT = 4_000;

// Hard bound: per rate and target, setup (~20 s) + warm-up + its drain + load + drain; plus slack.
const BUDGET_MS = (WITH_BASELINE ? 2 : 1) * RATES.length * (60 + 2 * (WARMUP_S + DRAIN_S) + DURATION_S + DRAIN_S) * 1000 + 60_000;
setTimeout(() => {
  console.error(`\n!!! delivery benchmark exceeded its ${duration(BUDGET_MS / 1000)} budget; stopping`);
  process.exit(1);
}, BUDGET_MS).unref();

// ---------------------------------------------------------------------------------------------------------------

interface RateResult {
  rate: number;
  acceptedPerS: number;
  accepted: number;
  attempted: number;
  skipped: number;
  hookP50: number;
  hookP99: number;
  deliveredPerS: number;
  deliveredDuringLoadPerS: number;
  /** Callbacks per second once the hooks stopped (the backlog draining: delivery without ingest beside it). */
  deliveredAfterLoadPerS: number;
  delivered: number;
  undelivered: number;
  duplicates: number;
  p50: number;
  p99: number;
  max: number;
  negative: number;
  drainS: number;
  drainComplete: boolean;
  serverCpuPct: number;
  benchCpuPct: number;
  /** What the target's database holds afterwards. */
  dbNote: string;
  notes: string[];
}

/** A target wired to the receiver: the child process, its hook path, and a look at its database once it stopped. */
interface DeliveryTarget {
  server: RunningChild;
  hookPath: string;
  /** What the target's database holds after the run; also drops a PostgreSQL database made for the run. */
  inspectDb(): Promise<string>;
}

interface TargetSpec {
  id: 'ours' | 'baseline';
  label: string;
  prepare(dir: string, receiverPort: number): Promise<DeliveryTarget>;
}

async function prepareOurs(dir: string, receiverPort: number): Promise<DeliveryTarget> {
  const database = await openBenchDatabase(join(dir, 'vr.db'));
  const env = serviceEnv({
    DATABASE_URL: database.url,
    SECRET_KEY: 'bench-delivery-secret-key-0123456789abcdef',
    LOG_LEVEL: 'info',
    DELIVERY_ENABLED: 'true',
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const apiKey = await createOrg(env, 'bench', 'business');
  if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });
  const server = await startService(env, CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : []);
  let hookPath: string;
  try {
    const base = `http://127.0.0.1:${server.port}`;
    hookPath = await createTopggProvider(base, apiKey, AUTH);
    await api(base, apiKey, 'POST', '/v1/callbacks', { name: 'bench receiver', url: `http://127.0.0.1:${receiverPort}/callback`, timeout_ms: 5000 });
  } catch (err) {
    await server.stop();
    throw err;
  }
  const status = (...statuses: string[]) =>
    database.count(`SELECT COUNT(*) AS n FROM "Vote" WHERE "callbackStatus" IN (${statuses.map(() => '?').join(', ')})`, ...statuses);
  return {
    server,
    hookPath,
    async inspectDb() {
      try {
        return `${thousands(await status('sent'))} votes with callback_status sent, ${thousands(await status('pending', 'retrying'))} pending/retrying`;
      } finally {
        await database.drop();
      }
    },
  };
}

async function prepareBaseline(dir: string, receiverPort: number): Promise<DeliveryTarget> {
  const dbPath = join(dir, 'votes.db');
  // Same database kind as ours: a fresh PostgreSQL database in the PostgreSQL mode, else a SQLite file.
  const database = await openBenchDatabase(dbPath);
  const server = await startBaseline('bare-relay.ts', {
    BENCH_DB: dbPath,
    BENCH_DB_URL: database.dialect === 'postgresql' ? database.url : '',
    WEBHOOK_AUTH: AUTH,
    CALLBACK_URL: `http://127.0.0.1:${receiverPort}/callback`,
    CALLBACK_CONNECTIONS: String(CONCURRENCY),
  });
  return {
    server,
    hookPath: '/votes',
    async inspectDb() {
      try {
        return `${thousands(await database.count('SELECT COUNT(*) AS n FROM votes'))} rows (no delivery status is kept)`;
      } finally {
        await database.drop();
      }
    },
  };
}

const TARGETS: TargetSpec[] = [
  { id: 'ours', label: 'ours', prepare: prepareOurs },
  ...(WITH_BASELINE ? [{ id: 'baseline', label: 'baseline (bare relay)', prepare: prepareBaseline } satisfies TargetSpec] : []),
];

const sendLoad = (agent: http.Agent, port: number, path: string, rate: number, seconds: number) =>
  send({ agent, port, path, auth: AUTH, rate, seconds, maxInFlight: MAX_IN_FLIGHT });

async function measureRate(rate: number, spec: TargetSpec, dir: string): Promise<RateResult> {
  const receiver = await startReceiver();
  const notes: string[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: SENDER_SOCKETS });
  let target: DeliveryTarget | null = null;
  try {
    target = await spec.prepare(dir, receiver.port);
    const { server, hookPath } = target;

    // One vote by hand: fail fast (with the answer) if the pipeline does not deliver.
    const probe = await sendLoad(agent, server.port, hookPath, 1, 1);
    if (probe.votes.length !== 1) throw new Error(`probe vote not accepted: ${[...probe.non2xx, ...probe.errors].join(', ')}\n${server.tail()}`);
    if (!(await drain(receiver, [probe.votes[0].voteId], 15)).complete) throw new Error(`probe vote's callback never arrived\n${server.tail()}`);

    const tag = `[${rate}/s ${spec.label}]`;
    console.log(`${tag} warm-up ${WARMUP_S} s (not counted)`);
    const warm = await sendLoad(agent, server.port, hookPath, rate, WARMUP_S);
    const warmDrain = await drain(
      receiver,
      warm.votes.map((v) => v.voteId),
      DRAIN_S,
    );
    if (!warmDrain.complete) notes.push(`warm-up backlog not drained after ${DRAIN_S} s; the measured run started on top of it`);

    console.log(`${tag} measuring ${DURATION_S} s`);
    const pid = server.process.pid!;
    const cpuBefore = processCpuSeconds(pid);
    const benchCpuBefore = process.cpuUsage();
    const load = await sendLoad(agent, server.port, hookPath, rate, DURATION_S);
    const loadS = (load.endedAt - load.startedAt) / 1000;
    const cpuAfterLoad = processCpuSeconds(pid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const ids = load.votes.map((v) => v.voteId);
    const deliveredDuringLoad = load.votes.filter((v) => (receiver.arrivals.get(v.voteId)?.[0] ?? Infinity) <= load.endedAt).length;
    console.log(`${tag} ${load.votes.length} votes accepted in ${loadS.toFixed(1)} s; waiting up to ${DRAIN_S} s for their callbacks`);
    const drained = await drain(receiver, ids, DRAIN_S);

    const latencies: number[] = [];
    let lastArrival = load.startedAt;
    let duplicates = 0;
    for (const v of load.votes) {
      const arrivals = receiver.arrivals.get(v.voteId);
      if (!arrivals) continue;
      latencies.push(arrivals[0] - v.acceptedAt);
      duplicates += arrivals.length - 1;
      if (arrivals[0] > lastArrival) lastArrival = arrivals[0];
    }
    const sorted = sortedCopy(latencies);
    const delivered = latencies.length;
    if (TRACE_DIR) {
      mkdirSync(TRACE_DIR, { recursive: true });
      const ms3 = (t: number | undefined) => (t === undefined ? '' : (t - load.startedAt).toFixed(3));
      const lines = load.votes.map((v) => `${v.voteId},${ms3(v.sentAt)},${ms3(v.acceptedAt)},${ms3(receiver.arrivals.get(v.voteId)?.[0])}`);
      writeFileSync(
        join(TRACE_DIR, `delivery-${rate}${spec.id === 'ours' ? '' : `-${spec.id}`}.csv`),
        `vote_id,sent_ms,accepted_ms,callback_ms\n${lines.join('\n')}\n`,
      );
    }
    await sleep(500); // let the last attempts be recorded before counting in the database
    await server.stop();
    const dbNote = await target.inspectDb();
    if (load.skipped > 0) notes.push(`the sender skipped ${load.skipped} votes (more than ${MAX_IN_FLIGHT} hooks in flight)`);
    for (const [code, n] of load.non2xx) notes.push(`non-2xx hook answers: ${code}×${n}`);
    for (const [code, n] of load.errors) notes.push(`hook request errors: ${code}×${n}`);
    if (receiver.malformed > 0) notes.push(`${receiver.malformed} callbacks without a vote_id`);
    return {
      rate,
      acceptedPerS: load.votes.length / loadS,
      accepted: load.votes.length,
      attempted: load.attempted,
      skipped: load.skipped,
      hookP50: percentile(load.hookLatencies, 50),
      hookP99: percentile(load.hookLatencies, 99),
      deliveredPerS: delivered / ((lastArrival - load.startedAt) / 1000),
      deliveredDuringLoadPerS: deliveredDuringLoad / loadS,
      deliveredAfterLoadPerS: lastArrival > load.endedAt + 250 ? (delivered - deliveredDuringLoad) / ((lastArrival - load.endedAt) / 1000) : Number.NaN,
      delivered,
      undelivered: load.votes.length - delivered,
      duplicates,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
      negative: latencies.filter((l) => l < 0).length,
      drainS: Math.max(0, (lastArrival - load.endedAt) / 1000),
      drainComplete: drained.complete,
      serverCpuPct: ((cpuAfterLoad - cpuBefore) / loadS) * 100,
      benchCpuPct: ((benchCpu.user + benchCpu.system) / 1e6 / loadS) * 100,
      dbNote,
      notes,
    };
  } finally {
    agent.destroy();
    await target?.server.stop();
    await receiver.stop();
  }
}

interface RateResults {
  rate: number;
  ours?: RateResult;
  baseline?: RateResult;
}

async function main(): Promise<number> {
  const started = performance.now();
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-delivery-'));
  const results: RateResults[] = [];
  const failures: string[] = [];
  const load1 = machineLoad();
  try {
    for (const rate of RATES) {
      const entry: RateResults = { rate };
      // Ours, then the baseline at the same rate: the two runs are minutes apart at most, on the same machine load.
      for (const spec of TARGETS) {
        const targetDir = join(dir, `${rate}-${spec.id}`);
        mkdirSync(targetDir);
        try {
          const r = await measureRate(rate, spec, targetDir);
          entry[spec.id] = r;
          console.log(
            `[${rate}/s ${spec.label}] accepted ${r.acceptedPerS.toFixed(0)}/s, delivered ${r.deliveredPerS.toFixed(0)}/s, latency p50 ${ms(r.p50)} ms p99 ${ms(r.p99)} ms, ` +
              `undelivered ${r.undelivered}, drain ${r.drainS.toFixed(1)} s, server CPU ${r.serverCpuPct.toFixed(0)}%`,
          );
        } catch (err) {
          failures.push(`${rate} votes/s, ${spec.label}: ${(err as Error).message}`);
          console.error(`\n!!! ${rate} votes/s, ${spec.label} could not be measured: ${(err as Error).message}`);
        }
      }
      if (entry.ours || entry.baseline) results.push(entry);
    }
  } finally {
    if (process.env.BENCH_KEEP_DB === '1') console.log(`\ndatabases kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const load2 = machineLoad();
  const totalS = (performance.now() - started) / 1000;

  const verdict = (met: boolean) => (met ? 'met' : '**NOT MET**');
  const header = [
    'Offered votes/s',
    'Target',
    'Accepted votes/s',
    'Hook p50 / p99 ms',
    'Callbacks delivered/s',
    'Latency p50 ms',
    'Latency p99 ms',
    'Latency max ms',
    'Undelivered after wait',
    'Drain after load',
    'Server CPU',
  ];
  const isTarget = (r: RateResult, who: TargetSpec['id']) => who === 'ours' && r.rate === TARGET_RATE;
  const row = (r: RateResult, who: TargetSpec['id']) => [
    `${thousands(r.rate)}${isTarget(r, who) ? ' (target)' : ''}`,
    who === 'ours' ? 'ours' : 'baseline',
    `${thousands(r.acceptedPerS)}${isTarget(r, who) && r.acceptedPerS < TARGET_RATE * 0.98 ? ' (**below the offered rate**)' : ''}`,
    `${ms(r.hookP50)} / ${ms(r.hookP99)}`,
    `${thousands(r.deliveredPerS)} (${thousands(r.deliveredDuringLoadPerS)} during the load${Number.isNaN(r.deliveredAfterLoadPerS) ? '' : `, ${thousands(r.deliveredAfterLoadPerS)} after it`})`,
    `${ms(r.p50)}${isTarget(r, who) ? ` (< ${TARGET_P50_MS}: ${verdict(r.p50 < TARGET_P50_MS)})` : ''}`,
    `${ms(r.p99)}${isTarget(r, who) ? ` (< ${TARGET_P99_MS}: ${verdict(r.p99 < TARGET_P99_MS)})` : ''}`,
    ms(r.max),
    `${thousands(r.undelivered)} of ${thousands(r.accepted)}${r.undelivered > 0 ? ` (waited ${DRAIN_S} s)` : ''}`,
    `${r.drainS.toFixed(1)} s${r.drainComplete ? '' : ' (not drained)'}`,
    `${r.serverCpuPct.toFixed(0)}%`,
  ];
  const ratioRow = (o: RateResult, b: RateResult) => [
    thousands(o.rate),
    'ours / baseline',
    ratio(o.acceptedPerS, b.acceptedPerS),
    `${ratio(o.hookP50, b.hookP50)} / ${ratio(o.hookP99, b.hookP99)}`,
    `${ratio(o.deliveredPerS, b.deliveredPerS)} (${ratio(o.deliveredDuringLoadPerS, b.deliveredDuringLoadPerS)} during the load)`,
    ratio(o.p50, b.p50),
    ratio(o.p99, b.p99),
    ratio(o.max, b.max),
    '—',
    '—',
    ratio(o.serverCpuPct, b.serverCpuPct),
  ];
  const rows = results.flatMap(({ ours, baseline }) => [
    ...(ours ? [row(ours, 'ours')] : []),
    ...(baseline ? [row(baseline, 'baseline')] : []),
    ...(ours && baseline ? [ratioRow(ours, baseline)] : []),
  ]);
  const target = results.find((r) => r.rate === TARGET_RATE)?.ours;
  const targetLine = target
    ? `Target (at 2,000 votes/s offered): latency p50 < ${TARGET_P50_MS} ms — ${verdict(target.p50 < TARGET_P50_MS)} (${ms(target.p50)} ms); ` +
      `p99 < ${TARGET_P99_MS} ms — ${verdict(target.p99 < TARGET_P99_MS)} (${ms(target.p99)} ms); ` +
      `2,000 votes/s accepted — ${verdict(target.acceptedPerS >= TARGET_RATE * 0.98)} (${thousands(target.acceptedPerS)}/s); ` +
      `every callback delivered — ${verdict(target.undelivered === 0)}${target.undelivered > 0 ? ` (${thousands(target.undelivered)} still undelivered ${DRAIN_S} s after the load)` : ''}.`
    : 'Target rate (2,000 votes/s) not measured in this run.';
  const ratioLines = results.flatMap(({ rate, ours, baseline }) =>
    ours && baseline
      ? [
          `${thousands(rate)} votes/s offered: accepted ${ratio(ours.acceptedPerS, baseline.acceptedPerS)}, callbacks delivered/s ${ratio(ours.deliveredPerS, baseline.deliveredPerS)}, ` +
            `latency p50 ${ratio(ours.p50, baseline.p50)}, p99 ${ratio(ours.p99, baseline.p99)}`,
        ]
      : [],
  );
  const notes = results.flatMap(({ ours, baseline }) =>
    [ours, baseline].flatMap((r) => {
      if (!r) return [];
      const who = `${r.rate}/s${r === ours ? '' : ' baseline'}`;
      return [
        ...r.notes.map((n) => `${who}: ${n}`),
        ...(r.duplicates > 0 ? [`${who}: ${r.duplicates} callbacks arrived more than once`] : []),
        ...(r.negative > 0 ? [`${who}: ${r.negative} callbacks arrived before the hook's own answer was read (negative latency; counted as is)`] : []),
        `${who}: database afterwards: ${r.dbNote}; bench process CPU ${r.benchCpuPct.toFixed(0)}% during the load`,
      ];
    }),
  );

  console.log(`\nDelivery benchmark — ${DURATION_S} s per rate after ${WARMUP_S} s warm-up, DELIVERY_CONCURRENCY ${CONCURRENCY}\n`);
  console.log(
    consoleTable(
      header,
      rows.map((r) => r.map((c) => c.replaceAll('**', ''))),
    ),
  );
  console.log(`\n${targetLine.replaceAll('**', '')}`);
  for (const line of ratioLines) console.log(`ours / baseline at ${line}`);
  for (const n of notes) console.log(`note: ${n}`);
  for (const f of failures) console.error(`\n!!! FAILED: ${f}`);
  if (failures.length > 0 && results.length === 0) {
    console.error('\nBENCHMARKS.md left unchanged (nothing could be measured).');
    return 1;
  }

  const section = [
    `## Delivery: callbacks per second and vote → callback latency${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}${THREAD ? '' : ', delivery on the request thread (DELIVERY_THREAD=false)'}`,
    '',
    `Measured by \`bench/delivery.ts\`. For each offered rate, a fresh ${DIALECT === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'} and the service ` +
      '(`src/main.ts`, `LOG_LEVEL=info`, ' +
      `deliveries on, \`DELIVERY_THREAD=${THREAD}\`, \`DELIVERY_CONCURRENCY=${CONCURRENCY}\`, \`ALLOW_PRIVATE_TARGETS=true\`) as a child process, with one business ` +
      'organization, one provider (header auth) and one callback (default payload template, `timeout_ms` 5000) to a receiver on ' +
      '127.0.0.1 (node:http in a worker thread of the benchmark process, answering 200 at once). A paced open-loop sender posts ' +
      `unique top.gg-style votes at the offered rate for ${DURATION_S} s (after a ${WARMUP_S} s warm-up whose callbacks are waited for). ` +
      "Latency = time the receiver got the vote's callback − time the hook's 200 reached the sender (one monotonic clock). " +
      `Afterwards the benchmark waits up to ${DRAIN_S} s for the backlog. "Callbacks delivered/s" = callbacks for the measured votes / ` +
      'time from the start of the load to the last one (in brackets: the rate while hooks were still arriving, and while the backlog ' +
      'drained after the last hook); "Server CPU" = the service\'s CPU time during the load / its duration (2 cores = 200%).',
    '',
    WITH_BASELINE
      ? 'Baseline, measured at each rate right after ours with the same receiver, sender, warm-up and wait: ' +
        '`bench/baselines/bare-relay.ts`, a bare `node:http` hook (JSON.parse, header check) that INSERTs one row ' +
        (DIALECT === 'sqlite'
          ? 'with better-sqlite3 (WAL, `synchronous=FULL`, committed before the answer, as the ingest baselines do), '
          : 'into a fresh PostgreSQL database on the same server (pool of 10 connections, committed before the answer, as the ingest baselines do), ') +
        'answers 200 with the row id as `vote_id`, ' +
        `then at once POSTs a JSON callback with the default payload's fields to the receiver with undici (keep-alive pool of ${CONCURRENCY} sockets), ` +
        'fire-and-forget. It has no outbox, no job table, no retries, no signing and no record of the outcome (a failed callback is lost), ' +
        'so it is the ceiling for a relay that persists and forwards: the least work per vote. Ratios are ours / baseline: below 1× ' +
        'for throughput and above 1× for latency and CPU is the price of the durable queue.'
      : 'Baseline skipped in this run (`BENCH_BASELINE=0`).',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the sender, the receiver and the service share these cores): before ${load1}; after ${load2}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Run took ${duration(totalS)}`,
    '',
    markdownTable(header, rows),
    '',
    targetLine,
    ...(ratioLines.length > 0 ? ['', 'Ours / baseline:', '', ...ratioLines.map((l) => `- at ${l}`)] : []),
    '',
    ...notes.map((n) => `- ${n}`),
    ...failures.map((f) => `- **FAILED**: ${f}`),
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), `${DIALECT === 'sqlite' ? 'delivery' : 'delivery-postgresql'}${THREAD ? '' : '-in-process'}`, section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalS)}).`);
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main();
