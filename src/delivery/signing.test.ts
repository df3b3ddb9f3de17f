import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SIGNING_SECRET_PREFIX, generateSigningSecret, signStandardWebhook, standardWebhookHeaders } from './signing.js';

// The Standard Webhooks specification's published example (its "Signature scheme" section).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** True when the standardwebhooks package accepts these headers for this body and secret. */
function verifies(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('signStandardWebhook', () => {
  it("gives the Standard Webhooks specification's example signature", () => {
    expect(signStandardWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('takes the secret with or without its whsec_ prefix', () => {
    const bare = VECTOR.secret.slice(SIGNING_SECRET_PREFIX.length);
    expect(signStandardWebhook(bare, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('agrees with the standardwebhooks package on the vector (sign, and verify at that time)', () => {
    const wh = new Webhook(VECTOR.secret);
    expect(wh.sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body)).toBe(VECTOR.signature);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(VECTOR.timestamp * 1000);
    const headers = standardWebhookHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    expect(wh.verify(VECTOR.body, headers)).toEqual({ test: 2432232314 });
  });

  it('changes with every signed part', () => {
    const base = signStandardWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    expect(signStandardWebhook(VECTOR.secret, `${VECTOR.id}x`, VECTOR.timestamp, VECTOR.body)).not.toBe(base);
    expect(signStandardWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp + 1, VECTOR.body)).not.toBe(base);
    expect(signStandardWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, '{"test": 2432232315}')).not.toBe(base);
    expect(signStandardWebhook(generateSigningSecret(), VECTOR.id, VECTOR.timestamp, VECTOR.body)).not.toBe(base);
  });
});

describe('standardWebhookHeaders', () => {
  it('returns webhook-id, webhook-timestamp (unix seconds) and webhook-signature', () => {
    expect(standardWebhookHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
    });
  });
});

describe('generateSigningSecret', () => {
  it('is whsec_ + base64 of at least 24 random bytes, different every time', () => {
    const secrets = Array.from({ length: 200 }, () => generateSigningSecret());
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      expect(key.length).toBeGreaterThanOrEqual(24);
      expect(key.toString('base64')).toBe(secret.slice('whsec_'.length));
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('is accepted by the standardwebhooks package as a secret', () => {
    expect(() => new Webhook(generateSigningSecret())).not.toThrow();
  });
});

describe('round trips through the standardwebhooks package', () => {
  const bodies = [
    '{"event":"vote","voter_name":"Steve"}',
    JSON.stringify({ voter_name: 'Zoë 🎮 名前', nested: { list: [1, 2, 3], quote: '"\\' } }),
    '',
    'not json at all',
    'x'.repeat(20_000),
  ];

  it('verifies for random secrets, ids and bodies', () => {
    for (let i = 0; i < 50; i++) {
      const secret = generateSigningSecret();
      const id = `msg_${randomBytes(12).toString('hex')}`;
      const body = bodies[i % bodies.length];
      const headers = standardWebhookHeaders(secret, id, nowSeconds(), body);
      const wh = new Webhook(secret);
      expect(() => wh.verify(body, headers, { jsonParse: false }), `secret ${secret} body #${i % bodies.length}`).not.toThrow();
      // Header names are matched case-insensitively by receivers.
      const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
      expect(() => wh.verify(body, upper, { jsonParse: false })).not.toThrow();
    }
  });

  it('returns the parsed JSON body on success', () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ event: 'vote', n: 1 });
    expect(new Webhook(secret).verify(body, standardWebhookHeaders(secret, 'msg_1', nowSeconds(), body))).toEqual({ event: 'vote', n: 1 });
  });

  it('fails for a tampered body, a different secret, id or timestamp', () => {
    for (let i = 0; i < 20; i++) {
      const secret = generateSigningSecret();
      const body = JSON.stringify({ voter_name: `voter${i}`, vote_id: `vt_${i}` });
      const ts = nowSeconds();
      const headers = standardWebhookHeaders(secret, `msg_${i}`, ts, body);
      expect(verifies(secret, body, headers)).toBe(true);
      expect(verifies(secret, body.replace(`voter${i}`, `voter${i}x`), headers)).toBe(false);
      expect(verifies(secret, `${body} `, headers)).toBe(false);
      expect(verifies(generateSigningSecret(), body, headers)).toBe(false);
      expect(verifies(secret, body, { ...headers, 'webhook-id': `msg_${i}_other` })).toBe(false);
      expect(verifies(secret, body, { ...headers, 'webhook-timestamp': String(ts - 1) })).toBe(false);
    }
  });

  it('is refused by receivers once the timestamp is more than 5 minutes off', () => {
    const secret = generateSigningSecret();
    const body = '{"a":1}';
    expect(verifies(secret, body, standardWebhookHeaders(secret, 'msg_old', nowSeconds() - 3600, body))).toBe(false);
    expect(verifies(secret, body, standardWebhookHeaders(secret, 'msg_new', nowSeconds() + 3600, body))).toBe(false);
  });
});
