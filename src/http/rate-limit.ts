// The /v1 and /graphql request budget as Express middleware (the budgets themselves: src/auth/rate-limits.ts).
import type { NextFunction, Request, Response } from 'express';
import { takePoint, type RateLimits } from '../auth/rate-limits.js';
import { sendError, sendGraphQLError } from './error-response.js';

/** /v1 and /graphql: the organization's budget when authenticated, the client IP's otherwise. */
export function apiRateLimit(limits: RateLimits, shape: 'rest' | 'graphql' = 'rest') {
  return async (req: Request, res: Response, next: NextFunction) => {
    const auth = req.auth;
    const organizationId = auth?.kind === 'viewer' ? auth.viewer.organizationId : auth?.kind === 'plugin' ? auth.plugin.organizationId : null;
    const outcome = organizationId ? await takePoint(limits.api, organizationId) : await takePoint(limits.ip, req.ip ?? 'unknown');
    res.setHeader('X-RateLimit-Limit', String(outcome.limit));
    res.setHeader('X-RateLimit-Remaining', String(outcome.allowed ? outcome.remaining : 0));
    res.setHeader('X-RateLimit-Reset', String(outcome.resetSeconds));
    if (!outcome.allowed) {
      return (shape === 'rest' ? sendError : sendGraphQLError)(
        res,
        req.requestId,
        'RATE_LIMITED',
        `Too many requests; retry in ${outcome.retryAfterSeconds} s`,
        {
          retry_after_seconds: outcome.retryAfterSeconds,
        },
      );
    }
    next();
  };
}
