// Soak test: mixed traffic for a long time (default 30 minutes) against the real service, with the server's memory,
// event-loop delay and open handles sampled at a fixed interval; the steady state (second half of the run) must be
// flat, and no vote may be lost. Not part of `npm run bench` (too long): `npm run soak`, or `npm run soak -- --short`
// for the CI-friendly 2 minutes with 10 s samples.
//
// The service (src/main.ts) runs as a child process on a fresh SQLite file (or, with DATABASE_URL=postgres://…, on
// that PostgreSQL database, in an organization of its own), deliveries on with a short RETRY_SCHEDULE. The service
// exposes no process metrics, so bench/lib/server-probe.ts is preloaded into it (--import) and writes one sample per
// SIGUSR2 (memory before/after a forced full GC: --expose-gc; event-loop delay p50/p99/max over the interval; active
// handles and requests by kind; open fds; CPU). This process generates the traffic:
//   - hooks: unique top.gg-style votes at SOAK_RATE/s, paced open loop (bench/lib/vote-sender.ts);
//   - API reads at SOAK_READ_RATE/s over keep-alive sockets, cycling through vote lists and statistics;
//   - SOAK_SUBSCRIBERS SSE subscribers (`subscription { voteReceived }`) open the whole time, events counted;
//   - one callback to a receiver on 127.0.0.1 (worker thread) that answers SOAK_FAIL_RATIO of requests with 500.
// Afterwards it waits for the delivery queue to drain and checks: every 2xx hook stored, every stored vote's callback
// delivered (status sent, and answered 200 by the receiver), every subscriber got every vote. Flatness: least-squares
// slope of each resource over the steady state, its growth over that span and last/first, against a tolerance.
// Writes docs/soak/<db>-<N>min/ (samples.csv, summary.json, one PNG per resource) and its section of BENCHMARKS.md
// (`soak` for the default 30 minutes on SQLite, `soak-<db>-<N>min` for other forms; SOAK_NO_DOCS=1 skips it).
//
// Options: SOAK_MINUTES (30; 2 with --short), SOAK_SAMPLE_S (60; 10 when SOAK_MINUTES ≤ 5), SOAK_RATE (50 votes/s),
// SOAK_READ_RATE (5 requests/s), SOAK_SUBSCRIBERS (50), SOAK_FAIL_RATIO (0.1), SOAK_RETRY_SCHEDULE
// ("1s,2s,5s,5s,5s,5s,5s,5s": 9 attempts), SOAK_DRAIN_S (180), DATABASE_URL (postgres://…: a fresh database on that server, dropped after; otherwise a fresh SQLite file).
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sseReader, type SseReader } from '../test/kit/sse.js';
import { startReceiver, waitForCallbacks, type Receiver } from './lib/callback-receiver.js';
import type { RunningChild } from './lib/child.js';
import { writeLineChartPng, type Series } from './lib/line-chart.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { openBenchDatabase } from './lib/database.js';
import type { ProbeSample } from './lib/server-probe.js';
import {
  ROOT,
  api,
  createClient,
  createOrg,
  duration,
  envNumber,
  machineLoad,
  ms,
  percentile,
  processMemory,
  serviceEnv,
  sortedCopy,
  startService,
  thousands,
} from './lib/service.js';
import { sendLoad, type LoadResult } from './lib/vote-sender.js';

const SHORT = process.argv.includes('--short');
const MINUTES = process.env.SOAK_MINUTES ? envNumber('SOAK_MINUTES', 30, false) : SHORT ? 2 : 30;
const SAMPLE_S = envNumber('SOAK_SAMPLE_S', MINUTES <= 5 ? 10 : 60, false);
const RATE = envNumber('SOAK_RATE', 50, false);
const READ_RATE = envNumber('SOAK_READ_RATE', 5, false);
const SUBSCRIBERS = envNumber('SOAK_SUBSCRIBERS', 50, true);
const FAIL_RATIO = Number(process.env.SOAK_FAIL_RATIO ?? '0.1');
const RETRY_SCHEDULE = process.env.SOAK_RETRY_SCHEDULE ?? '1s,2s,5s,5s,5s,5s,5s,5s';
const DRAIN_S = envNumber('SOAK_DRAIN_S', 180, false);
const PG_URL = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : null;
const WRITE_DOCS = process.env.SOAK_NO_DOCS !== '1';
if (!(FAIL_RATIO >= 0 && FAIL_RATIO < 1)) {
  console.error(`SOAK_FAIL_RATIO must be in [0, 1) (got "${process.env.SOAK_FAIL_RATIO}")`);
  process.exit(2);
}

const WINDOWS = Math.max(2, Math.round((MINUTES * 60) / SAMPLE_S));
const DB_KIND = PG_URL ? 'postgresql' : 'sqlite';
const LABEL = `${DB_KIND}-${Number(MINUTES.toFixed(2))}min`;
const SECTION = LABEL === 'sqlite-30min' ? 'soak' : `soak-${LABEL}`;
const OUT_DIR = join(ROOT, 'docs', 'soak', LABEL);
const AUTH = 'bench-soak-hook-secret';
const SLUG = `soak-${Date.now().toString(36)}`;
const QUERY = 'subscription { voteReceived { voterName } }';
const SENDER_SOCKETS = 32;
const MAX_IN_FLIGHT = 2_000;
const READ_SOCKETS = 4;
const MAX_READS_IN_FLIGHT = 16;
/** business plan: votes past it are stored but their callbacks skipped (docs decisions §2). */
const PLAN_VOTES_PER_MONTH = 250_000;
const MiB = 1024 ** 2;

