// API key and plugin token values: generated once, shown once, stored only as a SHA-256 hash.
// The values carry 192 random bits, so a fast hash is enough (no password stretching needed), and lookup by
// hash means no secret is ever compared in application code.
import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'vr_live_';
export const PLUGIN_TOKEN_PREFIX = 'vr_plugin_';
const DISPLAY_PREFIX_LENGTH = 16;

export interface GeneratedToken {
  value: string;
  prefix: string;
  hash: string;
}

export function hashToken(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function generateToken(kindPrefix: string): GeneratedToken {
  const value = kindPrefix + randomBytes(24).toString('base64url'); // 32 URL-safe characters
  return { value, prefix: value.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashToken(value) };
}

/** Reads `Authorization: Bearer <token>`; undefined when the header is absent. */
export function bearerToken(header: string | undefined): string | undefined {
  // No header, an empty one, or a bare `Bearer ` (GraphiQL's header template before a key is pasted) is no credential.
  if (header === undefined || /^\s*(?:Bearer)?\s*$/i.test(header)) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

/** Headers some clients use for a key, which this service does not read. */
const OTHER_KEY_HEADERS = ['x-api-key', 'api-key', 'x-api-token', 'x-auth-token'];
const SEND_BEARER = 'send the key as Authorization: Bearer <key>';

/**
 * Why a credential sent another way than `Authorization: Bearer <key>` was not read, for the refusal to say (a
 * bare key, another scheme such as `Token` or `Basic`, or a key in X-API-Key); undefined when it was sent right.
 */
export function credentialHint(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && bearerToken(authorization) === '') {
    const value = authorization.trim();
    if (/^Bearer\b/i.test(value)) return undefined; // the scheme is right; the key itself is malformed
    if (value.startsWith(API_KEY_PREFIX) || value.startsWith(PLUGIN_TOKEN_PREFIX))
      return `the Authorization header holds the key without "Bearer ": ${SEND_BEARER}`;
    const scheme = /^([A-Za-z][\w.+-]*)\s/.exec(value)?.[1];
    return scheme ? `the Authorization header uses the ${scheme} scheme: ${SEND_BEARER}` : `the Authorization header has no Bearer scheme: ${SEND_BEARER}`;
  }
  if (authorization === undefined) {
    const other = OTHER_KEY_HEADERS.find((name) => headers[name] !== undefined);
    if (other) return `the key was sent in ${other}, which is not read: ${SEND_BEARER}`;
  }
  return undefined;
}
