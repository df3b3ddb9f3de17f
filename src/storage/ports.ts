// What the rest of the service sees of the database: the ports createStorage (index.ts) returns, types only, the same
// whichever database is behind them; each database's folder (sqlite/, postgres/) implements them with its own SQL.
// The one name of a database here is the type of Prisma's client (Db, below).
import type { MessagePort } from 'node:worker_threads';
import type { Callback, Organization, PrismaClient as SqlitePrismaClient, Provider, Vote } from '../generated/sqlite/client.js';
import type { AttemptRecord, ClaimedJob, Finish, JobResolution, NewJob } from '../domain/jobs.js';
import type { HookTarget, NewVote, StoredVote } from '../domain/votes.js';
import type { HookLogItem, HookLogResult } from './hook-log.js';
import type { Pacer } from './pacer.js';

/**
 * Prisma's client. Both databases' clients are generated from one model (prisma/models.prisma) and have the same
 * methods; TypeScript needs one of the two generated types to name it, and this is the SQLite one.
 */
export type Db = SqlitePrismaClient;
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Group commit (group-commit.ts): each item's promise settles after the transaction that wrote it committed. */
export interface BatchWriter<I, O> {
  submit(item: I): Promise<O>;
  /** Refuses new items; queued ones are still written (their callers are awaiting them). */
  close(): void;
}

/** The hook path: its target, read on this thread, and the vote with its jobs and rollups, group-committed. */
export interface VoteStore {
  /** The organization by slug and its provider by key, read together; null when there is no such organization. */
  findTarget(slug: string, providerKey: string): Promise<HookTarget | null>;
  /** Resolves after the vote's commit; with `vote.lease`, `jobs` holds the deliveries leased to that holder. */
  write(vote: NewVote): Promise<StoredVote>;
}

/**
 * The delivery job queue (the transactional outbox votes are written with). Workers send with a lease: a job whose
 * lease ran out (its worker died) is claimed again, so no work is lost; while the lease holds, nobody else sends it.
 */
