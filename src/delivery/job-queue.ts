// The database job queue (the transactional outbox ingest writes into). Workers claim due jobs with a lease:
// PostgreSQL `FOR UPDATE SKIP LOCKED` (several instances share the work, none takes a job another holds);
// SQLite one atomic UPDATE … RETURNING (a single writer). A job whose lease ran out — its worker died — is
// claimed again, so no work is lost; while the lease holds, nobody else sends it.
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';
import type { Database, Tx } from '../db/client.js';
import { createGroupCommit, type GroupCommit, type Query } from '../db/group-commit.js';

export interface ClaimedJob {
  id: string;
  kind: string;
  organizationId: string;
  voteId: string | null;
  callbackId: string | null;
  attempts: number;
  maxAttempts: number;
  priority: number;
  payloadJson: string | null;
  /** When this worker's lease on the job ends (set at claim, moved by renewLease). */
  leaseUntil?: number;
}

const RETURNING = `id, kind, "organizationId", "voteId", "callbackId", attempts, "maxAttempts", priority, "payloadJson"`;

// Each kind of claimable job is read on its own along ("status", "runAt", "voteId", "priority"), which stops at the
// batch size; one query with an OR over the statuses has to sort every due job first, which under a backlog of
// thousands cost more per claim than the claim itself. Of the three candidate lists, the first $4 in that order
// are taken. (Pull jobs wait for their plugin, not for a worker.)
const candidates = (status: string, due: string, lock: string) =>
  `SELECT id, "runAt", "voteId", priority FROM "DeliveryJob" WHERE status = '${status}' AND ${due} AND kind <> 'pull' ORDER BY "runAt", "voteId", priority LIMIT $4${lock}`;

const CLAIM_POSTGRES = `
WITH pending AS (${candidates('pending', '"runAt" <= $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')}),
retrying AS (${candidates('retrying', '"runAt" <= $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')}),
expired AS (${candidates('running', '"lockedUntil" < $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')})
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2::timestamp(3), "updatedAt" = $3::timestamp(3)
WHERE id IN (
  SELECT id FROM (SELECT * FROM pending UNION ALL SELECT * FROM retrying UNION ALL SELECT * FROM expired) AS due
  ORDER BY "runAt", "voteId", priority
  LIMIT $4
)
RETURNING ${RETURNING}`;

