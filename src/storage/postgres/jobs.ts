// The job queue on PostgreSQL: `FOR UPDATE SKIP LOCKED` claims (several instances share the work, none takes a job
// another holds), plain SQL on the pool Prisma uses, and attempt records group-committed (attempts that finish
// meanwhile are recorded in one transaction: jobs, attempts, then their votes). Job rows are inserted by one
// statement (jobInsert): inside a vote batch's write (votes.ts), and in a Prisma transaction for replays and alerts.
import { timeOrderedId } from '../../base/time-ordered-id.js';
import type pg from 'pg';
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
import { CLAIM_COLUMNS, candidates, leasedJobOf, markWhenClaimed, playerPullClaimSql, pullClaimSql } from '../claim-sql.js';
import type { BatchWriter, Db, JobQueue, Renewal, Tx } from '../ports.js';
import { holdWithPrisma, parkWithPrisma, requeueFailedWithPrisma } from '../prisma-jobs.js';
import { inlineParameters, type PgNamedWrite, type Query } from './transaction.js';

/**
 * A claim's jobs in the order it chose them (`order`, columns of DeliveryJob): an UPDATE answers its rows in whatever
 * order its plan reached them. `claim` ends with RETURNING ${CLAIM_COLUMNS}, and `extra` columns after them.
 */
function inClaimOrder(claim: string, order: string[], extra = ''): string {
  const as = order.map((_, i) => `claim_order_${i}`);
  return `WITH claimed AS (${claim}, ${order.map((column, i) => `${column} AS ${as[i]}`).join(', ')})
SELECT ${CLAIM_COLUMNS}${extra} FROM claimed ORDER BY ${as.join(', ')}`;
}

/** The order of the worker's claims (claim-sql.ts `candidates`). */
const WORKER_ORDER = ['"runAt"', '"voteId"', 'priority'];

/**
 * What a worker's claim (or reclaim) answers of job `j`, which it took from `was`: the mark as the job had it before
 * (a send that was leaving), and whether the claim marked it itself (claim-sql.ts markWhenClaimed).
 */
const CLAIMED_AS_IT_WAS = `${CLAIM_COLUMNS.split(', ')
  .map((column) => (column === '"sendingAt"' ? 'was."sendingAt"' : `j.${column}`))
  .join(', ')}, (was."sendingAt" IS NULL AND j."sendingAt" IS NOT NULL) AS "markedWhenClaimed"`;

const CLAIM = inClaimOrder(
  `
WITH pending AS (${candidates('pending', '"runAt" <= $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')}),
retrying AS (${candidates('retrying', '"runAt" <= $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')}),
expired AS (${candidates('running', '"lockedUntil" < $3::timestamp(3)', ' FOR UPDATE SKIP LOCKED')}),
was AS (
  SELECT id, "sendingAt" FROM (SELECT * FROM pending UNION ALL SELECT * FROM retrying UNION ALL SELECT * FROM expired) AS due
  ORDER BY "runAt", "voteId", priority
  LIMIT $4
)
UPDATE "DeliveryJob" AS j SET status = 'running', "lockedBy" = $1, "lockedUntil" = $2::timestamp(3), "updatedAt" = $3::timestamp(3), ${markWhenClaimed('$3::timestamp(3)', '= ANY($5::text[])')}
FROM was WHERE j.id = was.id
RETURNING ${CLAIMED_AS_IT_WAS}`,
  WORKER_ORDER.map((column) => `j.${column}`),
  ', "markedWhenClaimed"',
);

/**
 * What a claim's transaction starts with: each list of candidates read along the claim-order index, stopping at the
 * batch size (claim-sql.ts). Planned on statistics from before a backlog arrived (a callback re-enabled with 5,000
 * held jobs, an outage's recovered votes: the table's statistics still counted a few due jobs), PostgreSQL chose a
 * bitmap scan that reads every due job and sorts them all, on every claim (auto_explain during bench/marks.ts's
 * bursts: 1,820 due jobs read and sorted to take 48).
 */
const ALONG_THE_INDEX = 'SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off';

