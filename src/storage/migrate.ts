// Applies the committed migrations (prisma/<dialect>/migrations) at start and from `cli migrate`.
// Writes Prisma's own `_prisma_migrations` history (checksum = sha256 of migration.sql), so a deployment that
// later uses the native Prisma CLI sees the same history. Safe when several instances start at once.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { Config, Dialect } from '../config/config.js';
import { sqlitePathFromUrl } from './sqlite/connection.js';

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

// Any constant works; it only has to be the same for every instance of this service.
const POSTGRES_MIGRATION_LOCK = 7_362_514_001;

export function migrationsDir(dialect: Dialect): string {
  return fileURLToPath(new URL(`../../prisma/${dialect}/migrations`, import.meta.url));
}

export function readMigrations(dialect: Dialect): Migration[] {
  const dir = migrationsDir(dialect);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${dir}/${entry.name}/migration.sql`))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(`${dir}/${name}/migration.sql`, 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {}

function pending(all: Migration[], applied: Map<string, string>): Migration[] {
  for (const migration of all) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationError(`Migration ${migration.name} was changed after it was applied; restore it or add a new migration`);
    }
  }
  return all.filter((m) => !applied.has(m.name));
}

const SQLITE_HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const POSTGRES_HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

function migrateSqlite(url: string, dataDir: string | null, all: Migration[]): string[] {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = new Sqlite(sqlitePathFromUrl(url), { timeout: 30_000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = OFF'); // table rebuilds in migrations need it off; connections turn it on
    const done: string[] = [];
    // BEGIN IMMEDIATE takes the write lock first, so a second process waits instead of applying twice.
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(SQLITE_HISTORY);
      const rows = db.prepare('SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL').all() as {
        migration_name: string;
        checksum: string;
      }[];
      const todo = pending(all, new Map(rows.map((r) => [r.migration_name, r.checksum])));
      const record = db.prepare(
        'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)',
      );
      for (const migration of todo) {
        const started = Date.now();
        db.exec(migration.sql);
        record.run(randomUUID(), migration.checksum, Date.now(), migration.name, started);
        done.push(migration.name);
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    return done;
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, all: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Instances that start together queue here; each then sees what the first applied.
    await client.query('SELECT pg_advisory_lock($1)', [POSTGRES_MIGRATION_LOCK]);
    await client.query(POSTGRES_HISTORY);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL',
    );
    const todo = pending(all, new Map(rows.map((r) => [r.migration_name, r.checksum])));
    const done: string[] = [];
    for (const migration of todo) {
      await client.query('BEGIN');
      try {
        const started = new Date();
        await client.query(migration.sql);
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)',
          [randomUUID(), migration.checksum, migration.name, started],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new MigrationError(`Migration ${migration.name} failed: ${(err as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [POSTGRES_MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function applyMigrations(config: Pick<Config, 'databaseUrl' | 'dialect' | 'dataDir'>): Promise<string[]> {
  const all = readMigrations(config.dialect);
  if (all.length === 0) throw new MigrationError(`No migrations found in ${migrationsDir(config.dialect)}`);
  return config.dialect === 'sqlite' ? migrateSqlite(config.databaseUrl, config.dataDir, all) : migratePostgres(config.databaseUrl, all);
}
