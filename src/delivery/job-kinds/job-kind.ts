// What a kind of delivery job is (one file per kind, listed in registry.ts): how one attempt is sent, how the
// operator's log names it and its target, which retry rules it follows, and how the worker orders it. The worker
// (../worker.ts) looks a job's kind up here; adding a kind means one new file here plus its tests.
import type { AppDeps } from '../../app/deps.js';
import type { JobContext, SendResult, UnknownWebhookMemory } from '../senders.js';

/** What the worker lends every kind: webhook URLs that answered 404 (Discord's Unknown Webhook), not called again. */
export interface JobKindEnv {
  unknownWebhooks: UnknownWebhookMemory;
}

export interface JobKind {
  name: string;
  /** What a job of this kind is, in a few words (the GraphQL enum `DeliveryJobKind` describes each value with it). */
  summary: string;
  /** How the operator's log names this job's delivery: `chat notification`, `callback "Lobby" (http)`. */
  describe(ctx: JobContext): string;
  /** Where its attempts go (the log shows its host; a crashed attempt's record names it); never with a secret. */
  target(ctx: JobContext, deps: AppDeps): string;
  /**
   * What the API names as the job's target (GraphQL `DeliveryJob.target`): the setting it is sent to, or its callback's
   * name (`callbackName`, null when it has none or it was deleted).
   */
  shownTarget(job: { payloadJson: string | null }, callbackName: string | null): string | null;
  /** The retry rules of a failed attempt: chat's (attempt budget, Discord's rate limits) or the callback schedule. */
  retries: 'chat' | 'callback';
  /** A vote's jobs of such kinds go one after another in priority order (a game server's callbacks). */
  inVoteOrder: boolean;
  /**
   * Whether each attempt is marked durably before it leaves (JobQueue.mark; README "Delivery guarantees"): its target
   * cannot drop a repeat, and a repeat is a second reward or announcement. A job found marked and unfinished after a
   * crash ends `uncertain` and is not sent again. Otherwise at least once.
   */
  marksBeforeSending(ctx: JobContext): boolean;
  /** With marksBeforeSending: the send marks the attempt itself (ctx.sending), right before its first command. */
  marksItself?(ctx: JobContext): boolean;
  /** Whether this job failing for good raises the organization's permanent-failure alert (admin chat). */
  alertsWhenFailed: boolean | ((ctx: JobContext) => boolean);
  send(deps: AppDeps, ctx: JobContext, env: JobKindEnv): Promise<SendResult>;
}
