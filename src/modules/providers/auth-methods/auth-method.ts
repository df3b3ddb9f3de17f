// What a hook auth method is (one file per method beside this one, listed in registry.ts), and the rule they all
// follow: a method hands on only what the secret vouches for, and the vote is read from that alone.
import type { FieldError } from '../../../base/errors.js';

/**
 * Where a provider's votes are read from, declared once per provider: a JSON body, a form body, or the query
 * string (GET-style lists). Nothing else of the request is ever read as the vote.
 */
export type PayloadSource = 'json' | 'form' | 'query';
export const PAYLOAD_SOURCES: readonly PayloadSource[] = ['json', 'form', 'query'];

/**
 * hmac only: `plain` = HMAC-SHA256 over the raw body, or over `<timestamp>.<body>` when the provider names an
 * `auth_timestamp_field` (then mandatory); `topgg` = only `t=<unix>,v1=<hex>` over `<t>.<body>`.
 */
export type SignatureFormat = 'plain' | 'topgg';
export const SIGNATURE_FORMATS: readonly SignatureFormat[] = ['plain', 'topgg'];

export type AuthMethod = 'header' | 'url_path' | 'query' | 'hmac' | 'votifier';

/** The provider's settings a method reads. */
export interface AuthConfig {
  authMethod: string;
  authField: string;
  authTimestampField: string | null;
  signatureFormat: string | null;
  payloadSource: string;
}

/**
 * A hook request as received, the one shape every entry hands to ingest and ingest to an auth method: header names
 * lower-cased, the first value of each query parameter, the exact body.
 */
export interface HookRequest {
  /** Upper-case. */
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
  /** The secret segment at the end of the hook URL (`url_path` providers), where the URL has one. */
  pathSecret?: string;
  /** Only from the Votifier TCP listener (never from an HTTP request): the session's protocol and challenge. */
  votifier?: VotifierSession;
  /** The request path as received (the request log redacts its secret segments); absent on /graphql. */
  path?: string;
}

export interface VotifierSession {
  protocol: 1 | 2;
  challenge: string;
}

/** What the sender's secret vouches for: the only thing a vote is read from. */
export type AuthenticatedContent =
  | {
      source: 'json' | 'form';
      body: Buffer;
      /** the bytes themselves are signed (hmac, votifier) */
      signed: boolean;
      /** What makes two deliveries the same vote when it is not the whole body (Votifier: service, username, timestamp). */
      sameVoteKey?: string;
    }
  | { source: 'query'; params: Record<string, string> };

export type Verification =
  | { ok: true; content: AuthenticatedContent }
  | { ok: false; code: 'AUTH_FAILED' | 'VALIDATION_ERROR'; reason: string; field?: string };

export interface AuthMethodDefinition {
  name: AuthMethod;
  /** The payload sources this method can vouch for. */
  payloadSources: readonly PayloadSource[];
  defaultPayloadSource: PayloadSource;
  /** What auth_field names for this method, said when it is missing ("the header the site sends its secret in"). */
  authFieldIs: string;
  /** Field rules of this method for a whole provider configuration (REST field names in the errors). */
  check(config: AuthConfig): FieldError[];
  verify(config: AuthConfig, secret: string, request: HookRequest, nowMs: number): Verification;
  /** The inbound URL; with `secret`, the one a user pastes into the site (interface §2.4). */
  webhookUrl(base: string, config: AuthConfig, secret?: string): string;
  /**
   * What a site adds to a delivery of `body` to prove it (the dashboard's "send a test vote" sends a template's
   * example this way). `style` is the template's way of writing an hmac digest (`sha256_hex`: `sha256=<hex>`).
   */
  authenticate(config: AuthConfig, secret: string, body: Buffer, nowSeconds: number, style?: string | null): SiteProof;
}

export interface SiteProof {
  headers: Record<string, string>;
  query: Record<string, string>;
  pathSecret?: string;
  /** When the site sends its own body rather than the example (Votifier wraps it in a signed message). */
  body?: Buffer;
}

export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export const refused = (reason: string): Verification => ({ ok: false, code: 'AUTH_FAILED', reason });

export function headerNameProblems(config: AuthConfig): FieldError[] {
  return HEADER_NAME.test(config.authField) ? [] : [{ field: 'auth_field', message: 'must be a valid HTTP header name' }];
}

/** Settings that only hmac providers have, refused elsewhere so a configuration never looks signed when it is not. */
export function unsignedProblems(config: AuthConfig): FieldError[] {
  const problems: FieldError[] = [];
  if (config.authTimestampField) problems.push({ field: 'auth_timestamp_field', message: 'applies only to hmac providers' });
  if (config.signatureFormat) problems.push({ field: 'signature_format', message: 'applies only to hmac providers' });
  return problems;
}

/**
 * For methods whose secret travels beside the vote (header, query, url_path): the content is the provider's one
 * declared source. A body source never reads a GET (its body is not part of the delivery); a query source never
 * reads the body, and never keeps the parameter that carried the secret.
 */
export function declaredContent(config: AuthConfig, request: HookRequest, secretParam?: string): Verification {
  if (config.payloadSource === 'query') {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.query)) if (typeof value === 'string' && name !== secretParam) params[name] = value;
    return { ok: true, content: { source: 'query', params } };
  }
  if (request.method === 'GET') {
    return {
      ok: false,
      code: 'VALIDATION_ERROR',
      field: 'method',
      reason: `this provider reads votes from a POSTed ${config.payloadSource} body; a GET is not read`,
    };
  }
  return { ok: true, content: { source: config.payloadSource as 'json' | 'form', body: request.rawBody, signed: false } };
}