const BUDGET_S = MINUTES * 60 + WINDOWS * 15 + DRAIN_S + 400;
setTimeout(() => {
  console.error(`\n!!! soak exceeded its ${duration(BUDGET_S)} budget; stopping`);
  process.exit(1);
}, BUDGET_S * 1000).unref();

// ------------------------------------------------------------------------------------------------ server samples

/** Asks the probe in the service for a sample and waits for its line. */
async function probeSample(server: RunningChild, file: string, seq: number): Promise<ProbeSample | null> {
  server.process.kill('SIGUSR2');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      if (lines.length >= seq) return JSON.parse(lines[seq - 1]) as ProbeSample;
    }
    await sleep(20);
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ API reads

const READ_PATHS: ((lastVoteId: string) => string)[] = [
  () => '/v1/votes?limit=50',
  () => '/v1/votes?limit=50&page=3',
  () => '/v1/stats/dashboard',
  () => '/v1/stats/trend?granularity=day',
  () => '/v1/stats/by-provider',
  () => '/v1/stats/leaderboard?days=30',
  (id) => `/v1/votes/${id}`,
  () => '/v1/organization',
];

interface ReadWindow {
  latencies: number[];
  statuses: Map<string, number>;
  skipped: number;
}

function startReads(port: number, apiKey: string, lastVoteId: () => string) {
  const client = createClient(port, { authorization: `Bearer ${apiKey}` }, READ_SOCKETS);
  let window: ReadWindow = { latencies: [], statuses: new Map(), skipped: 0 };
  const bump = (w: ReadWindow, k: string) => w.statuses.set(k, (w.statuses.get(k) ?? 0) + 1);
  let inFlight = 0;
  let sent = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * READ_RATE);
    while (sent < due) {
      const path = READ_PATHS[sent++ % READ_PATHS.length](lastVoteId());
      if (inFlight >= MAX_READS_IN_FLIGHT) {
        window.skipped++;
        continue;
      }
      inFlight++;
      const w = window;
      client.request('GET', path).then(
        (r) => {
          inFlight--;
          bump(w, String(r.status));
          if (r.status === 200) w.latencies.push(r.ms);
        },
        (err: NodeJS.ErrnoException) => {
          inFlight--;
          bump(w, err.code ?? err.message);
        },
      );
    }
  }, 20);
  return {
    /** The figures since the previous call. */
    take(): ReadWindow {
      const w = window;
      window = { latencies: [], statuses: new Map(), skipped: 0 };
      return w;
    },
    stop() {
      clearInterval(timer);
      client.close();
    },
  };
}

// ------------------------------------------------------------------------------------------------ SSE subscribers

function subscriberCounts(readers: SseReader[]) {
  const received = new Array<number>(readers.length).fill(0);
  let errors = 0;
  return {
    received,
    get errors() {
      return errors;
    },
    /** Moves the readers' buffered events into the counters; returns how many there were. */
    collect(): number {
      let n = 0;
      readers.forEach((r, i) => {
        for (const event of r.events) {
          if (event?.errors) errors++;
          else received[i]++;
        }
        n += r.events.length;
        r.events.length = 0;
      });
      return n;
    },
  };
}

// ------------------------------------------------------------------------------------------------ samples and flatness

type Phase = 'idle' | 'start' | 'load' | 'drained' | 'disconnected';

interface Row {
  phase: Phase;
  /** Minutes since the load started, at the end of the window. */
  t: number;
  hooksSent: number;
  hooksAccepted: number;
  hooksNon2xx: number;
  hooksErrors: number;
  hooksSkipped: number;
  hookP50: number;
  hookP99: number;
  reads: number;
  readsFailed: number;
  readsSkipped: number;
  readP50: number;
  readP99: number;
  sseEvents: number;
  sseOpen: number;
  callbacksOk: number;
  callbacks500: number;
  probe: ProbeSample | null;
  procRss: number;
  load: number;
}

const EMPTY_TRAFFIC = {
  hooksSent: 0,
  hooksAccepted: 0,
  hooksNon2xx: 0,
  hooksErrors: 0,
  hooksSkipped: 0,
  hookP50: Number.NaN,
  hookP99: Number.NaN,
  reads: 0,
  readsFailed: 0,
  readsSkipped: 0,
  readP50: Number.NaN,
  readP99: Number.NaN,
  sseEvents: 0,
  callbacksOk: 0,
  callbacks500: 0,
};

interface Resource {
  key: string;
  name: string;
  unit: string;
  value: (p: ProbeSample) => number;
  /** Growth over the steady state allowed: max(absolute, relative × its mean). */
  absTolerance: number;
  relTolerance: number;
}

