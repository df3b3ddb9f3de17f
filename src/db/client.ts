// Opens the Prisma client for the configured database (embedded SQLite or PostgreSQL) with the pragmas we rely on.
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import Sqlite from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.js';
import type { Config, Dialect } from '../config.js';

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
  /**
   * SQLite only: a synchronous better-sqlite3 connection for the hot write paths (votes, delivery attempts). Its
   * transactions never span event-loop turns, so they never hold the write lock while other work waits.
   */
  sqliteWriter: Sqlite.Database | null;
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

export function sqlitePathFromUrl(url: string): string {
  return url.slice('file:'.length).split('?')[0];
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dialect' | 'dataDir'>,
  options: { poolSize?: number; countQueries?: boolean } = {},
): Promise<Database> {
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
    const writer = new Sqlite(path, { timeout: 0 });
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = FULL');
    writer.pragma('foreign_keys = ON');
    return {
      prisma,
      dialect: 'sqlite',
      pool: null,
      sqlitePath: path,
      sqliteWriter: writer,
      ping: async () => {
        await prisma.$queryRawUnsafe('SELECT 1');
      },
      close: async () => {
        writer.close();
        await prisma.$disconnect();
      },
      queryCount: queries.count,
    };
  }
  // keepAlive finds connections a network cut left half-open; a server that does not answer a connection attempt
  // within 10 s is reported as unavailable (503) instead of holding the request.
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: options.poolSize ?? 10, keepAlive: true, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const prisma = new PostgresClient({ adapter: new PrismaPg(pool), log: queries.log }) as unknown as Db;
  queries.attach(prisma);
  return {
    prisma,
    dialect: 'postgresql',
    pool,
    sqlitePath: null,
    sqliteWriter: null,
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
    queryCount: queries.count,
  };
}
