import { describe, expect, it } from 'vitest';
import { hookRequestHint, type HintInput } from './hints.js';

const base: HintInput = {
  outcome: 'refused',
  protocol: 'http',
  method: 'POST',
  errorCode: 'AUTH_FAILED',
  reason: null,
  providerKey: 'topgg',
  provider: { authMethod: 'hmac', authField: 'x-topgg-signature', payloadSource: 'json' },
  providerKeys: ['topgg', 'mclist'],
};
const hint = (over: Partial<HintInput>) => hookRequestHint({ ...base, ...over });

describe('hookRequestHint', () => {
  it('has nothing to say about accepted, duplicate and test entries', () => {
    for (const outcome of ['accepted', 'duplicate', 'test']) expect(hint({ outcome, errorCode: null })).toBeNull();
  });

  it('explains a signature that did not match', () => {
    expect(hint({ reason: 'Hook authentication failed: bad signature' })).toBe('the signature did not match: check the secret you pasted into the site');
  });

  it('explains a GET reaching a provider that reads a JSON or form body', () => {
    expect(
      hint({
        errorCode: 'VALIDATION_ERROR',
        method: 'GET',
        reason: 'method: this provider reads votes from a POSTed json body; a GET is not read',
        provider: { authMethod: 'header', authField: 'authorization', payloadSource: 'json' },
      }),
    ).toBe('a GET reached a provider that reads a JSON body: a proxy may have rewritten the request');
    expect(hint({ reason: 'Hook authentication failed: signed deliveries must be POSTed with the signed body', method: 'GET' })).toContain(
      'a GET reached a provider',
    );
  });

  it('explains a stale body timestamp and a stale signature timestamp', () => {
    expect(
      hint({ reason: "Hook authentication failed: the body timestamp is not within the last 300 seconds (a resent delivery, or the sender's clock is wrong)" }),
    ).toContain("the sender's clock is wrong or the delivery was resent");
    expect(hint({ reason: 'Hook authentication failed: signature timestamp outside the 5-minute window' })).toContain(
      "the sender's clock is wrong or the delivery was resent",
    );
  });

  it('names the key nobody has and lists the providers that exist', () => {
    expect(hint({ errorCode: 'NOT_FOUND', reason: 'Provider topgq not found', providerKey: 'topgq', provider: null })).toBe(
      'no provider has the key topgq: check the URL you gave the site; your providers are topgg, mclist',
    );
    expect(hint({ errorCode: 'NOT_FOUND', providerKey: 'x', provider: null, providerKeys: [] })).toContain('this organization has no providers yet');
  });

  it('explains a Votifier token or key that is not the provider’s', () => {
    const votifier = { protocol: 'votifier_v2', provider: { authMethod: 'votifier', authField: '', payloadSource: 'json' } };
    expect(hint({ ...votifier, reason: 'Signature is not valid (invalid token?)' })).toBe(
      "the token the list has is not this provider's: paste the provider's Votifier token into the list again",
    );
    expect(hint({ ...votifier, protocol: 'votifier_v1', reason: 'Could not decrypt data (is your key correct?)' })).toContain('public key');
  });

  it('explains a wrong secret by where the provider reads it', () => {
    expect(hint({ reason: 'Hook authentication failed: wrong secret', provider: { authMethod: 'url_path', authField: '', payloadSource: 'json' } })).toContain(
      'end of the URL',
    );
    expect(
      hint({ reason: 'Hook authentication failed: wrong secret', provider: { authMethod: 'query', authField: 'token', payloadSource: 'query' } }),
    ).toContain('token query parameter');
    expect(
      hint({
        reason: 'Hook authentication failed: missing authorization header',
        provider: { authMethod: 'header', authField: 'authorization', payloadSource: 'json' },
      }),
    ).toContain('no authorization header');
  });

  it('explains a 413, rate limits, a disabled provider and a suspended organization', () => {
    expect(hint({ errorCode: 'PAYLOAD_TOO_LARGE' })).toContain('64 KiB');
    expect(hint({ errorCode: 'RATE_LIMITED', reason: 'Too many refused deliveries from this address; retry in 40 s' })).toContain(
      'HOOK_FAILURE_LIMIT_PER_MINUTE',
    );
    expect(hint({ errorCode: 'RATE_LIMITED', reason: 'Too many deliveries for this organization; retry in 3 s' })).toContain('HOOK_RATE_LIMIT_PER_MINUTE');
    expect(hint({ errorCode: 'PROVIDER_DISABLED' })).toContain('enable it');
    expect(hint({ errorCode: 'ORG_SUSPENDED' })).toContain('suspended');
  });

  it('says why an ignored delivery recorded nothing', () => {
    expect(hint({ outcome: 'ignored', errorCode: null })).toContain('vote_events');
  });
});
