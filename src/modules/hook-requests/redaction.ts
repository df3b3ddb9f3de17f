// What the hook request log may keep of a request: its path, query, headers and the first 2 KiB of its body, with
// every secret taken out (README "Hook request log"). Secrets are removed three ways: by position (anything past
// /hooks/<org>/<key>, where a url_path provider's secret is), by name (the provider's auth field, signature and
// cookie headers, secret-looking query, form and JSON keys), and by value (each secret the request could carry,
// replaced wherever it occurs, also percent-encoded). The text is redacted whole before it is cut to size, so a cut
// never leaves part of a secret behind.

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

const SECRET_NAME_PARTS = ['token', 'secret', 'passw', 'pwd', 'signature', 'apikey', 'api_key', 'api-key', 'accesskey', 'access_key', 'access-key', 'privatekey', 'private_key', 'auth', 'credential', 'cookie', 'session', 'hmac', 'bearer'];
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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

/** The query string as `?a=1&b=2`, secret values redacted ('' when empty). */
export function redactQuery(query: Record<string, string | undefined>, rules: RedactionRules): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${secretField(name, rules) ? REDACTED : encodeURIComponent(value)}`);
  }
  return parts.length > 0 ? `?${scrubSecrets(parts.join('&'), rules.secrets)}` : '';
}

/** Headers that always carry credentials (whatever the provider's settings). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token']);

export function redactHeaders(headers: Record<string, string | undefined>, rules: RedactionRules): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const secret = CREDENTIAL_HEADERS.has(lower) || secretField(lower, rules);
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

/** Text that is not readable as UTF-8 (a Votifier v1 block: RSA ciphertext) is kept as base64. */
function bodyText(body: Buffer): string {
  const text = body.toString('utf8');
  // eslint-disable-next-line no-control-regex
  const binary = text.includes('\uFFFD') || /[\u0000-\u0008\u000e-\u001f]/.test(text);
  return binary ? `base64:${body.toString('base64')}` : text;
}

/** The first BODY_KEPT_BYTES bytes of the body, redacted (a UTF-8 character cut by the bound is dropped whole). */
export function redactBody(body: Buffer, rules: RedactionRules): string {
  const text = scrubSecrets(redactKeyedValues(bodyText(body), rules), rules.secrets);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= BODY_KEPT_BYTES) return text;
  return bytes.subarray(0, BODY_KEPT_BYTES).toString('utf8').replace(/\uFFFD+$/, '');
}
