// Verifies an inbound vote delivery against its provider's secret (decisions.md §4): header, query, url_path
// and hmac (raw body; `<ts>.<body>` with a timestamp header; top.gg's `t=<unix>,v1=<hex>`). Constant-time.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface HookAuthProvider {
  authMethod: string;
  authField: string;
  authTimestampField: string | null;
}

export interface HookAuthRequest {
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  pathSecret: string | undefined;
  rawBody: Buffer;
}

export type HookAuthResult = { ok: true } | { ok: false; reason: string };

/** A signed timestamp may be this far from now, either way (replayed or clock-skewed deliveries). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Equal-length digests first, so neither the secret's length nor its content leaks through timing. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function decodeSignature(value: string): Buffer | null {
  const text = value.trim().replace(/^sha256=/i, '');
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

function hmacMatches(secret: string, content: Buffer, signature: Buffer): boolean {
  const expected = createHmac('sha256', secret).update(content).digest();
  return timingSafeEqual(expected, signature);
}

/** Unix seconds from a header; milliseconds are accepted too (some sites send them). */
function parseTimestamp(value: string | undefined): number | null {
  if (!value || !/^\d{9,14}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n > 1e12 ? Math.floor(n / 1000) : n;
}

function withinTolerance(timestamp: number, nowMs: number): boolean {
  return Math.abs(nowMs / 1000 - timestamp) <= SIGNATURE_TOLERANCE_SECONDS;
}

export function verifyHookAuth(provider: HookAuthProvider, secret: string, req: HookAuthRequest, nowMs: number): HookAuthResult {
  const field = provider.authField.toLowerCase();
  switch (provider.authMethod) {
    case 'header': {
      const value = req.headers[field];
      if (!value) return { ok: false, reason: `missing ${provider.authField} header` };
      return secretsEqual(value.replace(/^Bearer\s+/i, ''), secret) ? { ok: true } : { ok: false, reason: 'wrong secret' };
    }
    case 'query': {
      const value = req.query[provider.authField];
      if (!value) return { ok: false, reason: `missing ${provider.authField} query parameter` };
      return secretsEqual(value, secret) ? { ok: true } : { ok: false, reason: 'wrong secret' };
    }
    case 'url_path': {
      if (!req.pathSecret) return { ok: false, reason: 'missing secret path segment' };
      return secretsEqual(req.pathSecret, secret) ? { ok: true } : { ok: false, reason: 'wrong secret' };
    }
    case 'hmac': {
      const header = req.headers[field];
      if (!header) return { ok: false, reason: `missing ${provider.authField} header` };
      // top.gg: `t=<unix>,v1=<hex>` over `<t>.<body>`
      const stamped = /^\s*t=(\d+)\s*,\s*v1=([0-9a-fA-F]{64})\s*$/.exec(header);
      if (stamped) {
        const t = Number(stamped[1]);
        if (!withinTolerance(t, nowMs)) return { ok: false, reason: 'signature timestamp outside the 5-minute window' };
        const content = Buffer.concat([Buffer.from(`${stamped[1]}.`), req.rawBody]);
        return hmacMatches(secret, content, Buffer.from(stamped[2], 'hex')) ? { ok: true } : { ok: false, reason: 'bad signature' };
      }
      const signature = decodeSignature(header);
      if (!signature) return { ok: false, reason: 'malformed signature' };
      if (provider.authTimestampField) {
        const raw = req.headers[provider.authTimestampField.toLowerCase()];
        const t = parseTimestamp(raw);
        if (t === null) return { ok: false, reason: `missing or malformed ${provider.authTimestampField} header` };
        if (!withinTolerance(t, nowMs)) return { ok: false, reason: 'signature timestamp outside the 5-minute window' };
        const content = Buffer.concat([Buffer.from(`${raw!.trim()}.`), req.rawBody]);
        return hmacMatches(secret, content, signature) ? { ok: true } : { ok: false, reason: 'bad signature' };
      }
      return hmacMatches(secret, req.rawBody, signature) ? { ok: true } : { ok: false, reason: 'bad signature' };
    }
    default:
      return { ok: false, reason: 'unknown auth method' };
  }
}