const heapAfterGc = (p: ProbeSample) => (p.heapUsedAfterGc ?? p.memory.heapUsed) / MiB;
const RESOURCES: Resource[] = [
  { key: 'rss', name: 'RSS', unit: 'MiB', value: (p) => p.memory.rss / MiB, absTolerance: 10, relTolerance: 0.1 },
  { key: 'heap', name: 'V8 heap used after full GC', unit: 'MiB', value: heapAfterGc, absTolerance: 5, relTolerance: 0.1 },
  { key: 'handles', name: 'Active handles + requests (median)', unit: '', value: (p) => p.interval.resourcesMedian, absTolerance: 5, relTolerance: 0.1 },
  { key: 'fds', name: 'Open file descriptors (median)', unit: '', value: (p) => p.interval.fdsMedian ?? Number.NaN, absTolerance: 5, relTolerance: 0.1 },
  { key: 'loop-p99', name: 'Event-loop delay p99', unit: 'ms', value: (p) => p.loop.p99, absTolerance: 5, relTolerance: 0.5 },
];

interface Flatness {
  resource: Resource;
  first: number;
  last: number;
  min: number;
  max: number;
  mean: number;
  slopePerMin: number;
  growth: number;
  tolerance: number;
  ratio: number;
  flat: boolean;
}

function flatness(resource: Resource, points: [number, number][]): Flatness {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const slopePerMin = sxx > 0 ? sxy / sxx : 0;
  const span = points[n - 1][0] - points[0][0];
  const growth = slopePerMin * span;
  const first = points[0][1];
  const last = points[n - 1][1];
  const tolerance = Math.max(resource.absTolerance, resource.relTolerance * my);
  const ys = points.map(([, y]) => y);
  return {
    resource,
    first,
    last,
    min: Math.min(...ys),
    max: Math.max(...ys),
    mean: my,
    slopePerMin,
    growth,
    tolerance,
    ratio: first > 0 ? last / first : Number.NaN,
    // Flat: the fitted trend does not grow past the tolerance over the steady state (last − first is reported, but a
    // single sample at either end is too noisy to judge by).
    flat: growth <= tolerance,
  };
}

