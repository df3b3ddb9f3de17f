// What the hook request log may keep of a request: its path, query, headers and the first 2 KiB of its body, with
// every secret taken out (README "Hook request log"). Secrets are removed three ways: by position (anything past
// /hooks/<org>/<key>, where a url_path provider's secret is), by name (the organization's providers' auth fields,
// signature and cookie headers, secret-looking query, form and JSON keys), and by value (every secret of the
// organization's providers, replaced wherever it occurs, also percent-encoded). A request that matched no provider
// or was refused may carry a secret meant for somewhere else (another organization's, when a slug was mistyped), so
// all its query values are redacted, and all its header values but those of standard headers. Every body is read as
// text (lossily when it is not valid UTF-8) and redacted; only a Votifier v1 block, RSA ciphertext, is kept as
// base64. The text is redacted whole before it is cut to size, so a cut never leaves part of a secret behind.

export const REDACTED = '[redacted]';
/** How much of a body is kept. */
export const BODY_KEPT_BYTES = 2048;
/**
 * How much of a body the recorder holds until its batch is written: enough past BODY_KEPT_BYTES to recognise a
 * secret (or a secret-looking key's value) that begins in the kept part and runs past it.
 */
export const BODY_HELD_BYTES = 4096;
/** Secrets shorter than this are not searched for by value (a one-letter value would be redacted everywhere). */
const MIN_SECRET_LENGTH = 6;

const SECRET_NAME_PARTS = [
  'token',
  'secret',
  'passw',
  'pwd',
  'signature',
  'apikey',
  'api_key',
  'api-key',
  'accesskey',
  'access_key',
  'access-key',
  'privatekey',
  'private_key',
  'auth',
  'credential',
  'cookie',
  'session',
  'hmac',
  'bearer',
];
const SECRET_NAMES = new Set(['key', 'sig', 'hash', 'pass', 'pin', 'otp', 'code']);

/** A query, form, JSON or header name whose value is treated as a secret whatever the provider. */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_NAME_PARTS.some((part) => lower.includes(part));
}

export interface RedactionRules {
  /** Names (lower case) whose values are secret beside the secret-looking ones: the providers' auth fields. */
  names: ReadonlySet<string>;
  /** Secret values to replace wherever they occur. */
  secrets: readonly string[];
}

/** Every secret replaced, as written and percent-encoded (a secret in a URL or a form body). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

const secretField = (name: string, rules: RedactionRules) => isSecretName(name) || rules.names.has(name.toLowerCase());

/** `/hooks/<org>/<key>` kept; every further segment (a url_path provider's secret, or anything else) redacted. */
export function redactPath(path: string): string {
  const segments = path.split('/');
  // ['', 'hooks', org, key, ...rest]
  if (segments.length <= 4) return path;
  return `${segments.slice(0, 4).join('/')}/${REDACTED}`;
}

/**
 * How much of a request is trusted to hold no secret of someone else's: `matched` for an entry a provider accepted
 * (or ignored, or a duplicate), `stranger` for one refused or matched by no provider (every query value, and the
 * values of headers not in STANDARD_HEADERS, redacted).
 */
export type Trust = 'matched' | 'stranger';

/** The query string as `?a=1&b=2`, secret values redacted ('' when empty); a stranger's values all redacted. */
export function redactQuery(query: Record<string, string | undefined>, rules: RedactionRules, trust: Trust = 'matched'): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const secret = trust === 'stranger' || secretField(name, rules);
    parts.push(`${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`);
  }
  return parts.length > 0 ? `?${scrubSecrets(parts.join('&'), rules.secrets)}` : '';
}

/** Headers that always carry credentials (whatever the provider's settings). */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
]);

/** Headers a stranger's request keeps the values of: what HTTP and proxies define, which says how it was sent. */
const STANDARD_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'expect',
  'forwarded',
  'host',
  'pragma',
  'te',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-forwarded-proto',
  'x-real-ip',
  'x-request-id',
]);

export function redactHeaders(headers: Record<string, string | undefined>, rules: RedactionRules, trust: Trust = 'matched'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const secret = CREDENTIAL_HEADERS.has(lower) || secretField(lower, rules) || (trust === 'stranger' && !STANDARD_HEADERS.has(lower));
    out[lower] = secret ? REDACTED : scrubSecrets(value, rules.secrets);
  }
  return out;
}

/**
 * JSON string values and form values under a secret-looking key, in the text as sent (formatting kept, and a body
 * cut short or not valid JSON is still redacted): `"token": "…"` and `token=…`. A value cut off by the end of the
 * text is redacted to the end.
 */
function redactKeyedValues(text: string, rules: RedactionRules): string {
  const json = text.replace(/"((?:[^"\\]|\\.){1,100})"(\s*:\s*)"((?:[^"\\]|\\.)*)("|$)/g, (whole, key: string, colon: string, _value: string, end: string) =>
    secretField(key, rules) ? `"${key}"${colon}"${REDACTED}${end}` : whole,
  );
  // Form-shaped text only (a JSON or binary body has no `&name=value` structure worth reading).
  if (/^\s*[[{]/.test(text)) return json;
  return json.replace(/(^|&)([^=&]{1,100})=([^&]*)/g, (whole, lead: string, key: string) => {
    let name = key;
    try {
      name = decodeURIComponent(key.replace(/\+/g, ' '));
    } catch {
      // a malformed escape: judge the name as written
    }
    return secretField(name, rules) ? `${lead}${key}=${REDACTED}` : whole;
  });
}

/**
 * The first `max` bytes of a UTF-8 text, without a character the cut would split (its first bytes are dropped):
 * a split character would make the rest unreadable as text.
 */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  // Back over continuation bytes (10xxxxxx) to the start of the character the cut falls in, at most 3.
  let back = 0;
  while (back < 3 && end - back > 0 && (bytes[end - back - 1] & 0xc0) === 0x80) back++;
  const lead = end - back - 1;
  if (lead >= 0) {
    const b = bytes[lead];
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (length > back + 1) end = lead;
  }
  return bytes.subarray(0, end);
}

/** How a body is kept: `text` (every body but a Votifier v1 block), or `binary` (kept as `base64:…`, never read). */
export type BodyForm = 'text' | 'binary';

/**
 * The first BODY_KEPT_BYTES bytes of the body, redacted. A text body is decoded lossily (a byte that is not UTF-8
 * becomes U+FFFD) and always redacted: bytes that are not valid text never make a body exempt from redaction.
 */
export function redactBody(body: Buffer, rules: RedactionRules, form: BodyForm = 'text'): string {
  if (form === 'binary') {
    const base64 = `base64:${body.toString('base64')}`;
    return base64.length <= BODY_KEPT_BYTES ? base64 : base64.slice(0, BODY_KEPT_BYTES);
  }
  const text = scrubSecrets(redactKeyedValues(body.toString('utf8'), rules), rules.secrets);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= BODY_KEPT_BYTES) return text;
  return utf8Prefix(bytes, BODY_KEPT_BYTES).toString('utf8');
}
