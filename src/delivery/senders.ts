// One attempt of a chat notification or an admin alert, and what every sender shares (the attempt's context and
// result, the outbound POST, the attempt record). Callbacks are sent by their kind (callback-kinds/). Each returns
// what happened; the worker records it and decides nothing itself.
import type { AppDeps } from '../app/deps.js';
import type { Callback, Organization, Provider, Vote } from '../generated/sqlite/client.js';
import { planAtLeast } from '../domain/plans.js';
import { OutboundError, type OutboundResponse } from '../net/outbound-http.js';
import { buildChatMessage, platformReason, type EmbedTemplate } from './chat-message.js';
import { voteLookup } from './template.js';
import { voteTemplateValues } from './vote-values.js';
import { chatOutcome, chatRetryAfterMs, jitter, type AttemptOutcome } from './retry-policy.js';
import type { AttemptRecord, ClaimedJob } from '../domain/jobs.js';

export interface SendResult {
  attempt: AttemptRecord | null;
  /**
   * What came of the send. parked: kept for its player, who is offline (README "Offline players"), without an
   * attempt; `holder` is what wakes it (an RCON callback's online check). uncertain: the vote was sent to a target that
   * cannot drop a repeat and no answer says whether it arrived (README "Delivery guarantees"): final, not retried.
   */
  outcome: AttemptOutcome | { kind: 'skipped' } | { kind: 'parked'; holder: string } | { kind: 'uncertain' };
  error: string | null;
}

export interface JobContext {
  job: ClaimedJob;
  org: Organization;
  vote: (Vote & { provider: Provider; voterUuid?: string | null }) | null;
  callback: Callback | null;
  /**
   * For a kind that marks its attempt itself (CallbackKind.marksItself): marks the job durably, and must have
   * resolved before the first thing that cannot be taken back (README "Delivery guarantees"). It is written once
   * however often it is called, so a send may ask early and await the same promise later. Rejects with LeaseLost when
   * the job is no longer this worker's: then nothing may be sent.
   */
  sending?: () => Promise<void>;
}

/** The job's lease went to another worker before its attempt could be marked: nothing was sent from here. */
export class LeaseLost extends Error {
  constructor() {
    super('the delivery was taken over by another worker before it was sent');
  }
}

const EXCERPT = 500;

export async function post(deps: AppDeps, url: string, headers: Record<string, string>, body: string, timeoutMs: number) {
  try {
    return { response: await deps.http.post(url, { headers, body, timeoutMs }), failure: null };
  } catch (err) {
    const failure = err instanceof OutboundError ? err : new OutboundError('network', (err as Error).message, 0);
    return { response: null, failure };
  }
}

export function record(attempt: number, target: string, response: OutboundResponse | null, failure: OutboundError | null, error: string | null): AttemptRecord {
  return {
    attempt,
    target,
    statusCode: response?.status ?? null,
    success: response !== null && response.status >= 200 && response.status < 300,
    durationMs: response?.durationMs ?? failure?.durationMs ?? 0,
    error,
    responseExcerpt: response ? response.body.slice(0, EXCERPT) : null,
  };
}

/** Webhook URLs that answered 404 (Discord's "Unknown Webhook"): never called again until the URL changes. */
export function createUnknownWebhookMemory() {
  const urls = new Set<string>();
  return { has: (url: string) => urls.has(url), add: (url: string) => urls.add(url) };
}
export type UnknownWebhookMemory = ReturnType<typeof createUnknownWebhookMemory>;

export async function sendChatBody(deps: AppDeps, ctx: JobContext, url: string, body: unknown, unknown: UnknownWebhookMemory): Promise<SendResult> {
  const attempt = ctx.job.attempts + 1;
  if (unknown.has(url)) {
    return {
      attempt: null,
      outcome: { kind: 'failed' },
      error: 'The chat webhook answered 404 Unknown Webhook before; it is not called again until the URL changes',
    };
  }
  const { response, failure } = await post(deps, url, { 'content-type': 'application/json' }, JSON.stringify(body), deps.config.chatTimeoutMs);
  const now = deps.clock.now().getTime();
  const status = response?.status ?? null;
  const error = response ? (status! >= 200 && status! < 300 ? null : platformReason(status!, response.body)) : failure!.message;
  if (status === 404) unknown.add(url);
  const outcome =
    failure?.kind === 'blocked'
      ? ({ kind: 'failed' } as const)
      : chatOutcome(
          { status, retryAfterMs: response && status === 429 ? chatRetryAfterMs(response.body, response.headers['retry-after'], now) : null },
          attempt,
          ctx.job.maxAttempts,
          jitter(deps.config.retryJitter),
        );
  return { attempt: record(attempt, redactUrl(url), response, failure, error), outcome, error };
}

/** Discord webhook URLs carry their token in the path: logs show only the id part. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const parts = u.pathname.split('/');
    const hooks = parts.indexOf('webhooks');
    if (hooks >= 0 && parts.length > hooks + 2) parts[hooks + 2] = '***';
    u.pathname = parts.join('/');
    u.search = u.search ? '?…' : '';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}

export async function sendChat(deps: AppDeps, ctx: JobContext, unknown: UnknownWebhookMemory): Promise<SendResult> {
  const { org, vote } = ctx;
  if (!vote || !org.chatWebhookUrl || !org.chatNotificationsEnabled) {
    return { attempt: null, outcome: { kind: 'skipped' }, error: 'Chat notifications were turned off before sending' };
  }
  const embedAllowed = org.chatMessageType === 'embed' && planAtLeast(org.plan, 'growth');
  const lookup = voteLookup(voteTemplateValues(vote, vote.provider, org));
  const body = buildChatMessage(
    {
      type: embedAllowed ? 'embed' : 'simple',
      template: org.chatMessageTemplate,
      embedTemplate: org.chatEmbedTemplateJson ? (JSON.parse(org.chatEmbedTemplateJson) as EmbedTemplate) : null,
    },
    lookup,
    // A test vote's message says so, so nobody in the channel takes it for a real vote (README "Test votes").
    { test: vote.test, testLabel: 'Test vote' },
  );
  return sendChatBody(deps, ctx, org.chatWebhookUrl, body, unknown);
}

export async function sendAlert(deps: AppDeps, ctx: JobContext, unknown: UnknownWebhookMemory): Promise<SendResult> {
  const url = ctx.org.chatAdminWebhookUrl;
  if (!url || !ctx.job.payloadJson) return { attempt: null, outcome: { kind: 'skipped' }, error: 'No admin webhook is set' };
  return sendChatBody(deps, ctx, url, JSON.parse(ctx.job.payloadJson), unknown);
}
