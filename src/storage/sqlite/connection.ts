// The embedded SQLite connections: better-sqlite3 with our pragmas, for the main thread's reads and the write thread.
import Sqlite from 'better-sqlite3';

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

/** Another connection (Prisma's, the CLI, another process) holds the write lock. */
export const isSqliteBusy = (err: unknown): boolean => {
  const code = (err as { code?: string }).code ?? '';
  return code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED';
};