const fixed = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const signed = (v: number, digits = 2) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(digits)}` : 'n/a');
const _withUnit = (v: number, unit: string, digits = 1) => `${fixed(v, digits)}${unit ? ` ${unit}` : ''}`;

// ------------------------------------------------------------------------------------------------ run

async function main(): Promise<number> {
  const started = Date.now();
  const loadBefore = machineLoad();
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-soak-'));
  const probeFile = join(dir, 'probe.jsonl');
  // A fresh SQLite file, or a fresh database on the DATABASE_URL server (dropped afterwards).
  const database = await openBenchDatabase(join(dir, 'vr.db'));
  const env = serviceEnv({
    DATABASE_URL: database.url,
    SECRET_KEY: 'bench-soak-secret-key-0123456789abcdef',
    LOG_LEVEL: 'info',
    DELIVERY_ENABLED: 'true',
    ALLOW_PRIVATE_TARGETS: 'true',
    RETRY_SCHEDULE,
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
    SOAK_PROBE_FILE: probeFile,
  });
  const expectedVotes = RATE * MINUTES * 60;
  const notes: string[] = [];
  if (expectedVotes > PLAN_VOTES_PER_MONTH * 0.95) {
    notes.push(
      `${thousands(expectedVotes)} votes exceed the business plan's ${thousands(PLAN_VOTES_PER_MONTH)} a month: later votes are stored with callbacks skipped`,
    );
  }
  console.log(
    `soak: ${MINUTES} min on ${DB_KIND}, samples every ${SAMPLE_S} s (${WINDOWS} windows); ${RATE} votes/s, ${READ_RATE} reads/s, ` +
      `${SUBSCRIBERS} SSE subscribers, receiver failing ${(FAIL_RATIO * 100).toFixed(0)}%, RETRY_SCHEDULE=${RETRY_SCHEDULE}`,
  );

  let server: RunningChild | null = null;
  let receiver: Receiver | null = null;
  let receiverStopped = false;
  let reads: ReturnType<typeof startReads> | null = null;
  const readers: SseReader[] = [];
  // Idle sockets are dropped after 4 s, before the service's 5 s keep-alive timeout: otherwise a vote sent on a socket
  // the service is closing at that moment fails with ECONNRESET (Node's keep-alive race), which is not the service's doing.
  const agent = new http.Agent({ keepAlive: true, maxSockets: SENDER_SOCKETS, timeout: 4_000 });
  try {
    const apiKey = await createOrg(env, SLUG, 'business');
    receiver = await startReceiver({ failRatio: FAIL_RATIO });
    server = await startService(env, ['--expose-gc', '--import', 'tsx', '--import', './bench/lib/server-probe.ts']);
    const pid = server.process.pid!;
    const base = `http://127.0.0.1:${server.port}`;
    await api(base, apiKey, 'POST', '/v1/providers', {
      key: 'topgg',
      name: 'top.gg',
      auth_method: 'header',
      auth_field: 'Authorization',
      auth_value: AUTH,
      votee_path: 'user',
    });
    await api(base, apiKey, 'POST', '/v1/callbacks', { name: 'soak receiver', url: `http://127.0.0.1:${receiver.port}/callback`, timeout_ms: 5000 });
    const hookPath = `/hooks/${SLUG}/topgg`;
    const send = (rate: number, seconds: number) =>
      sendLoad({ agent, port: server!.port, path: hookPath, auth: AUTH, rate, seconds, maxInFlight: MAX_IN_FLIGHT });
    const acceptedIds: string[] = [];
    let seq = 0;
    const rows: Row[] = [];
    const sampleRow = async (phase: Phase, t: number, traffic: Omit<Row, 'phase' | 't' | 'probe' | 'procRss' | 'load' | 'sseOpen'>) => {
      const probe = await probeSample(server!, probeFile, ++seq);
      if (!probe) notes.push(`sample ${seq} (${phase}, t=${t.toFixed(1)} min): the probe did not answer within 15 s`);
      const row: Row = {
        phase,
        t,
        ...traffic,
        sseOpen: readers.filter((r) => !r.isEnded()).length,
        probe,
        procRss: processMemory(pid)?.rss ?? Number.NaN,
        load: os.loadavg()[0],
      };
      rows.push(row);
      return row;
    };

    // A first vote by hand: fail fast (with the answer) if the pipeline does not deliver.
    const first = await send(1, 1);
    if (first.votes.length !== 1) throw new Error(`probe vote not accepted: ${[...first.non2xx, ...first.errors].join(', ')}\n${server.tail()}`);
    acceptedIds.push(first.votes[0].voteId);
    if (!(await waitForCallbacks(receiver, acceptedIds, 60)).complete) throw new Error(`probe vote's callback never arrived\n${server.tail()}`);
    await sampleRow('idle', 0, EMPTY_TRAFFIC);

    // Subscribers, 25 at a time, then one vote every one of them must see.
    for (let from = 0; from < SUBSCRIBERS; from += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, SUBSCRIBERS - from) }, () => sseReader(`${base}/graphql`, apiKey, QUERY)));
      for (const r of batch) {
        if (r.status !== 200 || !String(r.contentType).includes('text/event-stream')) throw new Error(`subscription answered ${r.status} (${r.contentType})`);
        readers.push(r);
      }
    }
    const sse = subscriberCounts(readers);
    const warm = await send(1, 1);
    acceptedIds.push(...warm.votes.map((v) => v.voteId));
    const warmDeadline = Date.now() + 20_000;
    while (Date.now() < warmDeadline && (sse.collect(), sse.received.some((n) => n < 1))) await sleep(50);
    const warmSeen = sse.received.filter((n) => n >= 1).length;
    console.log(`${readers.length} subscribers connected; the warm-up vote reached ${warmSeen} of them`);
    if (warmSeen < readers.length) throw new Error(`the warm-up vote reached only ${warmSeen} of ${readers.length} subscribers within 20 s`);
    await waitForCallbacks(receiver, acceptedIds, 30);

    // The load, window by window; each window ends with a sample.
    let lastVoteId = acceptedIds.at(-1)!;
    reads = startReads(server.port, apiKey, () => lastVoteId);
    let okBefore = receiver.arrivals.size;
    let failedBefore = receiver.failed;
    await sampleRow('start', 0, EMPTY_TRAFFIC);
    const loadStarted = performance.now();
    const header = [
      't min',
      'hooks/s',
      'hook p99',
      'reads',
      'read p99',
      'SSE ev/s',
      'cb ok',
      'cb 500',
      'RSS MiB',
      'heap MiB',
      'loop p50/p99/max ms',
      'handles (median)',
      'fds (median)',
      'ELU',
    ];
    console.log(`\n${header.join(' | ')}`);
    for (let w = 1; w <= WINDOWS; w++) {
      const load: LoadResult = await send(RATE, SAMPLE_S);
      for (const v of load.votes) acceptedIds.push(v.voteId);
      lastVoteId = acceptedIds.at(-1)!;
      const r = reads.take();
      const readLat = sortedCopy(r.latencies);
      const sseEvents = sse.collect();
      const ok = receiver.arrivals.size;
      const failed = receiver.failed;
      const row = await sampleRow('load', (performance.now() - loadStarted) / 60_000, {
        hooksSent: load.attempted,
        hooksAccepted: load.votes.length,
        hooksNon2xx: [...load.non2xx.values()].reduce((a, b) => a + b, 0),
        hooksErrors: [...load.errors.values()].reduce((a, b) => a + b, 0),
        hooksSkipped: load.skipped,
        hookP50: percentile(load.hookLatencies, 50),
        hookP99: percentile(load.hookLatencies, 99),
        reads: r.latencies.length,
        readsFailed: [...r.statuses].filter(([k]) => k !== '200').reduce((a, [, n]) => a + n, 0),
        readsSkipped: r.skipped,
        readP50: percentile(readLat, 50),
        readP99: percentile(readLat, 99),
        sseEvents,
        callbacksOk: ok - okBefore,
        callbacks500: failed - failedBefore,
      });
      okBefore = ok;
      failedBefore = failed;
      for (const [code, n] of load.non2xx) notes.push(`window ${w}: hook answered ${code} × ${n}`);
      for (const [code, n] of load.errors) notes.push(`window ${w}: hook request error ${code} × ${n}`);
      for (const [code, n] of r.statuses) if (code !== '200') notes.push(`window ${w}: API read answered ${code} × ${n}`);
      const p = row.probe;
      const windowS = (load.endedAt - load.startedAt) / 1000;
      console.log(
        [
          row.t.toFixed(1),
          (load.votes.length / windowS).toFixed(0),
          ms(row.hookP99),
          String(row.reads),
          ms(row.readP99),
          (sseEvents / windowS).toFixed(0),
          String(row.callbacksOk),
          String(row.callbacks500),
          p ? (p.memory.rss / MiB).toFixed(0) : 'n/a',
          p ? heapAfterGc(p).toFixed(1) : 'n/a',
          p ? `${ms(p.loop.p50)}/${ms(p.loop.p99)}/${ms(p.loop.max)}` : 'n/a',
          p ? String(p.interval.resourcesMedian) : 'n/a',
          String(p?.interval.fdsMedian ?? 'n/a'),
          p ? p.elu.toFixed(2) : 'n/a',
        ].join(' | '),
      );
    }
    const loadMinutes = (performance.now() - loadStarted) / 60_000;
    reads.stop();

    // Drain: every accepted vote's callback answered 200, nothing pending or retrying, every event at every subscriber.
    console.log(`\nload done (${duration(loadMinutes * 60)}); waiting up to ${DRAIN_S} s for the delivery queue and the live feed to drain`);
    const drainStarted = performance.now();
    const delivered = await waitForCallbacks(receiver, acceptedIds, DRAIN_S);
    const countWith = async (status: string) =>
      (await api<{ meta: { total: number } }>(base, apiKey, 'GET', `/v1/votes?limit=1&callback_status=${status}`)).meta.total;
    let queued = Number.NaN;
    while (performance.now() - drainStarted < DRAIN_S * 1000) {
      queued = (await countWith('pending')) + (await countWith('retrying'));
      if (queued === 0) break;
      await sleep(1_000);
    }
    const expectedEvents = acceptedIds.length - 1; // every vote after the subscribers connected (not the first, by hand)
    while (performance.now() - drainStarted < DRAIN_S * 1000 && (sse.collect(), sse.received.some((n) => n < expectedEvents))) await sleep(200);
    const drainS = (performance.now() - drainStarted) / 1000;
    await sampleRow('drained', loadMinutes + drainS / 60, EMPTY_TRAFFIC);

    // Verification through the API (the same for SQLite and PostgreSQL).
    const stored = (await api<{ meta: { total: number } }>(base, apiKey, 'GET', '/v1/votes?limit=1')).meta.total;
    const byStatus: Record<string, number> = {};
    for (const status of ['pending', 'retrying', 'sent', 'failed', 'skipped']) byStatus[status] = await countWith(status);
    const spot = Array.from(
      { length: Math.min(50, acceptedIds.length) },
      (_, i) => acceptedIds[Math.floor((i * acceptedIds.length) / Math.min(50, acceptedIds.length))],
    );
    let spotMissing = 0;
    for (const id of spot) {
      const res = await fetch(`${base}/v1/votes/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
      await res.arrayBuffer();
      if (res.status !== 200) spotMissing++;
    }
    const duplicates = [...receiver.arrivals.values()].filter((a) => a.length > 1).length;
    const perSubscriber = [...sse.received].sort((a, b) => a - b);
    const streamsEnded = readers.filter((r) => r.isEnded()).length;

    // Everyone leaves: the receiver, the subscribers, the keep-alive sockets; then a last sample.
    await receiver.stop();
    receiverStopped = true;
    for (const r of readers) r.close();
    agent.destroy();
    // Past node-postgres's idle timeout (10 s): a pooled connection used at the end of the load closes then, with
    // its idle timer; sampled earlier, each would count as a socket and a timer "left behind".
    await sleep(12_000);
    await sampleRow('disconnected', loadMinutes + (performance.now() - drainStarted) / 60_000, EMPTY_TRAFFIC);

    // ------------------------------------------------------------------ analysis
    const loadRows = rows.filter((r) => r.phase === 'start' || r.phase === 'load');
    const steadyFrom = loadMinutes / 2;
    const steady = loadRows.filter((r) => r.phase === 'load' && r.t >= steadyFrom - 1e-9 && r.probe);
    const flat = RESOURCES.map((res) =>
      flatness(
        res,
        steady.map((r) => [r.t, res.value(r.probe!)] as [number, number]).filter(([, y]) => Number.isFinite(y)),
      ),
    );
    const totals = loadRows.reduce(
      (s, r) => ({
        sent: s.sent + r.hooksSent,
        accepted: s.accepted + r.hooksAccepted,
        non2xx: s.non2xx + r.hooksNon2xx,
        errors: s.errors + r.hooksErrors,
        skipped: s.skipped + r.hooksSkipped,
        reads: s.reads + r.reads,
        readsFailed: s.readsFailed + r.readsFailed,
        readsSkipped: s.readsSkipped + r.readsSkipped,
      }),
      { sent: 0, accepted: 0, non2xx: 0, errors: 0, skipped: 0, reads: 0, readsFailed: 0, readsSkipped: 0 },
    );
    const windowRows = loadRows.filter((r) => r.phase === 'load');
    const worst = (f: (r: Row) => number) => Math.max(...windowRows.map(f).filter(Number.isFinite));
    const idle = rows.find((r) => r.phase === 'idle')?.probe;
    const gone = rows.find((r) => r.phase === 'disconnected')?.probe;

    const checks: [string, boolean, string][] = [
      [
        'Every 2xx hook stored',
        stored >= acceptedIds.length && spotMissing === 0,
        `${thousands(stored)} votes stored for ${thousands(acceptedIds.length)} hooks answered 200; ${spot.length - spotMissing} of ${spot.length} sampled vote ids read back`,
      ],
      [
        'Every stored vote delivered',
        delivered.complete && byStatus.sent === stored,
        `callback_status: ${Object.entries(byStatus)
          .map(([k, v]) => `${k} ${thousands(v)}`)
          .join(', ')}; receiver answered 200 for ${thousands(acceptedIds.length - delivered.missing.length)} of ${thousands(acceptedIds.length)} vote ids` +
          `${delivered.missing.length ? ` (missing e.g. ${delivered.missing.slice(0, 3).join(', ')})` : ''}; ${thousands(receiver.failed)} requests answered 500 and retried; ${thousands(duplicates)} votes answered 200 more than once`,
      ],
      ['Queue drained', queued === 0, `pending + retrying = ${Number.isNaN(queued) ? 'unknown' : thousands(queued)} after ${drainS.toFixed(1)} s`],
      [
        'Every subscriber got every vote',
        perSubscriber[0] >= expectedEvents && streamsEnded === 0 && sse.errors === 0,
        `${thousands(expectedEvents)} votes after connecting; per subscriber min ${thousands(perSubscriber[0])}, max ${thousands(perSubscriber.at(-1)!)}; streams ended early ${streamsEnded}; error events ${sse.errors}`,
      ],
      [
        'No handle or fd left behind',
        !!idle && !!gone && gone.resourcesTotal <= idle.resourcesTotal + 5 && (gone.fds ?? 0) <= (idle.fds ?? 0) + 5,
        `once the subscribers, the clients and the receiver had gone: handles + requests ${gone?.resourcesTotal ?? 'n/a'} (before the subscribers: ${idle?.resourcesTotal ?? 'n/a'}), fds ${gone?.fds ?? 'n/a'} (before: ${idle?.fds ?? 'n/a'})`,
      ],
      [
        'Hooks all answered 2xx',
        totals.non2xx === 0 && totals.errors === 0 && totals.skipped === 0,
        `${thousands(totals.accepted)} of ${thousands(totals.sent)} (non-2xx ${totals.non2xx}, errors ${totals.errors}, not sent: over ${MAX_IN_FLIGHT} in flight ${totals.skipped})`,
      ],
      ...flat.map((f): [string, boolean, string] => [
        `${f.resource.name} flat`,
        f.flat,
        `growth over the steady state ${signed(f.growth, 1)}${f.resource.unit ? ` ${f.resource.unit}` : ''} (tolerance ${fixed(f.tolerance)}), last/first ${fixed(f.ratio, 3)}`,
      ]),
    ];
    const passed = checks.every(([, ok]) => ok);
    const verdict = passed
      ? `**FLAT, no vote lost**: every resource stayed within its tolerance over the steady state (minutes ${steadyFrom.toFixed(1)}–${loadMinutes.toFixed(1)}) and every check passed.`
      : `**NOT PASSED**: ${checks
          .filter(([, ok]) => !ok)
          .map(([name]) => name.toLowerCase())
          .join('; ')}.`;

    // ------------------------------------------------------------------ console
    const flatHeader = ['Resource (steady state)', 'first', 'last', 'min – max', 'slope / min', 'growth (tolerance)', 'last/first', 'flat'];
    const flatRows = flat.map((f) => [
      `${f.resource.name}${f.resource.unit ? ` (${f.resource.unit})` : ''}`,
      fixed(f.first),
      fixed(f.last),
      `${fixed(f.min)} – ${fixed(f.max)}`,
      signed(f.slopePerMin, 3),
      `${signed(f.growth, 1)} (≤ ${fixed(f.tolerance)})`,
      fixed(f.ratio, 3),
      f.flat ? 'yes' : 'NO',
    ]);
    const checkRows = checks.map(([name, ok, detail]) => [name, ok ? 'ok' : 'FAILED', detail]);
    const hookLatP99 = worst((r) => r.hookP99);
    const trafficRows = [
      [
        'Hooks',
        `${thousands(totals.accepted)} accepted of ${thousands(totals.sent)} sent (${(totals.accepted / (loadMinutes * 60)).toFixed(1)}/s); worst window p50 ${ms(worst((r) => r.hookP50))} ms, p99 ${ms(hookLatP99)} ms`,
      ],
      [
        'API reads',
        `${thousands(totals.reads)} answered 200 (${(totals.reads / (loadMinutes * 60)).toFixed(1)}/s), ${totals.readsFailed} other answers, ${totals.readsSkipped} not sent (over ${MAX_READS_IN_FLIGHT} in flight); worst window p99 ${ms(worst((r) => r.readP99))} ms`,
      ],
      ['SSE', `${readers.length} subscribers, ${thousands(sse.received.reduce((a, b) => a + b, 0))} events received`],
      [
        'Callbacks',
        `${thousands(receiver.arrivals.size)} votes delivered, ${thousands(receiver.failed)} attempts answered 500 (${((100 * receiver.failed) / Math.max(1, receiver.failed + receiver.arrivals.size)).toFixed(1)}% of requests) and retried`,
      ],
      ['Drain after the load', `${drainS.toFixed(1)} s`],
      [
        'Server CPU (mean over the load)',
        `${fixed((100 * windowRows.reduce((s, r) => s + (r.probe?.cpuS ?? 0), 0)) / (loadMinutes * 60), 0)}% (2 cores = 200%); event-loop utilization ${fixed(windowRows.reduce((s, r) => s + (r.probe?.elu ?? 0), 0) / windowRows.length, 2)}`,
      ],
    ];
    console.log(`\n${consoleTable(['Traffic', ''], trafficRows)}`);
    console.log(`\n${consoleTable(flatHeader, flatRows)}`);
    console.log(`\n${consoleTable(['Check', '', 'Detail'], checkRows)}`);
    console.log(`\n${verdict.replaceAll('**', '')}`);
    for (const n of notes) console.log(`note: ${n}`);

    // ------------------------------------------------------------------ files
    mkdirSync(OUT_DIR, { recursive: true });
    const csvHeader = [
      'phase',
      't_min',
      'hooks_sent',
      'hooks_accepted',
      'hooks_non2xx',
      'hooks_errors',
      'hook_p50_ms',
      'hook_p99_ms',
      'reads',
      'reads_failed',
      'read_p50_ms',
      'read_p99_ms',
      'sse_events',
      'sse_open',
      'callbacks_ok',
      'callbacks_500',
      'rss_mib',
      'heap_total_mib',
      'heap_used_mib',
      'heap_after_gc_mib',
      'rss_after_gc_mib',
      'external_mib',
      'loop_p50_ms',
      'loop_p90_ms',
      'loop_p99_ms',
      'loop_max_ms',
      'elu',
      'cpu_s',
      'handles',
      'handles_median',
      'handles_max',
      'tcp_sockets',
      'tcp_sockets_median',
      'timers',
      'fds',
      'fds_median',
      'fds_max',
      'proc_rss_mib',
      'load_avg',
    ];
    const f2 = (v: number | null | undefined, d = 2) => (v === null || v === undefined || !Number.isFinite(v) ? '' : v.toFixed(d));
    const csv = rows.map((r) => {
      const p = r.probe;
      return [
        r.phase,
        f2(r.t, 3),
        r.hooksSent,
        r.hooksAccepted,
        r.hooksNon2xx,
        r.hooksErrors,
        f2(r.hookP50),
        f2(r.hookP99),
        r.reads,
        r.readsFailed,
        f2(r.readP50),
        f2(r.readP99),
        r.sseEvents,
        r.sseOpen,
        r.callbacksOk,
        r.callbacks500,
        f2(p && p.memory.rss / MiB),
        f2(p && p.memory.heapTotal / MiB),
        f2(p && p.memory.heapUsed / MiB),
        f2(p?.heapUsedAfterGc && p.heapUsedAfterGc / MiB),
        f2(p?.rssAfterGc && p.rssAfterGc / MiB),
        f2(p && p.memory.external / MiB),
        f2(p?.loop.p50),
        f2(p?.loop.p90),
        f2(p?.loop.p99),
        f2(p?.loop.max),
        f2(p?.elu, 3),
        f2(p?.cpuS, 3),
        p?.resourcesTotal ?? '',
        f2(p?.interval.resourcesMedian, 1),
        p?.interval.resourcesMax ?? '',
        p?.resources.TCPSocketWrap ?? 0,
        f2(p?.interval.tcpMedian, 1),
        p?.resources.Timeout ?? 0,
        p?.fds ?? '',
        f2(p?.interval.fdsMedian, 1),
        p?.interval.fdsMax ?? '',
        f2(r.procRss / MiB),
        f2(r.load),
      ].join(',');
    });
    writeFileSync(join(OUT_DIR, 'samples.csv'), `${csvHeader.join(',')}\n${csv.join('\n')}\n`);
    const settings = {
      minutes: MINUTES,
      sampleS: SAMPLE_S,
      rate: RATE,
      readRate: READ_RATE,
      subscribers: SUBSCRIBERS,
      failRatio: FAIL_RATIO,
      retrySchedule: RETRY_SCHEDULE,
      database: DB_KIND,
    };
    writeFileSync(
      join(OUT_DIR, 'summary.json'),
      `${JSON.stringify({ date: new Date().toISOString(), commit: gitCommit(ROOT), machine: machineDescription(), node: process.version, settings, passed, checks, flatness: flat.map(({ resource, ...f }) => ({ resource: resource.key, unit: resource.unit, ...f })), notes, samples: rows }, null, 1)}\n`,
    );

    const subtitle = `${MINUTES} min, ${RATE} votes/s, ${READ_RATE} reads/s, ${SUBSCRIBERS} SSE subscribers, ${(FAIL_RATIO * 100).toFixed(0)}% callbacks failing; ${DB_KIND}; ${new Date().toISOString().slice(0, 10)}`;
    const band = { from: steadyFrom, to: loadMinutes, label: 'steady state (verdict)' };
    const plotted = loadRows.filter((r) => r.probe);
    const series = (name: string, color: string, f: (p: ProbeSample) => number, dashed = false): Series => ({
      name,
      color,
      dashed,
      points: plotted.map((r) => [r.t, f(r.probe!)]),
    });
    const xLabel = 'minutes since the load started';
    const pngs = [
      {
        file: 'memory.png',
        chart: {
          title: 'Soak: server memory',
          subtitle,
          xLabel,
          yLabel: 'MiB',
          band,
          series: [
            series('RSS', '#1f77b4', (p) => p.memory.rss / MiB),
            series('heap total', '#2ca02c', (p) => p.memory.heapTotal / MiB, true),
            series('heap used after GC', '#d62728', heapAfterGc),
          ],
        },
      },
      {
        file: 'event-loop-delay.png',
        chart: {
          title: `Soak: server event-loop delay (per ${SAMPLE_S} s interval)`,
          subtitle,
          xLabel,
          yLabel: 'delay (ms)',
          band,
          series: [series('p50', '#2ca02c', (p) => p.loop.p50), series('p99', '#1f77b4', (p) => p.loop.p99), series('max', '#d62728', (p) => p.loop.max, true)],
        },
      },
      {
        file: 'handles.png',
        chart: {
          title: `Soak: server handles and file descriptors (median of 1 s counts per ${SAMPLE_S} s)`,
          subtitle,
          xLabel,
          yLabel: 'count',
          band,
          series: [
            series('active handles + requests', '#1f77b4', (p) => p.interval.resourcesMedian),
            series('TCP sockets', '#ff7f0e', (p) => p.interval.tcpMedian, true),
            series('open fds', '#2ca02c', (p) => p.interval.fdsMedian ?? Number.NaN),
          ],
        },
      },
    ];
    for (const { file, chart } of pngs) writeLineChartPng(join(OUT_DIR, file), chart);
    const rel = (file: string) => relative(ROOT, join(OUT_DIR, file));
    console.log(`\nsamples and plots written to ${relative(ROOT, OUT_DIR)}/`);

    if (WRITE_DOCS) {
      const section = [
        `## Soak: ${MINUTES} minutes of mixed traffic${SECTION === 'soak' ? '' : ` (${DB_KIND}, ${SAMPLE_S} s samples)`}`,
        '',
        `Measured by \`bench/soak.ts\` (\`npm run soak\`; \`npm run soak -- --short\` is the 2-minute form with 10 s samples; not part of \`npm run bench\`). ` +
          `The service (\`src/main.ts\`, \`LOG_LEVEL=info\`, deliveries on, \`RETRY_SCHEDULE=${RETRY_SCHEDULE}\`, ${PG_URL ? 'a fresh PostgreSQL database' : 'a fresh SQLite file'}) runs as a child process ` +
          `with \`bench/lib/server-probe.ts\` preloaded (\`--import\`, \`--expose-gc\`): on each SIGUSR2 from the driver it records the event-loop delay since the previous sample ` +
          '(`monitorEventLoopDelay`, 10 ms resolution, delay beyond it), memory before and after a forced full GC, and the median over the interval of per-second counts of ' +
          '`process.getActiveResourcesInfo()` (handles and requests) and `/proc/self/fd`. ' +
          `The driver (this process) sends unique top.gg-style votes at ${RATE}/s (paced open loop), API reads at ${READ_RATE}/s (vote lists, single vote, dashboard, trend, by-provider, leaderboard, organization), ` +
          `keeps ${SUBSCRIBERS} SSE subscribers (\`${QUERY}\`) open the whole time, and runs the callback receiver (127.0.0.1, worker thread) that answers ${(FAIL_RATIO * 100).toFixed(0)}% of requests with 500 at random. ` +
          `One sample every ${SAMPLE_S} s. The steady state is the second half of the load; "growth" is the least-squares slope over it × its length, and a resource is flat when that growth stays within the tolerance ` +
          '(memory: max(10 MiB RSS / 5 MiB heap, 10% of the mean); handles and fds: max(5, 10%); event-loop p99: max(5 ms, 50%)).',
        '',
        `- Date: ${new Date().toISOString()}`,
        `- Machine: ${machineDescription()}`,
        `- Machine load (the driver, the receiver and the service share these cores): before ${loadBefore}; after ${machineLoad()}`,
        `- Node: ${process.version}`,
        `- Commit: ${gitCommit(ROOT)}`,
        `- Run took ${duration((Date.now() - started) / 1000)} (load ${duration(loadMinutes * 60)}, ${WINDOWS} samples + before/after)`,
        '',
        verdict,
        '',
        markdownTable(flatHeader, flatRows),
        '',
        markdownTable(
          ['Check', 'Result', 'Detail'],
          checkRows.map(([a, b, c]) => [a, b === 'ok' ? 'ok' : '**FAILED**', c.replaceAll('|', '\\|')]),
        ),
        '',
        markdownTable(['Traffic', 'Figures'], trafficRows),
        '',
        `![memory](${rel('memory.png')}) ![event-loop delay](${rel('event-loop-delay.png')}) ![handles](${rel('handles.png')})`,
        '',
        `Every sample: [${rel('samples.csv')}](${rel('samples.csv')}) (with summary.json beside it).`,
        ...(notes.length > 0
          ? ['', ...notes.slice(0, 20).map((n) => `- ${n}`), ...(notes.length > 20 ? [`- … ${notes.length - 20} more notes in summary.json`] : [])]
          : []),
      ].join('\n');
      writeSection(join(ROOT, 'BENCHMARKS.md'), SECTION, section);
      console.log(`BENCHMARKS.md section "${SECTION}" updated (run took ${duration((Date.now() - started) / 1000)}).`);
    }
    return passed ? 0 : 1;
  } catch (err) {
    console.error(`\n!!! soak failed: ${(err as Error).message}`);
    if (server) console.error(`last server output:\n${server.tail()}`);
    return 1;
  } finally {
    reads?.stop();
    for (const r of readers) r.close();
    agent.destroy();
    await server?.stop(10_000);
    if (!receiverStopped) await receiver?.stop();
    await database.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
