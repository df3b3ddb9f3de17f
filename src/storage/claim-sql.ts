// What both databases' claim statements share.
import type { ClaimedJob, NewJob } from '../domain/jobs.js';

export const CLAIM_COLUMNS = `id, kind, "organizationId", "voteId", "callbackId", attempts, "maxAttempts", priority, "payloadJson", "pacedMs", "sendingAt"`;

// Each kind of claimable job is read on its own along ("status", "runAt", "voteId", "priority"), which stops at the
// batch size; one query with an OR over the statuses has to sort every due job first, which under a backlog of
// thousands cost more per claim than the claim itself. Of the three candidate lists, the first $4 in that order
// are taken. (Pull jobs wait for their plugin, not for a worker.)
export const candidates = (status: string, due: string, lock: string) =>
  `SELECT id, "runAt", "voteId", priority, "sendingAt" FROM "DeliveryJob" WHERE status = '${status}' AND ${due} AND kind <> 'pull' ORDER BY "runAt", "voteId", priority LIMIT $4${lock}`;

/**
 * The claim's own mark (README "Delivery guarantees") on job `j`, unless it has one: a callback's job whose kind's send
 * starts as soon as its worker takes it (CallbackKind.marksWhenClaimed: `kindIn` tests `c.kind` against their names),
 * enabled, and not paced (a paced one may wait for its slot). The send then writes no mark of its own. `now`: the
 * claim's time.
 */
export const markWhenClaimed = (now: string, kindIn: string) =>
  `"sendingAt" = CASE WHEN j."sendingAt" IS NULL AND EXISTS (SELECT 1 FROM "Callback" AS c WHERE c.id = j."callbackId"
     AND c.kind ${kindIn} AND c.enabled AND c."maxPerSecond" IS NULL) THEN ${now} ELSE j."sendingAt" END`;

/** A job inserted already leased to its holder (a new vote's, sent at once by the instance that stored it). */
export function leasedJobOf(id: string, job: NewJob): ClaimedJob {
  return {
    id,
    kind: job.kind,
    organizationId: job.organizationId,
    voteId: job.voteId,
    callbackId: job.callbackId,
    attempts: 0,
    maxAttempts: job.maxAttempts,
    priority: job.priority,
    payloadJson: job.payloadJson ?? null,
    pacedMs: 0,
    leaseUntil: job.lease!.until,
  };
}

/**
 * Pull claims (README "Pull delivery" and "Offline players"), the same on both databases but for how a timestamp
 * parameter is written (`ts`) and the row lock (`lock`, PostgreSQL's SKIP LOCKED). Parameters: $1 holder, $2 lease
 * end, $3 now, $4 limit, $5 organization, and for a player's claim $6 the voter key.
 *
 * An ordinary poll takes the organization's due pull jobs, each status read on its own along the
 * (organizationId, kind, status, runAt) index, and never a parked one: not by status, and not once a player's poll
 * holds it (its lease lapsing leaves it for that player's next poll). It clears a stale parking mark.
 */
export const pullClaimSql = (ts: (param: string) => string, lock: string) => {
  const due = (status: string, when: string) =>
    `SELECT id, "runAt", "createdAt" FROM "DeliveryJob" WHERE "organizationId" = $5 AND kind = 'pull' AND status = '${status}' AND ${when}
     ORDER BY "runAt", "createdAt" LIMIT $4${lock}`;
  return `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = ${ts('$2')}, "updatedAt" = ${ts('$3')}, "parkedAt" = NULL, "parkedBy" = NULL
WHERE id IN (
  SELECT id FROM (
    SELECT * FROM (${due('pending', `"runAt" <= ${ts('$3')}`)}) AS p
    UNION ALL SELECT * FROM (${due('retrying', `"runAt" <= ${ts('$3')}`)}) AS r
    UNION ALL SELECT * FROM (${due('running', `"lockedUntil" < ${ts('$3')} AND "parkedAt" IS NULL`)}) AS x
  ) AS due
  ORDER BY "runAt", "createdAt"
  LIMIT $4
)
RETURNING ${CLAIM_COLUMNS}`;
};

/**
 * One player's waiting pull jobs, for a plugin that asks when the player joins: parked ones, pending and retrying
 * ones whatever their back-off, and ones whose lease lapsed; through the voter's votes (Vote's (organizationId,
 * voterKey, receivedAt) index, then each vote's jobs), oldest vote first. A parked job keeps its mark while held.
 */
export const playerPullClaimSql = (ts: (param: string) => string, lock: string) => `
UPDATE "DeliveryJob" SET status = 'running', "lockedBy" = $1, "lockedUntil" = ${ts('$2')}, "updatedAt" = ${ts('$3')}
WHERE id IN (
  SELECT j.id FROM "Vote" AS v JOIN "DeliveryJob" AS j ON j."voteId" = v.id
  WHERE v."organizationId" = $5 AND v."voterKey" = $6 AND j.kind = 'pull'
    AND (j.status IN ('pending', 'retrying', 'parked') OR (j.status = 'running' AND j."lockedUntil" < ${ts('$3')}))
  ORDER BY v."receivedAt", j."createdAt"
  LIMIT $4${lock ? ' FOR UPDATE OF j SKIP LOCKED' : ''}
)
RETURNING ${CLAIM_COLUMNS}`;
