// One batch writer (group commit) for every hot write, with one driver per database: callers submit an item and get
// a promise; the driver takes everything submitted meanwhile as one batch and writes it in one transaction (one
// fsync or WAL flush for many items). Each promise settles only after its own batch committed. When a batch fails,
// its items are written one by one, so one bad item (say, a row deleted meanwhile) fails alone.
//   - SQLite (sqlite.ts): a synchronous `write` on the dedicated better-sqlite3 write connection, batched per
//     event-loop turn, retried shortly while another process holds the write lock.
//   - PostgreSQL (postgres.ts): an asynchronous `write` on one pooled connection, batches in flight bounded.

export interface BatchWriter<I, O> {
  submit(item: I): Promise<O>;
  /** Refuses new items; queued ones are still written (their callers are awaiting them). */
  close(): void;
}

/** A bound on one transaction's size keeps each commit (and the row locks or event-loop pause it costs) short. */
export const DEFAULT_MAX_BATCH = 256;

export interface Queued<I, O> {
  item: I;
  resolve(result: O): void;
  reject(err: unknown): void;
}
