// The delivery worker's lines in the operator's log (README "Logs"): a delivery's first failed attempt, its end when
// it fails for good, a send that no answer settled, and the counts of lines left out while a receiver is down.
import type { AppDeps } from '../app/deps.js';
import type { JobResolution } from '../domain/jobs.js';
import { createLineBudget } from '../base/logger.js';
import { jobKindOf } from './job-kinds/registry.js';
import type { JobContext, SendResult } from './senders.js';

/** An error as the operator's log prints it: a receiver's or platform's words are kept short. */
const MAX_LOGGED_ERROR = 300;

export interface DeliveryLog {
  /** After an attempt is recorded: a line when it is the delivery's first failure, its last, or unanswered. */
  trouble(ctx: JobContext, result: SendResult, resolution: JobResolution): void;
  /** The counts of failure lines left out, once their 10 s are over (and at shutdown: `all`). */
  leftOut(all?: boolean): void;
}

export function createDeliveryLog(deps: AppDeps): DeliveryLog {
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

  return { trouble: logTrouble, leftOut: reportLeftOut };
}

/** A target's host (and port) only, for the log: "hooks.example.com", "mc.example.com:8192". */
function hostOf(url: string): string {
  try {
    return new URL(url).host || '(no host)';
  } catch {
    return '(no target)';
  }
}
