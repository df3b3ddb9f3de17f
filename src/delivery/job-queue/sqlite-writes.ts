// The job queue's SQLite writes as synchronous batch functions on one better-sqlite3 connection: claims, lease
// renewals, attempt records, and a vote's job rows inside the vote's own transaction. They run wherever the SQLite
// hot writes run (src/db/hot-writes.ts): on the write thread in the service, on the caller's thread otherwise.
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import { finishedRow, voteStatusFrom, type ClaimedJob, type Finish, type JobForStatus, type NewJob } from './job-queue.js';
import { CLAIM_COLUMNS, candidates } from './claim-sql.js';

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

/** One claim: a worker's due jobs, or (with `organizationId`) a plugin poll's pull jobs. Times in epoch ms. */
export interface ClaimRequest {
  holder: string;
  now: number;
  until: number;
  limit: number;
  organizationId?: string;
}

/** One lease renewal; true when the holder still had the job and now holds it until `until`. */
export interface Renewal {
  jobId: string;
  holder: string;
  now: number;
  until: number;
}

export interface SqliteJobWrites {
  claims(items: ClaimRequest[]): ClaimedJob[][];
  renewals(items: Renewal[]): boolean[];
  finishes(items: Finish[]): boolean[];
  /** A vote's jobs, inside the transaction its vote store holds on the same connection. */
  insertJobs(jobs: NewJob[]): void;
}

export function createSqliteJobWrites(db: Sqlite.Database): SqliteJobWrites {
  const s = {
    claim: db.prepare(CLAIM),
    claimPull: db.prepare(CLAIM_PULL),
    renew: db.prepare(`UPDATE "DeliveryJob" SET "lockedUntil" = ? WHERE id = ? AND "lockedBy" = ? AND status = 'running' AND "lockedUntil" > ?`),
    insertJob: db.prepare(
      `INSERT INTO "DeliveryJob" (id, organizationId, voteId, callbackId, kind, status, priority, attempts, maxAttempts, runAt, uniqueKey, payloadJson, origin, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateJob: db.prepare(
      `UPDATE "DeliveryJob" SET status = ?, attempts = ?, "lockedBy" = NULL, "lockedUntil" = NULL,
         "lastError" = CASE WHEN ? THEN "lastError" ELSE ? END, "pacedMs" = ?,
         "runAt" = COALESCE(?, "runAt"), "sentAt" = COALESCE(?, "sentAt"), "updatedAt" = ? WHERE id = ? AND "lockedBy" = ?`,
    ),
    insertAttempt: db.prepare(
      `INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error, "responseExcerpt", "pacedMs", "createdAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A callback's run of failures (callback-health.ts): starts at its first failed attempt, ends at a success.
    failing: db.prepare(`UPDATE "Callback" SET "failingSince" = ? WHERE id = ? AND "failingSince" IS NULL`),
    recovered: db.prepare(`UPDATE "Callback" SET "failingSince" = NULL WHERE id = ? AND "failingSince" IS NOT NULL`),
    jobsOfVote: db.prepare(`SELECT kind, status, attempts, "sentAt", "callbackId", "createdAt" FROM "DeliveryJob" WHERE "voteId" = ?`),
    updateVote: db.prepare(
      `UPDATE "Vote" SET "chatStatus" = ?, "chatSentAt" = ?, "callbackStatus" = ?, "callbackSentAt" = ?, "callbackAttempts" = ? WHERE id = ?`,
    ),
  };

  /** One attempt's bookkeeping: the job's next state (only while this worker holds it), its record, the vote. */
  function finishOne(f: Finish): boolean {
    const at = f.now.getTime();
    const row = finishedRow(f);
    const changed = s.updateJob.run(
      row.status,
      row.attempts,
      row.keepError ? 1 : 0,
      f.errorText,
      row.pacedMs,
      row.runAt ? row.runAt.getTime() : null,
      f.resolution.status === 'sent' ? at : null,
      at,
      f.job.id,
      f.workerId,
    ).changes;
    if (changed === 0) return false;
    const a = f.attempt;
    if (a) {
      s.insertAttempt.run(
        randomUUID(),
        f.job.organizationId,
        f.job.id,
        f.job.voteId,
        a.attempt,
        a.target,
        a.statusCode,
        a.success ? 1 : 0,
        a.durationMs,
        a.error,
        a.responseExcerpt,
        Math.round(a.pacedMs ?? 0),
        at,
      );
      if (f.job.kind === 'callback' && f.job.callbackId && !a.voteRefused) {
        if (a.success) s.recovered.run(f.job.callbackId);
        else s.failing.run(at, f.job.callbackId);
      }
    }
    if (f.job.voteId) {
      const rows = (s.jobsOfVote.all(f.job.voteId) as (JobForStatus & { sentAt: number | null })[]).map((r) => ({
        ...r,
        sentAt: r.sentAt === null ? null : new Date(r.sentAt),
      }));
      const status = voteStatusFrom(rows);
      s.updateVote.run(
        status.chatStatus,
        status.chatSentAt?.getTime() ?? null,
        status.callbackStatus,
        status.callbackSentAt?.getTime() ?? null,
        status.callbackAttempts,
        f.job.voteId,
      );
    }
    return true;
  }

  return {
    claims: (items) =>
      items.map(
        (c) =>
          (c.organizationId === undefined
            ? s.claim.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit })
            : s.claimPull.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit, 5: c.organizationId })) as ClaimedJob[],
      ),
    renewals: (items) => items.map((r) => s.renew.run(r.until, r.jobId, r.holder, r.now).changes === 1),
    finishes: (items) => items.map(finishOne),
    insertJobs(jobs) {
      for (const job of jobs) {
        const at = job.runAt.getTime();
        s.insertJob.run(
          randomUUID(),
          job.organizationId,
          job.voteId,
          job.callbackId,
          job.kind,
          job.held ? 'held' : 'pending',
          job.priority,
          job.maxAttempts,
          at,
          job.uniqueKey ?? null,
          job.payloadJson ?? null,
          job.origin ?? 'vote',
          at,
          at,
        );
      }
    },
  };
}
