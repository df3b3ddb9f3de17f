// Provider secrets: generated (32 random bytes, URL-safe) or pasted; sealed at rest with SECRET_KEY.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export function generateProviderSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A pasted secret: 8 to 500 characters, no surrounding spaces and no control characters. Header values arrive
 * trimmed, so a secret of spaces could never be sent, and one of eight spaces is no secret at all.
 */
export const pastedSecretSchema = z
  .string()
  .min(8, 'must be at least 8 characters (or "auto")')
  .max(500)
  .refine((v) => v.trim() === v, 'must not start or end with spaces')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');
