// One PostgreSQL transaction per group-committed batch (group-commit.ts) on one pooled connection: a fixed number of
// round trips whatever the batch size; deadlocks and serialization failures are retried.
import type pg from 'pg';

/** A statement that has not answered after this long fails its batch (nothing committed). */
const STATEMENT_TIMEOUT_MS = 15_000;
/** Deadlock (40P01) or serialization failure (40001) with other work: the batch is retried this many times. */
const TRANSIENT_RETRIES = 5;

export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(config: {
  name?: string;
  text: string;
  values?: unknown[];
}) => Promise<pg.QueryResult<R>>;

/** Writes one batch inside an open transaction; returns one result per item, in order. */
export type PgBatchWrite<I, O> = (query: Query, items: I[]) => Promise<O[]>;

/** A named write (writes.ts): its batch write, and what its transaction starts with. */
export interface PgNamedWrite<I, O> {
  write: PgBatchWrite<I, O>;
  begin?: string | ((items: I[]) => string);
}

/**
 * `begin`: statements run right after BEGIN, in the same round trip (SET LOCAL …, a batch's locks). Simple query
 * protocol, no parameters: only literals the caller made safe (numbers).
 */
export function pgTransaction<I, O>(pool: pg.Pool, write: PgBatchWrite<I, O>, begin?: string | ((items: I[]) => string)): (items: I[]) => Promise<O[]> {
  const beginOf = (items: I[]) => {
    const extra = typeof begin === 'function' ? begin(items) : begin;
    return extra ? `BEGIN; ${extra}` : 'BEGIN';
  };
  return async (items) => {
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
        const results = await write(query, items);
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
  };
}
