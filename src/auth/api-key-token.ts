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
