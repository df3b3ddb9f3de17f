// `hmac`: the header named auth_field carries HMAC-SHA256 of the exact body bytes, in the provider's one fixed
// signature format (the README's Inbound hooks). The signed bytes are all that is handed on: no query string, no GET.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { headerNameProblems, refused, SIGNATURE_FORMATS, type AuthMethodDefinition } from './auth-method.js';

/** A signed timestamp may be this far from now, either way (replayed or clock-skewed deliveries). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const TOPGG = /^\s*t=(\d{1,15})\s*,\s*v1=([0-9a-fA-F]{64})\s*$/;

function decodeDigest(value: string): Buffer | null {
  const text = value.trim().replace(/^sha256=/i, '');
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

const signedBy = (secret: string, content: Buffer, digest: Buffer) => timingSafeEqual(createHmac('sha256', secret).update(content).digest(), digest);

/** Unix seconds from a header; milliseconds are accepted too (some sites send them). */
function parseTimestamp(value: string | undefined): number | null {
  if (!value || !/^\d{9,14}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n > 1e12 ? Math.floor(n / 1000) : n;
}

const withinTolerance = (timestamp: number, nowMs: number) => Math.abs(nowMs / 1000 - timestamp) <= SIGNATURE_TOLERANCE_SECONDS;
const stale = refused(`signature timestamp outside the ${SIGNATURE_TOLERANCE_SECONDS / 60}-minute window`);

export const hmacMethod: AuthMethodDefinition = {
  name: 'hmac',
  // A signature covers body bytes; a query string is never signed by any site we know, so it cannot be a source.
  payloadSources: ['json', 'form'],
  defaultPayloadSource: 'json',
  authFieldIs: 'the header that carries the signature (e.g. X-Signature)',
  check(config) {
    const problems = headerNameProblems(config);
    if (!SIGNATURE_FORMATS.includes(config.signatureFormat as never)) {
      problems.push({ field: 'signature_format', message: `must be one of ${SIGNATURE_FORMATS.join(', ')}` });
    } else if (config.signatureFormat === 'topgg' && config.authTimestampField) {
      problems.push({ field: 'auth_timestamp_field', message: 'must be empty with signature_format topgg (the timestamp is inside the signature header)' });
    }
    return problems;
  },
  verify(config, secret, request, nowMs) {
    if (request.method === 'GET') return refused('signed deliveries must be POSTed with the signed body');
    const header = request.headers[config.authField.toLowerCase()];
    if (!header) return refused(`missing ${config.authField} header`);
    const body = request.rawBody;
    const vouched = { ok: true as const, content: { source: config.payloadSource as 'json' | 'form', body, signed: true } };

    if (config.signatureFormat === 'topgg') {
      const stamped = TOPGG.exec(header);
      if (!stamped) return refused('malformed signature: expected t=<unix>,v1=<hex>');
      if (!withinTolerance(Number(stamped[1]), nowMs)) return stale;
      const content = Buffer.concat([Buffer.from(`${stamped[1]}.`), body]);
      return signedBy(secret, content, Buffer.from(stamped[2], 'hex')) ? vouched : refused('bad signature');
    }
    const digest = decodeDigest(header);
    if (!digest) return refused('malformed signature');
    if (config.authTimestampField) {
      const raw = request.headers[config.authTimestampField.toLowerCase()];
      const t = parseTimestamp(raw);
      if (t === null) return refused(`missing or malformed ${config.authTimestampField} header`);
      if (!withinTolerance(t, nowMs)) return stale;
      return signedBy(secret, Buffer.concat([Buffer.from(`${raw!.trim()}.`), body]), digest) ? vouched : refused('bad signature');
    }
    return signedBy(secret, body, digest) ? vouched : refused('bad signature');
  },
  webhookUrl: (base) => base,
  authenticate(config, secret, body, nowSeconds, style) {
    const header = config.authField.toLowerCase();
    const hex = (content: Buffer) => createHmac('sha256', secret).update(content).digest('hex');
    const stamped = Buffer.concat([Buffer.from(`${nowSeconds}.`), body]);
    if (config.signatureFormat === 'topgg') return { headers: { [header]: `t=${nowSeconds},v1=${hex(stamped)}` }, query: {} };
    if (config.authTimestampField) {
      return { headers: { [header]: `sha256=${hex(stamped)}`, [config.authTimestampField.toLowerCase()]: String(nowSeconds) }, query: {} };
    }
    return { headers: { [header]: style === 'sha256_hex' ? `sha256=${hex(body)}` : hex(body) }, query: {} };
  },
};
