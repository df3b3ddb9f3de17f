// What both databases' claim statements share.
import type { ClaimedJob, NewJob } from '../domain/jobs.js';

export const CLAIM_COLUMNS = `id, kind, "organizationId", "voteId", "callbackId", attempts, "maxAttempts", priority, "payloadJson", "pacedMs"`;

// Each kind of claimable job is read on its own along ("status", "runAt", "voteId", "priority"), which stops at the
// batch size; one query with an OR over the statuses has to sort every due job first, which under a backlog of
// thousands cost more per claim than the claim itself. Of the three candidate lists, the first $4 in that order
// are taken. (Pull jobs wait for their plugin, not for a worker.)
export const candidates = (status: string, due: string, lock: string) =>
  `SELECT id, "runAt", "voteId", priority FROM "DeliveryJob" WHERE status = '${status}' AND ${due} AND kind <> 'pull' ORDER BY "runAt", "voteId", priority LIMIT $4${lock}`;

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
