// The JSON API's answer to a body it cannot read: express.json parses only `Content-Type: application/json`, and
// leaves a form (curl -d), text/plain (fetch with a string body) or an undeclared body unread. Without this check
// such a write would run as if nothing had been sent and answer "name: is required", which points the wrong way.
import type { Request } from 'express';
import type { FieldError } from '../base/errors.js';

export const SEND_JSON = 'send JSON (Content-Type: application/json)';

/** A body was sent that express.json did not parse; null when there is none or it was JSON. */
export function unreadBody(req: Request): { message: string; details: FieldError[] } | null {
  if (req.body !== undefined) return null;
  const length = req.headers['content-length'];
  const sent = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!sent) return null;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
  return {
    message: `The body is ${type ? type : 'of no declared type'}: ${SEND_JSON}`,
    details: [{ field: 'body', message: SEND_JSON }],
  };
}
