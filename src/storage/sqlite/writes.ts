// The SQLite hot writes, each a named batch write on the one better-sqlite3 write connection, group-committed in one
// IMMEDIATE transaction per batch: `votes` (the vote with its jobs and rollups), the job queue's `claims`,
// `renewals` and `attempts` (marks before sending, README "Delivery guarantees", and attempt records), and `hookLog`
// (the hook request log). One connection writes, so no
// other connection of ours contends for the write lock. In the service they run on the write thread
// (../write-thread.ts loads threadWrites from this module); in one-shot commands on the caller's thread.
import type Sqlite from 'better-sqlite3';
import type { MessagePort } from 'node:worker_threads';
import type { StorageOptions } from '../options.js';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../base/logger.js';
import { commitEach, createGroupCommit, type GroupCommit } from '../group-commit.js';
import type { PlanRules } from '../../domain/job-plan.js';
import { writeThreadClient, type ThreadWrites } from '../write-thread.js';
import { createSqliteHookLogWrite } from './hook-log.js';
import { startCheckpointer } from './checkpointer.js';
import { isSqliteBusy, openSqliteConnection, sqlitePathFromUrl } from './connection.js';
import { createSqliteJobWrites } from './jobs.js';
import { createSqliteVoteWrite } from './votes.js';

const NAMES = ['votes', 'claims', 'renewals', 'attempts', 'hookLog'] as const;
type Name = (typeof NAMES)[number];
export type SqliteWriters = Record<Name, GroupCommit<never, never>> & {
  alive(): boolean;
  connect(): MessagePort | null;
  close(): Promise<void>;
};

/**
 * Writes committed without their own fsync (synchronous=NORMAL for that transaction). In WAL mode such a commit
 * survives a crash of the process, and the next vote's commit (synchronous=FULL) syncs its frames too; only a power
 * cut or an OS crash can take back the last fraction of a second of them, never a vote:
 *   - the hook request log is a diagnostic record; its own fsync every flush cost about a tenth of the votes per
 *     second the write thread could commit (bench/ingest.ts, BENCHMARKS.md "Hook request log");
 *   - a claim, a lease renewal or an attempt record lost that way leaves its job leased as before: it is sent again
 *     when the lease lapses or the instance restarts (README "Delivery guarantees": at least once). Syncing them
 *     would put a second fsync behind every batch of votes (bench/delivery.ts);
 *   - a mark before a send to a target that cannot drop a repeat survives a crash of the process, which is what it
 *     is for; the next vote's synced commit makes it power-safe too. Its own fsync cost 10–20% of the Votifier
 *     deliveries per second the worker could make (bench/marks.ts, BENCHMARKS.md "Marks before sending"): every send
 *     waited for one. A power cut in the fraction of a second before the next synced commit can undo a mark and its
 *     finish together; such a send may then be repeated (README "Delivery guarantees").
 */
const NOT_SYNCED: ReadonlySet<Name> = new Set(['hookLog', 'claims', 'renewals', 'attempts']);
/** A batch that finds the write lock taken (another process, Prisma's connection) is tried again this soon. */
const BUSY_RETRY_MS = 2;

/** Each named write as one transaction over a batch. */
function transactions(config: Config, db: Sqlite.Database, rules: PlanRules): Record<Name, (items: never[]) => unknown[]> {
  const jobs = createSqliteJobWrites(db);
  const votes = createSqliteVoteWrite(config, db, rules, jobs.insertJobs);
  const fns: Record<Name, (items: never[]) => unknown[]> = {
    votes: votes.write as (items: never[]) => unknown[],
    claims: jobs.claims,
    renewals: jobs.renewals,
    attempts: jobs.attempts,
    hookLog: createSqliteHookLogWrite(db),
  };
  // The pragma cannot change inside a transaction; prepared once (it runs twice per unsynced batch).
  const unsynced = db.prepare('PRAGMA synchronous = NORMAL');
  const synced = db.prepare('PRAGMA synchronous = FULL');
  return Object.fromEntries(
    NAMES.map((name) => {
      const tx = db.transaction((items: never[]) => fns[name](items));
      const run = NOT_SYNCED.has(name)
        ? (items: never[]) => {
            unsynced.run();
            try {
              return tx.immediate(items);
            } finally {
              synced.run();
            }
          }
        : (items: never[]) => tx.immediate(items);
      // The vote write keeps voters between batches once their transaction committed (voter-cache.ts).
      if (name !== 'votes') return [name, run];
      return [
        name,
        (items: never[]) => {
          let committed = false;
          try {
            const out = run(items);
            committed = true;
            return out;
          } finally {
            votes.settled(committed);
          }
        },
      ];
    }),
  ) as Record<Name, (items: never[]) => unknown[]>;
}

