import { describe, expect, it } from 'vitest';
import { BODY_KEPT_BYTES, REDACTED, isSecretName, redactBody, redactHeaders, redactPath, redactQuery, scrubSecrets } from './redaction.js';

const SECRET = 's3cr3t-Value_0123456789';
const rules = { names: new Set(['x-custom-auth', 'k']), secrets: [SECRET] };

describe('hook request redaction', () => {
  it('keeps /hooks/<org>/<key> and redacts every segment after it', () => {
    expect(redactPath('/hooks/acme/topgg')).toBe('/hooks/acme/topgg');
    expect(redactPath(`/hooks/acme/topgg/${SECRET}`)).toBe(`/hooks/acme/topgg/${REDACTED}`);
    expect(redactPath(`/hooks/acme/topgg/${SECRET}/more`)).toBe(`/hooks/acme/topgg/${REDACTED}`);
  });

  it('redacts query values of the auth field and of secret-looking names, and the secret anywhere', () => {
    const q = redactQuery({ k: 'abc', token: 'tok', user: 'alice', note: `x${SECRET}y` }, rules);
    expect(q).toBe(`?k=${REDACTED}&token=${REDACTED}&user=alice&note=x${REDACTED}y`);
    expect(redactQuery({}, rules)).toBe('');
  });

  it('redacts credential, signature, cookie and auth-field headers, and the secret in any other header', () => {
    const h = redactHeaders(
      {
        authorization: 'Bearer abc',
        cookie: 'a=b',
        'x-topgg-signature': 't=1,v1=ff',
        'x-custom-auth': 'zzz',
        'x-api-key': 'k',
        'user-agent': 'curl',
        'x-forwarded-note': `has ${SECRET}`,
      },
      rules,
    );
    expect(h).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'x-topgg-signature': REDACTED,
      'x-custom-auth': REDACTED,
      'x-api-key': REDACTED,
      'user-agent': 'curl',
      'x-forwarded-note': `has ${REDACTED}`,
    });
  });

  it('redacts secret-looking JSON and form values as sent, and the secret wherever it is', () => {
    const json = Buffer.from(`{"user":"bob","token": "abc\\"def","nested":{"password":"p"},"free":"${SECRET}"}`);
    expect(redactBody(json, rules)).toBe(`{"user":"bob","token": "${REDACTED}","nested":{"password":"${REDACTED}"},"free":"${REDACTED}"}`);
    expect(redactBody(Buffer.from('user=bob&api_key=zzz&sig=1'), rules)).toBe(`user=bob&api_key=${REDACTED}&sig=${REDACTED}`);
    expect(redactBody(Buffer.from(`{"payload":"{}","signature":"AbC="}`), rules)).toBe(`{"payload":"{}","signature":"${REDACTED}"}`);
  });

  it('cuts the body to 2 KiB after redacting, so a secret across the cut leaves nothing behind', () => {
    const body = Buffer.from(`{"pad":"${'a'.repeat(BODY_KEPT_BYTES - 12)}","x":"${SECRET}"}`);
    const kept = redactBody(body, rules);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(BODY_KEPT_BYTES);
    for (let n = 6; n <= SECRET.length; n++) expect(kept).not.toContain(SECRET.slice(0, n));
    // A secret-looking value cut off by the end of what was held is redacted to the end.
    expect(redactBody(Buffer.from('{"token":"abcdef'), rules)).toBe(`{"token":"${REDACTED}`);
  });

  it('keeps a body that is not text as base64', () => {
    const binary = Buffer.from([0, 1, 2, 255, 254, 10]);
    expect(redactBody(binary, rules)).toBe(`base64:${binary.toString('base64')}`);
  });

  it('replaces a secret percent-encoded too, and ignores values too short to search for', () => {
    const secret = 'a/b+c=d&e?f';
    expect(scrubSecrets(`x=${encodeURIComponent(secret)}`, [secret])).toBe(`x=${REDACTED}`);
    expect(scrubSecrets('abc', ['ab'])).toBe('abc');
  });

  it('treats credential-looking names as secret', () => {
    for (const name of ['token', 'X-Auth-Token', 'client_secret', 'password', 'api_key', 'signature', 'key', 'sig']) expect(isSecretName(name)).toBe(true);
    for (const name of ['user', 'username', 'bot', 'type', 'query', 'timestamp']) expect(isSecretName(name)).toBe(false);
  });
});
