// Starts the real app in-process on a random port against the test's database (a SQLite file, or the test file's
// PostgreSQL database), and gives tests small helpers: organizations with keys, and HTTP calls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createApp, type AppOptions, type RunningApp } from '../../src/app/app.js';
import { createLogger } from '../../src/base/logger.js';
import type { Plan } from '../../src/domain/plans.js';

export const dialect = (process.env.VOTE_RELAY_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgresql';

/** True when this project's database is not available (PostgreSQL unreachable outside CI). */
export const databaseUnavailable = dialect === 'postgresql' && !inject('postgresUrl');

/** SQLite: a new file. PostgreSQL: the test file's own database (test/kit/postgres-file-database.ts). */
export function testDatabaseUrl(): string {
  if (dialect === 'postgresql') return globalThis.voteRelayFileDatabaseUrl ?? inject('postgresUrl');
  return `file:${join(mkdtempSync(join(tmpdir(), 'vote-relay-test-')), 'vote-relay.db')}`;
}

export const TEST_SECRET_KEY = 'test-secret-key-for-vote-relay-tests';

/** A PostgreSQL database of the test's own (for tests whose background work must not see other tests' data). */
export async function createOwnPostgresDatabase(name = `vote_relay_own_${randomBytes(5).toString('hex')}`): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const base = new URL(inject('postgresUrl'));
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export function testConfig(env: Record<string, string> = {}, databaseUrl = testDatabaseUrl()): Config {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    // Scheduled alerts run on the real clock against the shared database: only tests that drive them turn them on.
    ALERTS_INTERVAL_MS: '0',
    // Reminders come due by the injected clock: tests that expect them take them (reminders.tick()).
    REMINDERS_INTERVAL_MS: '0',
    // Tests run many services at once: the Votifier listener only where a test asks for one (a free port).
    VOTIFIER_PORT: '0',
    // Recovery would poll top.gg for other tests' providers: only tests that drive it (tick()) point it at a fake.
    RECOVERY_INTERVAL: '0',
    // Retention deletes by the real clock across the shared database: only tests that drive it (tick()) run it.
    RETENTION_INTERVAL: '0',
    // In-process apps run their worker in process, where a test's injected clock and statement counts reach it (the
    // delivery thread has its own clock and connections). The default, the thread, is what the process-based tests
    // (crash, fault, cluster, build) and test/integration/delivery-thread.test.ts run.
    DELIVERY_THREAD: 'false',
    ...env,
  });
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestOrg {
  id: string;
  slug: string;
  key: string;
  readKey: string;
}

export interface TestApp extends RunningApp {
  config: Config;
  stop(): Promise<void>;
  createOrg(options?: { plan?: Plan; slug?: string; name?: string }): Promise<TestOrg>;
  request<T = any>(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; redirect?: 'manual' },
  ): Promise<ApiResponse<T>>;
}

export function uniqueSlug(prefix = 'org'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export async function startTestApp(env: Record<string, string> = {}, options: AppOptions & { databaseUrl?: string } = {}): Promise<TestApp> {
  const config = testConfig(env, options.databaseUrl);
  const app = createApp(config, { logger: createLogger('silent'), ...options });
  const running = await app.start();

  const request: TestApp['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | Buffer | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${running.url}${path}`, {
      method,
      headers,
      body: body as BodyInit | undefined,
      ...(opts.redirect ? { redirect: opts.redirect } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (CSV, HTML): keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as never, text };
  };

  return {
    ...running,
    config,
    stop: app.stop,
    request,
    async createOrg({ plan = 'growth', slug = uniqueSlug(), name = 'Test Org' } = {}) {
      const org = await running.services.organizations.create({ slug, name, plan });
      const full = await running.services.apiKeys.create(org.id, { name: 'full', scope: 'full' }, { enforcePlanLimit: false });
      const read = await running.services.apiKeys.create(org.id, { name: 'read', scope: 'read' }, { enforcePlanLimit: false });
      return { id: org.id, slug: org.slug, key: full.key, readKey: read.key };
    },
  };
}
