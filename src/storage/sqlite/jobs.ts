// The job queue on embedded SQLite. Its writes are synchronous batch functions on the one better-sqlite3 write
// connection (named writes, writes.ts): claims, lease renewals, attempt records, and a vote's job rows inside the
// vote's own transaction (insertJobs, the one job insert, also used for replays and alerts through Prisma's
// transaction). A single writer: one atomic UPDATE … RETURNING claims, and what arrives while a batch is being
// written shares the next transaction and fsync.
import { timeOrderedId } from '../../base/time-ordered-id.js';
import type Sqlite from 'better-sqlite3';
import {
  finishedRow,
  leaseStillCovers,
  tellsOfHealth,
  TO_CALLBACKS,
  voteStatusFrom,
  type ClaimedJob,
  type Finish,
  type JobForStatus,
  type NewJob,
} from '../../domain/jobs.js';
import { CLAIM_COLUMNS, candidates, markWhenClaimed, leasedJobOf, playerPullClaimSql, pullClaimSql } from '../claim-sql.js';
import type { AttemptWrite, BatchWriter, JobQueue, Renewal, Tx } from '../ports.js';
import { holdWithPrisma, parkWithPrisma, requeueFailedWithPrisma } from '../prisma-jobs.js';

/**
 * What a worker's claim (or reclaim) answers, with the claim's own mark (claim-sql.ts markWhenClaimed; the kinds' names
 * in the JSON array parameter `kinds`). SQLite's RETURNING sees a row as the UPDATE left it, so the mark a job had
 * before is told from the claim's own by its time: the claim's mark is `$3`, the claim's time, and a job already
 * marked keeps its mark, which is older. (Only a running job has a mark: every other transition clears it. A mark
 * moves the job's lease past its own time, and a job is claimed again only once its lease ended before `$3`, or, for
 * reclaimOwn, before the time its instance started, which is before `$3` too.)
 */
const markedClaim = (kinds: string) => ({
  set: markWhenClaimed('$3', `IN (SELECT value FROM json_each(${kinds}))`),
  returning: `${CLAIM_COLUMNS.replace('"sendingAt"', 'CASE WHEN "sendingAt" = $3 THEN NULL ELSE "sendingAt" END AS "sendingAt"')},
  "sendingAt" IS NOT NULL AND "sendingAt" = $3 AS "markedWhenClaimed"`,
});

const CLAIM = `
UPDATE "DeliveryJob" AS j SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2, "updatedAt" = $3, ${markedClaim('$5').set}
WHERE id IN (
  SELECT id FROM (
    SELECT * FROM (${candidates('pending', '"runAt" <= $3', '')})
    UNION ALL SELECT * FROM (${candidates('retrying', '"runAt" <= $3', '')})
    UNION ALL SELECT * FROM (${candidates('running', '"lockedUntil" < $3', '')})
  )
  ORDER BY "runAt", "voteId", priority
  LIMIT $4
)
RETURNING ${markedClaim('$5').returning}`;

const CLAIM_PULL = pullClaimSql((param) => param, '');
const CLAIM_PLAYER_PULL = playerPullClaimSql((param) => param, '');

// A restarted instance's own leased jobs, whatever their lease's end (ports.ts, reclaimOwn); $6: as CLAIM's $5.
const RECLAIM_OWN = `
UPDATE "DeliveryJob" AS j SET "lockedUntil" = $2, "updatedAt" = $3, ${markedClaim('$6').set}
WHERE id IN (
  SELECT id FROM "DeliveryJob" WHERE status = 'running' AND "lockedBy" = $1 AND "lockedUntil" < $5 AND kind <> 'pull'
  ORDER BY "runAt", "voteId", priority LIMIT $4
)
RETURNING ${markedClaim('$6').returning}`;

const JOB_INSERT = `INSERT INTO "DeliveryJob" (id, organizationId, voteId, callbackId, kind, status, priority, attempts, maxAttempts, runAt, uniqueKey,
   payloadJson, origin, lockedBy, lockedUntil, createdAt, updatedAt)
 VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("uniqueKey") DO NOTHING`;

