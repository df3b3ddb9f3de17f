// Writes the REST error envelope with the status from the one code table.
import type { Response } from 'express';
import { ERROR_STATUS, errorBody, type ErrorCode } from '../base/errors.js';

export function sendError(res: Response, requestId: string, code: ErrorCode, message: string, details?: unknown): void {
  if (res.headersSent) return;
  // A database outage passes: tell clients (voting sites retry 5xx anyway) when to try again.
  if (code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', '5');
  const retryAfter = (details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  if (code === 'RATE_LIMITED' && typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  res.status(ERROR_STATUS[code]).json(errorBody(code, message, requestId, details));
}

/**
 * /graphql's refusals before GraphQL runs (bad key, rate limit, body too large or too deep): the table's status,
 * in GraphQL's response shape so GraphQL clients read them like any other error.
 */
export function sendGraphQLError(res: Response, requestId: string, code: ErrorCode, message: string, details?: unknown): void {
  if (res.headersSent) return;
  const retryAfter = (details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  if (code === 'RATE_LIMITED' && typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  if (code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', '5');
  res.status(ERROR_STATUS[code]).json({ errors: [{ message, extensions: { code, ...(details === undefined ? {} : { details }), request_id: requestId } }] });
}

/** body-parser's errors (bad JSON, too large, bad charset) in our vocabulary; null for anything else. */
export function bodyParserError(err: unknown): { code: ErrorCode; message: string; details?: unknown } | null {
  const e = err as { type?: string; status?: number; limit?: number; encoding?: string; code?: string; errno?: number };
  // A body that is not the Content-Encoding it names (gzip on plain text, say): zlib's error, passed on as a 400.
  if (typeof e?.code === 'string' && /^Z_|^ERR_ZLIB|^ERR__?BROTLI/.test(e.code)) {
    return {
      code: 'VALIDATION_ERROR',
      message: 'The body is not what its Content-Encoding says: it could not be decompressed',
      details: [
        { field: 'content-encoding', message: 'does not match the body: send the body as it is without Content-Encoding, or compress it as the header says' },
      ],
    };
  }
  switch (e?.type) {
    case 'entity.too.large':
      return { code: 'PAYLOAD_TOO_LARGE', message: `Request body is larger than ${e.limit} bytes` };
    case 'entity.parse.failed':
      return { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON', details: [{ field: 'body', message: 'is not valid JSON' }] };
    case 'encoding.unsupported':
      return {
        code: 'VALIDATION_ERROR',
        message: `Content-Encoding "${e.encoding ?? 'unknown'}" is not one Vote Relay reads`,
        details: [
          { field: 'content-encoding', message: `is "${e.encoding ?? 'unknown'}": send the body uncompressed, or compressed with gzip, deflate or br` },
        ],
      };
    case 'charset.unsupported':
      return {
        code: 'VALIDATION_ERROR',
        message: 'Unsupported body charset',
        details: [{ field: 'content-type', message: 'names a charset Vote Relay does not read: send UTF-8' }],
      };
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return { code: 'VALIDATION_ERROR', message: 'Request body could not be read', details: [{ field: 'body', message: 'could not be read' }] };
    default:
      // Anything else Express or body-parser raised as a client error (bad percent-encoding in the path, a
      // Content-Encoding the body does not match, …) is the client's, never a 500.
      if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
        if (e.status === 413) return { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' };
        return { code: 'VALIDATION_ERROR', message: 'Malformed request', details: [{ field: 'request', message: 'could not be decoded' }] };
      }
      return null;
  }
}
