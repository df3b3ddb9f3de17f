// The delivery worker's step for one job (after its context is loaded): held or paced jobs put back, the lease
// renewed or the attempt marked (README "Delivery guarantees"), one attempt sent by its kind, and its record joined to
// the next group commit, with what follows a record: the operator's log, metrics, the permanent-failure alert, and a
// callback disabled for failing too long.
import type { AppDeps } from '../app/deps.js';
import type { JobResolution } from '../domain/jobs.js';
import { LeaseLost, createUnknownWebhookMemory, type JobContext, type SendResult } from './senders.js';
import { jobKindOf } from './job-kinds/registry.js';
import type { JobKindEnv } from './job-kinds/job-kind.js';
import { permanentFailureAlert, queueAdminAlert } from './alerts.js';
import { TemplateError } from './template.js';
import { callbackOutcome, chatOutcome, jitter } from './retry-policy.js';
import { disableIfFailingTooLong } from './callback-health.js';
import type { DeliveryLog } from './worker-log.js';

/**
 * A paced job whose slot is at most this far off waits for it here; a later slot puts the job back in the queue,
 * due at its slot, so a long burst does not keep the worker's concurrency waiting.
 */
const MAX_INLINE_PACING_WAIT_MS = 1_000;

export interface JobRunnerOptions {
  workerId: string;
  leaseMs: number;
}

/** What the runner asks of its worker. */
export interface JobRunnerHooks {
  /** Claim again at `at` (a job put back for its pacing slot). */
  wakeAt(at: Date): void;
  /** Claim soon (an alert was queued). */
  wake(): void;
  /** An attempt's record on its way to the database (the worker's stop waits for it). */
  track(recording: Promise<void>): void;
  log: DeliveryLog;
}

export interface JobRunner {
  /** Sends one job; when a paced job is put back for later, the time it is due (the vote's later callbacks follow). */
  run(ctx: JobContext, after?: Date): Promise<Date | undefined>;
}

export function createJobRunner(deps: AppDeps, options: JobRunnerOptions, hooks: JobRunnerHooks): JobRunner {
  const { workerId } = options;
  const { wakeAt, wake, track, log } = hooks;
  const env: JobKindEnv = { unknownWebhooks: createUnknownWebhookMemory() };

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
      log.trouble(ctx, result, resolution);
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

  return { run };
}