/** A job's row for JOB_INSERT: pending, held, or (with a lease) already running for its holder. */
function jobRow(job: NewJob): { id: string; values: unknown[] } {
  const id = timeOrderedId();
  const at = job.runAt.getTime();
  const status = job.held ? 'held' : job.lease ? 'running' : 'pending';
  const lease = job.lease && !job.held ? job.lease : null;
  return {
    id,
    values: [
      id,
      job.organizationId,
      job.voteId,
      job.callbackId,
      job.kind,
      status,
      job.priority,
      job.maxAttempts,
      at,
      job.uniqueKey ?? null,
      job.payloadJson ?? null,
      job.origin ?? 'vote',
      lease?.holder ?? null,
      lease?.until ?? null,
      at,
      at,
    ],
  };
}

/** Inserts jobs in a Prisma transaction on the same database (a replay, an alert): the same statement. */
export async function insertJobsWithPrisma(tx: Tx, jobs: NewJob[]): Promise<number> {
  let inserted = 0;
  for (const job of jobs) inserted += await tx.$executeRawUnsafe(JOB_INSERT, ...jobRow(job).values);
  return inserted;
}

/** One claim: a worker's due jobs, its own leased ones (`own`), or (with `organizationId`) a plugin poll's pull jobs. Times in epoch ms. */
export interface ClaimRequest {
  holder: string;
  now: number;
  until: number;
  limit: number;
  organizationId?: string;
  /** With organizationId: one player's waiting pull jobs (their voter key). */
  voterKey?: string;
  /** Only this holder's jobs leased to end before this (epoch ms), whatever their lease's end otherwise. */
  ownBefore?: number;
  /** A worker's claim: the callback kinds its claim marks (JobQueue.claim's `marking`), as a JSON array. */
  marking?: string;
}

export interface SqliteJobWrites {
  claims(items: ClaimRequest[]): ClaimedJob[][];
  renewals(items: Renewal[]): boolean[];
  /** Attempts starting (their marks) and ending (their finishes), in one transaction (AttemptWrite). */
  attempts(items: AttemptWrite[]): boolean[];
  /** A vote's jobs, inside the transaction its vote store holds on the same connection; returns the leased ones. */
  insertJobs(jobs: NewJob[]): ClaimedJob[];
}

