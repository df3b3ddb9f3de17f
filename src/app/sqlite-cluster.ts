// Several service processes on embedded SQLite (WEB_CONCURRENCY; README "Several processes"). SQLite has one writer,
// so the primary keeps it: the write thread a single process has, with its group commit and checkpoints, and every
// worker's hot writes (votes with their jobs, the hook request log, the deliveries' claims and attempt records) reach
// it through ports carried over IPC (ipc-port.ts). A hook is answered only once its vote committed there, as in one
// process. Worker 1 sends every delivery and runs the scheduled work (alerts, reminders, recovery, retention), so
// paced callbacks keep their slots in one memory (storage/pacer.ts). The other workers write a new vote's jobs leased
// to worker 1 and hand them over through the primary, as one process hands them to its delivery thread
// (delivery/handoff.ts). A handoff lost while worker 1 restarts is not lost work: the new worker 1 takes back its own
// leases from before its start, and any lease that lapses is claimed again (README "Delivery guarantees").
import type { Worker } from 'node:cluster';
import type { Config } from '../config/config.js';
import type { Logger } from '../base/logger.js';
import type { ClaimedJob } from '../domain/jobs.js';
import { perTurn, type HandoffTarget } from '../delivery/handoff.js';
import { applyMigrations, openSqliteWriteThread } from '../storage/index.js';
import { PLAN_RULES } from '../delivery/callback-kinds/registry.js';
import { sendToPrimary, sendToWorker, servePorts } from './ipc-port.js';

/** The worker that delivers and runs the scheduled work when the workers share SQLite. */
const DELIVERING_WORKER = 1;

const HANDOFF = 'vote-relay:handoff';
type HandoffMessage = { type: typeof HANDOFF; jobs: ClaimedJob[] } | { type: typeof HANDOFF; wake: true };
const isHandoff = (value: unknown): value is HandoffMessage => (value as HandoffMessage | null)?.type === HANDOFF;

/** A worker of several on SQLite: its hot writes go through the primary's write thread. */
export const sharesPrimaryWriter = (config: Config): boolean => config.dialect === 'sqlite' && config.workerIndex !== null;

/** Whether this process delivers and runs the scheduled work: every process but a worker other than 1 on SQLite. */
export const deliversHere = (config: Config): boolean => !sharesPrimaryWriter(config) || config.workerIndex === DELIVERING_WORKER;

/** Worker 1's INSTANCE_ID, the holder of the leases the other workers write (`<INSTANCE_ID>/1`). */
export const deliveringInstanceId = (config: Config): string => `${config.instanceId.slice(0, config.instanceId.lastIndexOf('/'))}/${DELIVERING_WORKER}`;

/** In a worker other than 1: hands a committed vote's jobs (and wake-ups) to worker 1, through the primary. */
export function handToDeliveringWorker(): HandoffTarget {
  return {
    dispatch: perTurn((jobs) => sendToPrimary({ type: HANDOFF, jobs } satisfies HandoffMessage)),
    wake: () => sendToPrimary({ type: HANDOFF, wake: true } satisfies HandoffMessage),
  };
}

/**
 * In worker 1: the jobs the other workers hand over (leased for `leaseMs`), to its delivery worker (`target()`, null
 * while there is none); `startedAt()` is when that worker started (null before). Jobs leased before it started are not
 * taken: its start takes them back from the database (its own leases from before), and taken both ways one would be
 * sent twice. The workers' leases and this time are all read from the machine's clock.
 */
export function takeHandoffs(target: () => HandoffTarget | null, leaseMs: number, startedAt: () => number | null): () => void {
  const listener = (message: unknown) => {
    const worker = target();
    if (!isHandoff(message) || !worker) return;
    if ('wake' in message) return worker.wake();
    const since = startedAt();
    if (since === null) return;
    const fresh = message.jobs.filter((job) => job.leaseUntil === undefined || job.leaseUntil - leaseMs >= since);
    if (fresh.length > 0) worker.dispatch(fresh);
  };
  process.on('message', listener);
  return () => process.off('message', listener);
}

export interface SqlitePrimary {
  /** Serves a forked worker: its ports to the write thread, and its handoffs to worker 1. */
  attach(worker: Worker, index: number): void;
  /** After every worker stopped: writes what is queued and ends the write thread. */
  close(): Promise<void>;
}

/**
 * In the primary, before it forks: applies the migrations once and starts the write thread. `onGone`: the write
 * thread stopped unasked (nothing more can be written; the primary stops the workers).
 */
export async function startSqlitePrimary(config: Config, logger: Logger, onGone: () => void): Promise<SqlitePrimary> {
  const applied = await applyMigrations(config);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const writer = openSqliteWriteThread(config, { logger, planRules: PLAN_RULES, onGone });
  const workers = new Map<number, Worker>();
  return {
    attach(worker, index) {
      workers.set(index, worker);
      // A send to a worker that is going away fails in its callback (ipc-port.ts); nothing else is sent here.
      worker.on('error', (err) => logger.debug({ err, worker: index }, 'IPC with a worker failed (it is going away)'));
      servePorts(worker, () => writer.connect());
      worker.on('message', (message: unknown) => {
        if (!isHandoff(message)) return;
        const delivering = workers.get(DELIVERING_WORKER);
        // Worker 1 away (restarting): its next start takes its leases back.
        if (delivering) sendToWorker(delivering, message);
      });
    },
    close: () => writer.close(),
  };
}
