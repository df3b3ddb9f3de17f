// Request rate limits: per organization once the caller is known, per client IP otherwise (rate-limiter-flexible).
import type { NextFunction, Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { sendError } from './error-response.js';

export interface RateLimits {
  api: RateLimiterAbstract;
  hooks: RateLimiterAbstract;
  ip: RateLimiterAbstract;
}

export function createMemoryRateLimits(perMinute: { api: number; hooks: number; ip: number }): RateLimits {
  return {
    api: new RateLimiterMemory({ keyPrefix: 'api', points: perMinute.api, duration: 60 }),
    hooks: new RateLimiterMemory({ keyPrefix: 'hooks', points: perMinute.hooks, duration: 60 }),
    ip: new RateLimiterMemory({ keyPrefix: 'ip', points: perMinute.ip, duration: 60 }),
  };
}

/** Shared by every instance through Redis; while Redis is down each instance falls back to its own counters. */
export function createRedisRateLimits(redis: Redis, perMinute: { api: number; hooks: number; ip: number }): RateLimits {
  const make = (keyPrefix: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `vote-relay:rl:${keyPrefix}`,
      points,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: 60 }),
    });
  return { api: make('api', perMinute.api), hooks: make('hooks', perMinute.hooks), ip: make('ip', perMinute.ip) };
}

export type LimitOutcome =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; retryAfterSeconds: number; resetSeconds: number };

/** Takes one point; a limiter store failure lets the request through (availability over strictness). */
export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<LimitOutcome> {
  const limit = limiter.points;
  try {
    const res = await limiter.consume(key, 1);
    return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: Math.ceil((Date.now() + res.msBeforeNext) / 1000) };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      return { allowed: false, limit, retryAfterSeconds, resetSeconds: Math.ceil((Date.now() + err.msBeforeNext) / 1000) };
    }
    return { allowed: true, limit, remaining: limit, resetSeconds: Math.ceil(Date.now() / 1000) + 60 };
  }
}

export function rejectRateLimited(req: Request, res: Response, outcome: Extract<LimitOutcome, { allowed: false }>): void {
  res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
  sendError(res, req.requestId, 'RATE_LIMITED', `Too many requests; retry in ${outcome.retryAfterSeconds} s`, {
    retry_after_seconds: outcome.retryAfterSeconds,
  });
}

/** /v1 and /graphql: the organization's budget when authenticated, the client IP's otherwise. */
export function apiRateLimit(limits: RateLimits) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const auth = req.auth;
    const organizationId = auth?.kind === 'viewer' ? auth.viewer.organizationId : auth?.kind === 'plugin' ? auth.plugin.organizationId : null;
    const outcome = organizationId ? await takePoint(limits.api, organizationId) : await takePoint(limits.ip, req.ip ?? 'unknown');
    res.setHeader('X-RateLimit-Limit', String(outcome.limit));
    res.setHeader('X-RateLimit-Remaining', String(outcome.allowed ? outcome.remaining : 0));
    res.setHeader('X-RateLimit-Reset', String(outcome.resetSeconds));
    if (!outcome.allowed) return rejectRateLimited(req, res, outcome);
    next();
  };
}

/** Hooks: the organization named in the URL; a site that is told 429 retries later, so nothing is lost. */
export function hookRateLimit(limits: RateLimits) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const orgSlug = req.path.split('/')[1] ?? '';
    const outcome = await takePoint(limits.hooks, orgSlug);
    if (!outcome.allowed) return rejectRateLimited(req, res, outcome);
    next();
  };
}
