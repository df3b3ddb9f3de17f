import { describe, expect, it } from 'vitest';
import {
  BODY_HELD_BYTES,
  BODY_KEPT_BYTES,
  REDACTED,
  isSecretName,
  redactBody,
  redactHeaders,
  redactPath,
  redactQuery,
  scrubSecrets,
  utf8Prefix,
} from './redaction.js';

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

  it('keeps only a Votifier v1 block as base64; every other body is read as text and redacted, even when it is not valid UTF-8', () => {
    const block = Buffer.from([0, 1, 2, 255, 254, 10]);
    expect(redactBody(block, rules, 'binary')).toBe(`base64:${block.toString('base64')}`);
    // A control byte or a byte that is not UTF-8 no longer makes a body "binary" and unredacted.
    const withControl = Buffer.concat([Buffer.from('{"password":"hunter2-x","c":"'), Buffer.from([1]), Buffer.from(`","free":"${SECRET}"}`)]);
    expect(redactBody(withControl, rules)).toBe(`{"password":"${REDACTED}","c":"\u0001","free":"${REDACTED}"}`);
    const notUtf8 = Buffer.concat([Buffer.from('token=abc&x='), Buffer.from([0xff, 0xfe]), Buffer.from(`&y=${SECRET}`)]);
    const kept = redactBody(notUtf8, rules);
    expect(kept).toBe(`token=${REDACTED}&x=\uFFFD\uFFFD&y=${REDACTED}`);
    expect(kept).not.toMatch(/^base64:/);
  });

  it('cuts at a character boundary: a held body cut inside a UTF-8 character is still text, and redacted', () => {
    const euro = Buffer.from('€'); // 3 bytes
    expect(utf8Prefix(Buffer.concat([Buffer.from('ab'), euro]), 3).toString()).toBe('ab');
    expect(utf8Prefix(Buffer.concat([Buffer.from('ab'), euro]), 4).toString()).toBe('ab');
    expect(utf8Prefix(Buffer.concat([Buffer.from('ab'), euro]), 5).toString()).toBe('ab€');
    expect(utf8Prefix(Buffer.from('a😀'), 4).toString()).toBe('a');
    expect(utf8Prefix(Buffer.from('a😀'), 5).toString()).toBe('a😀');
    // The reviewer's case: a JSON body of 4106 bytes with '€' across the held bound and a password near the start.
    const head = '{"password":"hunter2-site-secret","pad":"';
    const pad = 'x'.repeat(BODY_HELD_BYTES - Buffer.byteLength(head) - 1);
    const body = Buffer.from(`${head}${pad}€€€"}`);
    expect(body.length).toBeGreaterThan(BODY_HELD_BYTES);
    const held = utf8Prefix(body, BODY_HELD_BYTES);
    expect(held.length).toBe(BODY_HELD_BYTES - 1);
    const stored = redactBody(held, rules);
    expect(stored.startsWith(`{"password":"${REDACTED}","pad":"xxx`)).toBe(true);
    expect(stored).not.toContain('hunter2');
    expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(BODY_KEPT_BYTES);
  });

  it("redacts every query value and every non-standard header value of a stranger's request", () => {
    expect(redactQuery({ user: 'alice', n: '1' }, rules, 'stranger')).toBe(`?user=${REDACTED}&n=${REDACTED}`);
    const h = redactHeaders({ 'user-agent': 'curl', 'content-type': 'application/json', 'x-other-site-secret': 'theirs' }, rules, 'stranger');
    expect(h).toEqual({ 'user-agent': 'curl', 'content-type': 'application/json', 'x-other-site-secret': REDACTED });
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
