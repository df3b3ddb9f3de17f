// NATS JetStream callbacks: each vote (and event) published to a subject a stream takes, with the vote's id as
// Nats-Msg-Id, so the server drops a repeat within its duplicate window (publisher.ts).
import { z } from 'zod';
import { BROKER_LOGIN, brokerKind } from '../broker-kind.js';
import { setting } from '../settings-schema.js';
import { describeTarget, keyOf, openPublisher, SCHEMES, type NatsSettings } from './publisher.js';

export const natsCallback = brokerKind<NatsSettings>({
  name: 'nats',
  label: 'NATS JetStream: publish to a subject',
  description: 'each delivery published to NATS JetStream with Nats-Msg-Id (the server drops a repeat)',
  schemes: SCHEMES,
  method: 'PUBLISH',
  example: 'nats://nats.internal:4222',
  settings: [
    {
      name: 'subject',
      type: 'string',
      rule: z
        .string()
        .regex(/^[^\s*>]+$/, 'must be a subject without spaces or wildcards')
        .max(255),
      required: true,
      label: 'Subject',
      help: 'a subject a JetStream stream takes',
      placeholder: 'votes.minecraft',
    },
    {
      name: 'token',
      type: 'string',
      rule: z.string().min(1).max(500),
      secret: true,
      nullable: true,
      label: 'Token (optional)',
      help: 'its auth token; never returned',
    },
    ...BROKER_LOGIN,
  ],
  publisherSettings: (values) => ({
    url: setting(values, 'url'),
    subject: setting(values, 'subject'),
    ...(setting(values, 'token') ? { token: setting<string>(values, 'token') } : {}),
    ...(setting(values, 'username') ? { user: setting<string>(values, 'username'), pass: setting<string | null>(values, 'password') ?? '' } : {}),
  }),
  open: openPublisher,
  keyOf,
  describeTarget,
});