const CLAIM_SQLITE = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2, "updatedAt" = $3
WHERE id IN (
  SELECT id FROM (
    SELECT * FROM (${candidates('pending', '"runAt" <= $3', '')})
    UNION ALL SELECT * FROM (${candidates('retrying', '"runAt" <= $3', '')})
    UNION ALL SELECT * FROM (${candidates('running', '"lockedUntil" < $3', '')})
  )
  ORDER BY "runAt", "voteId", priority
  LIMIT $4
)
RETURNING ${RETURNING}`;

const claimStatements = new WeakMap<Sqlite.Database, Sqlite.Statement>();
function claimStatement(db: Sqlite.Database): Sqlite.Statement {
  let statement = claimStatements.get(db);
  if (!statement) claimStatements.set(db, (statement = db.prepare(CLAIM_SQLITE)));
  return statement;
}

export async function claimJobs(db: Database, workerId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
  const until = new Date(now.getTime() + leaseMs);
  if (db.sqliteWriter) {
    // One synchronous statement on the write connection: cheaper than a Prisma round trip, and atomic.
    const rows = await retryBusy(() =>
      claimStatement(db.sqliteWriter!).all({ 1: workerId, 2: until.getTime(), 3: now.getTime(), 4: limit }) as ClaimedJob[],
    );
    return rows.map((r) => ({ ...r, leaseUntil: until.getTime() }));
  }
  // PostgreSQL: plain SQL on the pool (unnamed, so planned for the queue as it is now, not as it was when a
  // prepared statement was first planned).
  const rows = (await db.pool!.query<ClaimedJob>(CLAIM_POSTGRES, [workerId, until.toISOString(), now.toISOString(), limit])).rows;
  return rows.map((r) => ({ ...r, leaseUntil: until.getTime() }));
}

const IN_FLIGHT = new Set(['pending', 'retrying', 'running']);

/**
 * The vote's chat_status / callback_status / callback_attempts / *_sent_at from its jobs (the README's Connect a game server):
 * callbacks are `failed` when any failed for good, `retrying`/`pending` while any is in flight, `sent` when all
 * sent, `skipped` when there was none to send.
 */
export function voteStatusFrom(jobs: { kind: string; status: string; attempts: number; sentAt: Date | null }[]) {
  const chat = jobs.filter((j) => j.kind === 'chat');
  const callbacks = jobs.filter((j) => j.kind === 'callback' || j.kind === 'legacy_callback' || j.kind === 'pull');
  const aggregate = (list: typeof jobs): string => {
    if (list.length === 0) return 'skipped';
    if (list.some((j) => j.status === 'failed')) return 'failed';
    if (list.some((j) => IN_FLIGHT.has(j.status))) return list.some((j) => j.attempts > 0 && IN_FLIGHT.has(j.status)) ? 'retrying' : 'pending';
    if (list.every((j) => j.status === 'skipped')) return 'skipped';
    return 'sent';
  };
  const lastSent = (list: typeof jobs) =>
    list.reduce<Date | null>((latest, j) => (j.sentAt && (!latest || j.sentAt > latest) ? j.sentAt : latest), null);
  return {
    chatStatus: aggregate(chat),
    chatSentAt: lastSent(chat),
    callbackStatus: aggregate(callbacks),
    callbackSentAt: lastSent(callbacks),
    callbackAttempts: callbacks.reduce((sum, j) => sum + j.attempts, 0),
  };
}

export async function refreshVoteStatus(tx: Tx, voteId: string): Promise<void> {
  const jobs = await tx.deliveryJob.findMany({ where: { voteId }, select: { kind: true, status: true, attempts: true, sentAt: true } });
  await tx.vote.update({ where: { id: voteId }, data: voteStatusFrom(jobs) });
}

export interface AttemptRecord {
  attempt: number;
  target: string;
  statusCode: number | null;
  success: boolean;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export type JobResolution =
  | { status: 'sent' }
  | { status: 'retrying'; runAt: Date }
  | { status: 'failed' }
  | { status: 'skipped' };

/** Records one attempt and the job's next state; only the worker that still holds the lease may. */
export async function finishAttempt(
  db: Database,
  job: ClaimedJob,
  workerId: string,
  now: Date,
  attempt: AttemptRecord | null,
  resolution: JobResolution,
  errorText: string | null,
): Promise<boolean> {
  if (db.sqliteWriter) return finishAttemptSqlite(db.sqliteWriter, job, workerId, now, attempt, resolution, errorText);
  return postgresFinisher(db.pool!).submit({ job, workerId, now, attempt, resolution, errorText });
}

const CLAIM_PULL_POSTGRES = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2, "updatedAt" = $3
WHERE id IN (
  SELECT id FROM "DeliveryJob"
  WHERE "organizationId" = $5 AND kind = 'pull'
    AND ((status IN ('pending', 'retrying') AND "runAt" <= $3) OR (status = 'running' AND "lockedUntil" < $3))
  ORDER BY "runAt", "createdAt"
  LIMIT $4
  FOR UPDATE SKIP LOCKED
)
RETURNING ${RETURNING}`;

