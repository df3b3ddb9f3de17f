// Refuses parsed JSON bodies nested deeper than MAX_JSON_DEPTH before any handler sees them (templates,
// GraphQL variables, every /v1 body): VALIDATION_ERROR in the REST envelope, or as a GraphQL error on /graphql.
import type { NextFunction, Request, Response } from 'express';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../base/json-depth.js';
import { sendError, sendGraphQLError } from './error-response.js';

const MESSAGE = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
const DETAILS = [{ field: 'body', message: `is nested deeper than ${MAX_JSON_DEPTH} levels` }];

export function jsonDepthGuard(shape: 'rest' | 'graphql') {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!exceedsJsonDepth(req.body)) return next();
    (shape === 'rest' ? sendError : sendGraphQLError)(res, req.requestId, 'VALIDATION_ERROR', MESSAGE, DETAILS);
  };
}
