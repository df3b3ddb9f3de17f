// The batch writer's PostgreSQL driver (batch-writer.ts): one transaction per batch on one pooled connection, a
// fixed number of round trips whatever the batch size; deadlocks and serialization failures are retried.
import type pg from 'pg';
import type { BatchWriter, Queued } from './batch-writer.js';

/** A statement that has not answered after this long fails its batch (nothing committed). */
const STATEMENT_TIMEOUT_MS = 15_000;
/** Deadlock (40P01) or serialization failure (40001) with other work: the batch is retried this many times. */
const TRANSIENT_RETRIES = 5;

export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(config: {
  name?: string;
  text: string;
  values?: unknown[];
}) => Promise<pg.QueryResult<R>>;

export interface PostgresBatchWriterOptions<I, O> {
  pool: pg.Pool;
  /** Writes one batch inside an open transaction; returns one result per item, in order. */
  write(query: Query, items: I[]): Promise<O[]>;
  /** Bounds one transaction (and how long it holds its row locks). */
  maxBatch: number;
  /** Batches written at once; each holds one pooled connection while it runs. */
  maxInFlight: number;
  /**
   * Statements run right after BEGIN, in the same round trip (e.g. SET LOCAL …, a batch's locks). Simple query
   * protocol, no parameters: only literals the caller made safe (numbers).
   */
  begin?: string | ((items: I[]) => string);
}

export function createPostgresBatchWriter<I, O>(options: PostgresBatchWriterOptions<I, O>): BatchWriter<I, O> {
  const { pool, maxBatch, maxInFlight } = options;
  const beginOf = (items: I[]) => {
    const extra = typeof options.begin === 'function' ? options.begin(items) : options.begin;
    return extra ? `BEGIN; ${extra}` : 'BEGIN';
  };
  const queue: Queued<I, O>[] = [];
  let inFlight = 0;
  let closed = false;
  let pumpScheduled = false;

  /** One transaction; retried on deadlock or serialization failure, which change nothing. */
  async function commit(items: I[]): Promise<O[]> {
    for (let attempt = 0; ; attempt++) {
      const client = await pool.connect();
      // The pool listens for errors only on idle clients; a connection lost between two statements of this
      // transaction must fail the batch (the next statement rejects), not crash the process.
      const ignore = () => {};
      client.on('error', ignore);
      // A statement that never answers (a half-open connection) fails the batch instead of holding the queue.
      const query: Query = (config) => client.query({ ...config, query_timeout: STATEMENT_TIMEOUT_MS } as pg.QueryConfig);
      let broken = false;
      try {
        await query({ text: beginOf(items) });
        const results = await options.write(query, items);
        await query({ text: 'COMMIT' });
        return results;
      } catch (err) {
        await query({ text: 'ROLLBACK' }).catch(() => {
          broken = true;
        });
        const code = (err as { code?: string }).code;
        if ((code === '40P01' || code === '40001') && attempt < TRANSIENT_RETRIES) continue;
        throw err;
      } finally {
        client.removeListener('error', ignore);
        client.release(broken);
      }
    }
  }

  async function run(batch: Queued<I, O>[]) {
    try {
      const results = await commit(batch.map((q) => q.item));
      batch.forEach((q, i) => q.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      // An outage fails them all the same way, quickly (each attempt fails to connect).
      for (const queued of batch) {
        try {
          queued.resolve((await commit([queued.item]))[0]);
        } catch (single) {
          queued.reject(single);
        }
      }
    }
  }

  function pump() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        if (queue.length > 0) pump();
      });
    }
  }

  return {
    submit(item) {
      if (closed) return Promise.reject(new Error('the writer is closed'));
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // Joins the next batch: items submitted together start one batch, and under load many more arrive while a
        // batch is being written.
        if (!pumpScheduled) {
          pumpScheduled = true;
          queueMicrotask(() => {
            pumpScheduled = false;
            pump();
          });
        }
      });
    },
    close() {
      closed = true;
    },
  };
}
