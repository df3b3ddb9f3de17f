// RabbitMQ (AMQP 0-9-1) callbacks: each vote (and event) published persistent, with publisher confirms and the vote's
// id as message_id, to a durable queue it declares, or to an exchange with a routing key (publisher.ts).
import { z } from 'zod';
import type { FieldError } from '../../../base/errors.js';
import { brokerKind } from '../broker-kind.js';
import { setting } from '../settings-schema.js';
import { describeTarget, keyOf, openPublisher, SCHEMES, type AmqpSettings } from './publisher.js';

const NAME = z.string().min(1).max(255);

export const amqpCallback = brokerKind<AmqpSettings>({
  name: 'amqp',
  label: 'RabbitMQ (AMQP): publish to a queue or exchange',
  description: 'each delivery published to RabbitMQ, persistent, with publisher confirms',
  schemes: SCHEMES,
  method: 'PUBLISH',
  example: 'amqp://user:password@rabbit.internal:5672/vhost',
  settings: [
    {
      name: 'queue',
      type: 'string',
      rule: NAME,
      nullable: true,
      label: 'Queue',
      help: 'a durable queue to declare and publish to (or give exchange)',
      placeholder: 'votes',
    },
    { name: 'exchange', type: 'string', rule: NAME, nullable: true, label: 'Exchange', help: 'an existing exchange to publish to, instead of a queue' },
    { name: 'routingKey', type: 'string', rule: z.string().max(255), nullable: true, label: 'Routing key', help: 'with exchange: the routing key' },
  ],
  check(input, existing) {
    const queue = input.queue !== undefined ? input.queue : existing?.queue;
    const exchange = input.exchange !== undefined ? input.exchange : existing?.exchange;
    const problems: FieldError[] = [];
    if (!queue === !exchange) problems.push({ field: 'queue', message: 'give exactly one of queue or exchange' });
    if (input.routingKey && !exchange) problems.push({ field: 'routing_key', message: 'goes with an exchange (a queue is its own routing key)' });
    return problems;
  },
  publisherSettings: (values) => ({
    url: setting(values, 'url'),
    ...(setting(values, 'queue') ? { queue: setting<string>(values, 'queue') } : {}),
    ...(setting(values, 'exchange') ? { exchange: setting<string>(values, 'exchange'), routingKey: setting<string | null>(values, 'routingKey') ?? '' } : {}),
  }),
  open: openPublisher,
  keyOf,
  describeTarget,
});
