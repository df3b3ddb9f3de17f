// The storage module's one door: createStorage(config) picks the database once (embedded SQLite for a `file:` URL,
// PostgreSQL otherwise) and returns the ports the rest of the service uses (ports.ts). Each database's folder
// (sqlite/, postgres/) owns all of its SQL, its write-thread handlers and its connections; nothing outside this
// module names a database (docs/architecture.md, "Storage").
import type { Config } from '../config/config.js';
import type { StorageOptions } from './options.js';
import type { Storage } from './ports.js';
import { serverOf } from './postgres/connection.js';
import { resolve } from 'node:path';
import { sqlitePathFromUrl } from './sqlite/connection.js';

export type { StorageOptions } from './options.js';
export type { BatchWriter, Db, FailedAttempts, JobQueue, Reports, RollupDifference, Rollups, Storage, Tx, VoteStore } from './ports.js';
export type { HookLogItem, HookLogResult, HookLogRow, HookLogDrop, HookLogLimits } from './hook-log.js';
export { OTHER_SENDERS, MAX_DROP_ROWS, FULL_REFRESH_MS, scopeKey, fullKey } from './hook-log.js';
export type { Pacer } from './pacer.js';
export { slotIntervalMs } from './pacer.js';
export { applyMigrations, MigrationError } from './migrate.js';
export { databaseUnavailableError, isDatabaseUnavailable } from './unavailable.js';
export { backupSqlite, restoreSqlite, RefusedError } from './sqlite/backup.js';
export { openSqliteWriteThread } from './sqlite/writes.js';

/** The database `config` names, as Storage.describe says it (never a credential), without opening it. */
export function describeDatabase(config: Config): ReturnType<Storage['describe']> {
  return config.dialect === 'sqlite'
    ? { kind: 'sqlite', location: resolve(sqlitePathFromUrl(config.databaseUrl)) }
    : { kind: 'postgresql', location: serverOf(config.databaseUrl) };
}

/** Loads only the named database's folder (each brings its own generated Prisma client, a third of a second to load). */
export async function createStorage(config: Config, options: StorageOptions): Promise<Storage> {
  return config.dialect === 'sqlite'
    ? (await import('./sqlite/index.js')).openSqliteStorage(config, options)
    : (await import('./postgres/index.js')).openPostgresStorage(config, options);
}
