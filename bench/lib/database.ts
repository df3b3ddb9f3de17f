// The database a benchmark runs the service on: a fresh SQLite file by default; with DATABASE_URL set to a
// PostgreSQL server (postgres://…), a fresh database created on that server for the run and dropped after it.
// Counting helpers read either, for the benchmarks' "no vote lost" checks.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface BenchDatabase {
  dialect: 'sqlite' | 'postgresql';
  /** The service's DATABASE_URL. */
  url: string;
  /** One number from a query written with `?` placeholders (numbered for PostgreSQL). */
  count(sql: string, ...params: unknown[]): Promise<number>;
  /** The process ids of the server backends connected to this database (PostgreSQL); none for SQLite (in-process). */
  backendPids(): Promise<number[]>;
  /**
   * Leaves the server as a measurement should find it (PostgreSQL): a CHECKPOINT, so that the dirty pages of the run
   * before are not written during this one, then no autovacuum worker running (at most SETTLE_LIMIT_MS). Nothing for
   * SQLite, whose file is the service's own. Resolves with what did not settle, or null.
   */
  settle(): Promise<string | null>;
  drop(): Promise<void>;
}

const SETTLE_LIMIT_MS = 20_000;

const postgresUrl = () => (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : null);

/** The PostgreSQL server's URL (DATABASE_URL) when this run measures PostgreSQL, else null. */
export const benchPostgresServer = (): string | null => postgresUrl();

/** The URL of database `name` on the server at `server` (a postgres:// URL naming any database). */
export function postgresDatabaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `sqlite` or `postgresql`: which one this run measures (section names and titles say it). */
export const benchDialect = (): 'sqlite' | 'postgresql' => (postgresUrl() ? 'postgresql' : 'sqlite');

/** A SQLite file (the baselines always write one). */
export function sqliteBenchDatabase(sqliteFile: string): BenchDatabase {
  return {
    dialect: 'sqlite',
    url: `file:${sqliteFile}`,
    async count(sql, ...params) {
      const db = new Database(sqliteFile, { readonly: true, fileMustExist: true });
      try {
        return Number(Object.values(db.prepare(sql).get(...params) as Record<string, unknown>)[0] ?? 0);
      } finally {
        db.close();
      }
    },
    backendPids: async () => [],
    settle: async () => null,
    drop: async () => {},
  };
}

export async function openBenchDatabase(sqliteFile: string): Promise<BenchDatabase> {
  const server = postgresUrl();
  if (!server) return sqliteBenchDatabase(sqliteFile);
  const name = `vote_relay_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    dialect: 'postgresql',
    url: url.toString(),
    async count(sql, ...params) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        let n = 0;
        const result = await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        );
        return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
      } finally {
        await client.end();
      }
    },
    async settle() {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query('CHECKPOINT');
        const begin = performance.now();
        while (performance.now() - begin < SETTLE_LIMIT_MS) {
          const workers = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`);
          if (workers.rows[0].n === 0) return null;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        return `an autovacuum worker still ran after ${SETTLE_LIMIT_MS / 1000} s`;
      } finally {
        await client.end();
      }
    },
    async backendPids() {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const result = await client.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        );
        return result.rows.map((row) => row.pid);
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
