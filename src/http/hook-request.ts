// A hook request as Express received it, as the one HookRequest (src/modules/providers/auth-methods/auth-method.ts): the hook
// route hands it to receiveVote, and the handler of unreadable bodies (hook-unreadable.ts) tells the hook watchers about it.
import type { Request } from 'express';
import type { HookRequest } from '../modules/providers/auth-methods/auth-method.js';

/** Node lower-cases header names already; repeated headers are joined as HTTP allows; the first of a repeated query name counts. */
export function hookRequest(req: Request): HookRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(req.originalUrl.split('?')[1] ?? '')) query[name] ??= value;
  return {
    method: req.method.toUpperCase(),
    headers,
    query,
    rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    path: req.originalUrl.split('?')[0],
  };
}
