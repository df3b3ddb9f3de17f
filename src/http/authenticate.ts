// Reads the caller from `Authorization: Bearer <key>` once per request; access rules are checked per field.
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../services.js';
import { sendGraphQLError } from './error-response.js';

export function authenticate(services: Services) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.auth = await services.apiKeys.authenticate(req.get('authorization'));
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
  sendGraphQLError(res, req.requestId, 'INVALID_API_KEY', 'The API key is invalid, malformed or revoked');
}
