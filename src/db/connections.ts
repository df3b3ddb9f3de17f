// The raw connections both the main thread and the write thread open: a better-sqlite3 connection with our pragmas,
// and a node-postgres pool.
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';

export function sqlitePathFromUrl(url: string): string {
  return url.slice('file:'.length).split('?')[0];
}

/** WAL beside the readers, FULL sync (an acknowledged vote survives power loss), foreign keys on. */
export function openSqliteConnection(path: string, busyTimeoutMs: number): Sqlite.Database {
  const db = new Sqlite(path, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * keepAlive finds connections a network cut left half-open; a server that does not answer a connection attempt
 * within 10 s is reported as unavailable (503) instead of holding the request. An idle client that loses its server
 * must not crash the process; the next query reconnects.
 */
export function openPgPool(config: Pick<Config, 'databaseUrl'>, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max, keepAlive: true, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  return pool;
}
