// HTTP callbacks: a POST of the rendered payload template, signed (Standard Webhooks) with the callback's signing
// secret (and, after a rotation, the replaced one), with `Authorization: Bearer <auth_secret>` when set. The
// deprecated server_callback_url is sent the same way, unsigned, with the default template.
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Callback } from '../../generated/sqlite/client.js';
import { DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS, TEST_VOTE_HEADER } from '../callback-defaults.js';
import { callbackOutcome, jitter, parseRetryAfter } from '../retry-policy.js';
import { post, record, type JobContext, type SendResult } from '../senders.js';
import { signingSecretsOf, standardWebhookHeaders } from '../signing.js';
import { renderJson, voteLookup } from '../template.js';
import { voteTemplateValues } from '../vote-values.js';
import type { CallbackKind, CallbackTestRender } from './callback-kind.js';

import { EVENT_TYPES } from '../../domain/reward-events.js';

const payloadTemplate = z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= 16_384, 'must be at most 16 KiB of JSON');

export const httpCallback: CallbackKind = {
  name: 'http',
  // `{{test}}` in the payload and the x-vote-relay-test header on every attempt.
  marksTests: true,
  events: EVENT_TYPES,
  fields: {
    url: z.string().max(2000),
    authSecret: z.string().min(1).max(500).nullable(),
    payloadTemplate,
    // Its own payload per event other than vote (README "Rewards"); an event left out gets its default.
    eventTemplates: z
      .strictObject({ milestone: payloadTemplate.optional(), vote_party: payloadTemplate.optional(), reminder: payloadTemplate.optional() })
      .nullable(),
  },
  check(input, existing) {
    if (!existing && !input.url) return { problems: [{ field: 'url', message: 'is required' }] };
    return { problems: [], ...(typeof input.url === 'string' ? { target: { url: input.url, field: 'url' } } : {}) };
  },
  create(input, deps) {
    return {
      url: input.url as string,
      payloadTemplateJson: JSON.stringify(input.payloadTemplate ?? DEFAULT_PAYLOAD_TEMPLATE),
      authSecretEnc: input.authSecret ? deps.secrets.seal(input.authSecret as string) : null,
      eventTemplatesJson: input.eventTemplates ? JSON.stringify(input.eventTemplates) : null,
    };
  },
  update(input, _existing, deps) {
    return {
      ...(input.url !== undefined ? { url: input.url as string } : {}),
      ...(input.payloadTemplate !== undefined ? { payloadTemplateJson: JSON.stringify(input.payloadTemplate) } : {}),
      ...(input.authSecret !== undefined ? { authSecretEnc: input.authSecret === null ? null : deps.secrets.seal(input.authSecret as string) } : {}),
      ...(input.eventTemplates !== undefined ? { eventTemplatesJson: input.eventTemplates === null ? null : JSON.stringify(input.eventTemplates) } : {}),
    };
  },
  testRender(deps, callback, values, now) {
    return testRequest(deps, callback, renderJson(JSON.parse(callback.payloadTemplateJson), voteLookup(values)), now);
  },
  send: sendHttpCallback,
  target: (callback: Callback) => callback.url ?? '',
};

/** The request an HTTP callback's delivery of `payload` would make (the test render: nothing is sent). */
export function testRequest(deps: AppDeps, callback: Callback, payload: unknown, now: Date): CallbackTestRender {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...standardWebhookHeaders(signingSecretsOf(callback, deps.secrets.open, now), `msg_test_${callback.id}`, Math.floor(now.getTime() / 1000), body),
    ...(callback.authSecretEnc ? { authorization: 'Bearer [auth_secret]' } : {}),
  };
  return { url: callback.url ?? '', method: 'POST', headers, payload, sent: false };
}

/** One attempt of an HTTP callback, or of the deprecated server_callback_url (job kind legacy_callback). */
export async function sendHttpCallback(deps: AppDeps, ctx: JobContext): Promise<SendResult> {
  const { job, org, vote } = ctx;
  const legacy = job.kind === 'legacy_callback';
  const callback = ctx.callback;
  const url = legacy ? org.serverCallbackUrl : callback?.url;
  if (!vote || !url || (!legacy && !callback)) {
    return { attempt: null, outcome: { kind: 'skipped' }, error: legacy ? 'server_callback_url was removed' : 'The callback was deleted' };
  }
  const template = legacy ? DEFAULT_PAYLOAD_TEMPLATE : JSON.parse(callback!.payloadTemplateJson);
  const body = JSON.stringify(renderJson(template, voteLookup(voteTemplateValues(vote, vote.provider, org))));
  return postSigned(deps, ctx, url, body, vote.test);
}

/**
 * One signed POST of a callback's job (a vote or an event): Standard Webhooks headers whose webhook-id is the job
 * id (stable across retries, so receivers can drop a redelivery they already applied), the callback's bearer
 * secret when set; the deprecated server_callback_url is not signed.
 */
export async function postSigned(deps: AppDeps, ctx: JobContext, url: string, body: string, test: boolean): Promise<SendResult> {
  const { job, callback } = ctx;
  const attempt = job.attempts + 1;
  const now = deps.clock.now();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  // Beside `{{test}}` in the body: a receiver whose template predates it can still skip a test vote's reward.
  if (test) headers[TEST_VOTE_HEADER] = 'true';
  if (callback) {
    Object.assign(headers, standardWebhookHeaders(signingSecretsOf(callback, deps.secrets.open, now), `msg_${job.id}`, Math.floor(now.getTime() / 1000), body));
    if (callback.authSecretEnc) headers.authorization = `Bearer ${deps.secrets.open(callback.authSecretEnc)}`;
  } else {
    headers['webhook-id'] = `msg_${job.id}`;
  }
  const { response, failure } = await post(deps, url, headers, body, callback?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const status = response?.status ?? null;
  const error = response ? (status! >= 200 && status! < 300 ? null : `HTTP ${status}`) : failure!.message;
  const outcome =
    failure?.kind === 'blocked'
      ? ({ kind: 'failed' } as const)
      : callbackOutcome(
          { status, retryAfterMs: response ? parseRetryAfter(response.headers['retry-after'], now.getTime()) : null },
          attempt,
          deps.config.retryScheduleMs,
          jitter(deps.config.retryJitter),
        );
  return { attempt: record(attempt, url, response, failure, error), outcome, error };
}