export function createSqliteJobWrites(db: Sqlite.Database): SqliteJobWrites {
  const s = {
    claim: db.prepare(CLAIM),
    claimPull: db.prepare(CLAIM_PULL),
    claimPlayerPull: db.prepare(CLAIM_PLAYER_PULL),
    reclaimOwn: db.prepare(RECLAIM_OWN),
    renew: db.prepare(`UPDATE "DeliveryJob" SET "lockedUntil" = ? WHERE id = ? AND "lockedBy" = ? AND status = 'running' AND "lockedUntil" > ?`),
    mark: db.prepare(
      `UPDATE "DeliveryJob" SET "lockedUntil" = ?, "sendingAt" = ? WHERE id = ? AND "lockedBy" = ? AND status = 'running' AND "lockedUntil" > ?`,
    ),
    insertJob: db.prepare(JOB_INSERT),
    updateJob: db.prepare(
      `UPDATE "DeliveryJob" SET status = ?, attempts = ?, "lockedBy" = NULL, "lockedUntil" = NULL, "sendingAt" = NULL,
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

  /**
   * The attempts finished meanwhile, recorded together: each job's next state (only while this worker holds it) and
   * its attempt record; then once per callback its run of failures (callback-health.ts: the batch's latest attempt
   * decides), and once per vote its statuses.
   */
  function finishBatch(items: Finish[]): boolean[] {
    const health = new Map<string, { ok: boolean; at: number }>();
    const votes = new Set<string>();
    const recorded = items.map((f) => {
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
          timeOrderedId(at),
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
        if (TO_CALLBACKS.has(f.job.kind) && f.job.callbackId && tellsOfHealth(a)) health.set(f.job.callbackId, { ok: a.success, at });
      }
      if (f.job.voteId) votes.add(f.job.voteId);
      return true;
    });
    for (const [callbackId, h] of health) {
      if (h.ok) s.recovered.run(callbackId);
      else s.failing.run(h.at, callbackId);
    }
    for (const voteId of votes) {
      const rows = (s.jobsOfVote.all(voteId) as (JobForStatus & { sentAt: number | null })[]).map((r) => ({
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
        voteId,
      );
    }
    return recorded;
  }

  return {
    claims: (items) =>
      items.map(
        (c) =>
          (c.ownBefore !== undefined
            ? s.reclaimOwn.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit, 5: c.ownBefore, 6: c.marking ?? '[]' })
            : c.organizationId === undefined
              ? s.claim.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit, 5: c.marking ?? '[]' })
              : c.voterKey === undefined
                ? s.claimPull.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit, 5: c.organizationId })
                : s.claimPlayerPull.all({ 1: c.holder, 2: c.until, 3: c.now, 4: c.limit, 5: c.organizationId, 6: c.voterKey })) as ClaimedJob[],
      ),
    renewals: (items) => items.map((r) => s.renew.run(r.until, r.jobId, r.holder, r.now).changes === 1),
    attempts(items) {
      const finishes = items.flatMap((w) => ('finish' in w ? [w.finish] : []));
      const finished = finishBatch(finishes);
      let next = 0;
      return items.map((w) =>
        'finish' in w ? finished[next++]! : s.mark.run(w.mark.until, w.mark.now, w.mark.jobId, w.mark.holder, w.mark.now).changes === 1,
      );
    },
    insertJobs(jobs) {
      const leased: ClaimedJob[] = [];
      for (const job of jobs) {
        const row = jobRow(job);
        if (s.insertJob.run(...row.values).changes === 1 && job.lease && !job.held) leased.push(leasedJobOf(row.id, job));
      }
      return leased;
    },
  };
}

/** The named writes the queue submits to (writes.ts). */
export interface SqliteJobWriters {
  claims: BatchWriter<ClaimRequest, ClaimedJob[]>;
  renewals: BatchWriter<Renewal, boolean>;
  attempts: BatchWriter<AttemptWrite, boolean>;
}

export function createSqliteJobQueue(prisma: Parameters<typeof holdWithPrisma>[0], writes: SqliteJobWriters): JobQueue {
  // SQLite answers the claim's mark as 0 or 1 (markedClaim).
  const leased = (rows: ClaimedJob[], until: number) =>
    rows.map((r) => ({ ...r, leaseUntil: until, ...(r.markedWhenClaimed !== undefined && { markedWhenClaimed: Boolean(r.markedWhenClaimed) }) }));
  const claim = async (request: Omit<ClaimRequest, 'until'>, leaseMs: number) => {
    const until = request.now + leaseMs;
    return leased(await writes.claims.submit({ ...request, until }), until);
  };
  return {
    claim: (holder, now, leaseMs, limit, marking = []) => claim({ holder, now: now.getTime(), limit, marking: JSON.stringify(marking) }, leaseMs),
    reclaimOwn: (holder, now, leaseMs, limit, before, marking = []) =>
      claim({ holder, now: now.getTime(), limit, ownBefore: before.getTime(), marking: JSON.stringify(marking) }, leaseMs),
    claimPull: (holder, organizationId, now, leaseMs, limit) => claim({ holder, now: now.getTime(), limit, organizationId }, leaseMs),
    claimPlayerPull: (holder, organizationId, voterKey, now, leaseMs, limit) => claim({ holder, now: now.getTime(), limit, organizationId, voterKey }, leaseMs),
    park: (jobId, holder, now) => parkWithPrisma(prisma, jobId, holder, now),
    async renew(job, workerId, now, leaseMs, needMs = 0) {
      if (leaseStillCovers(job, now, needMs)) return true;
      job.leaseUntil = now.getTime() + leaseMs;
      return writes.renewals.submit({ jobId: job.id, holder: workerId, now: now.getTime(), until: job.leaseUntil });
    },
    mark(job, workerId, now, leaseMs) {
      job.leaseUntil = now.getTime() + leaseMs;
      return writes.attempts.submit({ mark: { jobId: job.id, holder: workerId, now: now.getTime(), until: job.leaseUntil } });
    },
    hold: (jobId, holder) => holdWithPrisma(prisma, jobId, holder),
    finish: (job, workerId, now, attempt, resolution, errorText) => writes.attempts.submit({ finish: { job, workerId, now, attempt, resolution, errorText } }),
    requeueFailed: (voteId, now, budget) => requeueFailedWithPrisma(prisma, voteId, now, budget),
    enqueue: insertJobsWithPrisma,
  };
}
