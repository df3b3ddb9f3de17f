// The batch writer's SQLite driver (batch-writer.ts): everything submitted in one event-loop turn is written by one
// synchronous `write` inside one IMMEDIATE transaction on the dedicated write connection, so one fsync
// (synchronous=FULL) acknowledges the whole batch. Another connection (Prisma's, the CLI) may hold the write lock
// across event-loop turns: the batch then waits in short steps, never blocking the event loop, up to a bound.
import type Sqlite from 'better-sqlite3';
import { DEFAULT_MAX_BATCH, type BatchWriter, type Queued } from './batch-writer.js';

const BUSY_RETRY_MS = 2;
const BUSY_GIVE_UP_MS = 15_000;

export const isSqliteBusy = (err: unknown): boolean => {
  const code = (err as { code?: string }).code ?? '';
  return code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED';
};

export interface SqliteBatchWriterOptions<I, O> {
  db: Sqlite.Database;
  /** Writes one batch inside the open transaction; returns one result per item, in order. Synchronous. */
  write(items: I[]): O[];
  maxBatch?: number;
}

export function createSqliteBatchWriter<I, O>(options: SqliteBatchWriterOptions<I, O>): BatchWriter<I, O> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const transaction = options.db.transaction((items: I[]) => options.write(items));
  const queue: Queued<I, O>[] = [];
  let scheduled = false;
  let busySince: number | null = null;
  let closed = false;

  function schedule(delayMs = 0) {
    if (scheduled) return;
    scheduled = true;
    if (delayMs > 0) setTimeout(flush, delayMs);
    else setImmediate(flush);
  }

  /** True when the write lock was busy and the items went back to the queue's head (to be tried again). */
  function busyRequeue(err: unknown, items: Queued<I, O>[]): boolean {
    if (!isSqliteBusy(err)) return false;
    busySince ??= Date.now();
    if (Date.now() - busySince >= BUSY_GIVE_UP_MS) {
      busySince = null;
      return false;
    }
    queue.unshift(...items);
    schedule(BUSY_RETRY_MS);
    return true;
  }

  function flush() {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue.splice(0, maxBatch);
    try {
      const results = transaction.immediate(batch.map((q) => q.item));
      busySince = null;
      batch.forEach((q, i) => q.resolve(results[i]));
    } catch (err) {
      if (busyRequeue(err, batch)) return;
      if (batch.length === 1 || isSqliteBusy(err)) {
        batch.forEach((q) => q.reject(err));
      } else {
        // One bad item must not fail the others: write them one by one.
        for (let i = 0; i < batch.length; i++) {
          try {
            batch[i].resolve(transaction.immediate([batch[i].item])[0]);
          } catch (single) {
            if (busyRequeue(single, batch.slice(i))) return;
            batch[i].reject(single);
          }
        }
      }
    }
    if (queue.length > 0) schedule();
  }

  return {
    submit(item) {
      if (closed) return Promise.reject(new Error('the writer is closed'));
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
    close() {
      closed = true;
      // Written now, synchronously: the process may be about to exit.
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        try {
          const results = transaction.immediate(batch.map((q) => q.item));
          batch.forEach((q, i) => q.resolve(results[i]));
        } catch (err) {
          batch.forEach((q) => q.reject(err));
        }
      }
    },
  };
}
