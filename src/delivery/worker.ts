// The delivery worker: sends jobs with bounded concurrency — a vote's callbacks one after another in priority
// order — and records every attempt. A new vote's jobs arrive leased to it, handed over in memory right after their
// commit (dispatch, handoff.ts): no claim. It claims (with a lease) from the database queue what is left: retries
// that come due, jobs of an instance that died (once their lease lapses), and at start its own leased jobs from
// before a restart (reclaimOwn), at once. An attempt to a target that cannot drop a repeat is marked before it
// leaves (JobQueue.mark); a job claimed with its mark set ends `uncertain` instead of being sent again (README
// "Delivery guarantees"), with one line in the log and one admin alert per organization and restart.
import type { AppDeps } from '../app/deps.js';
import { UNCERTAIN_DELIVERY, wasLeaving, type AttemptRecord, type ClaimedJob, type JobResolution } from '../domain/jobs.js';
import type { Organization } from '../generated/sqlite/client.js';
import { createUnknownWebhookMemory, LeaseLost, type JobContext, type SendResult } from './senders.js';
import { TEST_VOTER_PREFIX } from '../domain/voter-identity.js';
import { jobKindOf } from './job-kinds/registry.js';
import { CALLBACK_KINDS, MARKED_WHEN_CLAIMED } from './callback-kinds/registry.js';
import type { JobKindEnv } from './job-kinds/job-kind.js';
import { fixThisAlert, permanentFailureAlert, queueAdminAlert } from './alerts.js';
import { TemplateError } from './template.js';
import { callbackOutcome, chatOutcome, jitter } from './retry-policy.js';
import { disableIfFailingTooLong } from './callback-health.js';
import { createLineBudget } from '../base/logger.js';
import { createMinHeap } from './min-heap.js';

const WAKE_COALESCE_MS = 5;
/**
 * A paced job whose slot is at most this far off waits for it here; a later slot puts the job back in the queue,
 * due at its slot, so a long burst does not keep the worker's concurrency waiting.
 */
const MAX_INLINE_PACING_WAIT_MS = 1_000;
/** An error as the operator's log prints it: a receiver's or platform's words are kept short. */
const MAX_LOGGED_ERROR = 300;
/**
 * Uncertain deliveries taken over from another instance are told about together when this long has passed since the
 * first: that instance marked them within its longest attempt (callback timeouts reach 30 s) before it stopped, so
 * their leases lapse that close together. Those of this instance's own restart are told about as soon as all are back.
 */
const UNCERTAIN_REPORT_WINDOW_MS = 30_000;
/** The uncertain deliveries an alert names one by one; the rest are counted. */
const UNCERTAIN_ALERT_LISTED = 10;

export interface DeliveryWorkerOptions {
  concurrency: number;
  /** How long a claimed job is ours; must exceed the longest attempt (callback timeouts reach 30 s). */
  leaseMs: number;
  pollMs: number;
  /** The lease holder: this process's INSTANCE_ID, stable across restarts (its own leases are taken back at start). */
  workerId: string;
  /**
   * From when (epoch ms) jobs leased to `workerId` are handed to this worker (delivery/handoff.ts): those leased
   * earlier belong to an earlier run and are taken back at start; default: the worker's start.
   */
  handedSince?: number;
}

export interface DeliveryWorker {
  start(): void;
  stop(): Promise<void>;
  /** Claim now (jobs were queued for claiming). */
  wake(): void;
  /** Jobs committed leased to this worker (a new vote's): sent at once, in their vote's priority order. */
  dispatch(jobs: ClaimedJob[]): void;
}

