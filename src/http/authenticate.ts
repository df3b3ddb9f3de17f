// Reads the caller from `Authorization: Bearer <key>` once per request; access rules are checked per field. A key
// sent another way (no `Bearer `, `Token …`, X-API-Key) is not read, and the refusal says how to send it.
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../app/services.js';
import { sendGraphQLError } from './error-response.js';
import { credentialHint } from '../auth/api-key-token.js';
import { invalidApiKey } from '../auth/access.js';

export function authenticate(services: Services) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const auth = await services.apiKeys.authenticate(req.get('authorization'));
    const hint = auth.kind === 'anonymous' || auth.kind === 'invalid' ? credentialHint(req.headers) : undefined;
    req.auth = hint && (auth.kind === 'anonymous' || auth.kind === 'invalid') ? { kind: auth.kind, hint } : auth;
    next();
  };
}

/**
 * /graphql: a key that is unknown, malformed or revoked is refused before GraphQL runs (401, in GraphQL's error
 * shape), so a client learns at once that its credential is wrong. No key at all is not refused here: public
 * fields (templates, receiveVote) answer, and protected ones come back null with AUTH_REQUIRED.
 */
export function refuseInvalidKey(req: Request, res: Response, next: NextFunction) {
  if (req.auth?.kind !== 'invalid') return next();
  const error = invalidApiKey(req.auth.hint);
  sendGraphQLError(res, req.requestId, error.code, error.message);
}