export interface JobQueue {
  /**
   * Due jobs (pending, retrying, or running with an expired lease), oldest first, leased to `workerId`; each job's
   * `sendingAt` is its mark from before the claim. The claim also marks (README "Delivery guarantees") the jobs of
   * enabled, unpaced callbacks of the kinds in `marking`, whose sends start as soon as they are claimed
   * (`markedWhenClaimed`), in its own statement: a mark of its own would be one more write per send.
   */
  claim(workerId: string, now: Date, leaseMs: number, limit: number, marking?: readonly string[]): Promise<ClaimedJob[]>;
  /**
   * The jobs still leased to `workerId` by an earlier run of it, whatever their lease's end (a restarted instance
   * takes back its own at once), leased again from now, oldest first. "Earlier": leased to end before
   * `leasedBefore` (this run's jobs are leased to end later, and are in its hands already). Marks as claim does.
   */
  reclaimOwn(workerId: string, now: Date, leaseMs: number, limit: number, leasedBefore: Date, marking?: readonly string[]): Promise<ClaimedJob[]>;
  /** A plugin poll: its organization's due pull jobs, each handed to exactly one poller (oldest first). */
  claimPull(holder: string, organizationId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]>;
  /** A plugin's poll for one player (voter key): their waiting pull jobs, parked ones included (oldest vote first). */
  claimPlayerPull(holder: string, organizationId: string, voterKey: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]>;
  /**
   * Parks a job for an offline player (README "Offline players"), whoever holds it: no attempt counted, no back-off,
   * out of ordinary claims until its holder wakes it (a pull job: the player's own poll; an RCON callback's job: the
   * player seen in its server's `list`). False when it was settled already.
   */
  park(jobId: string, holder: string, now: Date): Promise<boolean>;
  /**
   * Extends a claimed job's lease right before it is sent (a vote's callbacks run one after another, so later ones
   * would otherwise start on a lease taken long before). False when the lease is gone: do not send.
   */
  renew(job: ClaimedJob, workerId: string, now: Date, leaseMs: number, needMs?: number): Promise<boolean>;
  /**
   * Marks a claimed job right before an attempt to a target that cannot drop a repeat (README "Delivery guarantees"),
   * group-committed (a crash of the process never undoes it), and extends its lease like renew; the attempt's finish clears the mark. A job claimed
   * with its mark set (`sendingAt`) was leaving when its sender stopped. False when the lease is gone: do not send.
   */
  mark(job: ClaimedJob, workerId: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Hands a job to `holder` whoever leased it (a plugin settling its own pull job), unless it was sent. */
  hold(jobId: string, holder: string): Promise<void>;
  /** Records one attempt and the job's next state, and the vote's statuses; only the lease holder may. */
  finish(job: ClaimedJob, workerId: string, now: Date, attempt: AttemptRecord | null, resolution: JobResolution, errorText: string | null): Promise<boolean>;
  /** Queues a vote's failed jobs again, each with a fresh attempt budget; the history stays. Returns how many. */
  requeueFailed(voteId: string, now: Date, budget: (kind: string) => number): Promise<number>;
  /**
   * Inserts jobs inside a transaction the caller holds (a replay, an alert with its marker). A job whose `uniqueKey`
   * is already queued is not inserted again; returns how many were.
   */
  enqueue(tx: Tx, jobs: NewJob[]): Promise<number>;
}

/** One lease renewal (or mark); true when the holder still had the job and now holds it until `until`. Epoch ms. */
export interface Renewal {
  jobId: string;
  holder: string;
  now: number;
  until: number;
}

/**
 * One write of SQLite's `attempts` batch: the mark before a send to a target that cannot drop a repeat (README
 * "Delivery guarantees": a renewal that also sets `sendingAt`), or an attempt's finish. They share one group commit on
 * the write thread, because a delivery slot's finish is followed at once by its next send's mark: one transaction then
 * carries both, and a mark costs a row update rather than a transaction of its own (bench/marks.ts). PostgreSQL
 * commits marks on their own (postgres/jobs.ts: there a mark waiting behind a batch of finishes cost more).
 */
export type AttemptWrite = { mark: Renewal } | { finish: Finish };

/** A reminder the scheduler took (README "Reminders"): deleted in the transaction that queues its jobs. */
export interface DueReminder {
  organizationId: string;
  providerId: string;
  voterKey: string;
  voterName: string;
  dueAt: Date;
  voteId: string | null;
}

export interface ReminderStore {
  /**
   * Takes up to `limit` reminders due by `now`, earliest first, each by one taker only (several instances may take
   * at once), and inserts the jobs `plan` makes of them in the same transaction: a crash before its commit leaves
   * them due, after it they are queued; never both, never neither. Returns how many were taken and queued.
   */
  takeDue(now: Date, limit: number, plan: (tx: Tx, due: DueReminder[]) => Promise<NewJob[]>): Promise<{ taken: number; queued: number }>;
}

/** A failed callback attempt count per callback (the failing-callbacks panel). */
export interface FailedAttempts {
  callbackId: string;
  failedAttempts: number;
  lastFailedAt: Date;
  lastError: string | null;
}

/** The per-day rollups' consistency with the raw votes (`cli stats verify` / `rebuild`, voter erasure). */
export interface RollupDifference {
  table: 'ProviderDailyCount' | 'VoterDailyCount' | 'VoterDay' | 'VoterStanding';
  key: string;
  expected: number;
  actual: number;
}

export interface Rollups {
  /** Days from `keptFrom` on (the retention horizon: older days have no raw votes to compare with). */
  verify(keptFrom: string, organizationId?: string): Promise<RollupDifference[]>;
  rebuild(keptFrom: string, organizationId?: string): Promise<{ providerDays: number; voterDays: number; voterStandings: number }>;
  /** Inside `tx`: holds off vote writers until it commits (voter erasure takes counts off). */
  lockAgainstVoteWriters(tx: Tx): Promise<void>;
  /**
   * Inside `tx`: holds off the organization's vote batches until it commits, so a change of its local days (a time
   * zone change) or of its vote party is seen by every vote written after it and by none before.
   */
  lockRewards(tx: Tx, organizationId: string): Promise<void>;
  /** Inside `tx`: the organization's voter standings (or those of `voterKeys`) made again from their days (after a provider took votes away, a merge). */
  recountStandings(tx: Tx, organizationId: string, voterKeys?: string[]): Promise<number>;
}

/** Reads whose SQL differs by database. */
export interface Reports {
  failedAttemptsSince(organizationId: string, dueSince: Date, since: Date): Promise<FailedAttempts[]>;
  /**
   * Every vote of the organization in [from, toExclusive) (null: unbounded), oldest first, as batches of CSV fields
   * (voter, provider key, ISO time, chat status, callback status, and `test` when test votes are included), read in
   * keyset chunks over (receivedAt, id): memory stays flat however many rows, and no read transaction is held
   * between chunks.
   */
  exportVotes(organizationId: string, range: { from: Date | null; toExclusive: Date | null }, includeTests: boolean): AsyncGenerator<string[][]>;
  /**
   * A provider's real votes per hour in [from, toExclusive): epoch hour (hours since 1970, UTC) → votes; hours
   * without a vote are absent. Read along the (providerId, receivedAt) index (a site that goes quiet: alerts/).
   */
  hourlyVotes(providerId: string, from: Date, toExclusive: Date): Promise<Map<number, number>>;
}

/** The tables whose rows the delivery worker reads by id, each row as Prisma gives its model. */
export interface RowsById {
  Vote: Vote;
  Provider: Provider;
  Callback: Callback;
  Organization: Organization;
}

/**
 * The reads that give a batch of delivery jobs its context (src/delivery/worker-contexts.ts): plain statements,
 * prepared once per connection, one per table for the whole batch.
 */
export interface ContextReads {
  /** The rows with these ids (any order; an id with no row is left out). */
  byIds<T extends keyof RowsById>(table: T, ids: string[]): Promise<RowsById[T][]>;
  /** The Minecraft UUIDs plugins reported for these voters (README "Voters"). */
  minecraftUuids(voterKeys: string[]): Promise<{ voterId: string; value: string }[]>;
}

export interface Storage {
  prisma: Db;
  contexts: ContextReads;
  votes: VoteStore;
  jobs: JobQueue;
  /** The hook request log's writes (batches the recorder gathered, and retention's deletions). */
  hookLog: BatchWriter<HookLogItem, HookLogResult>;
  rollups: Rollups;
  reports: Reports;
  reminders: ReminderStore;
  /** Slots of paced callbacks (max_per_second), shared by every instance where there can be several. */
  pacer: Pacer;
  /** For the operator: which database, and where (the file, or the server without credentials). */
  describe(): { kind: 'sqlite' | 'postgresql'; location: string };
  /** False once the write thread is gone (nothing more can be written; the health check reports it). */
  alive(): boolean;
  /** A port for another thread (the delivery thread) to write through this storage's write thread; null without one. */
  connect(): MessagePort | null;
  ping(): Promise<void>;
  /** Refuses new writes, writes the queued ones, then closes every connection (and ends the write thread). */
  close(): Promise<void>;
  /** Statements Prisma sent so far (only with `countQueries`; tests bound N+1 with it). */
  queryCount(): number;
}
