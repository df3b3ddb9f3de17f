// What the message-broker kinds (redis-stream, amqp, nats, mqtt) share as callback kinds: the payload is the callback's
// template, as for HTTP (the vote's, or the event's own); the message id is the vote's id (an event's: its delivery's),
// so a consumer or the broker (NATS JetStream's duplicate window) drops a repeat; the broker URL is a secret read back
// without its password; the SSRF guard sees the URL's host; one connection per target for each delivery worker.
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { EVENT_TYPES } from '../../domain/reward-events.js';
import { DEFAULT_EVENT_TEMPLATES, DEFAULT_PAYLOAD_TEMPLATE, TEST_VOTE_HEADER } from '../callback-defaults.js';
import type { SendResult } from '../senders.js';
import { renderJson } from '../template.js';
import { BrokerError, brokerUrlHost, createPublisherPool, redactUrl, type OpenPublisher, type PublisherPool } from './broker-publisher.js';
import type { CallbackKind, Delivery, KindSendContext } from './callback-kind.js';
import { attemptTo } from './attempt-result.js';
import { setting, type SettingField, type SettingValues } from './settings-schema.js';
import type { FieldError } from '../../base/errors.js';

const payloadTemplate = z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= 16_384, 'must be at most 16 KiB of JSON');

/** The settings every broker kind has: its URL, and its payloads (as an HTTP callback's). */
export function brokerSettings(schemes: readonly string[], example: string): SettingField[] {
  return [
    {
      name: 'url',
      type: 'string',
      rule: z.string().max(2000),
      required: true,
      secret: true,
      shown: redactUrl,
      label: 'Broker URL',
      help: `the broker (${schemes.map((s) => `${s}://`).join(' or ')}); kept encrypted, read back without its password`,
      placeholder: example,
    },
    {
      name: 'payloadTemplate',
      type: 'json',
      rule: payloadTemplate,
      default: DEFAULT_PAYLOAD_TEMPLATE,
      label: 'Payload template (JSON)',
      help: 'the message body of a vote, with {{variables}}',
    },
    {
      name: 'eventTemplates',
      type: 'json',
      rule: z.strictObject({ milestone: payloadTemplate.optional(), vote_party: payloadTemplate.optional(), reminder: payloadTemplate.optional() }),
      nullable: true,
      restOmitWhenNull: true,
      label: 'Event payloads (JSON, optional)',
      help: '{milestone?, vote_party?, reminder?}, each a payload template; null: the defaults',
    },
  ];
}

/** A broker login beside its URL (NATS, MQTT): an optional user name and a secret password. */
export const BROKER_LOGIN: SettingField[] = [
  { name: 'username', type: 'string', rule: z.string().min(1).max(200), nullable: true, label: 'User (optional)', help: 'its user name (with a password)' },
  {
    name: 'password',
    type: 'string',
    rule: z.string().min(1).max(500),
    secret: true,
    nullable: true,
    label: 'Password (optional)',
    help: 'its password; never returned',
  },
];

/** The message of one delivery: the vote's template, or the event's own (or its default). */
function bodyOf(values: SettingValues, delivery: Delivery): unknown {
  if (delivery.event === 'vote') return renderJson(setting(values, 'payloadTemplate'), delivery.lookup);
  const own = setting<Record<string, unknown> | null>(values, 'eventTemplates') ?? {};
  return renderJson(own[delivery.event] ?? DEFAULT_EVENT_TEMPLATES[delivery.event], delivery.lookup);
}

/** A vote's message id is the vote's id; an event's, its delivery job's (stable across retries). */
function messageIdOf(ctx: KindSendContext): string {
  return ctx.delivery.event === 'vote' && ctx.vote ? ctx.vote.publicId : `msg_${ctx.job.id}`;
}

export interface BrokerKindSpec<S> {
  name: string;
  label: string;
  description: string;
  schemes: readonly string[];
  /** How the test render names the operation (XADD, PUBLISH). */
  method: string;
  /** The kind's own settings, besides the URL and the payloads. */
  settings: SettingField[];
  example: string;
  /** The publisher's settings from the callback's (secrets opened). */
  publisherSettings(values: SettingValues): S;
  open: OpenPublisher<S>;
  keyOf(settings: S): string;
  describeTarget(settings: S): string;
  /** Rules over several of its own fields. */
  check?(input: SettingValues, existing: SettingValues | null): FieldError[];
}

export function brokerKind<S>(spec: BrokerKindSpec<S>): CallbackKind {
  const pools = new WeakMap<object, PublisherPool<S>>();
  const poolOf = (deps: AppDeps) => {
    let pool = pools.get(deps);
    if (!pool) {
      pool = createPublisherPool(spec.open, spec.keyOf);
      pools.set(deps, pool);
    }
    return pool;
  };
  const targetOf = (values: SettingValues) => {
    try {
      return spec.describeTarget(spec.publisherSettings(values));
    } catch {
      return `${spec.name} (unreadable settings)`;
    }
  };
  return {
    name: spec.name,
    label: spec.label,
    description: spec.description,
    // `{{test}}` in the payload and a header on the message, as an HTTP callback's.
    marksTests: true,
    events: EVENT_TYPES,
    // Each message carries the vote's delivery id (a Redis stream entry field, AMQP message_id, Nats-Msg-Id, an MQTT user property).
    dropsRepeats: true,
    signed: false,
    settings: [...brokerSettings(spec.schemes, spec.example), ...spec.settings],
    check(input, existing) {
      const problems: FieldError[] = spec.check?.(input, existing) ?? [];
      if (typeof input.url !== 'string') return { problems, target: null };
      if (input.url.includes(':***@')) problems.push({ field: 'url', message: 'holds the hidden password (***) a read shows: give the whole URL again' });
      const where = brokerUrlHost(input.url, spec.schemes);
      if (typeof where === 'string') return { problems: [...problems, { field: 'url', message: where }], target: null };
      return { problems, target: { url: `http://${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}/`, field: 'url' } };
    },
    target: targetOf,
    test: (_deps, _callback, values, delivery) => ({
      url: targetOf(values),
      method: spec.method,
      headers: { 'message-id': delivery.event === 'vote' ? (delivery.lookup('vote_id') ?? '') : 'msg_<delivery id>', 'content-type': 'application/json' },
      payload: bodyOf(values, delivery),
      sent: false,
    }),
    async send(deps, ctx): Promise<SendResult> {
      const done = attemptTo(deps, ctx, targetOf(ctx.settings));
      try {
        const publisher = await poolOf(deps).get(spec.publisherSettings(ctx.settings));
        const headers: Record<string, string> = { 'x-vote-relay-event': ctx.delivery.event };
        if (ctx.delivery.test) headers[TEST_VOTE_HEADER] = 'true';
        const { detail } = await publisher.publish(
          { id: messageIdOf(ctx), body: JSON.stringify(bodyOf(ctx.settings, ctx.delivery)), headers },
          ctx.callback.timeoutMs,
        );
        return done(null, { detail });
      } catch (err) {
        return done((err as Error).message, { permanent: err instanceof BrokerError && err.permanent });
      }
    },
    background: (deps) => ({ stop: () => poolOf(deps).closeAll() }),
  };
}
