// Group commit, written once for every hot write: callers submit an item and get a promise; everything submitted
// while a batch is being written joins the next one, and each batch is one transaction (one fsync or WAL flush for
// many items). Each promise settles only after its own batch committed. What a batch's commit is comes from the
// caller: a transaction on this thread (sqlite/, postgres/), or a message to the write thread (write-thread.ts).
// When a batch fails as a whole, its items are written one by one (commitEach), so one bad item fails alone.
import type { BatchWriter } from './ports.js';

/** A bound on one transaction's size keeps each commit (and the row locks or event-loop pause it costs) short. */
export const DEFAULT_MAX_BATCH = 256;
/** How long a batch that cannot get the database's write lock (another process holds it) keeps trying. */
const BUSY_GIVE_UP_MS = 15_000;

/** One item's outcome. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions<I, O> {
  /** Writes one batch and settles each item; throws when nothing could be tried (busy, the thread gone). */
  commit(items: I[]): Settled<O>[] | Promise<Settled<O>[]>;
  maxBatch: number;
  /** Batches written at once (each holds one connection while it runs). */
  maxInFlight?: number;
  /** For a whole-batch failure: the delay after which the batch is tried again (a busy lock), or null to fail it. */
  retryAfter?(err: unknown): number | null;
}

/** A batch in one transaction; if it fails, each item in its own (unless `wholeBatchError` says nothing was tried). */
export async function commitEach<I, O>(
  items: I[],
  transaction: (items: I[]) => O[] | Promise<O[]>,
  wholeBatchError: (err: unknown) => boolean = () => false,
): Promise<Settled<O>[]> {
  try {
    return (await transaction(items)).map((value) => ({ ok: true, value }));
  } catch (err) {
    if (items.length === 1 || wholeBatchError(err)) throw err;
    const settled: Settled<O>[] = [];
    for (const item of items) {
      try {
        settled.push({ ok: true, value: (await transaction([item]))[0] });
      } catch (single) {
        if (wholeBatchError(single)) throw single;
        settled.push({ ok: false, error: single });
      }
    }
    return settled;
  }
}

interface Queued<I, O> {
  item: I;
  resolve(result: O): void;
  reject(err: unknown): void;
}

export interface GroupCommit<I, O> extends BatchWriter<I, O> {
  /** Resolves when nothing is queued or being written. */
  idle(): Promise<void>;
}

export function createGroupCommit<I, O>(options: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const maxInFlight = options.maxInFlight ?? 1;
  const queue: Queued<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;
  let closed = false;
  let busySince: number | null = null;
  const idleWaiters: (() => void)[] = [];

  function schedule(delayMs = 0) {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      pump();
    };
    if (delayMs > 0) setTimeout(run, delayMs);
    else setImmediate(run);
  }

  function pump() {
    while (inFlight < maxInFlight && queue.length > 0 && !scheduled) {
      const batch = queue.splice(0, options.maxBatch);
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        if (queue.length > 0) pump();
        else if (inFlight === 0) idleWaiters.splice(0).forEach((wake) => wake());
      });
    }
  }

  async function write(batch: Queued<I, O>[]) {
    let results: Settled<O>[];
    try {
      results = await options.commit(batch.map((q) => q.item));
    } catch (err) {
      const delay = options.retryAfter?.(err) ?? null;
      if (delay !== null) {
        busySince ??= Date.now();
        if (Date.now() - busySince < BUSY_GIVE_UP_MS) {
          // Back at the head of the queue, tried again shortly.
          queue.unshift(...batch);
          schedule(delay);
          return;
        }
      }
      busySince = null;
      for (const q of batch) q.reject(err);
      return;
    }
    busySince = null;
    batch.forEach((q, i) => {
      const r = results[i] ?? results[0];
      if (r.ok) q.resolve(r.value);
      else q.reject(r.error);
    });
  }

  return {
    submit(item) {
      if (closed) return Promise.reject(new Error('the writer is closed'));
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // Everything submitted in this event-loop turn (and while a batch is being written) joins one batch.
        if (inFlight < maxInFlight) schedule();
      });
    },
    close() {
      closed = true;
    },
    idle() {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}
