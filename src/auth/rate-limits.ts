// Request budgets (rate-limiter-flexible), in memory or shared through Redis: per organization once the caller
// is known, per client address otherwise. The HTTP middlewares (src/http/rate-limit.ts) and the hook path
// (modules/votes/ingest.service.ts) both spend from these.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Config } from '../config/config.js';

export interface RateLimits {
  /** /v1 and /graphql calls per organization. */
  api: RateLimiterAbstract;
  /** Authenticated hook deliveries per organization. */
  hooks: RateLimiterAbstract;
  /** Unauthenticated calls, and refused hook deliveries, per client address. */
  ip: RateLimiterAbstract;
  /** Refused hook deliveries per (client address, organization slug). */
  hookFailures: RateLimiterAbstract;
  /** The players' vote pages (README "Vote page") per client address: a budget of their own, apart from hooks. */
  votePage: RateLimiterAbstract;
}

const budgets = (config: Config) => ({
  api: config.apiRateLimitPerMinute,
  hooks: config.hookRateLimitPerMinute,
  ip: config.ipRateLimitPerMinute,
  hookFailures: config.hookFailureLimitPerMinute,
  votePage: config.votePageRateLimitPerMinute,
});

/** Counted by this process alone, or shared by every instance through Redis (falling back to memory while it is down). */
export function createRateLimits(config: Config, redis: Redis | null): RateLimits {
  const make = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: 60 });
    if (!redis) return memory;
    return new RateLimiterRedis({ storeClient: redis, keyPrefix: `vote-relay:rl:${keyPrefix}`, points, duration: 60, insuranceLimiter: memory });
  };
  const perMinute = budgets(config);
  return {
    api: make('api', perMinute.api),
    hooks: make('hooks', perMinute.hooks),
    ip: make('ip', perMinute.ip),
    hookFailures: make('hook-failures', perMinute.hookFailures),
    votePage: make('vote-page', perMinute.votePage),
  };
}

export type LimitOutcome =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; retryAfterSeconds: number; resetSeconds: number };

const denied = (limit: number, msBeforeNext: number): LimitOutcome => ({
  allowed: false,
  limit,
  retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  resetSeconds: Math.ceil((Date.now() + msBeforeNext) / 1000),
});

/** Takes one point; a limiter store failure lets the request through (availability over strictness). */
export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<LimitOutcome> {
  const limit = limiter.points;
  try {
    const res = await limiter.consume(key, 1);
    return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: Math.ceil((Date.now() + res.msBeforeNext) / 1000) };
  } catch (err) {
    if (err instanceof RateLimiterRes) return denied(limit, err.msBeforeNext);
    return { allowed: true, limit, remaining: limit, resetSeconds: Math.ceil(Date.now() / 1000) + 60 };
  }
}

/** Whether `key` has points left, without spending one (a budget spent only by failures is checked this way). */
export async function peekPoint(limiter: RateLimiterAbstract, key: string): Promise<LimitOutcome> {
  const limit = limiter.points;
  try {
    const res = await limiter.get(key);
    if (res && res.consumedPoints >= limit) return denied(limit, res.msBeforeNext);
    return {
      allowed: true,
      limit,
      remaining: limit - (res?.consumedPoints ?? 0),
      resetSeconds: Math.ceil((Date.now() + (res?.msBeforeNext ?? 60_000)) / 1000),
    };
  } catch {
    return { allowed: true, limit, remaining: limit, resetSeconds: Math.ceil(Date.now() / 1000) + 60 };
  }
}
