// Helpers for crash tests: a callback receiver that records when each request started and ended (to prove no
// delivery id was being worked on twice at once), a bounded-concurrency runner, and direct database counts.
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from './processes.js';

export interface TimedRequest {
  webhookId: string | null;
  voteId: string | null;
  /** performance.now() when the request's headers arrived. */
  start: number;
  /** performance.now() when the answer was sent or the connection went away; null while still open. */
  end: number | null;
  /** The sender hung up before the answer was sent (e.g. it was killed). */
  aborted: boolean;
  status: number | null;
}

export interface TimingReceiver {
  url: string;
  requests: TimedRequest[];
  /** Distinct `vote_id`s of the callback bodies received so far. */
  voteIds(): Set<string>;
  close(): Promise<void>;
}

/** Answers every request `status` after `delayMs`, recording per-request start/end times. */
export async function startTimingReceiver(options: { delayMs: number; status?: number }): Promise<TimingReceiver> {
  const requests: TimedRequest[] = [];
  const seen = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const record: TimedRequest = {
      webhookId: typeof req.headers['webhook-id'] === 'string' ? req.headers['webhook-id'] : null,
      voteId: null,
      start: performance.now(),
      end: null,
      aborted: false,
      status: null,
    };
    requests.push(record);
    const finish = (aborted: boolean) => {
      if (record.end !== null) return;
      record.end = performance.now();
      record.aborted = aborted;
    };
    res.on('finish', () => finish(false));
    res.on('close', () => finish(!res.writableFinished));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { vote_id?: unknown };
        if (typeof json.vote_id === 'string') {
          record.voteId = json.vote_id;
          seen.add(json.vote_id);
        }
      } catch {
        // not JSON: recorded without a vote id
      }
      setTimeout(() => {
        if (res.destroyed) return;
        record.status = options.status ?? 200;
        res.writeHead(record.status, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }, options.delayMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    voteIds: () => new Set(seen),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Overlap {
  webhookId: string;
  first: TimedRequest;
  second: TimedRequest;
}

/** Pairs of requests with the same webhook-id whose [start, end] windows overlap (an open request never ends). */
export function overlappingDeliveries(requests: readonly TimedRequest[]): Overlap[] {
  const byId = new Map<string, TimedRequest[]>();
  for (const r of requests) {
    if (!r.webhookId) continue;
    byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
  }
  const overlaps: Overlap[] = [];
  for (const [webhookId, list] of byId) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => a.start - b.start);
    let latest = sorted[0];
    for (const next of sorted.slice(1)) {
      if (next.start < (latest.end ?? Infinity)) overlaps.push({ webhookId, first: latest, second: next });
      if ((next.end ?? Infinity) > (latest.end ?? Infinity)) latest = next;
    }
  }
  return overlaps;
}

/** Runs `task(i)` for i in [0, count) with at most `limit` at a time; resolves with the results in order. */
export async function runPool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface OrgDeliveryCounts {
  votes: number;
  /** Votes by callback_status. */
  voteStatuses: Record<string, number>;
  /** Callback jobs by status. */
  jobStatuses: Record<string, number>;
  /** Delivery attempts recorded for the organization. */
  attempts: number;
  /** Unsuccessful recorded attempts by error text. */
  failedAttempts: Record<string, number>;
}

/** Reads the organization's vote and job statuses straight from the database (SQLite file or PostgreSQL). */
export async function orgDeliveryCounts(databaseUrl: string, organizationId: string): Promise<OrgDeliveryCounts> {
  const VOTES = `SELECT "callbackStatus" AS status, COUNT(*) AS n FROM "Vote" WHERE "organizationId" = $1 GROUP BY "callbackStatus"`;
  const JOBS = `SELECT status, COUNT(*) AS n FROM "DeliveryJob" WHERE "organizationId" = $1 AND kind = 'callback' GROUP BY status`;
  const ATTEMPTS = `SELECT COUNT(*) AS n FROM "DeliveryAttempt" WHERE "organizationId" = $1`;
  const FAILED = `SELECT COALESCE(error, 'HTTP ' || "statusCode") AS status, COUNT(*) AS n FROM "DeliveryAttempt" WHERE "organizationId" = $1 AND NOT success GROUP BY 1`;
  type Row = { status: string; n: number | string };
  let votes: Row[];
  let jobs: Row[];
  let failed: Row[];
  let attempts: number;
  if (databaseUrl.startsWith('file:')) {
    const db = new Sqlite(databaseUrl.slice('file:'.length), { readonly: true, fileMustExist: true });
    try {
      const q = (sql: string) => sql.replace('$1', '?');
      votes = db.prepare(q(VOTES)).all(organizationId) as Row[];
      jobs = db.prepare(q(JOBS)).all(organizationId) as Row[];
      failed = db.prepare(q(FAILED)).all(organizationId) as Row[];
      attempts = Number((db.prepare(q(ATTEMPTS)).get(organizationId) as { n: number }).n);
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      votes = (await client.query<Row>(VOTES, [organizationId])).rows;
      jobs = (await client.query<Row>(JOBS, [organizationId])).rows;
      failed = (await client.query<Row>(FAILED, [organizationId])).rows;
      attempts = Number((await client.query<{ n: string }>(ATTEMPTS, [organizationId])).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const tally = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const voteStatuses = tally(votes);
  return {
    votes: Object.values(voteStatuses).reduce((a, b) => a + b, 0),
    voteStatuses,
    jobStatuses: tally(jobs),
    attempts,
    failedAttempts: tally(failed),
  };
}

/** `startServerProcess` with the child recorded in `registry` from the moment it is spawned. */
export function startTrackedServer(env: Record<string, string>, registry: ChildProcess[]): Promise<ServerProcess> {
  return startServerProcess(env, registry);
}

/** SIGKILLs every child in `registry` that is still running and waits for them to go. */
export async function killAll(registry: ChildProcess[]): Promise<void> {
  await Promise.all(
    registry.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      return gone;
    }),
  );
}
