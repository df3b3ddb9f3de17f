// The explicit dependencies every service, worker and entry point is built from (no module-level singletons).
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { OutboundHttp } from './net/outbound-http.js';
import type { VotePubSub } from './live/vote-events.js';
import type { Feed } from './live/feed.js';
import type { RateLimits } from './auth/rate-limits.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  secrets: SecretBox;
  clock: Clock;
  http: OutboundHttp;
  /** Accepted votes, published after commit (live feed, delivery wake-ups). */
  events: VotePubSub;
  /** The live feed (Redis-backed across instances when REDIS_URL is set). */
  feed: Feed;
  /** Request budgets (in memory, or shared through Redis). */
  limits: RateLimits;
}
