// DELIVERY_THREAD=true: the delivery worker runs on its own thread with its own database connections, so sending
// never waits behind request parsing and commits on the main thread, and hooks never wait behind sending. The main
// thread wakes it after each committed vote; it polls for the rest, as in-process.
//
// deliveryThread() is the main thread's handle; the rest of this file runs inside the thread.
import { isMainThread, parentPort, workerData, type MessagePort, type Worker } from 'node:worker_threads';
import { startThread } from '../threads/thread-start.js';
import type { Config } from '../config/config.js';
import { resolveLogFormat, type Logger } from '../base/logger.js';
import type { DeliveryWorker } from '../delivery/worker.js';
import { perTurn } from '../delivery/handoff.js';
import type { ClaimedJob } from '../domain/jobs.js';

type ToThread = 'wake' | 'stop' | { dispatch: ClaimedJob[] };
type FromThread = 'started' | 'stopped';

/**
 * The main thread's handle: the same start/stop/wake as the in-process worker. `writePort` gives each start of the thread a port to the SQLite write thread (its claims and attempt records go
 * through the same write connection as the votes); null elsewhere (PostgreSQL, or SQLite writes on this thread).
 */
export function deliveryThread(
  config: Config,
  logger: Logger,
  writePort: () => MessagePort | null = () => null,
  /** Counts the thread relays (src/metrics/): they join the main thread's registry. */
  onMetric: (message: unknown) => void = () => {},
): DeliveryWorker & { ready(timeoutMs: number): Promise<boolean> } {
  let thread: Worker | null = null;
  let started: Promise<void> = Promise.resolve();
  let stopping = false;
  const post = perTurn((jobs) => thread?.postMessage({ dispatch: jobs } satisfies ToThread));

  function spawn() {
    // The thread starts from a JavaScript bootstrap that loads this same module (through tsx while it is TypeScript).
    const port = writePort();
    // A thread's stdout is not a terminal: it writes in the format the main thread chose.
    const threadConfig: Config = { ...config, logFormat: resolveLogFormat(config.logFormat) };
    // Jobs leased from now on are posted to this thread; those leased before (to a thread that died) it takes back.
    const worker = startThread(import.meta.url, { config: threadConfig, writePort: port, handedSince: Date.now() }, port ? [port] : []);
    worker.on('error', (err) => logger.error({ err }, 'the delivery thread failed; deliveries pause until it restarts'));
    worker.on('message', (message: unknown) => typeof message === 'object' && onMetric(message));
    started = new Promise<void>((resolve) => {
      worker.on('message', (m: unknown) => m === ('started' satisfies FromThread) && resolve());
      worker.once('exit', () => resolve());
    });
    worker.on('exit', (code) => {
      if (thread === worker) thread = null;
      if (stopping) return;
      logger.error({ code }, 'the delivery thread stopped; starting it again in 1 s (deliveries wait meanwhile, nothing is lost)');
      setTimeout(() => !stopping && !thread && (thread = spawn()), 1_000).unref();
    });
    return worker;
  }

  return {
    start() {
      stopping = false;
      thread ??= spawn();
    },
    /** Resolves true once the thread's worker runs (false after `timeoutMs`): the instance is ready then. */
    ready: (timeoutMs) => Promise.race([started.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]),
    async stop() {
      stopping = true;
      const worker = thread;
      thread = null;
      if (!worker) return;
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (m: FromThread) => m === 'stopped' && resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('stop' satisfies ToThread);
      await Promise.race([stopped, new Promise((r) => setTimeout(r, config.shutdownTimeoutMs))]);
      await worker.terminate();
    },
    wake() {
      thread?.postMessage('wake' satisfies ToThread);
    },
    dispatch(jobs) {
      // No thread (it is restarting): the jobs stay leased to this instance, and the new thread takes them back.
      if (!thread) return;
      post(jobs);
    },
  };
}

async function runInThread(config: Config, writePort: MessagePort | null, handedSince: number) {
  const [{ createStorage }, { createDeps }, { createLogger }, { createDeliveryWorker }, { relayMetrics }, { PLAN_RULES }] = await Promise.all([
    import('../storage/index.js'),
    import('./create-deps.js'),
    import('../base/logger.js'),
    import('../delivery/worker.js'),
    import('../metrics/metrics.js'),
    import('../delivery/callback-kinds/registry.js'),
  ]);
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  const db = await createStorage(config, { planRules: PLAN_RULES, ...(writePort ? { writeThread: { logger, port: writePort } } : {}) });
  const deps = createDeps(config, db, { logger, metrics: relayMetrics(parentPort!) });
  const worker = createDeliveryWorker(deps, {
    concurrency: config.deliveryConcurrency,
    leaseMs: config.deliveryLeaseMs,
    pollMs: config.deliveryPollMs,
    workerId: config.instanceId,
    handedSince,
  });
  worker.start();
  parentPort!.on('message', async (message: ToThread) => {
    if (message === 'wake') return worker.wake();
    if (typeof message === 'object') return worker.dispatch(message.dispatch);
    await worker.stop();
    await deps.http.close().catch(() => {});
    await db.close();
    parentPort!.postMessage('stopped' satisfies FromThread);
    parentPort!.close();
  });
  parentPort!.postMessage('started' satisfies FromThread);
}

const data = isMainThread ? null : (workerData as { config?: Config; writePort?: MessagePort | null; handedSince?: number } | null);
if (data?.config) void runInThread(data.config, data.writePort ?? null, data.handedSince ?? Date.now());
