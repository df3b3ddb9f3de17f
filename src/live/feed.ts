// The live vote feed's bus. In-process by default; with REDIS_URL every instance also publishes to and listens on
// one Redis channel, so a subscriber on instance A sees votes received by instance B. Redis being down never
// blocks a vote or this instance's own subscribers: publishing fails fast (and is logged), /readyz reports it,
// and the channel is subscribed again when Redis returns.
import { createPubSub } from '@graphql-yoga/subscription';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../base/logger.js';
import { countingTarget } from './listener-count.js';
import type { VoteEvent } from './vote-events.js';
import type { HookRequestEntry } from '../modules/hook-requests/entry.js';

const FEED_CHANNEL = 'vote-relay:live-feed';

export type FeedTopics = {
  voteReceived: [organizationId: string, event: VoteEvent];
  apiKeyRevoked: [organizationId: string, event: { apiKeyId: string }];
  /** The hook request log entries one write kept of an organization (whole entries: subscribers read nothing). */
  hookRequestReceived: [organizationId: string, event: HookRequestEntry[]];
};

export interface Feed {
  pubsub: ReturnType<typeof createPubSub<FeedTopics>>;
  /** How many subscriptions on this instance listen to the topic for the organization now (registered synchronously
   *  when a subscription's stream is first read): what a live subscriber is waiting on before an event reaches it. */
  listenerCount(topic: keyof FeedTopics, organizationId: string): number;
  /** 'local' without Redis; otherwise whether both Redis connections are up. */
  status(): 'local' | 'ready' | 'unavailable';
  close(): Promise<void>;
}

export function createFeed(redisUrl: string | null, logger: Logger): Feed {
  if (!redisUrl) {
    const target = countingTarget(new EventTarget());
    return {
      pubsub: createPubSub<FeedTopics>({ eventTarget: target as never }),
      listenerCount: (topic, organizationId) => target.count(`${topic}:${organizationId}`),
      status: () => 'local',
      close: async () => {},
    };
  }
  const options = { lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: (times: number) => Math.min(times * 200, 2_000) };
  // No offline queue for publishing: a vote must not wait for (or pile up behind) a dead Redis.
  const publisher = new Redis(redisUrl, { ...options, enableOfflineQueue: false });
  const subscriber = new Redis(redisUrl, { ...options, autoResubscribe: true });
  let warned = false;
  for (const [name, client] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    client.on('error', (err: Error) => {
      if (!warned)
        logger.warn(
          { err: err.message, client: name },
          'redis unavailable: votes are still accepted and live on this instance; other instances miss them until redis returns',
        );
      warned = true;
    });
    client.on('ready', () => {
      if (warned) logger.info({ client: name }, 'redis is back: live feed resumes');
      warned = false;
    });
  }
  // One channel for every topic, subscribed once (and again whenever Redis comes back): no per-topic SUBSCRIBE
  // that could fail while Redis is down. Events always reach this instance's own subscribers directly; Redis
  // carries them to the other instances, which skip what they published themselves.
  const instance = randomUUID();
  const local = new EventTarget();
  const subscribe = () =>
    subscriber
      .subscribe(FEED_CHANNEL)
      .catch((err: Error) => logger.warn({ err: err.message }, 'could not subscribe to the live feed channel; retrying when redis is back'));
  subscriber.on('ready', subscribe);
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== FEED_CHANNEL) return;
    try {
      const { origin, type, detail } = JSON.parse(message) as { origin: string; type: string; detail: unknown };
      if (origin !== instance) local.dispatchEvent(new CustomEvent(type, { detail }));
    } catch {
      logger.warn('unreadable live feed message ignored');
    }
  });
  // Published events reach this instance's own subscribers directly and the other instances through Redis.
  const eventTarget = countingTarget(local, (event) => {
    const { type, detail } = event as CustomEvent;
    local.dispatchEvent(new CustomEvent(type, { detail }));
    publisher.publish(FEED_CHANNEL, JSON.stringify({ origin: instance, type, detail })).catch((err: Error) => {
      logger.warn({ err: err.message }, 'could not publish a live event to redis');
    });
    return true;
  });
  return {
    pubsub: createPubSub<FeedTopics>({ eventTarget: eventTarget as never }),
    listenerCount: (topic, organizationId) => eventTarget.count(`${topic}:${organizationId}`),
    status: () => (publisher.status === 'ready' && subscriber.status === 'ready' ? 'ready' : 'unavailable'),
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
