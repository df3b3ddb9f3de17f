// The hot writes, the ones every vote and every delivery attempt makes, each a named batch write:
//   - both databases: `votes` (the vote with its jobs and rollups) and `hookLog` (the hook request log's batches,
//     src/modules/hook-requests/hook-log-write.ts);
//   - embedded SQLite, where one connection writes at a time: also the job queue's `claims`, `renewals` and
//     `finishes` (attempt records), so no other connection of ours contends for the write lock.
// In the service they run on the write thread (write-thread.ts); in one-shot commands on the caller's thread.
// SQLite: synchronous statements, one IMMEDIATE transaction per batch; PostgreSQL: the vote store's batch writer.
import type { MessagePort } from 'node:worker_threads';
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ClaimedJob, Finish } from '../delivery/job-queue/job-queue.js';
import { createSqliteJobWrites, type ClaimRequest, type Renewal } from '../delivery/job-queue/sqlite-writes.js';
import { createSqliteVoteWrite } from '../modules/votes/sqlite-vote-write.js';
import { createPgVoteWrite } from '../modules/votes/pg-vote-store.js';
import { createPgHookLogWrite, createSqliteHookLogWrite, type HookLogItem, type HookLogResult } from '../modules/hook-requests/hook-log-write.js';
import type { NewVote, StoredVote } from '../modules/votes/vote-store.js';
import type { BatchWriter } from './batch-writer/batch-writer.js';
import { createSqliteBatchWriter, isSqliteBusy } from './batch-writer/sqlite.js';
import { openSqliteConnection, openPgPool, sqlitePathFromUrl } from './connections.js';
import { toWire, writeThreadClient, type Handler, type Settled } from './write-thread.js';

export interface HotWrites {
  votes: BatchWriter<NewVote, StoredVote>;
  /** The hook request log: one item per batch the recorder gathered (and retention's deletions). */
  hookLog: BatchWriter<HookLogItem, HookLogResult>;
  /** False once the write thread is gone (nothing more can be written; the health check reports it). */
  alive(): boolean;
  /** A port for another thread (the delivery thread) to write through the same write thread; null without one. */
  connect(): MessagePort | null;
  /** Refuses new items, writes the queued ones, then closes the connection (and ends the thread). */
  close(): Promise<void>;
}

export interface SqliteHotWrites extends HotWrites {
  claims: BatchWriter<ClaimRequest, ClaimedJob[]>;
  renewals: BatchWriter<Renewal, boolean>;
  finishes: BatchWriter<Finish, boolean>;
}

/** Where the writes run: on the write thread (spawned, or another thread's through `port`), else on this thread. */
export interface WriteThreadOption {
  logger: Logger;
  port?: MessagePort;
}

const SQLITE_NAMES = ['votes', 'claims', 'renewals', 'finishes', 'hookLog'] as const;
type SqliteName = (typeof SQLITE_NAMES)[number];
/**
 * Writes committed without their own fsync (synchronous=NORMAL for that transaction): the hook request log is a
 * diagnostic record, and in WAL mode the next vote's commit (synchronous=FULL) syncs its frames too; a power cut may
 * lose the last fraction of a second of it, never a vote. Its own fsync every flush cost about a tenth of the votes
 * per second the write thread could commit (bench/ingest.ts, BENCHMARKS.md "Hook request log").
 */
const NOT_SYNCED: ReadonlySet<SqliteName> = new Set(['hookLog']);

function sqliteFunctions(config: Config, db: Sqlite.Database): Record<SqliteName, (items: never[]) => unknown[]> {
  const jobs = createSqliteJobWrites(db);
  return {
    votes: createSqliteVoteWrite(config, db, jobs.insertJobs),
    claims: jobs.claims,
    renewals: jobs.renewals,
    finishes: jobs.finishes,
    hookLog: createSqliteHookLogWrite(db),
  };
}

