// The one place the service's dependencies (AppDeps, deps.ts) are put together from their concrete parts: the app,
// the delivery thread, the CLI, and through them the benchmarks and the test kit.
import type { Config } from '../config/config.js';
import type { Storage } from '../storage/index.js';
import type { Logger } from '../base/logger.js';
import type { Resolver } from '../net/ssrf-guard.js';
import type { Redis } from 'ioredis';
import { createRateLimits } from '../auth/rate-limits.js';
import { createSecretBox, resolveSecretKey } from '../crypto/secret-box.js';
import { createFeed } from '../live/feed.js';
import { createVotePubSub } from '../live/vote-events.js';
import { createOutboundHttp } from '../net/outbound-http.js';
import { createMetrics, type MetricsRecorder } from '../metrics/metrics.js';
import { createHookObservers } from '../modules/hook-requests/observation.js';
import { createDeliveryHandoff } from '../delivery/handoff.js';
import type { AppDeps, Clock } from './deps.js';

export const systemClock: Clock = { now: () => new Date() };

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
