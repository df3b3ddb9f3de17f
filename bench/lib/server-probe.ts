// Preloaded into the service by bench/soak.ts (`node --expose-gc --import tsx --import ./bench/lib/server-probe.ts
// src/main.ts`): the service itself exposes no process metrics, so this module samples them from inside its process
// without touching src/. On each SIGUSR2 it appends one JSON line to $SOAK_PROBE_FILE with the event-loop delay since
// the previous sample (perf_hooks.monitorEventLoopDelay), memory (before and after a full GC when --expose-gc is
// given: heap after GC is what a leak grows), active handles and requests by kind, open file descriptors and CPU time.
// Handles and fds move with the traffic (a socket per request in flight), so they are also counted every second and
// the interval's median reported beside the snapshot: the median is what a leak would push up.
import { appendFileSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface ProbeSample {
  seq: number;
  /** Wall clock (ms since the epoch) and process uptime (s) when the sample was taken. */
  at: number;
  uptimeS: number;
  /** Event-loop delay over the interval since the previous sample, ms: how late the 10 ms probe timer fired. */
  loop: { p50: number; p90: number; p99: number; max: number; mean: number; count: number };
  /** Event-loop utilization over the interval (0–1: share of time the loop was busy). */
  elu: number;
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  /** heapUsed right after a full GC (null without --expose-gc). */
  heapUsedAfterGc: number | null;
  rssAfterGc: number | null;
  /** process.getActiveResourcesInfo(): handles (sockets, servers, timers…) and requests, by kind. */
  resources: Record<string, number>;
  resourcesTotal: number;
  /** Entries of /proc/self/fd (null off Linux). */
  fds: number | null;
  /** Median and maximum of the per-second counts over the interval (handles + requests, TCP sockets, fds). */
  interval: { resourcesMedian: number; resourcesMax: number; tcpMedian: number; fdsMedian: number | null; fdsMax: number | null };
  /** User + system CPU time since the previous sample, s. */
  cpuS: number;
}

const file = process.env.SOAK_PROBE_FILE;
if (!file) throw new Error('server-probe: SOAK_PROBE_FILE is not set');

/** Timer resolution of the delay histogram: 10 ms is Node's default and cheap. */
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
let lastElu = performance.eventLoopUtilization();
let lastCpu = process.cpuUsage();
let seq = 0;
const gc = (globalThis as { gc?: () => void }).gc;
/** The histogram records the whole interval between timer ticks; the delay is what exceeds the resolution. */
const delayMs = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0);

function countFds(): number | null {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

/** Per-second counts since the previous sample. */
let counts: { resources: number; tcp: number; fds: number | null }[] = [];
function count() {
  const info = process.getActiveResourcesInfo();
  return { resources: info.length, tcp: info.filter((kind) => kind === 'TCPSocketWrap').length, fds: countFds() };
}
setInterval(() => counts.push(count()), 1_000).unref();

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function sample(): void {
  // Read the loop figures first: the GC below would otherwise count as loop delay of the next interval.
  const loop = {
    p50: delayMs(histogram.percentile(50)),
    p90: delayMs(histogram.percentile(90)),
    p99: delayMs(histogram.percentile(99)),
    max: delayMs(histogram.max),
    mean: delayMs(histogram.mean),
    count: histogram.count,
  };
  const elu = performance.eventLoopUtilization(lastElu);
  lastElu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage(lastCpu);
  lastCpu = process.cpuUsage();
  const memory = process.memoryUsage();
  let heapUsedAfterGc: number | null = null;
  let rssAfterGc: number | null = null;
  if (gc) {
    gc();
    const after = process.memoryUsage();
    heapUsedAfterGc = after.heapUsed;
    rssAfterGc = after.rss;
  }
  const resources: Record<string, number> = {};
  const info = process.getActiveResourcesInfo();
  for (const kind of info) resources[kind] = (resources[kind] ?? 0) + 1;
  const fds = countFds();
  counts.push({ resources: info.length, tcp: resources.TCPSocketWrap ?? 0, fds });
  const fdCounts = counts.flatMap((c) => (c.fds === null ? [] : [c.fds]));
  const interval = {
    resourcesMedian: median(counts.map((c) => c.resources)),
    resourcesMax: Math.max(...counts.map((c) => c.resources)),
    tcpMedian: median(counts.map((c) => c.tcp)),
    fdsMedian: fdCounts.length ? median(fdCounts) : null,
    fdsMax: fdCounts.length ? Math.max(...fdCounts) : null,
  };
  counts = [];
  const line: ProbeSample = {
    seq: ++seq,
    at: Date.now(),
    uptimeS: process.uptime(),
    loop,
    elu: elu.utilization,
    memory: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers },
    heapUsedAfterGc,
    rssAfterGc,
    resources,
    resourcesTotal: info.length,
    fds,
    interval,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
  appendFileSync(file!, `${JSON.stringify(line)}\n`);
  // Drop the delay of this callback (and of the GC in it): start the next interval a few ticks later.
  setTimeout(() => histogram.reset(), 3 * RESOLUTION_MS).unref();
}

process.on('SIGUSR2', sample);
