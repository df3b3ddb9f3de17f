// The live vote feed's bus. In-process by default; with REDIS_URL every instance publishes and subscribes through
// Redis pub/sub, so a subscriber on instance A sees votes received by instance B. Redis being down never blocks a
// vote: publishing fails fast (and is logged), /readyz reports it, and ioredis resubscribes when Redis returns.
import { createPubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { VoteEvent } from './vote-events.js';

export type FeedTopics = {
  voteReceived: [organizationId: string, event: VoteEvent];
  apiKeyRevoked: [organizationId: string, event: { apiKeyId: string }];
};

export interface Feed {
  pubsub: ReturnType<typeof createPubSub<FeedTopics>>;
  /** 'local' without Redis; otherwise whether both Redis connections are up. */
  status(): 'local' | 'ready' | 'unavailable';
  close(): Promise<void>;
}

export function createFeed(redisUrl: string | null, logger: Logger): Feed {
  if (!redisUrl) {
    return { pubsub: createPubSub<FeedTopics>(), status: () => 'local', close: async () => {} };
  }
  const options = { lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: (times: number) => Math.min(times * 200, 2_000) };
  // No offline queue for publishing: a vote must not wait for (or pile up behind) a dead Redis.
  const publisher = new Redis(redisUrl, { ...options, enableOfflineQueue: false });
  const subscriber = new Redis(redisUrl, { ...options, autoResubscribe: true });
  let warned = false;
  for (const [name, client] of [['publisher', publisher], ['subscriber', subscriber]] as const) {
    client.on('error', (err: Error) => {
      if (!warned) logger.warn({ err: err.message, client: name }, 'redis unavailable: live feed paused across instances, votes are still accepted');
      warned = true;
    });
    client.on('ready', () => {
      if (warned) logger.info({ client: name }, 'redis is back: live feed resumes');
      warned = false;
    });
  }
  const safePublisher = {
    publish: (channel: string, message: string) =>
      publisher.publish(channel, message).catch((err: Error) => {
        logger.warn({ err: err.message, channel }, 'could not publish a live event to redis');
        return 0;
      }),
  };
  const eventTarget = createRedisEventTarget({ publishClient: safePublisher as never, subscribeClient: subscriber as never });
  return {
    pubsub: createPubSub<FeedTopics>({ eventTarget }),
    status: () => (publisher.status === 'ready' && subscriber.status === 'ready' ? 'ready' : 'unavailable'),
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