const PG_TS = (param: string) => `${param}::timestamp(3)`;
const CLAIM_PULL = inClaimOrder(pullClaimSql(PG_TS, ' FOR UPDATE SKIP LOCKED'), ['"runAt"', '"createdAt"']);
const CLAIM_PLAYER_PULL = playerPullClaimSql(PG_TS, ' FOR UPDATE SKIP LOCKED');

// A restarted instance's own leased jobs, whatever their lease's end (ports.ts, reclaimOwn); $6: as CLAIM's $5.
const RECLAIM_OWN = inClaimOrder(
  `
WITH was AS (
  SELECT id, "sendingAt" FROM "DeliveryJob" WHERE status = 'running' AND "lockedBy" = $1 AND "lockedUntil" < $5::timestamp(3) AND kind <> 'pull'
  ORDER BY "runAt", "voteId", priority LIMIT $4
  FOR UPDATE SKIP LOCKED
)
UPDATE "DeliveryJob" AS j SET "lockedUntil" = $2::timestamp(3), "updatedAt" = $3::timestamp(3), ${markWhenClaimed('$3::timestamp(3)', '= ANY($6::text[])')}
FROM was WHERE j.id = was.id
RETURNING ${CLAIMED_AS_IT_WAS}`,
  WORKER_ORDER.map((column) => `j.${column}`),
  ', "markedWhenClaimed"',
);

const RENEW = {
  name: 'vr_job_renew_lease',
  text: `UPDATE "DeliveryJob" SET "lockedUntil" = $1::timestamp(3) WHERE id = $2 AND "lockedBy" = $3 AND status = 'running' AND "lockedUntil" > $4::timestamp(3)`,
};

/**
 * Jobs as one statement (a CTE of a vote batch's single write, or alone): the SQL with parameters from $first, their
 * values, and the jobs leased to their holder (a new vote's, sent at once by its instance). A job whose `uniqueKey`
 * is already queued is not inserted again.
 */
export function jobInsert(first: number, jobs: NewJob[]): { sql: string; values: unknown[]; leased: ClaimedJob[] } {
  const $ = (n: number) => `$${first + n}`;
  const ids = jobs.map((j) => timeOrderedId(j.runAt.getTime()));
  const lease = (j: NewJob) => (j.lease && !j.held ? j.lease : null);
  return {
    sql: `INSERT INTO "DeliveryJob" (id, "organizationId", "voteId", "callbackId", kind, status, priority, attempts, "maxAttempts", "runAt",
            "uniqueKey", "payloadJson", origin, "lockedBy", "lockedUntil", "createdAt", "updatedAt")
          SELECT id, o, v, c, kind, st, pr, 0, ma, r, u, pj, og, lb, lu, r, r
          FROM unnest(${$(0)}::text[], ${$(1)}::text[], ${$(2)}::text[], ${$(3)}::text[], ${$(4)}::text[], ${$(5)}::int[], ${$(6)}::int[],
                      ${$(7)}::timestamp(3)[], ${$(8)}::text[], ${$(9)}::text[], ${$(10)}::text[], ${$(11)}::text[], ${$(12)}::text[], ${$(13)}::timestamp(3)[])
            AS j(id, o, v, c, kind, pr, ma, r, u, pj, og, st, lb, lu)
          ON CONFLICT ("uniqueKey") DO NOTHING`,
    values: [
      ids,
      jobs.map((j) => j.organizationId),
      jobs.map((j) => j.voteId),
      jobs.map((j) => j.callbackId),
      jobs.map((j) => j.kind),
      jobs.map((j) => j.priority),
      jobs.map((j) => j.maxAttempts),
      jobs.map((j) => j.runAt.toISOString()),
      jobs.map((j) => j.uniqueKey ?? null),
      jobs.map((j) => j.payloadJson ?? null),
      jobs.map((j) => j.origin ?? 'vote'),
      jobs.map((j) => (j.held ? 'held' : lease(j) ? 'running' : 'pending')),
      jobs.map((j) => lease(j)?.holder ?? null),
      jobs.map((j) => {
        const l = lease(j);
        return l ? new Date(l.until).toISOString() : null;
      }),
    ],
    // Vote jobs have no uniqueKey: every one is inserted.
    leased: jobs.flatMap((j, i) => (lease(j) && !j.uniqueKey ? [leasedJobOf(ids[i], j)] : [])),
  };
}

