// Several service processes on one machine (WEB_CONCURRENCY): the primary forks the workers, starts a dead one again, stops them all.
import type { Logger } from '../base/logger.js';

/** What the primary needs of a forked worker (node:cluster's Worker has it). */
export interface ForkedWorker {
  process: { pid?: number; kill(signal?: NodeJS.Signals): boolean };
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface ClusterOptions {
  /** node:cluster's fork: `env` is added to the primary's environment. */
  fork(env: Record<string, string>): ForkedWorker;
  workers: number;
  /** The primary's INSTANCE_ID; each worker is `<instanceId>/<index>`. */
  instanceId: string;
  /** SHUTDOWN_TIMEOUT_MS: what a worker's own stop may take for in-flight requests. */
  shutdownTimeoutMs: number;
  logger: Logger;
  /** The first wait before a dead worker is started again; doubled while it keeps dying young. */
  restartDelayMs?: number;
}

export interface ClusterSupervisor {
  /** Forks every worker; resolves once each has said it listens, rejects when one exits before it did. */
  start(): Promise<{ port: number }>;
  /** Sends `signal` to every worker and resolves once all exited: 0 when each stopped cleanly, 1 otherwise. */
  stop(signal: NodeJS.Signals): Promise<number>;
}

const READY = 'vote-relay:worker-ready';

/** What a worker sends the primary once its app listens (main.ts). */
export function workerReadyMessage(port: number): { type: typeof READY; port: number } {
  return { type: READY, port };
}

function readyPort(message: unknown): number | null {
  const m = message as { type?: unknown; port?: unknown } | null;
  return m && m.type === READY && typeof m.port === 'number' ? m.port : null;
}

/** A worker that dies within this long of its start counts as dying young: its next start waits twice as long. */
const YOUNG_MS = 30_000;
/** The longest wait before starting a worker again (a database that is down for minutes is not hammered). */
const MAX_RESTART_DELAY_MS = 30_000;
/**
 * Beyond SHUTDOWN_TIMEOUT_MS (which bounds in-flight requests), what a worker's stop may still take to close
 * the rest (write what is queued, the delivery worker, database connections) before the primary kills it.
 */
const STOP_GRACE_MS = 5_000;

interface Slot {
  index: number;
  worker: ForkedWorker | null;
  pid: number | undefined;
  startedAt: number;
  ready: boolean;
  alive: boolean;
  /** Consecutive deaths young. */
  failures: number;
  restartTimer: NodeJS.Timeout | null;
  /** Resolves with the worker's exit once it exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null;
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) => (signal ? `signal ${signal}` : `code ${code}`);
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export function createClusterSupervisor(options: ClusterOptions): ClusterSupervisor {
  const { logger, workers, instanceId } = options;
  const baseDelay = options.restartDelayMs ?? 1_000;
  const slots: Slot[] = Array.from({ length: workers }, (_, i) => ({
    index: i + 1,
    worker: null,
    pid: undefined,
    startedAt: 0,
    ready: false,
    alive: false,
    failures: 0,
    restartTimer: null,
    exited: null,
  }));
  let stopping = false;
  let starting: { resolve(port: number): void; reject(err: Error): void } | null = null;
  let port: number | null = null;

  function fork(slot: Slot) {
    slot.restartTimer = null;
    const worker = options.fork({ INSTANCE_ID: instanceId, VOTE_RELAY_WORKER_INDEX: String(slot.index) });
    const restarted = slot.worker !== null;
    slot.worker = worker;
    slot.pid = worker.process.pid;
    slot.startedAt = Date.now();
    slot.ready = false;
    slot.alive = true;
    const pid = slot.pid;
    logger.info({ worker: slot.index, workerPid: pid }, `worker ${slot.index} starting (pid ${pid}, instance ${instanceId}/${slot.index})`);
    worker.on('message', (message) => {
      const listening = readyPort(message);
      if (listening === null || slot.worker !== worker) return;
      slot.ready = true;
      port = listening;
      if (restarted) logger.info({ worker: slot.index, workerPid: pid }, `worker ${slot.index} is back (pid ${pid})`);
      if (starting && slots.every((s) => s.ready)) {
        starting.resolve(listening);
        starting = null;
      }
    });
    slot.exited = new Promise((resolve) => {
      worker.on('exit', (code, signal) => {
        resolve({ code, signal });
        if (slot.worker !== worker) return;
        slot.alive = false;
        onExit(slot, worker, code, signal);
      });
    });
  }

  function onExit(slot: Slot, worker: ForkedWorker, code: number | null, signal: NodeJS.Signals | null) {
    if (stopping) return;
    const wasReady = slot.ready;
    slot.ready = false;
    if (starting && !wasReady) {
      // The first start failed (its own log says why): the primary gives up rather than loop, as one process would.
      starting.reject(new Error(`worker ${slot.index} (pid ${worker.process.pid}) exited (${describeExit(code, signal)}) before it listened`));
      starting = null;
      return;
    }
    const young = !wasReady || Date.now() - slot.startedAt < YOUNG_MS;
    slot.failures = young ? slot.failures + 1 : 0;
    const delay = Math.min(baseDelay * 2 ** Math.max(0, slot.failures - 1), MAX_RESTART_DELAY_MS);
    const fields = { worker: slot.index, workerPid: worker.process.pid, code, signal, restartInMs: delay };
    const line = `worker ${slot.index} (pid ${worker.process.pid}) exited (${describeExit(code, signal)}); starting it again in ${seconds(delay)}`;
    if (code === 0) logger.warn(fields, line);
    else logger.error(fields, slot.failures > 1 ? `${line} (${slot.failures} exits in a row within ${seconds(YOUNG_MS)} of starting)` : line);
    slot.restartTimer = setTimeout(() => fork(slot), delay);
  }

  return {
    start() {
      const done = new Promise<number>((resolve, reject) => {
        starting = { resolve, reject };
      });
      logger.info({ workers, instance: instanceId }, `starting ${workers} worker processes (WEB_CONCURRENCY) sharing one port`);
      for (const slot of slots) fork(slot);
      return done.then((listening) => {
        logger.info({ workers, port: listening, instance: instanceId }, 'all workers listening');
        return { port: port ?? listening };
      });
    },

    async stop(signal) {
      stopping = true;
      starting?.reject(new Error(`${signal} before every worker listened`));
      starting = null;
      for (const slot of slots) {
        if (slot.restartTimer) clearTimeout(slot.restartTimer);
        slot.restartTimer = null;
      }
      const live = slots.filter((s) => s.alive);
      logger.info(
        { signal, workers: live.length },
        `${signal}: stopping ${live.length} worker${live.length === 1 ? '' : 's'} (in-flight requests may finish, up to SHUTDOWN_TIMEOUT_MS)`,
      );
      for (const slot of live) slot.worker!.process.kill(signal);
      const deadlineMs = options.shutdownTimeoutMs + STOP_GRACE_MS;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), deadlineMs);
      });
      const exits = await Promise.all(live.map((slot) => Promise.race([slot.exited!, deadline])));
      clearTimeout(timer);
      const late = live.filter((_, i) => exits[i] === 'late');
      for (const slot of late) slot.worker!.process.kill('SIGKILL');
      if (late.length > 0) {
        logger.error({ workers: late.map((s) => s.index) }, `worker ${late.map((s) => s.index).join(', ')} did not stop within ${seconds(deadlineMs)}; killed`);
        await Promise.all(late.map((slot) => slot.exited));
        return 1;
      }
      // A worker still starting has no signal handler yet: the signal ends it, which is a clean stop here.
      const unclean = live.filter((_, i) => {
        const exit = exits[i] as { code: number | null; signal: NodeJS.Signals | null };
        return !(exit.code === 0 || exit.signal === signal);
      });
      for (const slot of unclean) logger.error({ worker: slot.index }, `worker ${slot.index} did not stop cleanly (its log says why)`);
      logger.info(unclean.length === 0 ? 'stopped' : 'stopped, not cleanly');
      return unclean.length === 0 ? 0 : 1;
    },
  };
}
