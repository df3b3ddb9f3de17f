// Prometheus metrics (the README's Metrics): counters the request, ingest and delivery paths increment, gauges read
// at scrape time (open delivery jobs, the oldest due job's age, live-feed subscribers), and prom-client's process
// defaults (CPU, memory, event-loop lag). Labels never carry organization ids, slugs or voter names (cardinality
// and privacy): routes are their patterns. The delivery thread sends its counts here (`relayMetrics`), so the
// counters of every thread of the process are in one registry.
import cluster from 'node:cluster';
import client from 'prom-client';
import { isMainThread, type MessagePort } from 'node:worker_threads';
import { clusterMetricsReader } from './cluster.js';

/** What the request, ingest and delivery paths record (in the main thread, or relayed from a worker thread). */
export interface MetricsRecorder {
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /**
   * A hook delivery's outcome: stored, duplicate, test, ignored, or refused (with the error code); `provider`: the key
   * of the provider it reached ('' when the path named none: never a key a stranger typed); `test`: the owner's test vote.
   */
  hookDelivery(outcome: 'stored' | 'duplicate' | 'test' | 'ignored' | 'refused', code: string, provider: string, test: boolean): void;
  voteStored(): void;
  /** One delivery attempt's outcome (sent, retrying, failed) by job kind. */
  deliveryAttempt(kind: string, outcome: string): void;
  /** A job that finished (sent, failed, skipped) by kind. */
  jobFinished(kind: string, status: string): void;
}

/** Counts a worker thread relays (relayMetrics), one message per turn of its event loop. */
interface RelayedCount {
  metric: keyof MetricsRecorder;
  args: unknown[];
}
interface RelayedCounts {
  counts: RelayedCount[];
}

/** Read at scrape time. */
export interface MetricsSources {
  openJobs(): Promise<{ kind: string; status: string; count: number }[]>;
  /** Jobs that ended `uncertain` and were not redelivered (README "Delivery guarantees"), by kind. */
  uncertainJobs(): Promise<{ kind: string; count: number }[]>;
  oldestDueJobAgeSeconds(): Promise<number>;
  liveSubscribers(): number;
}

export interface Metrics extends MetricsRecorder {
  registry: client.Registry;
  /** What GET /metrics answers: this process's registry, or with WEB_CONCURRENCY every worker's (./cluster.ts). */
  text(): Promise<string>;
  /** Wires the scrape-time gauges (the app, once its database and live hub exist). */
  observe(sources: MetricsSources): void;
  /** Counts relayed from a worker thread. */
  receive(message: unknown): boolean;
}