const CLAIM_PULL_SQLITE = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = ?, "lockedUntil" = ?, "updatedAt" = ?
WHERE id IN (
  SELECT id FROM "DeliveryJob"
  WHERE "organizationId" = ? AND kind = 'pull'
    AND ((status IN ('pending', 'retrying') AND "runAt" <= ?) OR (status = 'running' AND "lockedUntil" < ?))
  ORDER BY "runAt", "createdAt"
  LIMIT ?
)
RETURNING ${RETURNING}`;

/** A plugin poll: its organization's due pull jobs, each handed to exactly one poller (oldest first). */
export async function claimPullJobs(db: Database, holder: string, organizationId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
  const until = new Date(now.getTime() + leaseMs);
  const rows =
    db.dialect === 'postgresql'
      ? await db.prisma.$queryRawUnsafe<ClaimedJob[]>(CLAIM_PULL_POSTGRES, holder, until, now, limit, organizationId)
      : await db.prisma.$queryRawUnsafe<ClaimedJob[]>(CLAIM_PULL_SQLITE, holder, until.getTime(), now.getTime(), organizationId, now.getTime(), now.getTime(), limit);
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), maxAttempts: Number(r.maxAttempts), priority: Number(r.priority) }));
}

/**
 * Extends a claimed job's lease right before it is sent (a vote's callbacks run one after another, so later ones
 * would otherwise start on a lease taken long before). False when the lease is gone: do not send.
 */
export async function renewLease(db: Database, job: ClaimedJob | string, workerId: string, now: Date, leaseMs: number, needMs = 0): Promise<boolean> {
  const jobId = typeof job === 'string' ? job : job.id;
  // Most attempts start well inside their lease: only write when it could run out before the attempt ends.
  if (typeof job !== 'string' && job.leaseUntil !== undefined && job.leaseUntil - now.getTime() > needMs) return true;
  if (typeof job !== 'string') job.leaseUntil = now.getTime() + leaseMs;
  if (db.sqliteWriter) {
    const changes = await retryBusy(
      () =>
        db.sqliteWriter!
          .prepare(`UPDATE "DeliveryJob" SET "lockedUntil" = ? WHERE id = ? AND "lockedBy" = ? AND status = 'running' AND "lockedUntil" > ?`)
          .run(now.getTime() + leaseMs, jobId, workerId, now.getTime()).changes,
    );
    return changes === 1;
  }
  const renewed = await db.pool!.query({
    name: 'vr_job_renew_lease',
    text: `UPDATE "DeliveryJob" SET "lockedUntil" = $1::timestamp(3) WHERE id = $2 AND "lockedBy" = $3 AND status = 'running' AND "lockedUntil" > $4::timestamp(3)`,
    values: [new Date(now.getTime() + leaseMs).toISOString(), jobId, workerId, now.toISOString()],
  });
  return renewed.rowCount === 1;
}

const sqliteStatements = new WeakMap<Sqlite.Database, ReturnType<typeof prepareSqlite>>();
function prepareSqlite(db: Sqlite.Database) {
  return {
    updateJob: db.prepare(
      `UPDATE "DeliveryJob" SET status = ?, attempts = ?, "lockedBy" = NULL, "lockedUntil" = NULL, "lastError" = ?,
         "runAt" = COALESCE(?, "runAt"), "sentAt" = COALESCE(?, "sentAt"), "updatedAt" = ? WHERE id = ? AND "lockedBy" = ?`,
    ),
    insertAttempt: db.prepare(
      `INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error, "responseExcerpt", "createdAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    jobsOfVote: db.prepare(`SELECT kind, status, attempts, "sentAt" FROM "DeliveryJob" WHERE "voteId" = ?`),
    updateVote: db.prepare(
      `UPDATE "Vote" SET "chatStatus" = ?, "chatSentAt" = ?, "callbackStatus" = ?, "callbackSentAt" = ?, "callbackAttempts" = ? WHERE id = ?`,
    ),
  };
}

