// Opens the Prisma client for the configured database (embedded SQLite or PostgreSQL) with the pragmas we rely on.
import { mkdirSync } from 'node:fs';
import type pg from 'pg';
import type Sqlite from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.js';
import type { Config, Dialect } from '../config.js';
import { pgHotWrites, sqliteHotWrites, type HotWrites, type SqliteHotWrites, type WriteThreadOption } from './hot-writes.js';
import { openPgPool, openSqliteConnection, sqlitePathFromUrl } from './connections.js';

export { sqlitePathFromUrl };

/** Typed against the SQLite client; the PostgreSQL client behaves the same at runtime (one model). */
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

export interface Database {
  prisma: Db;
  dialect: Dialect;
  /** PostgreSQL only: the pool Prisma uses, for the few statements Prisma cannot express (advisory locks, SKIP LOCKED). */
  pool: pg.Pool | null;
  /** SQLite only: path of the database file. */
  sqlitePath: string | null;
  /** SQLite only: a synchronous better-sqlite3 connection on this thread for the hook path's reads. */
  sqlite: Sqlite.Database | null;
  /** The hot writes (hot-writes.ts): on the write thread for the service, on this thread for one-shot commands. */
  writes: HotWrites;
  /** The same, with SQLite's job-queue writes; null on PostgreSQL. */
  sqliteWrites: SqliteHotWrites | null;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Statements Prisma sent so far (only with `countQueries`; tests bound N+1 with it). */
  queryCount(): number;
}

function withQueryLog(countQueries: boolean | undefined) {
  let count = 0;
  const log = countQueries ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  const attach = (client: { $on(event: 'query', cb: () => void): void }) => {
    if (countQueries) client.$on('query', () => count++);
  };
  return { log: log as never, attach: attach as (client: unknown) => void, count: () => count };
}

export interface OpenOptions {
  poolSize?: number;
  countQueries?: boolean;
  /**
   * Run the hot writes on the write thread (the service), spawned here or, given `port`, another thread's (the
   * delivery thread writes through the main thread's). Without it they run on the caller's thread.
   */
  writeThread?: WriteThreadOption;
}

export async function openDatabase(config: Config, options: OpenOptions = {}): Promise<Database> {
  const queries = withQueryLog(options.countQueries);
  if (config.dialect === 'sqlite') {
    const path = sqlitePathFromUrl(config.databaseUrl);
    if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
    // Integer epoch-ms timestamps: compact, and raw range scans compare numbers.
    const adapter = new PrismaBetterSqlite3({ url: path, timeout: 15_000 }, { timestampFormat: 'unixepoch-ms' });
    const prisma = new SqliteClient({ adapter, log: queries.log });
    queries.attach(prisma);
    // WAL lets readers run beside the single writer; FULL syncs each commit (an acknowledged vote survives power loss).
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA synchronous = FULL');
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
    await prisma.$queryRawUnsafe('PRAGMA busy_timeout = 15000');
    // timeout 0: never block the event loop waiting for a lock another connection holds; callers retry later.
    const sqlite = openSqliteConnection(path, 0);
    const writes = sqliteHotWrites(config, sqlite, options.writeThread);
    return {
      prisma,
      dialect: 'sqlite',
      pool: null,
      sqlitePath: path,
      sqlite,
      writes,
      sqliteWrites: writes,
      ping: async () => {
        if (!writes.alive()) throw Object.assign(new Error('The write thread stopped'), { code: 'WRITE_THREAD_GONE' });
        await prisma.$queryRawUnsafe('SELECT 1');
      },
      close: async () => {
        await writes.close();
        if (sqlite.open) sqlite.close();
        await prisma.$disconnect();
      },
      queryCount: queries.count,
    };
  }
  const pool = openPgPool(config, options.poolSize ?? 10);
  const writes = pgHotWrites(config, pool, options.writeThread);
  const prisma = new PostgresClient({ adapter: new PrismaPg(pool), log: queries.log }) as unknown as Db;
  queries.attach(prisma);
  return {
    prisma,
    dialect: 'postgresql',
    pool,
    sqlitePath: null,
    sqlite: null,
    writes,
    sqliteWrites: null,
    ping: async () => {
      if (!writes.alive()) throw Object.assign(new Error('The write thread stopped'), { code: 'WRITE_THREAD_GONE' });
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: async () => {
      await writes.close();
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
    queryCount: queries.count,
  };
}
