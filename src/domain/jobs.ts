// What a delivery job is, as the queue (src/storage/, the transactional outbox ingest writes into) and the worker
// (src/delivery/worker.ts) both see it: the rows, an attempt's record, a job's next state, and the vote's statuses
// derived from its jobs. Rules only: no database here.

/**
 * Every kind of delivery job, by name: the one list (GraphQL's DeliveryJobKind, the worker's registry of kinds in
 * src/delivery/job-kinds/registry.ts, which must implement each but `pull`, and the queries by kind all read it).
 * chat: the chat notification; callback: a callback; legacy_callback: server_callback_url; pull: a plugin poll; alert:
 * an admin alert; event: an event the vote set off (milestone, vote_party, reminder); post: a chat post (the
 * leaderboard posts).
 */
export const JOB_KINDS = ['chat', 'callback', 'legacy_callback', 'pull', 'alert', 'event', 'post'] as const;
export type JobKindName = (typeof JOB_KINDS)[number];
/** Jobs that plugins take (src/modules/plugin/): the worker never sends them. */
export const PULLED_KINDS = ['pull'] as const satisfies readonly JobKindName[];

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
  /**
   * Time already waited for its callback's rate since the last attempt; above 0 the job was put back for pacing
   * and its due time is the slot it was given (src/storage/pacer.ts).
   */
  pacedMs: number;
  /** When this worker's lease on the job ends (set at claim, moved by renew). */
  leaseUntil?: number;
  /**
   * The mark of an attempt that was leaving when its sender stopped (README "Delivery guarantees"), as the claim read
   * it (epoch ms on SQLite, a Date on PostgreSQL); null or absent: no attempt was under way.
   */
  sendingAt?: number | Date | string | null;
  /** The claim wrote this attempt's mark itself (JobQueue.claim): the send needs no mark of its own. */
  markedWhenClaimed?: boolean;
}

/** A job to insert: a vote's deliveries (in the vote's own transaction) or an alert. */
export interface NewJob {
  organizationId: string;
  voteId: string | null;
  callbackId: string | null;
  kind: string;
  priority: number;
  maxAttempts: number;
  runAt: Date;
  uniqueKey?: string | null;
  payloadJson?: string | null;
  /** vote (default), recovered, or replay (the delivery log shows it). */
  origin?: string;
  /** Inserted held (its callback is disabled for failing) instead of pending. */
  held?: boolean;
  /** Inserted already leased to `holder` until `until` (epoch ms): a new vote's, sent at once by its instance. */
  lease?: JobLease;
}

/** Who sends a job, and until when nobody else may (epoch ms). */
export interface JobLease {
  holder: string;
  until: number;
}

/** Whether a new vote's job of this kind is handed to the worker at once (pull jobs wait for their plugin). */
export const sentAtOnce = (kind: string): boolean => !(PULLED_KINDS as readonly string[]).includes(kind);

export interface AttemptRecord {
  attempt: number;
  target: string;
  statusCode: number | null;
  success: boolean;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** How long this attempt waited for its callback's rate (max_per_second). */
  pacedMs?: number;
  /**
   * Refused because of this vote alone (a Votifier name over 16 characters): it says nothing of the receiver's
   * health, so it neither starts nor continues the callback's run of failures (callback-health.ts).
   */
  voteRefused?: boolean;
  /** The relay stopped while this attempt was leaving (README "Delivery guarantees"): it says nothing of the target. */
  uncertain?: boolean;
}

/** Whether an attempt tells of its callback's health (callback-health.ts): not a refusal of one vote, not an unknown. */
export const tellsOfHealth = (a: AttemptRecord): boolean => !a.voteRefused && !a.uncertain;

/** What an `uncertain` delivery says, in the delivery log, the vote's jobs and the operator's log. */
export const UNCERTAIN_DELIVERY = 'the relay stopped while sending: the server may or may not have it';

/** Whether a claimed job carries the mark of an attempt that was leaving when its sender stopped. */
export const wasLeaving = (job: ClaimedJob): boolean => job.sendingAt !== undefined && job.sendingAt !== null;

export type JobResolution =
  | { status: 'sent' }
  | { status: 'retrying'; runAt: Date }
  | { status: 'failed' }
  | { status: 'skipped' }
  /**
   * Put back without an attempt to wait for its callback's rate: due again at runAt (its slot), with `pacedMs` waited
   * in all; pending again (retrying when it has had attempts), its last error kept.
   */
  | { status: 'paced'; runAt: Date; pacedMs: number }
  /** Put back without an attempt: its callback is disabled (callback-health.ts); its last error kept. */
  | { status: 'held' }
  /**
   * Found marked and unfinished (README "Delivery guarantees"): its target cannot drop a repeat, so it is not sent
   * again; final until an owner redelivers it on purpose.
   */
  | { status: 'uncertain' };

