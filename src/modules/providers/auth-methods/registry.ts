// Every hook auth method, by name. Adding one = one file beside this (field rules, verify, webhook URL shape) plus
// its tests, and a line here.
import type { AuthConfig, AuthMethod, AuthMethodDefinition } from './auth-method.js';
import { headerMethod } from './header.js';
import { queryMethod } from './query.js';
import { urlPathMethod } from './url-path.js';
import { hmacMethod } from './hmac.js';
import { votifierMethod } from './votifier.js';

export const AUTH_METHODS: Record<AuthMethod, AuthMethodDefinition> = {
  header: headerMethod,
  url_path: urlPathMethod,
  query: queryMethod,
  hmac: hmacMethod,
  votifier: votifierMethod,
};

export const AUTH_METHOD_NAMES = Object.keys(AUTH_METHODS) as AuthMethod[];

export function authMethodOf(name: string): AuthMethodDefinition | undefined {
  return Object.hasOwn(AUTH_METHODS, name) ? AUTH_METHODS[name as AuthMethod] : undefined;
}

/** The inbound URL of interface §2.4 (with `secret`: the one to paste into the site). */
export function providerWebhookUrl(hookBaseUrl: string, orgSlug: string, provider: { key: string } & AuthConfig, secret?: string): string {
  const base = `${hookBaseUrl}/${encodeURIComponent(orgSlug)}/${encodeURIComponent(provider.key)}`;
  return authMethodOf(provider.authMethod)?.webhookUrl(base, provider, secret) ?? base;
}