export function sqliteHotWrites(config: Config, db: Sqlite.Database, thread?: WriteThreadOption): SqliteHotWrites {
  if (thread) {
    const client = writeThreadClient(config, thread.logger, thread.port);
    return {
      votes: client.writer('votes'),
      claims: client.writer('claims'),
      renewals: client.writer('renewals'),
      finishes: client.writer('finishes'),
      hookLog: client.writer('hookLog'),
      alive: client.alive,
      connect: client.connect,
      close: client.close,
    };
  }
  // On this thread: `db` has timeout 0, and a busy write lock is waited for in steps (batch writer's SQLite driver).
  const fns = sqliteFunctions(config, db);
  const make = (name: SqliteName) => createSqliteBatchWriter({ db, write: fns[name] as (items: unknown[]) => never[], maxBatch: config.writeBatchMax });
  const writers = { votes: make('votes'), claims: make('claims'), renewals: make('renewals'), finishes: make('finishes'), hookLog: make('hookLog') };
  return {
    ...writers,
    alive: () => db.open,
    connect: () => null,
    async close() {
      for (const name of SQLITE_NAMES) writers[name].close();
    },
  };
}

export function pgHotWrites(config: Config, pool: pg.Pool, thread?: WriteThreadOption): HotWrites {
  if (thread) {
    const client = writeThreadClient(config, thread.logger, thread.port);
    return { votes: client.writer('votes'), hookLog: client.writer('hookLog'), alive: client.alive, connect: client.connect, close: client.close };
  }
  const votes = createPgVoteWrite(config, pool);
  const hookLog = createPgHookLogWrite(config, pool);
  return {
    votes,
    hookLog,
    alive: () => true,
    connect: () => null,
    close: async () => {
      votes.close();
      hookLog.close();
    },
  };
}

/** The same transaction, committed with synchronous=NORMAL (the pragma cannot change inside a transaction). */
function withoutSync<T>(db: Sqlite.Database, tx: Sqlite.Transaction<(items: never[]) => T>): { immediate(items: never[]): T } {
  return {
    immediate(items) {
      db.pragma('synchronous = NORMAL');
      try {
        return tx.immediate(items);
      } finally {
        db.pragma('synchronous = FULL');
      }
    },
  };
}

/** The write thread's side: its own connection, and one handler per name. */
export async function threadHandlers(config: Config): Promise<{ handlers: Record<string, Handler>; close(): Promise<void> }> {
  if (config.dialect === 'sqlite') {
    // Waiting for the write lock (another process, Prisma's connection) blocks only this thread.
    const db = openSqliteConnection(sqlitePathFromUrl(config.databaseUrl), 15_000);
    const fns = sqliteFunctions(config, db);
    const handlers = Object.fromEntries(
      SQLITE_NAMES.map((name) => {
        const synced = db.transaction((items: never[]) => fns[name](items));
        const tx = NOT_SYNCED.has(name) ? withoutSync(db, synced) : synced;
        const handler: Handler = (items) => {
          try {
            return tx.immediate(items as never[]).map((value) => ({ ok: true, value }));
          } catch (err) {
            if (items.length === 1 || isSqliteBusy(err)) return items.map(() => ({ ok: false, error: toWire(err) }));
            // One bad item must not fail the others: written one by one.
            return items.map((item): Settled => {
              try {
                return { ok: true, value: tx.immediate([item as never])[0] };
              } catch (single) {
                return { ok: false, error: toWire(single) };
              }
            });
          }
        };
        return [name, handler];
      }),
    );
    return { handlers, close: async () => void db.close() };
  }
  const pool = openPgPool(config, 2);
  const votes = createPgVoteWrite(config, pool);
  const hookLog = createPgHookLogWrite(config, pool);
  const settle = (p: Promise<unknown>): Promise<Settled> =>
    p.then(
      (value) => ({ ok: true, value }),
      (err) => ({ ok: false, error: toWire(err) }),
    );
  return {
    handlers: {
      votes: (items) => Promise.all(items.map((item) => settle(votes.submit(item as NewVote)))),
      hookLog: (items) => Promise.all(items.map((item) => settle(hookLog.submit(item as HookLogItem)))),
    },
    close: async () => {
      votes.close();
      hookLog.close();
      await pool.end().catch(() => {});
    },
  };
}