/** Inserts jobs in a Prisma transaction (a replay, an alert): the same statement. */
export async function insertJobsWithPrisma(tx: Tx, jobs: NewJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const insert = jobInsert(1, jobs);
  return tx.$executeRawUnsafe(insert.sql, ...insert.values);
}

const FINISH_SQL = {
  // Each job's next state, only where this worker still holds it; its attempt record with it. Rows in id order.
  jobs: {
    name: 'vr_job_finish',
    text: `WITH u AS (
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamp(3)[], $7::timestamp(3)[], $8::timestamp(3)[],
                                  $21::int[], $22::boolean[])
               AS u(id, worker, status, attempts, error, run_at, sent_at, now, paced, keep_error)
             ORDER BY id
           ), updated AS (
             UPDATE "DeliveryJob" AS j SET status = u.status, attempts = u.attempts, "lockedBy" = NULL, "lockedUntil" = NULL, "sendingAt" = NULL,
               "lastError" = CASE WHEN u.keep_error THEN j."lastError" ELSE u.error END, "pacedMs" = u.paced,
               "runAt" = COALESCE(u.run_at, j."runAt"), "sentAt" = COALESCE(u.sent_at, j."sentAt"), "updatedAt" = u.now
             FROM u WHERE j.id = u.id AND j."lockedBy" = u.worker
             RETURNING j.id, j."voteId", j.kind, j.status, j.attempts, j."sentAt", j."callbackId", j."createdAt"
           ), attempts AS (
             INSERT INTO "DeliveryAttempt" (id, "organizationId", "jobId", "voteId", attempt, target, "statusCode", success, "durationMs", error,
               "responseExcerpt", "pacedMs", "createdAt")
             SELECT a.id, a.org, a.job, a.vote, a.attempt, a.target, a.code, a.success, a.duration, a.error, a.excerpt, a.paced, a.at
             FROM unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::int[], $16::boolean[], $17::int[],
                         $18::text[], $19::text[], $20::timestamp(3)[], $23::int[])
               AS a(id, org, job, vote, attempt, target, code, success, duration, error, excerpt, at, paced)
             WHERE a.job IN (SELECT id FROM updated)
           ), touched AS (
             SELECT id, "voteId", kind, status, attempts, "sentAt", "callbackId", "createdAt", true AS finished FROM updated
             UNION ALL
             SELECT id, "voteId", kind, status, attempts, "sentAt", "callbackId", "createdAt", false FROM "DeliveryJob"
             WHERE "voteId" IN (SELECT "voteId" FROM updated) AND id NOT IN (SELECT id FROM updated)
           )
           SELECT id, "voteId", kind, status, attempts, (extract(epoch FROM "sentAt") * 1000)::float8 AS "sentAt", "callbackId",
             (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt", finished
           FROM touched`,
  },
  // A callback's run of failures (callback-health.ts): starts at its first failed attempt, ends at a success.
  callbackHealth: {
    name: 'vr_job_callback_health',
    text: `UPDATE "Callback" AS c SET "failingSince" = CASE WHEN u.ok THEN NULL ELSE u.at END
           FROM (SELECT * FROM unnest($1::text[], $2::boolean[], $3::timestamp(3)[]) AS u(id, ok, at) ORDER BY id) AS u
           WHERE c.id = u.id AND ((u.ok AND c."failingSince" IS NOT NULL) OR (NOT u.ok AND c."failingSince" IS NULL))`,
  },
  // Sent with the COMMIT in one round trip (simple query protocol: its parameters inlined as literals).
  votes: {
    text: `UPDATE "Vote" AS v SET "chatStatus" = u.chat, "chatSentAt" = u.chat_at, "callbackStatus" = u.cb, "callbackSentAt" = u.cb_at,
             "callbackAttempts" = u.attempts
           FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[], $5::timestamp(3)[], $6::int[])
                   AS u(id, chat, chat_at, cb, cb_at, attempts) ORDER BY id) AS u
           WHERE v.id = u.id`,
  },
} as const;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/**
 * PostgreSQL: the attempts finished meanwhile, recorded in one transaction (jobs, attempts, then their votes), in
 * three round trips: BEGIN; the jobs with their attempts, answering every job of their votes; the votes with the COMMIT
 * (a fourth, before it, when a callback's run of failures starts or ends).
 */