export function createDeliveryWorker(deps: AppDeps, options: DeliveryWorkerOptions): DeliveryWorker {
  const { workerId } = options;
  const env: JobKindEnv = { unknownWebhooks: createUnknownWebhookMemory() };
  const { prisma } = deps.db;
  let inFlight = 0;
  let running = false;
  let claiming = false;
  let again = false;
  /** A claim is due (the poll, a wake-up); without one, only handed-over jobs start. */
  let claimWanted = true;
  /** The last claim filled its capacity: more may be due. */
  let backlog = false;
  let timer: NodeJS.Timeout | null = null;
  const active = new Set<Promise<void>>();
  /** Attempt records not yet committed (stop waits for them). */
  const recordings = new Set<Promise<void>>();
  const track = (recording: Promise<void>) => {
    recordings.add(recording);
    void recording.finally(() => recordings.delete(recording));
  };
  /** Jobs handed over leased (dispatch), waiting for a free slot of the concurrency. */
  const handed: ClaimedJob[] = [];
  /** At start: this worker's jobs still leased from before a restart are taken back first. */
  let ownLeft = true;
  /** The last of them are back: the uncertain ones among them are told about once they are settled. */
  let reportAfterStart = false;
  let handedSince = 0;

  async function load(jobs: ClaimedJob[]): Promise<Map<string, JobContext>> {
    const voteIds = [...new Set(jobs.map((j) => j.voteId).filter((id): id is string => !!id))];
    const callbackIds = [...new Set(jobs.map((j) => j.callbackId).filter((id): id is string => !!id))];
    const orgIds = [...new Set(jobs.map((j) => j.organizationId))];
    const [votes, callbacks, orgs] = await Promise.all([
      voteIds.length ? prisma.vote.findMany({ where: { id: { in: voteIds } }, include: { provider: true } }) : [],
      callbackIds.length ? prisma.callback.findMany({ where: { id: { in: callbackIds } } }) : [],
      prisma.organization.findMany({ where: { id: { in: orgIds } } }),
    ]);
    // The voters' Minecraft UUIDs, where a plugin reported one ({{voter_uuid}}, README "Voters").
    const voterKeys = [...new Set(votes.map((v) => v.voterKey).filter((k) => !k.startsWith(TEST_VOTER_PREFIX)))];
    const uuids = voterKeys.length
      ? await prisma.voterIdentity.findMany({ where: { voterId: { in: voterKeys }, kind: 'minecraft_uuid' }, select: { voterId: true, value: true } })
      : [];
    const uuidOf = new Map(uuids.map((u) => [u.voterId, u.value]));
    for (const vote of votes) (vote as NonNullable<JobContext['vote']>).voterUuid = uuidOf.get(vote.voterKey) ?? null;
    const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
    const [voteMap, callbackMap, orgMap] = [byId(votes), byId(callbacks), byId(orgs)];
    return new Map(
      jobs.map((job) => [
        job.id,
        {
          job,
          org: orgMap.get(job.organizationId)!,
          vote: job.voteId ? (voteMap.get(job.voteId) ?? null) : null,
          callback: job.callbackId ? (callbackMap.get(job.callbackId) ?? null) : null,
        },
      ]),
    );
  }

  async function attempt(ctx: JobContext): Promise<SendResult> {
    const kind = jobKindOf(ctx.job.kind);
    return kind ? kind.send(deps, ctx, env) : { attempt: null, outcome: { kind: 'failed' }, error: `Unknown job kind ${ctx.job.kind}` };
  }

  /** The mark of a kind that marks itself: written once, however often its send asks. */
  function markOnce(ctx: JobContext): () => Promise<void> {
    let marked: Promise<void> | null = null;
    return () =>
      (marked ??= deps.jobs.mark(ctx.job, workerId, deps.clock.now(), options.leaseMs).then((held) => {
        if (!held) throw new LeaseLost();
      }));
  }

  /** Puts the job back without an attempt (held, or waiting for its pacing slot). */
  async function putBack(ctx: JobContext, resolution: JobResolution): Promise<void> {
    if (!(await deps.jobs.finish(ctx.job, workerId, deps.clock.now(), null, resolution, null))) {
      deps.logger.warn({ jobId: ctx.job.id }, 'a delivery was taken over by another worker before it could be put back; it is theirs now');
    }
  }

  /**
   * A paced callback's job takes its slot (src/storage/pacer.ts): sent now, after a short wait here, or put back due at a
   * later slot. Returns the time waited here, or null when the job was put back (with `until`, its slot).
   */
  async function pace(ctx: JobContext): Promise<{ waitedMs: number } | { until: Date }> {
    const rate = ctx.callback?.maxPerSecond;
    // Put back for pacing before: its due time was its slot.
    if (!rate || ctx.job.pacedMs > 0) return { waitedMs: 0 };
    const now = deps.clock.now().getTime();
    const [slot] = await deps.pacer.reserve(ctx.callback!.id, rate, 1, now);
    const wait = Math.max(0, slot - now);
    if (wait === 0) return { waitedMs: 0 };
    if (wait <= MAX_INLINE_PACING_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      return { waitedMs: wait };
    }
    const until = new Date(slot);
    await putBack(ctx, { status: 'paced', runAt: until, pacedMs: wait });
    wakeAt(until);
    return { until };
  }

  /** Sends one job; when a paced job is put back for later, the time it is due (the vote's later callbacks follow). */
  async function run(ctx: JobContext, after?: Date): Promise<Date | undefined> {
    // A vote's callbacks go in priority order: behind one put back for its rate, the rest wait as long.
    if (after) {
      await putBack(ctx, { status: 'paced', runAt: after, pacedMs: ctx.job.pacedMs });
      return after;
    }
    // A callback disabled (by hand, or for failing) keeps its votes and events held until it is enabled again.
    if (ctx.callback && !ctx.callback.enabled) {
      await putBack(ctx, { status: 'held' });
      return undefined;
    }
    const paced = await pace(ctx);
    if ('until' in paced) return paced.until;
    // Another worker may have taken the job over if this one ran late (a long group); then it is theirs to send.
    // The attempt needs its timeout (callbacks up to 30 s, chat 10 s) plus time to be recorded. A target that cannot
    // drop a repeat gets the attempt's mark with the renewal, committed before anything leaves.
    const needMs = (ctx.callback?.timeoutMs ?? 10_000) + 15_000;
    const jobKind = jobKindOf(ctx.job.kind);
    // A job its claim marked (JobQueue.claim) needs no mark of its own.
    const marks = (jobKind?.marksBeforeSending(ctx) ?? true) && !ctx.job.markedWhenClaimed;
    // A kind that marks itself does so from its send (RCON before its first command, Votifier beside its connection).
    const marksLater = marks && (jobKind?.marksItself?.(ctx) ?? false);
    const now0 = deps.clock.now();
    const held =
      marks && !marksLater
        ? await deps.jobs.mark(ctx.job, workerId, now0, options.leaseMs)
        : await deps.jobs.renew(ctx.job, workerId, now0, options.leaseMs, needMs);
    if (!held) {
      deps.logger.warn({ jobId: ctx.job.id }, 'a delivery waited longer than its lease and another worker has taken it over; not sent from here');
      return undefined;
    }
    let result: SendResult;
    try {
      result = await attempt(marksLater ? { ...ctx, sending: markOnce(ctx) } : ctx);
    } catch (err) {
      if (err instanceof LeaseLost) {
        deps.logger.warn({ jobId: ctx.job.id }, 'a delivery waited longer than its lease and another worker has taken it over; not sent from here');
        return undefined;
      }
      result = crashedAttempt(ctx, err);
    }
    if (result.attempt) result.attempt.pacedMs = ctx.job.pacedMs + paced.waitedMs;
    const now = deps.clock.now();
    if (result.outcome.kind === 'parked') {
      await park(ctx, result.outcome.holder, now);
      return undefined;
    }
    const resolution: JobResolution =
      result.outcome.kind === 'retry' ? { status: 'retrying', runAt: new Date(now.getTime() + result.outcome.delayMs) } : { status: result.outcome.kind };
    // Recorded while the worker goes on: the slot is free once the receiver answered, and the record joins the next
    // group commit (a vote's next callback does not wait for it; its order is the order of the attempts).
    const recording = deps.jobs.finish(ctx.job, workerId, now, result.attempt, resolution, result.error).then(async (recorded) => {
      if (!recorded) {
        deps.logger.warn(
          { jobId: ctx.job.id },
          'a delivery took longer than its lease: another worker has taken it over, so the receiver may get it twice (webhook-id tells the copies apart)',
        );
        return;
      }
      logTrouble(ctx, result, resolution);
      if (result.attempt) deps.metrics.deliveryAttempt(ctx.job.kind, resolution.status);
      if (resolution.status === 'sent' || resolution.status === 'failed' || resolution.status === 'skipped' || resolution.status === 'uncertain')
        deps.metrics.jobFinished(ctx.job.kind, resolution.status);
      const alerts = jobKindOf(ctx.job.kind)?.alertsWhenFailed;
      if (resolution.status === 'failed' && (typeof alerts === 'function' ? alerts(ctx) : alerts)) {
        await raisePermanentFailure(ctx, result);
      }
      if (ctx.callback && result.attempt && !result.attempt.success && !result.attempt.voteRefused) {
        await disableIfFailingTooLong(deps, ctx.callback, ctx.org, now);
      }
    });
    track(
      recording.catch((err: unknown) =>
        deps.logger.error(
          { err, jobId: ctx.job.id },
          'could not record a delivery attempt in the database; the job is sent again when its lease ends (the receiver may get it twice)',
        ),
      ),
    );
    return undefined;
  }

  // Uncertain deliveries found since the last report, per organization (README "Delivery guarantees").
  const uncertainFound = new Map<string, { org: Organization; lines: string[]; count: number }>();
  let uncertainSince: number | null = null;
  let uncertainTimer: NodeJS.Timeout | null = null;

  /**
   * A job claimed with its mark set: its attempt was leaving when its sender stopped, to a target that cannot drop a
   * repeat. It is not sent again: recorded as an attempt whose outcome nobody knows, and the job ends `uncertain`.
   */
  async function settleUncertain(ctx: JobContext): Promise<void> {
    const { job } = ctx;
    const kind = jobKindOf(job.kind);
    const attempt: AttemptRecord = {
      attempt: job.attempts + 1,
      target: kind?.target(ctx, deps) ?? '',
      statusCode: null,
      success: false,
      durationMs: 0,
      error: UNCERTAIN_DELIVERY,
      responseExcerpt: null,
      uncertain: true,
    };
    if (!(await deps.jobs.finish(job, workerId, deps.clock.now(), attempt, { status: 'uncertain' }, UNCERTAIN_DELIVERY))) return;
    deps.metrics.deliveryAttempt(job.kind, 'uncertain');
    deps.metrics.jobFinished(job.kind, 'uncertain');
    const found = uncertainFound.get(ctx.org.id) ?? { org: ctx.org, lines: [], count: 0 };
    found.count++;
    const what = kind?.describe(ctx) ?? job.kind;
    if (found.lines.length < UNCERTAIN_ALERT_LISTED)
      found.lines.push(ctx.vote ? `${ctx.vote.publicId}: ${ctx.vote.voterName} from ${ctx.vote.provider.name}, ${what}` : what);
    uncertainFound.set(ctx.org.id, found);
    if (uncertainSince === null) {
      uncertainSince = deps.clock.now().getTime();
      uncertainTimer = setTimeout(() => void reportUncertain(), UNCERTAIN_REPORT_WINDOW_MS);
      uncertainTimer.unref();
    }
  }

  /** One warning line and one admin alert per organization for the uncertain deliveries found since the last report. */
  async function reportUncertain(): Promise<void> {
    if (uncertainTimer) clearTimeout(uncertainTimer);
    uncertainTimer = null;
    const since = uncertainSince;
    uncertainSince = null;
    const found = [...uncertainFound.values()];
    uncertainFound.clear();
    if (since === null) return;
    const now = deps.clock.now();
    await Promise.all(
      found.map(async ({ org, lines, count }) => {
        const deliveries = `${count.toLocaleString('en-US')} ${count === 1 ? 'delivery' : 'deliveries'}`;
        deps.logger.warn(
          { organization: org.slug, uncertain: count },
          `${deliveries} of ${org.slug} to targets that cannot drop a repeat (Votifier, RCON, chat, DMs) ${count === 1 ? 'was' : 'were'} being sent when the relay stopped: marked uncertain and not sent again (the server may or may not have ${count === 1 ? 'it' : 'them'}); GET /v1/votes?callback_status=uncertain lists the votes, POST /v1/votes/:id/redeliver resends one on purpose`,
        );
        const more = count > lines.length ? `\n… and ${(count - lines.length).toLocaleString('en-US')} more` : '';
        await queueAdminAlert(
          deps,
          org,
          `uncertain:${org.id}:${workerId}:${since}`,
          fixThisAlert({
            title: `${deliveries} left uncertain by a restart`,
            description:
              `The relay stopped while sending ${deliveries} to targets that cannot drop a repeat (Votifier, RCON commands, chat, DMs). ` +
              'They were not sent again, so nobody is rewarded twice, but the server may or may not have them. Check (the server log, or ask the player), ' +
              "then resend each one that did not arrive: the dashboard's Votes page (status: uncertain) has a Resend button, or POST /v1/votes/:id/redeliver.",
            fields: [{ name: 'Uncertain', value: `${lines.join('\n')}${more}` }],
          }),
          now,
        );
      }),
    );
    wake();
  }

  /** Kept for an offline player, with no attempt counted, until what holds it finds the player online. */
  async function park(ctx: JobContext, holder: string, now: Date): Promise<void> {
    if (await deps.jobs.park(ctx.job.id, holder, now)) {
      deps.logger.info(
        { jobId: ctx.job.id, voteId: ctx.vote?.publicId },
        `${jobKindOf(ctx.job.kind)?.describe(ctx) ?? ctx.job.kind}: the player is offline; parked until they are seen online`,
      );
    }
  }

  /**
   * An attempt that threw is still an attempt: recorded, counted against the schedule like a network error, and
   * failed at once when it is the stored template that cannot be rendered. Never a retry that counts nothing.
   */
  function crashedAttempt(ctx: JobContext, err: unknown): SendResult {
    const template = err instanceof TemplateError;
    if (!template)
      deps.logger.error(
        { err, jobId: ctx.job.id },
        'a delivery attempt failed inside this service (a bug: please report it); it counts as a failed attempt and is retried',
      );
    const error = template ? (err as Error).message : 'Internal error while sending';
    const attemptNumber = ctx.job.attempts + 1;
    const kind = jobKindOf(ctx.job.kind);
    const target = kind?.target(ctx, deps) ?? '';
    const retryable = { status: null, retryAfterMs: null };
    const outcome = template
      ? ({ kind: 'failed' } as const)
      : kind?.retries === 'chat'
        ? chatOutcome(retryable, attemptNumber, ctx.job.maxAttempts, jitter(deps.config.retryJitter))
        : callbackOutcome(retryable, attemptNumber, deps.config.retryScheduleMs, jitter(deps.config.retryJitter));
    return { attempt: { attempt: attemptNumber, target, statusCode: null, success: false, durationMs: 0, error, responseExcerpt: null }, outcome, error };
  }

  async function raisePermanentFailure(ctx: JobContext, result: SendResult) {
    const { org, vote } = ctx;
    if (!vote) return; // queueAdminAlert checks the organization's alert settings and plan
    const body = permanentFailureAlert({
      callbackName: ctx.callback?.name ?? 'server_callback_url',
      target: ctx.callback?.url ?? org.serverCallbackUrl ?? '',
      vote,
      attempts: result.attempt?.attempt ?? ctx.job.attempts,
      error: result.error,
    });
    // One alert per failed job, whichever instance gets here (unique key).
    if (await queueAdminAlert(deps, org, `permanent_failure:${ctx.job.id}:${ctx.job.attempts}`, body, deps.clock.now())) wake();
  }

  // A receiver that is down fails every delivery sent to it: one line per callback (or chat, or alerts) and kind of
  // line every 10 s, with the count of those left out.
  const troubleLines = createLineBudget<{ failedForGood: boolean; what: string; fields: Record<string, unknown> }>();

  /**
   * The operator's log (README "Logs"): a delivery's first failed attempt, and its end when it fails for good. The
   * target is named by its host alone: never its path or query (a Discord token, a secret parameter) or a header.
   */
  function logTrouble(ctx: JobContext, result: SendResult, resolution: JobResolution) {
    if (resolution.status === 'uncertain') return logUnanswered(ctx, result);
    const failedForGood = resolution.status === 'failed';
    const firstFailure = resolution.status === 'retrying' && result.attempt?.attempt === 1 && !result.attempt.success;
    if (!failedForGood && !firstFailure) return;
    const { job, callback, org, vote } = ctx;
    const { what, target, forVote, fields: about } = describeDelivery(ctx, result);
    // Per target and kind of delivery: a callback's votes and its milestones are counted apart.
    const line = troubleLines.take(`${failedForGood ? 'failed' : 'first'}:${callback?.id ?? org.id}:${what}`, {
      failedForGood,
      what: `${what} to ${target}`,
      fields: { organization: org.slug, jobKind: job.kind, ...(callback ? { callback: callback.name, callbackId: callback.id } : {}), target },
    });
    if (!line) return;
    const attempts = result.attempt?.attempt ?? job.attempts;
    const status = result.attempt?.statusCode ?? null;
    const error = (result.error ?? (status ? `HTTP ${status}` : 'failed')).replace(/\s+/g, ' ').slice(0, MAX_LOGGED_ERROR);
    const more = line.skipped > 0 ? ` (and ${line.skipped.toLocaleString('en-US')} more like it in the last ${line.seconds} s)` : '';
    const fields = {
      ...about,
      attempt: attempts,
      maxAttempts: job.maxAttempts,
      status,
      error,
      ...(line.skipped > 0 ? { alsoLeftOut: line.skipped } : {}),
    };
    if (failedForGood) {
      const again = vote && job.kind !== 'alert' ? `; POST /v1/votes/${vote.publicId}/redeliver sends it again` : '';
      deps.logger.error(
        fields,
        `${what} to ${target} failed for good${forVote} after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error}; no more retries${again}${more}`,
      );
    } else {
      const at = resolution.status === 'retrying' ? resolution.runAt.toISOString() : '';
      deps.logger.warn(
        { ...fields, retryAt: at },
        `${what} to ${target} failed${forVote}: ${error}; retrying at ${at} (attempt 1 of ${job.maxAttempts})${more}`,
      );
    }
  }

  /** How the operator's log names a delivery and its target (its host only), and the fields every such line carries. */
  function describeDelivery(ctx: JobContext, result: SendResult) {
    const { job, callback, org, vote } = ctx;
    const kind = jobKindOf(job.kind);
    const target = hostOf(result.attempt?.target ?? kind?.target(ctx, deps) ?? '');
    return {
      what: kind?.describe(ctx) ?? `${job.kind} delivery`,
      target,
      forVote: vote ? ` for vote ${vote.publicId} (${vote.voterName} from ${vote.provider.key})` : '',
      fields: {
        organization: org.slug,
        jobId: job.id,
        jobKind: job.kind,
        ...(callback ? { callback: callback.name, callbackId: callback.id, callbackKind: callback.kind } : {}),
        target,
        ...(vote ? { voteId: vote.publicId, provider: vote.provider.key } : {}),
      },
    };
  }

  /** A send to a target that cannot drop a repeat that no answer settled: one warning each (README "Delivery guarantees"). */
  function logUnanswered(ctx: JobContext, result: SendResult) {
    const { vote } = ctx;
    const { what, target, forVote, fields } = describeDelivery(ctx, result);
    const error = (result.error ?? '').replace(/\s+/g, ' ').slice(0, MAX_LOGGED_ERROR);
    const again = vote ? `; POST /v1/votes/${vote.publicId}/redeliver sends it again on purpose` : '';
    deps.logger.warn(
      { ...fields, error },
      `${what} to ${target}${forVote} was sent and not answered (${error}): marked uncertain and not sent again, so nobody is rewarded twice${again}`,
    );
  }

  /** The counts of failure lines left out, once their 10 s are over (and at shutdown). */
  function reportLeftOut(all = false) {
    for (const { about, skipped, seconds } of troubleLines.drain(all)) {
      const fields = { ...about.fields, leftOut: skipped, seconds };
      const more = `… and ${skipped.toLocaleString('en-US')} more ${skipped === 1 ? 'delivery' : 'deliveries'} of ${about.what}`;
      if (about.failedForGood) deps.logger.error(fields, `${more} failed for good in the last ${seconds} s`);
      else deps.logger.warn(fields, `${more} failed their first attempt in the last ${seconds} s (each is retried)`);
    }
  }

  /** A vote's callbacks go one after another in priority order; everything else runs side by side. */
  function groups(jobs: ClaimedJob[]): ClaimedJob[][] {
    const byVote = new Map<string, ClaimedJob[]>();
    const singles: ClaimedJob[][] = [];
    for (const job of jobs) {
      if (jobKindOf(job.kind)?.inVoteOrder) {
        const key = job.voteId ?? job.id;
        byVote.set(key, [...(byVote.get(key) ?? []), job]);
      } else singles.push([job]);
    }
    return [...singles, ...[...byVote.values()].map((g) => g.sort((a, b) => a.priority - b.priority))];
  }

  /**
   * Up to `capacity` handed-over jobs, whole votes only (a vote's callbacks go one after another, so its jobs are
   * never split across two starts). Jobs of one vote arrive together, so they are next to each other.
   */
  function takeHanded(capacity: number): ClaimedJob[] {
    let n = Math.min(capacity, handed.length);
    while (n < handed.length && n > 0 && handed[n].voteId !== null && handed[n].voteId === handed[n - 1].voteId) n++;
    return handed.splice(0, n);
  }

  /** Starts the jobs' groups; each finished group lets the next waiting jobs start. */
  async function start(claimed: ClaimedJob[]): Promise<void> {
    const contexts = await load(claimed);
    // Those with a mark end uncertain here, before the rest start: nothing of them is sent.
    const leaving = claimed.filter(wasLeaving);
    await Promise.all(leaving.map((job) => settleUncertain(contexts.get(job.id)!)));
    const jobs = leaving.length > 0 ? claimed.filter((job) => !wasLeaving(job)) : claimed;
    for (const group of groups(jobs)) {
      inFlight += group.length;
      const task = (async () => {
        let after: Date | undefined;
        for (const job of group) {
          try {
            after = await run(contexts.get(job.id)!, after);
          } catch (err) {
            deps.logger.error(
              { err, jobId: job.id },
              'could not record a delivery attempt in the database; the job is sent again when its lease ends (the receiver may get it twice)',
            );
          } finally {
            inFlight--;
          }
        }
      })();
      active.add(task);
      task.finally(() => {
        active.delete(task);
        // Room again: jobs handed over meanwhile, or a backlog the last claim could not take in full.
        if (running && (handed.length > 0 || backlog)) kick();
      });
    }
  }

  async function claimAndRun(): Promise<void> {
    if (!running) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        const capacity = options.concurrency - inFlight;
        if (capacity <= 0) break;
        let jobs = takeHanded(capacity);
        if (jobs.length === 0) {
          if (!claimWanted && !backlog) break;
          claimWanted = false;
          const now = deps.clock.now();
          jobs = ownLeft
            ? await deps.jobs.reclaimOwn(workerId, now, options.leaseMs, capacity, new Date(handedSince + options.leaseMs), MARKED_WHEN_CLAIMED)
            : await deps.jobs.claim(workerId, now, options.leaseMs, capacity, MARKED_WHEN_CLAIMED);
          backlog = jobs.length === capacity;
          if (ownLeft && !backlog) {
            // Our own leases from before a restart are all back: the due jobs next, and the ones found uncertain told
            // about now (once this batch is settled).
            reportAfterStart = uncertainSince !== null || jobs.some(wasLeaving);
            ownLeft = false;
            claimWanted = true;
            again = true;
          }
        }
        if (jobs.length > 0) {
          try {
            await start(jobs);
          } catch (err) {
            // Leased to us and not started (their vote or callback could not be read): tried again at the next
            // wake-up or poll, not left to their lease's end.
            handed.unshift(...jobs);
            throw err;
          }
        }
        if (reportAfterStart) {
          reportAfterStart = false;
          void reportUncertain();
        }
        if (handed.length > 0 || backlog) again = true;
      } while (again && running);
    } catch (err) {
      claimWanted = true;
      deps.logger.error({ err }, `could not read the delivery queue from the database; trying again within ${options.pollMs} ms (nothing is lost)`);
    } finally {
      claiming = false;
    }
  }

  // Jobs put back for their pacing slot are claimed when their slot comes (not at the next poll): the slots still
  // ahead in a min-heap (a replay may put back tens of thousands), and a timer for the earliest.
  const slotsAhead = createMinHeap();
  let slotTimer: NodeJS.Timeout | null = null;
  function wakeAt(at: Date) {
    if (!running) return;
    slotsAhead.push(at.getTime());
    armSlotTimer();
  }
  function armSlotTimer() {
    if (slotTimer) clearTimeout(slotTimer);
    slotTimer = null;
    const now = deps.clock.now().getTime();
    while (slotsAhead.size() > 0 && slotsAhead.peek()! <= now) slotsAhead.pop();
    if (slotsAhead.size() === 0 || !running) return;
    slotTimer = setTimeout(
      () => {
        wake();
        armSlotTimer();
      },
      slotsAhead.peek()! - now + 1,
    );
    slotTimer.unref();
  }

  // Wake-ups (each new vote, each finished job) are coalesced: one claim per WAKE_COALESCE_MS takes them all,
  // instead of a claim (and its loads) per event.
  let wakeTimer: NodeJS.Timeout | null = null;
  function wake() {
    claimWanted = true;
    if (!running || wakeTimer) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      void claimAndRun();
    }, WAKE_COALESCE_MS);
  }

  // Handed-over jobs start in the same event-loop turn's end: every vote committed by one batch starts together
  // (one load of their contexts).
  let kicked = false;
  function kick() {
    if (!running || kicked) return;
    kicked = true;
    setImmediate(() => {
      kicked = false;
      void claimAndRun();
    });
  }

  // The callback kinds' own background work (callback-kind.ts: background), while this worker runs.
  let kindWork: { stop(): Promise<void> }[] = [];

  return {
    start() {
      if (running) return;
      running = true;
      kindWork = CALLBACK_KINDS.flatMap((kind) => (kind.background ? [kind.background(deps, wake)] : []));
      handedSince = options.handedSince ?? deps.clock.now().getTime();
      timer = setInterval(() => {
        wake();
        reportLeftOut();
      }, options.pollMs);
      timer.unref();
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      if (slotTimer) clearTimeout(slotTimer);
      await Promise.allSettled([...active]);
      await Promise.allSettled([...recordings]);
      await reportUncertain().catch(() => {});
      // After the sends under way: an RCON connection is closed once nothing runs on it.
      await Promise.allSettled(kindWork.map((work) => work.stop()));
      kindWork = [];
      reportLeftOut(true);
    },
    wake,
    dispatch(jobs) {
      if (!running) return; // leased: sent when the lease lapses, or by this instance after its restart
      handed.push(...jobs);
      kick();
    },
  };
}

/** A target's host (and port) only, for the log: "hooks.example.com", "mc.example.com:8192". */
function hostOf(url: string): string {
  try {
    return new URL(url).host || '(no host)';
  } catch {
    return '(no target)';
  }
}
