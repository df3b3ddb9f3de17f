// Helpers for fault-injection tests against real server processes: a database of the test's own on either
// dialect, JSON calls with a deadline, an organization set up the way operators do (CLI, then the API), a sender
// that behaves like a voting site (retries 5xx and dropped connections with the same body), checks that an error
// answer is clear, and direct reads of the database.
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { createOwnPostgresDatabase, dialect, testDatabaseUrl, uniqueSlug } from './app.js';
import { runCli } from './processes.js';

/** A database no other test writes to: a fresh SQLite file, or a fresh PostgreSQL database. */
export async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'postgresql') return createOwnPostgresDatabase();
  return { url: testDatabaseUrl(), drop: async () => {} };
}

export interface CallResult {
  /** null when no HTTP answer came (connection refused or dropped, or no answer within the deadline). */
  status: number | null;
  body: any;
  text: string;
  /** Why there was no answer. */
  error?: string;
}

/** One HTTP call; never throws. JSON bodies are parsed. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  try {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, text };
  } catch (err) {
    const e = err as Error & { cause?: Error & { code?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs ?? 15_000} ms`
        : `${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ''}`;
    return { status: null, body: undefined, text: '', error: reason };
  }
}

export interface HookOrg {
  orgId: string;
  slug: string;
  key: string;
  hookPath: string;
}

/** A business organization (CLI) with one url_path provider (key `site`, voter at `user`) and optional callbacks. */
export async function setUpHookOrg(env: Record<string, string>, baseUrl: string, callbackUrls: string[] = []): Promise<HookOrg> {
  const created = await runCli(['org', 'create', '--slug', uniqueSlug('fault'), '--name', 'Fault Org', '--plan', 'business', '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  const key: string = created.json.api_key.key;
  const provider = await call(baseUrl, 'POST', '/v1/providers', {
    key,
    body: { key: 'site', name: 'Fault List', auth_method: 'url_path', auth_field: 'secret', votee_path: 'user' },
  });
  expect(provider.status, provider.text).toBe(201);
  for (const [i, url] of callbackUrls.entries()) {
    const callback = await call(baseUrl, 'POST', '/v1/callbacks', { key, body: { name: `game ${i}`, url, timeout_ms: 1000 } });
    expect(callback.status, callback.text).toBe(201);
  }
  return { orgId: created.json.organization.id, slug: created.json.organization.slug, key, hookPath: new URL(provider.body.data.webhook_url).pathname };
}

export interface HookTry {
  status: number | null;
  text: string;
  error?: string;
  /** Date.now() when the request was sent and when its answer (or failure) came. */
  sentAt: number;
  answeredAt: number;
}

export interface VotingSiteDelivery {
  body: string;
  /** Date.now() when the first try was sent. */
  startedAt: number;
  /** The vote id of the 200 that ended it; null if none came before the deadline. */
  voteId: string | null;
  duplicate: boolean;
  /** Every try that did not end in a 200, in order. */
  failures: HookTry[];
}

/**
 * Posts `body` to the hook like a voting site: a 5xx or a dropped connection is retried with the same body after
 * `retryDelayMs` (against `baseUrl()` as it is then) until a 200 or `deadline`; any other answer ends it.
 */
export async function deliverLikeAVotingSite(
  baseUrl: () => string,
  hookPath: string,
  body: string,
  options: { retryDelayMs: number; deadline: number; retryNetworkErrors?: boolean; requestTimeoutMs?: number },
): Promise<VotingSiteDelivery> {
  const failures: HookTry[] = [];
  const startedAt = Date.now();
  for (;;) {
    const sentAt = Date.now();
    const res = await call(baseUrl(), 'POST', hookPath, { body, timeoutMs: options.requestTimeoutMs ?? 15_000 });
    const answeredAt = Date.now();
    if (res.status === 200) return { body, startedAt, voteId: res.body.data.vote_id, duplicate: res.body.data.duplicate, failures };
    failures.push({ status: res.status, text: res.text, error: res.error, sentAt, answeredAt });
    const retry = res.status === null ? options.retryNetworkErrors !== false : res.status >= 500;
    if (!retry || Date.now() > options.deadline) return { body, startedAt, voteId: null, duplicate: false, failures };
    await new Promise((r) => setTimeout(r, options.retryDelayMs));
  }
}

// A stack frame, a source path, driver or SQL text: none of it belongs in an answer (the README's Errors).
const LEAKS =
  /\n\s+at |\bat [\w.$<>]+ \(|\.(ts|js|mjs|cjs):\d+|node_modules|\bprisma\b|\bSQLITE_[A-Z_]+|\bE(CONNREFUSED|CONNRESET|PIPE)\b|\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b/i;

/**
 * Why an error answer is not the clear one expected (null when it is): `status` with `{ error: { code, message },
 * meta: { request_id } }`, a message, and nothing internal.
 */
export function unclearError(answer: { status: number | null; text: string; error?: string }, expected: { status: number; code: string }): string | null {
  if (answer.status === null) return `no answer: ${answer.error}`;
  const describe = `${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status !== expected.status) return `expected ${expected.status} ${expected.code}, got ${describe}`;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `not the JSON error envelope: ${describe}`;
  }
  // The REST envelope, or (on /graphql, refused before GraphQL runs) GraphQL's own error shape.
  const graphql = Array.isArray(body?.errors) ? body.errors[0] : null;
  const error = graphql ? { code: graphql.extensions?.code, message: graphql.message } : body?.error;
  const requestId = graphql ? graphql.extensions?.request_id : body?.meta?.request_id;
  if (error?.code !== expected.code) return `expected code ${expected.code}: ${describe}`;
  if (typeof error.message !== 'string' || error.message.length === 0) return `no message: ${describe}`;
  if (typeof requestId !== 'string') return `no request id: ${describe}`;
  if (LEAKS.test(answer.text)) return `internal details in the body: ${describe}`;
  return null;
}

/** Rows of a read-only query against the SQLite file or the PostgreSQL database (`$1`… placeholders, in order). */
export async function queryRows<T = Record<string, unknown>>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  if (databaseUrl.startsWith('file:')) {
    const db = new Sqlite(databaseUrl.slice('file:'.length).split('?')[0], { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Each stored vote of the organization with its number of callback jobs (one per callback configured at the time). */
export async function storedVotes(databaseUrl: string, organizationId: string): Promise<{ publicId: string; callbackJobs: number; rawPayload: string }[]> {
  const rows = await queryRows<{ publicId: string; callbackJobs: number | string; rawPayload: string }>(
    databaseUrl,
    `SELECT v."publicId" AS "publicId", v."rawPayload" AS "rawPayload",
       (SELECT COUNT(*) FROM "DeliveryJob" j WHERE j."voteId" = v.id AND j.kind = 'callback') AS "callbackJobs"
     FROM "Vote" v WHERE v."organizationId" = $1`,
    [organizationId],
  );
  return rows.map((r) => ({ ...r, callbackJobs: Number(r.callbackJobs) }));
}
