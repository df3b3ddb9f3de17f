// Provider secrets: generated (32 random bytes, URL-safe) or pasted; sealed at rest with SECRET_KEY.
import { randomBytes } from 'node:crypto';

export function generateProviderSecret(): string {
  return randomBytes(32).toString('base64url');
}

export type AuthMethod = 'header' | 'url_path' | 'query' | 'hmac';
export const AUTH_METHODS: readonly AuthMethod[] = ['header', 'url_path', 'query', 'hmac'];

/**
 * The inbound URL of interface §2.4. With `secret`, the URL a user pastes into the voting site: the secret in
 * the query (`query`) or as the last path segment (`url_path`). Without it, the URL shown in lists.
 */
export function providerWebhookUrl(
  hookBaseUrl: string,
  orgSlug: string,
  provider: { key: string; authMethod: string; authField: string },
  secret?: string,
): string {
  const base = `${hookBaseUrl}/${encodeURIComponent(orgSlug)}/${encodeURIComponent(provider.key)}`;
  if (secret === undefined) return base;
  if (provider.authMethod === 'query') return `${base}?${new URLSearchParams({ [provider.authField]: secret })}`;
  if (provider.authMethod === 'url_path') return `${base}/${encodeURIComponent(secret)}`;
  return base;
}
