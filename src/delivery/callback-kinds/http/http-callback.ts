// HTTP callbacks: a POST of the rendered payload template (the vote's, or the event's own), signed (Standard
// Webhooks) with the callback's signing secret (and, after a rotation, the replaced one), with
// `Authorization: Bearer <auth_secret>` when set. The deprecated server_callback_url is sent the same way, unsigned,
// with the default template (sendLegacyCallback).
import { z } from 'zod';
import type { AppDeps } from '../../../app/deps.js';
import type { Callback } from '../../../generated/sqlite/client.js';
import { EVENT_TYPES } from '../../../domain/reward-events.js';
import { DEFAULT_EVENT_TEMPLATES, DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS, TEST_VOTE_HEADER } from '../../callback-defaults.js';
import { callbackOutcome, jitter, parseRetryAfter } from '../../retry-policy.js';
import { post, record, type JobContext, type SendResult } from '../../senders.js';
import { signingSecretsOf, standardWebhookHeaders } from '../../signing.js';
import { renderJson, voteLookup } from '../../template.js';
import { voteTemplateValues } from '../../vote-values.js';
import type { CallbackKind, CallbackTestRender, Delivery } from '../callback-kind.js';
import { setting, type SettingField, type SettingValues } from '../settings-schema.js';

const payloadTemplate = z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= 16_384, 'must be at most 16 KiB of JSON');

const settings: SettingField[] = [
  {
    name: 'url',
    type: 'string',
    rule: z.string().max(2000),
    required: true,
    column: 'url',
    label: 'URL',
    help: 'where each delivery is POSTed',
    placeholder: 'https://play.example.com/vote',
  },
  {
    name: 'authSecret',
    type: 'string',
    rule: z.string().min(1).max(500),
    nullable: true,
    secret: true,
    column: 'authSecretEnc',
    label: 'Auth secret (optional)',
    help: 'sent as Authorization: Bearer <auth_secret>; never returned',
  },
  {
    name: 'payloadTemplate',
    type: 'json',
    rule: payloadTemplate,
    default: DEFAULT_PAYLOAD_TEMPLATE,
    column: 'payloadTemplateJson',
    label: 'Payload template (JSON)',
    help: 'the body of a vote’s delivery, with {{variables}}',
  },
  {
    name: 'eventTemplates',
    type: 'json',
    // Its own payload per event other than vote (README "Rewards"); an event left out gets its default.
    rule: z.strictObject({ milestone: payloadTemplate.optional(), vote_party: payloadTemplate.optional(), reminder: payloadTemplate.optional() }),
    nullable: true,
    column: 'eventTemplatesJson',
    restOmitWhenNull: true,
    label: 'Event payloads (JSON, optional)',
    help: '{milestone?, vote_party?, reminder?}, each a payload template; null: the defaults',
    placeholder: '{"milestone": {"player": "{{voter_name}}", "reached": "{{milestone_value}}"}}',
  },
];

/** The body of one delivery: the vote's template, or the event's own (or its default). */
function payloadOf(values: SettingValues, delivery: Delivery): unknown {
  if (delivery.event === 'vote') return renderJson(setting(values, 'payloadTemplate'), delivery.lookup);
  const own = setting<Record<string, unknown> | null>(values, 'eventTemplates') ?? {};
  return renderJson(own[delivery.event] ?? DEFAULT_EVENT_TEMPLATES[delivery.event], delivery.lookup);
}

export const httpCallback: CallbackKind = {
  name: 'http',
  label: 'HTTP: a signed POST to your server',
  description: 'a signed POST of a JSON payload (Standard Webhooks)',
  // `{{test}}` in the payload and the x-vote-relay-test header on every attempt.
  marksTests: true,
  events: EVENT_TYPES,
  // By webhook-id, the same across retries.
  dropsRepeats: true,
  signed: true,
  settings,
  check: (input) => ({ problems: [], target: typeof input.url === 'string' ? { url: input.url, field: 'url' } : null }),
  target: (values) => setting<string>(values, 'url') ?? '',
  test: (deps, callback, values, delivery, now) => testRequest(deps, callback, setting(values, 'url'), payloadOf(values, delivery), now),
  send: (deps, ctx) => postSigned(deps, ctx, setting(ctx.settings, 'url'), JSON.stringify(payloadOf(ctx.settings, ctx.delivery)), ctx.delivery.test),
};

/** The request an HTTP callback's delivery of `payload` would make (the test render: nothing is sent). */
function testRequest(deps: AppDeps, callback: Callback, url: string, payload: unknown, now: Date): CallbackTestRender {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...standardWebhookHeaders(signingSecretsOf(callback, deps.secrets.open, now), `msg_test_${callback.id}`, Math.floor(now.getTime() / 1000), body),
    ...(callback.authSecretEnc ? { authorization: 'Bearer [auth_secret]' } : {}),
  };
  return { url, method: 'POST', headers, payload, sent: false };
}

/** One attempt of the deprecated server_callback_url (job kind legacy_callback): the default payload, unsigned. */
export async function sendLegacyCallback(deps: AppDeps, ctx: JobContext): Promise<SendResult> {
  const { org, vote } = ctx;
  const url = org.serverCallbackUrl;
  if (!vote || !url) return { attempt: null, outcome: { kind: 'skipped' }, error: 'server_callback_url was removed' };
  const body = JSON.stringify(renderJson(DEFAULT_PAYLOAD_TEMPLATE, voteLookup(voteTemplateValues(vote, vote.provider, org))));
  return postSigned(deps, { ...ctx, callback: null }, url, body, vote.test);
}

/**
 * One signed POST of a callback's job (a vote or an event): Standard Webhooks headers whose webhook-id is the job
 * id (stable across retries, so receivers can drop a redelivery they already applied), the callback's bearer
 * secret when set; the deprecated server_callback_url is not signed.
 */
async function postSigned(deps: AppDeps, ctx: JobContext, url: string, body: string, test: boolean): Promise<SendResult> {
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
