// The job queue on embedded SQLite (job-queue.ts): prepared statements on the dedicated write connection (a single
// writer, so one atomic UPDATE … RETURNING claims), attempt records through the SQLite batch writer (attempts that
// finish in the same event-loop turn share one transaction and one fsync).
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type { Database } from '../../db/client.js';
import { createSqliteBatchWriter, isSqliteBusy } from '../../db/batch-writer/sqlite.js';
import {
  enqueueWithPrisma,
  holdWithPrisma,
  leaseStillCovers,
  requeueFailedWithPrisma,
  voteStatusFrom,
  type ClaimedJob,
  type Finish,
  type JobQueue,
  type NewJob,
} from './job-queue.js';
import { CLAIM_COLUMNS, candidates } from './claim-sql.js';

export interface SqliteJobQueue extends JobQueue {
  readonly dialect: 'sqlite';
  /** Inserts a vote's jobs inside the transaction the vote store holds on the same write connection. */
  insertInTransaction(jobs: NewJob[]): void;
}

const CLAIM = `
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
RETURNING ${CLAIM_COLUMNS}`;

const CLAIM_PULL = `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2, "updatedAt" = $3
WHERE id IN (
  SELECT id FROM "DeliveryJob"
  WHERE "organizationId" = $5 AND kind = 'pull'
    AND ((status IN ('pending', 'retrying') AND "runAt" <= $3) OR (status = 'running' AND "lockedUntil" < $3))
  ORDER BY "runAt", "createdAt"
  LIMIT $4
)
RETURNING ${CLAIM_COLUMNS}`;

/** Runs a synchronous write, retrying shortly (never blocking the event loop) while another process writes. */
async function retryBusy<T>(write: () => T): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return write();
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

export function createSqliteJobQueue(db: Database, writer: Sqlite.Database, maxBatch: number): SqliteJobQueue {
  const s = {
    claim: writer.prepare(CLAIM),
    claimPull: writer.prepare(CLAIM_PULL),
    renew: writer.prepare(`UPDATE "DeliveryJob" SET "lockedUntil" = ? WHERE id = ? AND "lockedBy" = ? AND status = 'running' AND "lockedUntil" > ?`),
    insertJob: writer.prepare(
      `INSERT INTO "DeliveryJob" (id, organizationId, voteId, callbackId, kind, status, priority, attempts, maxAttempts, runAt, uniqueKey, payloadJson, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, 0, ?, ?, ?, ?, ?, ?)`,
    ),
    updateJob: writer.prepare(
      `UPDATE "DeliveryJob" SET status = ?, attempts = ?, "lockedBy" = NULL, "lockedUntil" = NULL, "lastError" = ?,
         "runAt" = COALESCE(?, "runAt"), "sentAt" = COALESCE(?, "sentAt"), "updatedAt" = ? WHERE id = ? AND "lockedBy" = ?`,
    ),
    insertAttempt: writer.prepare(
      `INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error, "responseExcerpt", "createdAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    jobsOfVote: writer.prepare(`SELECT kind, status, attempts, "sentAt" FROM "DeliveryJob" WHERE "voteId" = ?`),
    updateVote: writer.prepare(
      `UPDATE "Vote" SET "chatStatus" = ?, "chatSentAt" = ?, "callbackStatus" = ?, "callbackSentAt" = ?, "callbackAttempts" = ? WHERE id = ?`,
    ),
  };

  /** One attempt's bookkeeping: the job's next state (only while this worker holds it), its record, the vote. */
  function finishOne(f: Finish): boolean {
    const at = f.now.getTime();
    const changed = s.updateJob.run(
      f.resolution.status,
      f.attempt ? f.attempt.attempt : f.job.attempts,
      f.errorText,
      f.resolution.status === 'retrying' ? f.resolution.runAt.getTime() : null,
      f.resolution.status === 'sent' ? at : null,
      at,
      f.job.id,
      f.workerId,
    ).changes;
    if (changed === 0) return false;
    const a = f.attempt;
    if (a) {
      s.insertAttempt.run(randomUUID(), f.job.organizationId, f.job.id, f.job.voteId, a.attempt, a.target, a.statusCode, a.success ? 1 : 0, a.durationMs, a.error, a.responseExcerpt, at);
    }
    if (f.job.voteId) {
      const rows = (s.jobsOfVote.all(f.job.voteId) as { kind: string; status: string; attempts: number; sentAt: number | null }[]).map((r) => ({
        ...r,
        sentAt: r.sentAt === null ? null : new Date(r.sentAt),
      }));
      const status = voteStatusFrom(rows);
      s.updateVote.run(status.chatStatus, status.chatSentAt?.getTime() ?? null, status.callbackStatus, status.callbackSentAt?.getTime() ?? null, status.callbackAttempts, f.job.voteId);
    }
    return true;
  }

  const finishes = createSqliteBatchWriter<Finish, boolean>({ db: writer, write: (items) => items.map(finishOne), maxBatch });
  const leased = (rows: ClaimedJob[], until: Date) => rows.map((r) => ({ ...r, leaseUntil: until.getTime() }));

  return {
    dialect: 'sqlite',
    async claim(workerId, now, leaseMs, limit) {
      const until = new Date(now.getTime() + leaseMs);
      const rows = await retryBusy(() => s.claim.all({ 1: workerId, 2: until.getTime(), 3: now.getTime(), 4: limit }) as ClaimedJob[]);
      return leased(rows, until);
    },
    async claimPull(holder, organizationId, now, leaseMs, limit) {
      const until = new Date(now.getTime() + leaseMs);
      const rows = await retryBusy(() => s.claimPull.all({ 1: holder, 2: until.getTime(), 3: now.getTime(), 4: limit, 5: organizationId }) as ClaimedJob[]);
      return leased(rows, until);
    },
    async renew(job, workerId, now, leaseMs, needMs = 0) {
      if (leaseStillCovers(job, now, needMs)) return true;
      job.leaseUntil = now.getTime() + leaseMs;
      return (await retryBusy(() => s.renew.run(now.getTime() + leaseMs, job.id, workerId, now.getTime()).changes)) === 1;
    },
    hold: (jobId, holder) => holdWithPrisma(db, jobId, holder),
    finish: (job, workerId, now, attempt, resolution, errorText) => finishes.submit({ job, workerId, now, attempt, resolution, errorText }),
    requeueFailed: (voteId, now, budget) => requeueFailedWithPrisma(db, voteId, now, budget),
    enqueue: (tx, jobs) => enqueueWithPrisma(tx, jobs),
    insertInTransaction(jobs) {
      for (const job of jobs) {
        const at = job.runAt.getTime();
        s.insertJob.run(randomUUID(), job.organizationId, job.voteId, job.callbackId, job.kind, job.priority, job.maxAttempts, at, job.uniqueKey ?? null, job.payloadJson ?? null, at, at);
      }
    },
    close: () => finishes.close(),
  };
}
