// One PostgreSQL transaction per group-committed batch (group-commit.ts) on one pooled connection: a fixed number of
// round trips whatever the batch size; deadlocks and serialization failures are retried.
import pg from 'pg';

/** A statement that has not answered after this long fails its batch (nothing committed). */
const STATEMENT_TIMEOUT_MS = 15_000;
/** Deadlock (40P01) or serialization failure (40001) with other work: the batch is retried this many times. */
const TRANSIENT_RETRIES = 5;

export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(config: {
  name?: string;
  text: string;
  values?: unknown[];
}) => Promise<pg.QueryResult<R>>;

/**
 * Writes one batch inside an open transaction; returns one result per item, in order. `begun` is what the statements
 * of `begin` answered, in order (reads sent in the same round trip as BEGIN), or undefined without `begin`.
 */
export type PgBatchWrite<I, O> = (query: Query, items: I[], begun: pg.QueryResult[] | undefined) => Promise<O[]>;

/** A named write (writes.ts): its batch write, and what its transaction starts with. */
export interface PgNamedWrite<I, O> {
  write: PgBatchWrite<I, O>;
  begin?: string | ((items: I[]) => string);
  /**
   * The write is one statement, atomic by itself: it runs without BEGIN and COMMIT (one round trip instead of three,
   * still one synced commit). Without `begin`.
   */
  oneStatement?: boolean;
  /** The write's last statement carries the COMMIT (one round trip fewer): nothing is sent after it. */
  commits?: boolean;
  /**
   * Statements (SQL PREPARE) run once on each connection before its first batch, so that `begin` can EXECUTE them:
   * planned once per connection instead of once per batch, and still in BEGIN's round trip.
   */
  prepare?: string;
}

/**
 * `begin`: statements run right after BEGIN, in the same round trip (SET LOCAL …, a batch's locks, its first read).
 * Simple query protocol, no parameters: only literals the caller made safe (numbers, or text through sqlLiteral).
 */
export function pgTransaction<I, O>(
  pool: pg.Pool,
  write: PgBatchWrite<I, O>,
  begin?: string | ((items: I[]) => string),
  oneStatement = false,
  commits = false,
  prepare?: string,
): (items: I[]) => Promise<O[]> {
  /** The connections `prepare` ran on (a connection replaced after an error is a new client). */
  const prepared = new WeakSet<pg.PoolClient>();
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
      const query: Query = (config) =>
        client.query({ ...config, values: config.values?.map(arrayParameter), query_timeout: STATEMENT_TIMEOUT_MS } as pg.QueryConfig);
      let broken = false;
      try {
        if (prepare && !prepared.has(client)) {
          await query({ text: prepare });
          prepared.add(client);
        }
        if (oneStatement) return await write(query, items, undefined);
        const begun = (await query({ text: beginOf(items) })) as pg.QueryResult | pg.QueryResult[];
        // Without the BEGIN's own result.
        const results = await write(query, items, Array.isArray(begun) ? begun.slice(1) : []);
        if (!commits) await query({ text: 'COMMIT' });
        return results;
      } catch (err) {
        // A connection whose state is unknown (lost, timed out, or one that could not roll back) is not kept for the
        // next user; a lone statement has nothing to roll back.
        if (oneStatement) broken = true;
        else
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

/** What escapeLiteral changes: a quote or a backslash. */
const QUOTED = /['\\]/;

/** Text as a quoted literal, exactly as pg's escapeLiteral quotes it; NUL cannot be sent in a simple query's text. */
function quoted(text: string): string {
  if (text.includes('\u0000')) throw new Error('a NUL character cannot be sent as a literal');
  // Ids, hashes and keys hold neither quote nor backslash: quoted as they are (what escapeLiteral would return).
  return QUOTED.test(text) ? pg.escapeLiteral(text) : `'${text}'`;
}

/** What an array element escapes with a backslash: a double quote or a backslash. */
const ESCAPED_IN_ARRAY = /["\\]/;

/** One element of an array literal: NULL, or the value in double quotes with `"` and `\` escaped by a backslash. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value) || (typeof value === 'number' && !Number.isFinite(value))) throw new Error(`not an array element: ${String(value)}`);
  return quotedElement(String(value));
}

/** Text in double quotes, `"` and `\` escaped by a backslash (ids, keys and timestamps hold neither: quoted as they are). */
const quotedElement = (text: string) => (ESCAPED_IN_ARRAY.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`);

/**
 * A bound parameter as pg sends it, with an array of text, numbers, booleans and nulls written here as one array
 * literal: the same text pg's own arrayString writes ('{"a","2",NULL}'), with less garbage (pg escapes every element
 * with two replacements, the largest share of what the write thread allocated per vote in a sampling heap profile
 * under bench/ingest.ts). Other values, and arrays holding anything else (dates, buffers, nested arrays), are left
 * to pg.
 */
export function arrayParameter(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  let literal = '{';
  for (let i = 0; i < value.length; i++) {
    const element: unknown = value[i];
    if (i > 0) literal += ',';
    if (element === null || element === undefined) literal += 'NULL';
    else if (typeof element === 'string') literal += quotedElement(element);
    else if (typeof element === 'boolean' || (typeof element === 'number' && Number.isFinite(element))) literal += `"${element}"`;
    else return value;
  }
  return `${literal}}`;
}

/**
 * A value as a SQL literal for `begin`'s simple-protocol text: text quoted as pg's escapeLiteral quotes it (E'…' when
 * it holds a backslash, so it reads the same whatever standard_conforming_strings is), an array as one array literal
 * ('{"a","b",NULL}', which the statement casts: one constant for the server to read, not one per element), null as
 * NULL. NUL cannot be sent in a simple query's text: refused (hashes, ids and voter keys never hold it).
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return quoted(`{${value.map(arrayElement).join(',')}}`);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quoted(String(value));
}

/** `sql` with each parameter $n replaced by the literal of values[n - 1] (sqlLiteral). */
export function inlineParameters(sql: string, values: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= values.length) throw new Error(`no value for $${n}`);
    return sqlLiteral(values[index]);
  });
}