const isBusy = (err: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((err as { code?: string }).code ?? '');

/** Runs a synchronous SQLite write, retrying shortly (never blocking the event loop) while another process writes. */
async function retryBusy<T>(write: () => T): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return write();
    } catch (err) {
      if (!isBusy(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

/** SQLite: the same bookkeeping as one synchronous transaction (retried shortly when another process writes). */
async function finishAttemptSqlite(
  db: Sqlite.Database,
  job: ClaimedJob,
  workerId: string,
  now: Date,
  attempt: AttemptRecord | null,
  resolution: JobResolution,
  errorText: string | null,
): Promise<boolean> {
  let statements = sqliteStatements.get(db);
  if (!statements) sqliteStatements.set(db, (statements = prepareSqlite(db)));
  const s = statements;
  const write = db.transaction((): boolean => {
    const at = now.getTime();
    const changed = s.updateJob.run(
      resolution.status,
      attempt ? attempt.attempt : job.attempts,
      errorText,
      resolution.status === 'retrying' ? resolution.runAt.getTime() : null,
      resolution.status === 'sent' ? at : null,
      at,
      job.id,
      workerId,
    ).changes;
    if (changed === 0) return false;
    if (attempt) {
      s.insertAttempt.run(randomUUID(), job.organizationId, job.id, job.voteId, attempt.attempt, attempt.target, attempt.statusCode,
        attempt.success ? 1 : 0, attempt.durationMs, attempt.error, attempt.responseExcerpt, at);
    }
    if (job.voteId) {
      const rows = (s.jobsOfVote.all(job.voteId) as { kind: string; status: string; attempts: number; sentAt: number | null }[]).map((r) => ({
        ...r,
        sentAt: r.sentAt === null ? null : new Date(r.sentAt),
      }));
      const status = voteStatusFrom(rows);
      s.updateVote.run(status.chatStatus, status.chatSentAt?.getTime() ?? null, status.callbackStatus, status.callbackSentAt?.getTime() ?? null, status.callbackAttempts, job.voteId);
    }
    return true;
  });
  return enqueueFinish(db, () => write.immediate());
}

/** Attempt records that arrive in the same event-loop turn share one transaction (one fsync). */
const finishQueues = new WeakMap<Sqlite.Database, { items: { run: () => boolean; resolve(v: boolean): void; reject(e: unknown): void }[]; scheduled: boolean }>();
function enqueueFinish(db: Sqlite.Database, run: () => boolean): Promise<boolean> {
  let queue = finishQueues.get(db);
  if (!queue) finishQueues.set(db, (queue = { items: [], scheduled: false }));
  const q = queue;
  return new Promise<boolean>((resolve, reject) => {
    q.items.push({ run, resolve, reject });
    if (q.scheduled) return;
    q.scheduled = true;
    setImmediate(async () => {
      const batch = q.items.splice(0);
      q.scheduled = false;
      try {
        // Nested transactions become savepoints: one failed record does not undo the others.
        const results = await retryBusy(() =>
          db.transaction(() => batch.map((item) => {
            try {
              return { ok: true as const, value: item.run() };
            } catch (err) {
              if (isBusy(err)) throw err;
              return { ok: false as const, err };
            }
          })).immediate(),
        );
        results.forEach((r, i) => (r.ok ? batch[i].resolve(r.value) : batch[i].reject(r.err)));
      } catch (err) {
        batch.forEach((item) => item.reject(err));
      }
    });
  });
}

interface Finish {
  job: ClaimedJob;
  workerId: string;
  now: Date;
  attempt: AttemptRecord | null;
  resolution: JobResolution;
  errorText: string | null;
}

const FINISH_SQL = {
  // Each job's next state, only where this worker still holds it; its attempt record with it. Rows in id order.
  jobs: {
    name: 'vr_job_finish',
    text: `WITH u AS (
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamp(3)[], $7::timestamp(3)[], $8::timestamp(3)[])
               AS u(id, worker, status, attempts, error, run_at, sent_at, now)
             ORDER BY id
           ), updated AS (
             UPDATE "DeliveryJob" AS j SET status = u.status, attempts = u.attempts, "lockedBy" = NULL, "lockedUntil" = NULL,
               "lastError" = u.error, "runAt" = COALESCE(u.run_at, j."runAt"), "sentAt" = COALESCE(u.sent_at, j."sentAt"), "updatedAt" = u.now
             FROM u WHERE j.id = u.id AND j."lockedBy" = u.worker
             RETURNING j.id
           ), attempts AS (
             INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error,
               "responseExcerpt", "createdAt")
             SELECT a.id, a.org, a.job, a.vote, a.attempt, a.target, a.code, a.success, a.duration, a.error, a.excerpt, a.at
             FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::int[], $16::boolean[], $17::int[],
                         $18::text[], $19::text[], $20::timestamp(3)[])
               AS a(id, org, job, vote, attempt, target, code, success, duration, error, excerpt, at)
             WHERE a.job IN (SELECT id FROM updated)
           )
           SELECT id FROM updated`,
  },
  jobsOfVotes: {
    name: 'vr_job_jobs_of_votes',
    text: `SELECT "voteId", kind, status, attempts, (extract(epoch FROM "sentAt") * 1000)::float8 AS "sentAt" FROM "DeliveryJob" WHERE "voteId" = ANY($1::text[])`,
  },
  votes: {
    name: 'vr_job_vote_status',
    text: `UPDATE "Vote" AS v SET "chatStatus" = u.chat, "chatSentAt" = u.chat_at, "callbackStatus" = u.cb, "callbackSentAt" = u.cb_at,
             "callbackAttempts" = u.attempts
           FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[], $5::timestamp(3)[], $6::int[])
                   AS u(id, chat, chat_at, cb, cb_at, attempts) ORDER BY id) AS u
           WHERE v.id = u.id`,
  },
} as const;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** PostgreSQL: the attempts finished meanwhile, recorded in one transaction (jobs, attempts, then their votes). */
async function writeFinishes(query: Query, items: Finish[]): Promise<boolean[]> {
  const attempts = items.filter((f) => f.attempt);
  const updated = await query<{ id: string }>({
    ...FINISH_SQL.jobs,
    values: [
      items.map((f) => f.job.id),
      items.map((f) => f.workerId),
      items.map((f) => f.resolution.status),
      items.map((f) => (f.attempt ? f.attempt.attempt : f.job.attempts)),
      items.map((f) => f.errorText),
      items.map((f) => (f.resolution.status === 'retrying' ? f.resolution.runAt.toISOString() : null)),
      items.map((f) => (f.resolution.status === 'sent' ? f.now.toISOString() : null)),
      items.map((f) => f.now.toISOString()),
      attempts.map(() => randomUUID()),
      attempts.map((f) => f.job.organizationId),
      attempts.map((f) => f.job.id),
      attempts.map((f) => f.job.voteId),
      attempts.map((f) => f.attempt!.attempt),
      attempts.map((f) => f.attempt!.target),
      attempts.map((f) => f.attempt!.statusCode),
      attempts.map((f) => f.attempt!.success),
      attempts.map((f) => Math.round(f.attempt!.durationMs)),
      attempts.map((f) => f.attempt!.error),
      attempts.map((f) => f.attempt!.responseExcerpt),
      attempts.map((f) => f.now.toISOString()),
    ],
  });
  // Not updated: the lease was lost, another worker owns the job now.
  const recorded = new Set(updated.rows.map((r) => r.id));
  const voteIds = [...new Set(items.filter((f) => recorded.has(f.job.id) && f.job.voteId).map((f) => f.job.voteId!))].sort();
  if (voteIds.length > 0) {
    const rows = await query<{ voteId: string; kind: string; status: string; attempts: number; sentAt: number | null }>({ ...FINISH_SQL.jobsOfVotes, values: [voteIds] });
    const byVote = new Map<string, { kind: string; status: string; attempts: number; sentAt: Date | null }[]>();
    for (const row of rows.rows) {
      byVote.set(row.voteId, [...(byVote.get(row.voteId) ?? []), { ...row, sentAt: row.sentAt === null ? null : new Date(row.sentAt) }]);
    }
    const statuses = voteIds.map((id) => voteStatusFrom(byVote.get(id) ?? []));
    await query({
      ...FINISH_SQL.votes,
      values: [voteIds, statuses.map((s) => s.chatStatus), statuses.map((s) => iso(s.chatSentAt)), statuses.map((s) => s.callbackStatus), statuses.map((s) => iso(s.callbackSentAt)), statuses.map((s) => s.callbackAttempts)],
    });
  }
  return items.map((f) => recorded.has(f.job.id));
}

const postgresFinishers = new WeakMap<pg.Pool, GroupCommit<Finish, boolean>>();
function postgresFinisher(pool: pg.Pool): GroupCommit<Finish, boolean> {
  let finisher = postgresFinishers.get(pool);
  if (!finisher) {
    // Young statistics (the job table starts empty) would otherwise leave prepared statements scanning every job.
    finisher = createGroupCommit({ pool, write: writeFinishes, maxBatch: 256, maxInFlight: 1, begin: 'SET LOCAL enable_seqscan = off' });
    postgresFinishers.set(pool, finisher);
  }
  return finisher;
}
