// One attempt's result for kinds that speak no HTTP (RCON, Discord, the brokers): the attempt record the delivery log
// keeps, and the next step: sent, failed for good (`permanent`), or the callback retry schedule.
import type { AppDeps } from '../../app/deps.js';
import { callbackOutcome, jitter } from '../retry-policy.js';
import type { SendResult } from '../senders.js';
import type { KindSendContext } from './callback-kind.js';

export interface AttemptExtra {
  /** No retry can change it (a refused name, a missing setting). */
  permanent?: boolean;
  /** Refused because of this vote alone: it says nothing of the target's health (callback-health.ts). */
  voteRefused?: boolean;
  /**
   * It was sent and no answer says whether it arrived, to a target that cannot drop a repeat: `uncertain`, not
   * retried (README "Delivery guarantees").
   */
  uncertain?: boolean;
  /** What the target answered, for the delivery log. */
  detail?: string | null;
}

/** Starts timing an attempt to `target`; the function it returns builds its result (error null: it succeeded). */
export function attemptTo(deps: Pick<AppDeps, 'config'>, ctx: Pick<KindSendContext, 'job'>, target: string) {
  const attempt = ctx.job.attempts + 1;
  const started = performance.now();
  return (error: string | null, extra: AttemptExtra = {}): SendResult => ({
    attempt: {
      attempt,
      target,
      statusCode: null,
      success: error === null,
      durationMs: Math.round(performance.now() - started),
      error,
      responseExcerpt: extra.detail ?? null,
      ...(extra.voteRefused ? { voteRefused: true } : {}),
      ...(extra.uncertain ? { uncertain: true } : {}),
    },
    outcome: extra.uncertain
      ? { kind: 'uncertain' }
      : extra.permanent
        ? { kind: 'failed' }
        : callbackOutcome({ status: error ? null : 200, retryAfterMs: null }, attempt, deps.config.retryScheduleMs, jitter(deps.config.retryJitter)),
    error,
  });
}
