// Creates one throw-away PostgreSQL database for the run and drops it after; each test file makes its own next to it
// (postgres-file-database.ts).
// Outside CI an unreachable PostgreSQL skips the PostgreSQL project, saying so; with CI=true it fails the run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export default async function setup(project: TestProject) {
  const name = `vote_relay_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (err) {
    const reason = `PostgreSQL at ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} is unreachable (${(err as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${reason}; CI requires the PostgreSQL tests to run`);
    process.stdout.write(`\n!! SKIPPED the PostgreSQL tests: ${reason}\n\n`);
    project.provide('postgresUrl', '');
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  project.provide('postgresUrl', url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    // The test files' own databases (test/kit/postgres-file-database.ts) that a killed run left, then the run's.
    const left = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${name}\\_f%`]);
    for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
