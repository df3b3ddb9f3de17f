// The WAL checkpointer: copies the write-ahead log back into the database file on a thread of its own, so the write
// thread's commits never pay for it. SQLite otherwise checkpoints inside the commit that takes the log past 1,000
// pages, and that commit then copies and syncs the pages of every commit before it: about a third of the write
// thread's time at a sustained load (bench/vote-write.ts, BENCHMARKS.md "The vote write"). PASSIVE checkpoints wait
// for no lock: writers go on meanwhile, and the log starts over once a checkpoint has copied all of it.
import { statSync } from 'node:fs';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import type { Logger } from '../../base/logger.js';
import { startThread } from '../../threads/thread-start.js';
import { openSqliteConnection } from './connection.js';

/** How often the log's size is looked at. */
const CHECK_EVERY_MS = 100;
/** A log past this size is checkpointed (SQLite's own threshold is 1,000 pages: 4 MiB at the default page size). */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

export interface Checkpointer {
  close(): Promise<void>;
}

/** Starts the checkpointer for the database at `path` (the write connection must run with wal_autocheckpoint=0). */
export function startCheckpointer(path: string, logger: Logger): Checkpointer {
  const worker: Worker = startThread(import.meta.url, { checkpointer: { path } });
  worker.on('error', (err) => logger.error({ err }, 'the WAL checkpointer failed; the write-ahead log grows until the service restarts'));
  return {
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await exited;
    },
  };
}

function runCheckpointer(path: string) {
  const db = openSqliteConnection(path, 5_000);
  const wal = `${path}-wal`;
  const walSize = () => {
    try {
      return statSync(wal).size;
    } catch {
      return 0;
    }
  };
  const timer = setInterval(() => {
    if (walSize() < CHECKPOINT_BYTES) return;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // busy or locked by another checkpoint (the CLI's backup, a restart): tried again at the next look
    }
  }, CHECK_EVERY_MS);
  parentPort!.on('message', (message) => {
    if (message !== 'close') return;
    clearInterval(timer);
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
      process.exit(0);
    }
  });
}

const data = isMainThread ? null : (workerData as { checkpointer?: { path: string } } | null)?.checkpointer;
if (data) runCheckpointer(data.path);
