// The explicit dependencies every service, worker and entry point is built from (no module-level singletons).
import type { Config } from './config.js';
import type { JobQueue, Pacer, Storage } from './storage/index.js';
import type { Logger } from './logger.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { OutboundHttp } from './net/outbound-http.js';
import type { VotePubSub } from './live/vote-events.js';
import type { Feed } from './live/feed.js';
import { createRateLimits, type RateLimits } from './auth/rate-limits.js';
import { createSecretBox, resolveSecretKey } from './crypto/secret-box.js';
import { createFeed } from './live/feed.js';
import { createVotePubSub } from './live/vote-events.js';
import { createOutboundHttp } from './net/outbound-http.js';
import type { Resolver } from './net/ssrf-guard.js';
import type { Redis } from 'ioredis';
import { createMetrics, type MetricsRecorder } from './metrics/metrics.js';
import { createHookObservers, type HookObservers } from './modules/hook-requests/observation.js';
import { createDeliveryHandoff, type DeliveryHandoff } from './delivery/handoff.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppDeps {
  config: Config;
  db: Storage;
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
  /** The delivery job queue of this database (every job insert, claim and status change). */
  jobs: JobQueue;
  /** Slots of paced callbacks (max_per_second), shared by every instance on PostgreSQL. */
  pacer: Pacer;
  /** Prometheus counts (src/metrics/): the app's registry, or relayed to it from a worker thread. */
  metrics: MetricsRecorder;
  /** Every hook request's and Votifier session's outcome, told to the request log and the operator's log. */
  hookObservers: HookObservers;
  /** A committed vote's jobs to this process's delivery worker, leased to it (the fast path). */
  handoff: DeliveryHandoff;
}

export interface DepsOptions {
  logger: Logger;
  clock?: Clock;
  resolver?: Resolver;
  /** Shared rate-limit counters (the app's Redis connection); in memory without it. */
  rateLimitRedis?: Redis | null;
  /** The live feed across instances: REDIS_URL for the app, none for one-shot commands. */
  feedRedisUrl?: string | null;
  /** Where counts go (the app's registry; a relay in a worker thread); a registry of its own otherwise. */
  metrics?: MetricsRecorder;
}

/** The one place dependencies are assembled: the app, the CLI, and through them the benchmarks and the test kit. */
export function createDeps(config: Config, db: Storage, options: DepsOptions): AppDeps {
  return {
    config,
    db,
    logger: options.logger,
    secrets: createSecretBox(resolveSecretKey(config)),
    clock: options.clock ?? systemClock,
    http: createOutboundHttp({ privateTargets: config.privateTargets, resolver: options.resolver }),
    events: createVotePubSub(),
    feed: createFeed(options.feedRedisUrl ?? null, options.logger),
    limits: createRateLimits(config, options.rateLimitRedis ?? null),
    jobs: db.jobs,
    pacer: db.pacer,
    metrics: options.metrics ?? createMetrics(),
    handoff: createDeliveryHandoff(),
    hookObservers: createHookObservers((err) => options.logger.error({ err }, 'a hook request watcher failed')),
  };
}