/** What the write thread is told: the planning rules, and whether checkpoints are another thread's (checkpointer.ts). */
interface ThreadOptions {
  rules: PlanRules;
  checkpointer: boolean;
}

/** The write thread's side: its own connection, one handler per name. */
export async function threadWrites(config: Config, options: ThreadOptions): Promise<ThreadWrites> {
  const { rules } = options;
  // Waiting for the write lock (another process, Prisma's connection) blocks only this thread.
  const db = openSqliteConnection(sqlitePathFromUrl(config.databaseUrl), 15_000);
  if (options.checkpointer) db.pragma('wal_autocheckpoint = 0');
  const txs = transactions(config, db, rules);
  const handlers = Object.fromEntries(NAMES.map((name) => [name, (items: unknown[]) => commitEach(items as never[], txs[name], isSqliteBusy)]));
  return { handlers, close: async () => void db.close() };
}

/**
 * The writers the storage uses: on the write thread (spawned, or another thread's through `port`), or on this thread
 * with `db` (timeout 0: a busy write lock is waited for in steps, never blocking the event loop).
 */
export function sqliteWriters(
  config: Config,
  rules: PlanRules,
  db: Sqlite.Database | null,
  thread?: StorageOptions['writeThread'] & { onGone?: () => void },
): SqliteWriters {
  const retryAfter = (err: unknown) => (isSqliteBusy(err) ? BUSY_RETRY_MS : null);
  if (thread) {
    // Another thread's write thread (`port`) or another process's (`remote`: the primary's, README "Several processes").
    const port = thread.port ?? thread.remote?.();
    // The process's own write thread has its checkpoints done beside it.
    const checkpointer = port ? null : startCheckpointer(sqlitePathFromUrl(config.databaseUrl), thread.logger);
    const client = writeThreadClient(config, thread.logger, {
      module: import.meta.url,
      options: { rules, checkpointer: checkpointer !== null } satisfies ThreadOptions,
      port,
      retryAfter,
      onGone: thread.onGone,
    });
    const writers = Object.fromEntries(NAMES.map((name) => [name, client.writer(name)])) as Record<Name, GroupCommit<never, never>>;
    return {
      ...writers,
      alive: client.alive,
      // Another process's write thread: each port (the delivery thread's) is one more channel to it.
      connect: thread.remote ?? client.connect,
      async close() {
        await client.close();
        await checkpointer?.close();
      },
    };
  }
  if (!db) throw new Error('sqliteWriters: writes on this thread need its connection');
  const txs = transactions(config, db, rules);
  const writers = Object.fromEntries(
    NAMES.map((name) => [
      name,
      createGroupCommit<never, never>({
        maxBatch: config.writeBatchMax,
        retryAfter,
        commit: (items) => commitEach(items, txs[name] as (items: never[]) => never[], isSqliteBusy),
      }),
    ]),
  ) as Record<Name, GroupCommit<never, never>>;
  return {
    ...writers,
    alive: () => db.open,
    connect: () => null,
    async close() {
      for (const name of NAMES) writers[name].close();
      await Promise.all(NAMES.map((name) => writers[name].idle()));
    },
  };
}

/**
 * SQLite with several service processes (README "Several processes"): the primary's write thread, the database's one
 * writer. Each worker's hot writes reach it through a port of `connect()`, carried over IPC; its checkpoints are
 * done beside it.
 */
export function openSqliteWriteThread(
  config: Config,
  options: { logger: Logger; planRules: PlanRules; onGone: () => void },
): { connect(): MessagePort | null; close(): Promise<void> } {
  const writers = sqliteWriters(config, options.planRules, null, { logger: options.logger, onGone: options.onGone });
  return { connect: writers.connect, close: writers.close };
}
