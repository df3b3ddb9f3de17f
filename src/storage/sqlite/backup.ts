// `cli backup` and `cli restore` (README: Backups): a consistent copy of the embedded SQLite database taken while the
// service writes, and its atomic return. PostgreSQL has its own tools (pg_dump, pg_restore); these commands refuse it.
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Config } from '../../config/config.js';
import { sqlitePathFromUrl } from './connection.js';

/** Nothing was changed: the reason says what to do instead (exit code 2). */
export class RefusedError extends Error {}

const PG_DUMP = 'pg_dump --format=custom --file=vote-relay.dump "$DATABASE_URL"';
const PG_RESTORE = 'pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" vote-relay.dump';

// better-sqlite3 copies 100 pages per step by default, and SQLite restarts a backup whenever another connection
// writes between two steps (sqlite.org/c3ref/backup_finish.html), which a steady stream of votes would do forever.
// All pages in one step read one snapshot instead; in WAL mode that read blocks no writer (sqlite.org/wal.html).
const ALL_PAGES = 0x7fffffff;

function sqlitePath(config: Config, command: 'backup' | 'restore'): string {
  if (config.dialect !== 'sqlite') {
    throw new RefusedError(
      command === 'backup'
        ? `backup copies the embedded SQLite database; this installation uses PostgreSQL: back it up with pg_dump (${PG_DUMP})`
        : `restore replaces the embedded SQLite database; this installation uses PostgreSQL: restore a pg_dump archive with pg_restore (${PG_RESTORE}) while the service is stopped`,
    );
  }
  return resolve(sqlitePathFromUrl(config.databaseUrl));
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename durable where the platform allows a folder to be synced (Linux does; Windows refuses it). */
function fsyncFolder(path: string): void {
  try {
    fsyncPath(path);
  } catch {
    // the rename itself has happened
  }
}

/** A file of the same folder (a rename is atomic only within one file system), hidden and named for what it is. */
const siblingTemp = (path: string, purpose: string) => join(dirname(path), `.${basename(path)}.${purpose}-${process.pid}`);

function removeWithSidecars(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
}

/**
 * Checks a copy, then makes it one self-contained file (rollback journal; the service switches it back to WAL when it
 * opens it), so that copying the file alone copies everything.
 */
function checkCopy(path: string): void {
  const db = new Sqlite(path, { fileMustExist: true });
  try {
    const problems = (db.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
    if (problems.join() !== 'ok') throw new RefusedError(`${path} is damaged: ${problems.slice(0, 3).join('; ')}`);
    const history = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!history) throw new RefusedError(`${path} is not a Vote Relay database (it has no migration history)`);
    db.pragma('journal_mode = DELETE');
  } catch (err) {
    if (err instanceof RefusedError) throw err;
    throw new RefusedError(`${path} is not a readable SQLite database: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/** Where the stored provider and callback secrets' key comes from: a backup is useless without it. */
function secretKeySource(config: Config, dbPath: string): { secret_key: string | null } {
  if (config.secretKey) return { secret_key: 'SECRET_KEY' };
  const file = join(config.dataDir ?? dirname(dbPath), 'secret.key');
  return { secret_key: existsSync(file) ? resolve(file) : null };
}

export interface BackupResult {
  from: string;
  to: string;
  bytes: number;
  pages: number;
  duration_ms: number;
  /** The file holding the key that seals the stored secrets (not in the backup), or SECRET_KEY. */
  secret_key: string | null;
}

/** Copies the configured SQLite database to `to` (replaced atomically if it exists), the service running or not. */
export async function backupSqlite(config: Config, to: string): Promise<BackupResult> {
  const from = sqlitePath(config, 'backup');
  const target = resolve(to);
  if (!existsSync(from)) throw new RefusedError(`there is no database at ${from} (DATABASE_URL)`);
  if (target === from || target.startsWith(`${from}-`)) throw new RefusedError('--to must not be the database or one of its own files');
  if (!existsSync(dirname(target))) throw new RefusedError(`the folder ${dirname(target)} does not exist`);
  if (existsSync(target) && statSync(target).isDirectory()) throw new RefusedError(`${target} is a folder: give --to a file name in it`);

  const started = Date.now();
  const partial = siblingTemp(target, 'partial');
  removeWithSidecars(partial);
  const source = new Sqlite(from, { fileMustExist: true, timeout: 15_000 });
  let pages: number;
  try {
    ({ totalPages: pages } = await source.backup(partial, { progress: () => ALL_PAGES }));
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  } finally {
    source.close();
  }
  try {
    checkCopy(partial);
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncFolder(dirname(target));
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  }
  return { from, to: target, bytes: statSync(target).size, pages, duration_ms: Date.now() - started, ...secretKeySource(config, from) };
}

export interface RestoreResult {
  from: string;
  to: string;
  bytes: number;
  /** The key the service will open the stored secrets with; null: none yet (the service would make a new one). */
  secret_key: string | null;
}

/**
 * Replaces the configured SQLite database with the backup `from`. Refuses while any process has the database open
 * (the service, its threads, another command): leaving WAL mode needs the only connection (sqlite.org/wal.html).
 */
export function restoreSqlite(config: Config, from: string): RestoreResult {
  const to = sqlitePath(config, 'restore');
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) throw new RefusedError(`there is no backup file at ${source}`);
  if (source === to) throw new RefusedError('--from is the configured database itself');

  mkdirSync(dirname(to), { recursive: true });
  const incoming = siblingTemp(to, 'restore');
  try {
    removeWithSidecars(incoming);
    copyFileSync(source, incoming);
    checkCopy(incoming);
    fsyncPath(incoming);

    let current: Sqlite.Database | null = null;
    if (existsSync(to)) {
      current = new Sqlite(to, { fileMustExist: true, timeout: 0 });
      try {
        // Fails (SQLITE_BUSY) while another connection is open; alone, it folds the WAL in and removes it.
        if (current.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') throw new Error('journal mode unchanged');
        current.exec('BEGIN EXCLUSIVE'); // nobody opens the old file until it is replaced
      } catch {
        current.close();
        throw new RefusedError(`the database ${to} is open in another process: stop the service (and any other command using it), then restore`);
      }
    }
    try {
      // A -wal left beside the new file would be replayed into it: remove the old file's sidecars first.
      for (const sidecar of [`${to}-wal`, `${to}-shm`, `${to}-journal`]) rmSync(sidecar, { force: true });
      renameSync(incoming, to);
      fsyncFolder(dirname(to));
    } finally {
      if (current?.inTransaction) current.exec('ROLLBACK');
      current?.close();
    }
  } finally {
    removeWithSidecars(incoming);
  }
  return { from: source, to, bytes: statSync(to).size, ...secretKeySource(config, to) };
}