/** The row a finish writes: its status, due time, pacing wait, and whether the last error stays. */
export function finishedRow(f: Finish): { status: string; runAt: Date | null; pacedMs: number; keepError: boolean; attempts: number } {
  const r = f.resolution;
  const attempts = f.attempt ? f.attempt.attempt : f.job.attempts;
  if (r.status === 'paced') return { status: f.job.attempts > 0 ? 'retrying' : 'pending', runAt: r.runAt, pacedMs: r.pacedMs, keepError: true, attempts };
  // Held: a slot given before is forgotten (the job takes a new one when it resumes), the wait so far too.
  if (r.status === 'held') return { status: 'held', runAt: null, pacedMs: 0, keepError: true, attempts };
  // An attempt moves the wait into its own record; a skip keeps it (nothing was sent).
  return { status: r.status, runAt: r.status === 'retrying' ? r.runAt : null, pacedMs: f.attempt ? 0 : f.job.pacedMs, keepError: false, attempts };
}

/** One finished attempt as the implementations record it (JobQueue.finish's arguments). */
export interface Finish {
  job: ClaimedJob;
  workerId: string;
  now: Date;
  attempt: AttemptRecord | null;
  resolution: JobResolution;
  errorText: string | null;
}

// held: its callback is disabled; it resumes when the callback is enabled again. Final: sent, failed, skipped, and
// uncertain (the relay stopped while sending to a target that cannot drop a repeat; README "Delivery guarantees").
/** Job statuses still to be sent: waiting, being sent, held for a disabled callback, or parked for an offline player. */
export const OPEN_JOB_STATUSES = ['pending', 'retrying', 'running', 'held', 'parked'] as const;
const IN_FLIGHT = new Set<string>(OPEN_JOB_STATUSES);

/** A job as the vote's statuses read it. */
export interface JobForStatus {
  kind: string;
  status: string;
  attempts: number;
  sentAt: Date | null;
  callbackId?: string | null;
  createdAt?: Date | number | null;
}

/**
 * The job kinds a callback sends: its votes and its events (README "Rewards"). Both count for the callback's health
 * (callback-health.ts) and its failing panel.
 */
export const TO_CALLBACKS: ReadonlySet<string> = new Set<JobKindName>(['callback', 'event']);

/**
 * The jobs that carry a vote to a game server: what a vote's callback_status and callback_attempts are about (events
 * beyond the vote are not), and a line each on the vote page's receipt.
 */
export const TO_GAME_SERVERS: ReadonlySet<string> = new Set<JobKindName>(['callback', 'legacy_callback', 'pull']);

/** A replay queues a new job for a vote and callback: the latest job of each callback is the one that counts. */
function latestPerCallback(jobs: JobForStatus[]): JobForStatus[] {
  const latest = new Map<string, JobForStatus>();
  const rest: JobForStatus[] = [];
  for (const job of jobs) {
    if (!job.callbackId) {
      rest.push(job);
      continue;
    }
    const seen = latest.get(job.callbackId);
    if (!seen || Number(job.createdAt ?? 0) >= Number(seen.createdAt ?? 0)) latest.set(job.callbackId, job);
  }
  return [...rest, ...latest.values()];
}

/**
 * The vote's chat_status / callback_status / callback_attempts / *_sent_at from its jobs (the README's Connect a
 * game server): `uncertain` when any is (it asks the owner to look before a resend, and a resend takes the failed
 * ones along), else `failed` when any failed for good, `retrying`/`pending` while any is in flight, `sent` when all
 * sent, `skipped` when there was none to send.
 */
export function voteStatusFrom(all: JobForStatus[]) {
  // A vote's own deliveries: an event it set off (a milestone to the same callback) is a delivery of its own.
  const jobs = latestPerCallback(all.filter((j) => j.kind === 'chat' || TO_GAME_SERVERS.has(j.kind)));
  const chat = jobs.filter((j) => j.kind === 'chat');
  const callbacks = jobs.filter((j) => TO_GAME_SERVERS.has(j.kind));
  const aggregate = (list: typeof jobs): string => {
    if (list.length === 0) return 'skipped';
    if (list.some((j) => j.status === 'uncertain')) return 'uncertain';
    if (list.some((j) => j.status === 'failed')) return 'failed';
    if (list.some((j) => IN_FLIGHT.has(j.status))) return list.some((j) => j.attempts > 0 && IN_FLIGHT.has(j.status)) ? 'retrying' : 'pending';
    if (list.every((j) => j.status === 'skipped')) return 'skipped';
    return 'sent';
  };
  const lastSent = (list: typeof jobs) => list.reduce<Date | null>((latest, j) => (j.sentAt && (!latest || j.sentAt > latest) ? j.sentAt : latest), null);
  return {
    chatStatus: aggregate(chat),
    chatSentAt: lastSent(chat),
    callbackStatus: aggregate(callbacks),
    callbackSentAt: lastSent(callbacks),
    callbackAttempts: all.filter((j) => TO_GAME_SERVERS.has(j.kind)).reduce((sum, j) => sum + j.attempts, 0),
  };
}

/** Most attempts start well inside their lease: a renewal writes only when the lease could run out first. */
export function leaseStillCovers(job: ClaimedJob, now: Date, needMs: number): boolean {
  return job.leaseUntil !== undefined && job.leaseUntil - now.getTime() > needMs;
}