async function writeFinishes(query: Query, items: Finish[]): Promise<boolean[]> {
  const attempts = items.filter((f) => f.attempt);
  const rows = items.map(finishedRow);
  const touched = await query<JobForStatus & { id: string; voteId: string | null; sentAt: number | null; finished: boolean }>({
    ...FINISH_SQL.jobs,
    values: [
      items.map((f) => f.job.id),
      items.map((f) => f.workerId),
      rows.map((r) => r.status),
      rows.map((r) => r.attempts),
      items.map((f) => f.errorText),
      rows.map((r) => (r.runAt ? r.runAt.toISOString() : null)),
      items.map((f) => (f.resolution.status === 'sent' ? f.now.toISOString() : null)),
      items.map((f) => f.now.toISOString()),
      attempts.map((f) => timeOrderedId(f.now.getTime())),
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
      rows.map((r) => r.pacedMs),
      rows.map((r) => r.keepError),
      attempts.map((f) => Math.round(f.attempt!.pacedMs ?? 0)),
    ],
  });
  // Not updated: the lease was lost, another worker owns the job now.
  const recorded = new Set(touched.rows.filter((r) => r.finished).map((r) => r.id));
  // Each callback's latest attempt of the batch says whether its run of failures goes on or ends.
  const health = new Map<string, { ok: boolean; at: string }>();
  for (const f of attempts) {
    if (TO_CALLBACKS.has(f.job.kind) && f.job.callbackId && recorded.has(f.job.id) && tellsOfHealth(f.attempt!))
      health.set(f.job.callbackId, { ok: f.attempt!.success, at: f.now.toISOString() });
  }
  if (health.size > 0) {
    const ids = [...health.keys()];
    await query({ ...FINISH_SQL.callbackHealth, values: [ids, ids.map((id) => health.get(id)!.ok), ids.map((id) => health.get(id)!.at)] });
  }
  // Each vote's status from all its jobs: the ones just finished as they are now, the others as they were.
  const byVote = new Map<string, JobForStatus[]>();
  for (const row of touched.rows) {
    if (row.voteId === null) continue;
    byVote.set(row.voteId, [...(byVote.get(row.voteId) ?? []), { ...row, sentAt: row.sentAt === null ? null : new Date(row.sentAt) }]);
  }
  const voteIds = [...byVote.keys()].sort();
  if (voteIds.length === 0) await query({ text: 'COMMIT' });
  else {
    const statuses = voteIds.map((id) => voteStatusFrom(byVote.get(id)!));
    const values = [
      voteIds,
      statuses.map((s) => s.chatStatus),
      statuses.map((s) => iso(s.chatSentAt)),
      statuses.map((s) => s.callbackStatus),
      statuses.map((s) => iso(s.callbackSentAt)),
      statuses.map((s) => s.callbackAttempts),
    ];
    await query({ text: `${inlineParameters(FINISH_SQL.votes.text, values)}; COMMIT` });
  }
  return items.map((f) => recorded.has(f.job.id));
}

/**
 * Marks (README "Delivery guarantees"), group-committed: each job's `sendingAt` set and its lease moved to `until`,
 * only while this worker still holds it; true when it did. PostgreSQL syncs each commit: a mark survives a crash.
 */
async function writeMarks(query: Query, items: Renewal[]): Promise<boolean[]> {
  const marked = await query<{ id: string }>({
    name: 'vr_job_mark',
    text: `UPDATE "DeliveryJob" AS j SET "sendingAt" = u.now, "lockedUntil" = u.until
           FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::timestamp(3)[]) AS u(id, holder, now, until) ORDER BY id) AS u
           WHERE j.id = u.id AND j."lockedBy" = u.holder AND j.status = 'running' AND j."lockedUntil" > u.now
           RETURNING j.id`,
    values: [
      items.map((m) => m.jobId),
      items.map((m) => m.holder),
      items.map((m) => new Date(m.now).toISOString()),
      items.map((m) => new Date(m.until).toISOString()),
    ],
  });
  const done = new Set(marked.rows.map((r) => r.id));
  return items.map((m) => done.has(m.jobId));
}

