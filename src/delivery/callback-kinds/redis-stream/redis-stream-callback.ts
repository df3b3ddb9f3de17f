// Redis stream callbacks: each vote (and event) XADDed to the owner's stream, trimmed with MAXLEN ~, for networks
// whose servers read votes from Redis (publisher.ts).
import { z } from 'zod';
import { brokerKind } from '../broker-kind.js';
import { setting } from '../settings-schema.js';
import { describeTarget, keyOf, openPublisher, SCHEMES, type RedisStreamSettings } from './publisher.js';

export const redisStreamCallback = brokerKind<RedisStreamSettings>({
  name: 'redis_stream',
  label: 'Redis stream: XADD to your Redis',
  description: 'each delivery added to a Redis stream (XADD … MAXLEN ~)',
  schemes: SCHEMES,
  method: 'XADD',
  example: 'redis://:password@redis.internal:6379/0',
  settings: [
    { name: 'stream', type: 'string', rule: z.string().min(1).max(200), required: true, label: 'Stream', help: 'the stream key', placeholder: 'votes' },
    {
      name: 'maxLen',
      type: 'int',
      rule: z.number().int('must be an integer').min(1).max(100_000_000),
      default: 100_000,
      label: 'Keep about this many entries',
      help: 'MAXLEN ~: Redis trims the stream to about this many entries',
    },
  ],
  publisherSettings: (values) => ({ url: setting(values, 'url'), stream: setting(values, 'stream'), maxLen: setting(values, 'maxLen') }),
  open: openPublisher,
  keyOf,
  describeTarget,
});
