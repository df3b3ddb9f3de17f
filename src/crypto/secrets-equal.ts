// Comparing a secret someone sent with the one we hold, in constant time: the provider auth methods (header, query,
// URL path) and the metrics endpoint's bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Equal-length digests first, so neither the secret's length nor its content leaks through timing. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