/**
 * Marks as a named write (index.ts), one statement each batch: on a commit of their own, beside the finishes' (on
 * PostgreSQL a mark waiting behind a batch of finishes, several round trips, cost more than its own commit: 0.86x of
 * the commit before against 0.93x, bench/marks.ts).
 */
export const marksWrite: PgNamedWrite<Renewal, boolean> = { write: writeMarks, oneStatement: true };

/** Attempt records as a named write (writes.ts). Young statistics (the job table starts empty) would otherwise leave prepared statements scanning every job. */
export const finishesWrite: PgNamedWrite<Finish, boolean> = { write: writeFinishes, begin: 'SET LOCAL enable_seqscan = off', commits: true };

export function createPostgresJobQueue(prisma: Db, pool: pg.Pool, finishes: BatchWriter<Finish, boolean>, marks: BatchWriter<Renewal, boolean>): JobQueue {
  const leased = (rows: ClaimedJob[], until: Date) => rows.map((r) => ({ ...r, leaseUntil: until.getTime() }));
  type Run = (sql: string, values: unknown[]) => Promise<ClaimedJob[]>;
  const bound: Run = async (sql, values) => (await pool.query<ClaimedJob>(sql, values)).rows;
  // One round trip, its statements in the simple query protocol (parameters inlined as literals). On an error the
  // pool drops the connection, whose transaction is then aborted.
  const alongTheIndex: Run = async (sql, values) => {
    const results = (await pool.query(`BEGIN; ${ALONG_THE_INDEX}; ${inlineParameters(sql, values)}; COMMIT`)) as unknown as pg.QueryResult<ClaimedJob>[];
    return results.at(-2)!.rows;
  };
  const claimWith =
    (sql: string, run: Run) =>
    async (holder: string, now: Date, leaseMs: number, limit: number, ...more: unknown[]) => {
      const until = new Date(now.getTime() + leaseMs);
      return leased(await run(sql, [holder, until.toISOString(), now.toISOString(), limit, ...more]), until);
    };
  const claimPull = claimWith(CLAIM_PULL, alongTheIndex);
  // A player's claim goes through that voter's votes (a handful of rows), and its voter key is a plugin's input.
  const claimPlayerPull = claimWith(CLAIM_PLAYER_PULL, bound);
  const reclaimOwn = claimWith(RECLAIM_OWN, alongTheIndex);
  const claim = claimWith(CLAIM, alongTheIndex);

  return {
    // Plain SQL on the pool (unnamed or simple protocol, so planned for the queue as it is now, not as it was when a
    // prepared statement was first planned).
    claim: (holder, now, leaseMs, limit, marking = []) => claim(holder, now, leaseMs, limit, marking),
    reclaimOwn: (holder, now, leaseMs, limit, before, marking = []) => reclaimOwn(holder, now, leaseMs, limit, before.toISOString(), marking),
    claimPull: (holder, organizationId, now, leaseMs, limit) => claimPull(holder, now, leaseMs, limit, organizationId),
    claimPlayerPull: (holder, organizationId, voterKey, now, leaseMs, limit) => claimPlayerPull(holder, now, leaseMs, limit, organizationId, voterKey),
    park: (jobId, holder, now) => parkWithPrisma(prisma, jobId, holder, now),
    async renew(job, workerId, now, leaseMs, needMs = 0) {
      if (leaseStillCovers(job, now, needMs)) return true;
      job.leaseUntil = now.getTime() + leaseMs;
      const renewed = await pool.query({ ...RENEW, values: [new Date(now.getTime() + leaseMs).toISOString(), job.id, workerId, now.toISOString()] });
      return renewed.rowCount === 1;
    },
    mark(job, workerId, now, leaseMs) {
      job.leaseUntil = now.getTime() + leaseMs;
      return marks.submit({ jobId: job.id, holder: workerId, now: now.getTime(), until: job.leaseUntil });
    },
    hold: (jobId, holder) => holdWithPrisma(prisma, jobId, holder),
    finish: (job, workerId, now, attempt, resolution, errorText) => finishes.submit({ job, workerId, now, attempt, resolution, errorText }),
    requeueFailed: (voteId, now, budget) => requeueFailedWithPrisma(prisma, voteId, now, budget),
    enqueue: insertJobsWithPrisma,
  };
}
