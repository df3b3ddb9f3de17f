// What both databases' claim statements share.

export const CLAIM_COLUMNS = `id, kind, "organizationId", "voteId", "callbackId", attempts, "maxAttempts", priority, "payloadJson", "pacedMs"`;

// Each kind of claimable job is read on its own along ("status", "runAt", "voteId", "priority"), which stops at the
// batch size; one query with an OR over the statuses has to sort every due job first, which under a backlog of
// thousands cost more per claim than the claim itself. Of the three candidate lists, the first $4 in that order
// are taken. (Pull jobs wait for their plugin, not for a worker.)
export const candidates = (status: string, due: string, lock: string) =>
  `SELECT id, "runAt", "voteId", priority FROM "DeliveryJob" WHERE status = '${status}' AND ${due} AND kind <> 'pull' ORDER BY "runAt", "voteId", priority LIMIT $4${lock}`;
