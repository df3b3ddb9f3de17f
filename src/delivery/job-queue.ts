// The database job queue (the transactional outbox ingest writes into). Workers claim due jobs with a lease:
// PostgreSQL `FOR UPDATE SKIP LOCKED` (several instances share the work, none takes a job another holds);
// SQLite one atomic UPDATE … RETURNING (a single writer). A job whose lease ran out — its worker died — is
// claimed again, so no work is lost; while the lease holds, nobody else sends it.
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type { Database, Tx } from '../db/client.js';

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

const CLAIM_POSTGRES = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2, "updatedAt" = $3
WHERE id IN (
  SELECT id FROM "DeliveryJob"
  WHERE kind <> 'pull' AND ((status IN ('pending', 'retrying') AND "runAt" <= $3) OR (status = 'running' AND "lockedUntil" < $3))
  ORDER BY "runAt", "voteId", priority
  LIMIT $4
  FOR UPDATE SKIP LOCKED
)
RETURNING ${RETURNING}`;

const CLAIM_SQLITE = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = ?, "lockedUntil" = ?, "updatedAt" = ?
WHERE id IN (
  SELECT id FROM "DeliveryJob"
  WHERE kind <> 'pull' AND ((status IN ('pending', 'retrying') AND "runAt" <= ?) OR (status = 'running' AND "lockedUntil" < ?))
  ORDER BY "runAt", "voteId", priority
  LIMIT ?
)
RETURNING ${RETURNING}`;

export async function claimJobs(db: Database, workerId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
  const until = new Date(now.getTime() + leaseMs);
  if (db.sqliteWriter) {
    // One synchronous statement on the write connection: cheaper than a Prisma round trip, and atomic.
    const rows = await retryBusy(() =>
      db.sqliteWriter!.prepare(CLAIM_SQLITE).all(workerId, until.getTime(), now.getTime(), now.getTime(), now.getTime(), limit) as ClaimedJob[],
    );
    return rows.map((r) => ({ ...r, leaseUntil: until.getTime() }));
  }
  const rows =
    db.dialect === 'postgresql'
      ? await db.prisma.$queryRawUnsafe<ClaimedJob[]>(CLAIM_POSTGRES, workerId, until, now, limit)
      : await db.prisma.$queryRawUnsafe<ClaimedJob[]>(CLAIM_SQLITE, workerId, until.getTime(), now.getTime(), now.getTime(), now.getTime(), limit);
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), maxAttempts: Number(r.maxAttempts), priority: Number(r.priority), leaseUntil: until.getTime() }));
}

const IN_FLIGHT = new Set(['pending', 'retrying', 'running']);

/**
 * The vote's chat_status / callback_status / callback_attempts / *_sent_at from its jobs (decisions.md §5):
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
  return db.prisma.$transaction(async (tx) => {
    const updated = await tx.deliveryJob.updateMany({
      where: { id: job.id, lockedBy: workerId },
      data: {
        status: resolution.status,
        attempts: attempt ? attempt.attempt : job.attempts,
        lockedBy: null,
        lockedUntil: null,
        lastError: errorText,
        ...(resolution.status === 'retrying' ? { runAt: resolution.runAt } : {}),
        ...(resolution.status === 'sent' ? { sentAt: now } : {}),
      },
    });
    if (updated.count === 0) return false; // lease lost: another worker owns the job now
    if (attempt) {
      await tx.deliveryAttempt.create({
        data: { organizationId: job.organizationId, jobId: job.id, voteId: job.voteId, ...attempt, createdAt: now },
      });
    }
    if (job.voteId) await refreshVoteStatus(tx, job.voteId);
    return true;
  });
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
  const renewed = await db.prisma.deliveryJob.updateMany({
    where: { id: jobId, lockedBy: workerId, status: 'running', lockedUntil: { gt: now } },
    data: { lockedUntil: new Date(now.getTime() + leaseMs) },
  });
  return renewed.count === 1;
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
