// Reads the caller from `Authorization: Bearer <key>` once per request; access rules are checked per field.
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../services.js';

export function authenticate(services: Services) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.auth = await services.apiKeys.authenticate(req.get('authorization'));
    next();
  };
}
