// One attempt of each kind of job: chat notification, HTTP callback (signed), deprecated server_callback_url,
// admin alert. Each returns what happened; the worker records it and decides nothing itself.
import type { AppDeps } from '../app-deps.js';
import type { Callback, Organization, Provider, Vote } from '../generated/sqlite/client.js';
import { planAtLeast } from '../auth/plans.js';
import { OutboundError, type OutboundResponse } from '../net/outbound-http.js';
import { buildChatMessage, platformReason, type EmbedTemplate } from './chat-message.js';
import { renderJson, voteLookup } from './template.js';
import { voteTemplateValues } from './vote-values.js';
import { signingSecretsOf, standardWebhookHeaders } from './signing.js';
import { callbackOutcome, chatOutcome, chatRetryAfterMs, jitter, parseRetryAfter, type AttemptOutcome } from './retry-policy.js';
import type { AttemptRecord, ClaimedJob } from './job-queue/job-queue.js';
import { DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS } from './callback-defaults.js';
import { sendVotifierVote } from './votifier.js';
import { readPathAsText } from '../json-path.js';
import type { Resolver } from '../net/ssrf-guard.js';

export interface SendResult {
  attempt: AttemptRecord | null;
  outcome: AttemptOutcome | { kind: 'skipped' };
  error: string | null;
}

export interface JobContext {
  job: ClaimedJob;
  org: Organization;
  vote: (Vote & { provider: Provider }) | null;
  callback: Callback | null;
}

const EXCERPT = 500;

async function post(deps: AppDeps, url: string, headers: Record<string, string>, body: string, timeoutMs: number) {
  try {
    return { response: await deps.http.post(url, { headers, body, timeoutMs }), failure: null };
  } catch (err) {
    const failure = err instanceof OutboundError ? err : new OutboundError('network', (err as Error).message, 0);
    return { response: null, failure };
  }
}

function record(
  attempt: number,
  target: string,
  response: OutboundResponse | null,
  failure: OutboundError | null,
  error: string | null,
): AttemptRecord {
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

async function sendChatBody(deps: AppDeps, ctx: JobContext, url: string, body: unknown, unknown: UnknownWebhookMemory): Promise<SendResult> {
  const attempt = ctx.job.attempts + 1;
  if (unknown.has(url)) {
    return { attempt: null, outcome: { kind: 'failed' }, error: 'The chat webhook answered 404 Unknown Webhook before; it is not called again until the URL changes' };
  }
  const { response, failure } = await post(deps, url, { 'content-type': 'application/json' }, JSON.stringify(body), deps.config.chatTimeoutMs);
  const now = deps.clock.now().getTime();
  const status = response?.status ?? null;
  const error = response ? (status! >= 200 && status! < 300 ? null : platformReason(status!, response.body)) : failure!.message;
  if (status === 404) unknown.add(url);
  const outcome = failure?.kind === 'blocked'
    ? ({ kind: 'failed' } as const)
    : chatOutcome({ status, retryAfterMs: response && status === 429 ? chatRetryAfterMs(response.body, response.headers['retry-after'], now) : null }, attempt, ctx.job.maxAttempts, jitter(deps.config.retryJitter));
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
  );
  return sendChatBody(deps, ctx, org.chatWebhookUrl, body, unknown);
}

export async function sendAlert(deps: AppDeps, ctx: JobContext, unknown: UnknownWebhookMemory): Promise<SendResult> {
  const url = ctx.org.chatAdminWebhookUrl;
  if (!url || !ctx.job.payloadJson) return { attempt: null, outcome: { kind: 'skipped' }, error: 'No admin webhook is set' };
  return sendChatBody(deps, ctx, url, JSON.parse(ctx.job.payloadJson), unknown);
}

export async function sendHttpCallback(deps: AppDeps, ctx: JobContext): Promise<SendResult> {
  const { job, org, vote } = ctx;
  const legacy = job.kind === 'legacy_callback';
  const callback = ctx.callback;
  const url = legacy ? org.serverCallbackUrl : callback?.url;
  if (!vote || !url || (!legacy && !callback)) {
    return { attempt: null, outcome: { kind: 'skipped' }, error: legacy ? 'server_callback_url was removed' : 'The callback was deleted' };
  }
  const attempt = job.attempts + 1;
  const template = legacy ? DEFAULT_PAYLOAD_TEMPLATE : JSON.parse(callback!.payloadTemplateJson);
  const body = JSON.stringify(renderJson(template, voteLookup(voteTemplateValues(vote, vote.provider, org))));
  const now = deps.clock.now();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (callback) {
    // webhook-id is the job id: stable across retries, so receivers can drop a redelivery they already applied.
    Object.assign(headers, standardWebhookHeaders(signingSecretsOf(callback, deps.secrets.open, now), `msg_${job.id}`, Math.floor(now.getTime() / 1000), body));
    if (callback.authSecretEnc) headers.authorization = `Bearer ${deps.secrets.open(callback.authSecretEnc)}`;
  } else {
    headers['webhook-id'] = `msg_${job.id}`;
  }
  const { response, failure } = await post(deps, url, headers, body, callback?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const status = response?.status ?? null;
  const error = response ? (status! >= 200 && status! < 300 ? null : `HTTP ${status}`) : failure!.message;
  const outcome = failure?.kind === 'blocked'
    ? ({ kind: 'failed' } as const)
    : callbackOutcome(
        { status, retryAfterMs: response ? parseRetryAfter(response.headers['retry-after'], now.getTime()) : null },
        attempt,
        deps.config.retryScheduleMs,
        jitter(deps.config.retryJitter),
      );
  return { attempt: record(attempt, url, response, failure, error), outcome, error };
}

/** A vote forwarded over the Votifier protocol (v2 with a token, v1 with a public key). */
export async function sendVotifierCallback(deps: AppDeps, ctx: JobContext, resolver?: Resolver): Promise<SendResult> {
  const { job, vote, callback } = ctx;
  if (!vote || !callback || !callback.host) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The callback was deleted' };
  const attempt = job.attempts + 1;
  const target = `votifier://${callback.host}:${callback.port}`;
  const started = performance.now();
  let parsedPayload: unknown = null;
  try {
    parsedPayload = JSON.parse(vote.rawPayload);
  } catch {
    // a form or GET delivery stored as text: no address in it
  }
  const address = readPathAsText(parsedPayload, 'ip') ?? readPathAsText(parsedPayload, 'address') ?? '127.0.0.1';
  let error: string | null = null;
  try {
    await sendVotifierVote(
      {
        host: callback.host,
        port: callback.port ?? 8192,
        token: callback.votifierTokenEnc ? deps.secrets.open(callback.votifierTokenEnc) : null,
        publicKey: callback.votifierPublicKey,
        timeoutMs: callback.timeoutMs,
      },
      { serviceName: callback.serviceName ?? 'VoteRelay', username: vote.voterName, address, timestamp: vote.receivedAt.getTime() },
      { allowPrivateTargets: deps.config.allowPrivateTargets, resolver },
    );
  } catch (err) {
    error = (err as Error).message;
  }
  const durationMs = Math.round(performance.now() - started);
  const outcome = callbackOutcome({ status: error ? null : 200, retryAfterMs: null }, attempt, deps.config.retryScheduleMs, jitter(deps.config.retryJitter));
  return {
    attempt: { attempt, target, statusCode: null, success: error === null, durationMs, error, responseExcerpt: error ? null : 'ok' },
    outcome,
    error,
  };
}