/** Scrape-time database reads are reused this long: a scrape storm costs one read. */
const SOURCE_CACHE_MS = 5_000;

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });

  const http = new client.Histogram({
    name: 'vote_relay_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code (the _count is the number of requests)',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const hooks = new client.Counter({
    name: 'vote_relay_hook_deliveries_total',
    help: "Hook deliveries (HTTP and Votifier) by outcome (stored, duplicate, test, ignored, refused with its error code), the provider reached (its key; empty when the path named none) and whether it was the owner's test vote",
    labelNames: ['outcome', 'code', 'provider', 'test'],
    registers: [registry],
  });
  const votes = new client.Counter({
    name: 'vote_relay_votes_stored_total',
    help: 'Votes stored (hooks, Votifier and recovered votes)',
    registers: [registry],
  });
  const attempts = new client.Counter({
    name: 'vote_relay_delivery_attempts_total',
    help: 'Delivery attempts by job kind and outcome (sent, retrying: failed and scheduled again, failed: failed for good)',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const finished = new client.Counter({
    name: 'vote_relay_delivery_jobs_finished_total',
    help: 'Delivery jobs that reached a final status (sent, failed, skipped, uncertain: the relay stopped while sending to a target that cannot drop a repeat) by kind',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });

  let sources: MetricsSources | null = null;
  let cached: {
    at: number;
    open: { kind: string; status: string; count: number }[];
    uncertain: { kind: string; count: number }[];
    oldest: number;
  } | null = null;
  async function read() {
    if (!sources) return null;
    if (cached && Date.now() - cached.at < SOURCE_CACHE_MS) return cached;
    const [open, uncertain, oldest] = await Promise.all([sources.openJobs(), sources.uncertainJobs(), sources.oldestDueJobAgeSeconds()]);
    cached = { at: Date.now(), open, uncertain, oldest };
    return cached;
  }
  new client.Gauge({
    name: 'vote_relay_delivery_jobs',
    help: 'Delivery jobs not yet finished, by kind and status (pending, retrying, running, held, parked)',
    labelNames: ['kind', 'status'],
    registers: [registry],
    aggregator: 'max', // read from the database: every worker of a machine sees the same rows
    async collect() {
      const now = await read();
      this.reset();
      for (const row of now?.open ?? []) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  new client.Gauge({
    name: 'vote_relay_delivery_jobs_uncertain',
    help: 'Delivery jobs left uncertain by a stop mid-send and not redelivered yet, by kind: each waits for the owner to check and resend (POST /v1/votes/:id/redeliver)',
    labelNames: ['kind'],
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const now = await read();
      this.reset();
      for (const row of now?.uncertain ?? []) this.set({ kind: row.kind }, row.count);
    },
  });
  new client.Gauge({
    name: 'vote_relay_delivery_backlog_seconds',
    help: 'Age of the oldest delivery job that is due and not yet sent (0 when none waits): the backlog',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set((await read())?.oldest ?? 0);
    },
  });
  new client.Gauge({
    name: 'vote_relay_live_subscribers',
    help: 'Live-feed subscribers (SSE and WebSocket) on this instance',
    registers: [registry],
    collect() {
      this.set(sources?.liveSubscribers() ?? 0);
    },
  });

  const recorder: MetricsRecorder = {
    httpRequest: (method, route, status, seconds) => http.observe({ method, route, status_code: String(status) }, seconds),
    hookDelivery: (outcome, code, provider, test) => hooks.inc({ outcome, code, provider, test: test ? 'true' : 'false' }),
    voteStored: () => votes.inc(),
    deliveryAttempt: (kind, outcome) => attempts.inc({ kind, outcome }),
    jobFinished: (kind, status) => finished.inc({ kind, status }),
  };

  const machine = cluster.isWorker && isMainThread ? clusterMetricsReader(registry) : null;
  return {
    registry,
    text: machine ?? (() => registry.metrics()),
    ...recorder,
    observe(s) {
      sources = s;
    },
    receive(message) {
      const counts = (message as Partial<RelayedCounts> | null)?.counts;
      if (!Array.isArray(counts)) return false;
      for (const c of counts as Partial<RelayedCount>[]) {
        if (typeof c?.metric !== 'string' || !Object.hasOwn(recorder, c.metric) || !Array.isArray(c.args)) continue;
        (recorder[c.metric] as (...args: unknown[]) => void)(...c.args);
      }
      return true;
    },
  };
}

/**
 * In a worker thread: every count goes to the main thread's registry through `port`, those of one turn of the event
 * loop in one message (a finished batch of attempts counts twice per attempt; a message per count cost the delivery
 * thread about 8% of its time at full load, bench/marks.ts). The main thread has them a turn later.
 */
export function relayMetrics(port: Pick<MessagePort, 'postMessage'>): MetricsRecorder {
  let pending: RelayedCount[] = [];
  const flush = () => {
    port.postMessage({ counts: pending } satisfies RelayedCounts);
    pending = [];
  };
  const send =
    (metric: keyof MetricsRecorder) =>
    (...args: unknown[]) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ metric, args });
    };
  return {
    httpRequest: send('httpRequest'),
    hookDelivery: send('hookDelivery'),
    voteStored: send('voteStored'),
    deliveryAttempt: send('deliveryAttempt'),
    jobFinished: send('jobFinished'),
  };
}
