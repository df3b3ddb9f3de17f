// Per-request state the HTTP layer attaches once: the request id and the caller read from Authorization.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { AuthState } from '../auth/access.js';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    auth?: AuthState;
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Honours a sane incoming X-Request-Id (for tracing through proxies), else makes one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('x-request-id');
  req.requestId = incoming && INCOMING_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
