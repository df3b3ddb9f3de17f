import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';
import { until } from '../kit/wait.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

describe.skipIf(databaseUnavailable)('SSRF guard at send time (DNS that changes after the URL was saved)', () => {
  let app: TestApp;
  let receiver: Receiver;
  // The name resolves to a public address when the callback is saved, then to loopback when it is sent.
  const answers: Record<string, string[]> = {};
  const resolver = async (host: string): Promise<LookupAddress[]> => {
    const queue = answers[host];
    if (!queue?.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const address = queue.length > 1 ? queue.shift()! : queue[0];
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

  beforeAll(async () => {
    app = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false', RETRY_SCHEDULE: '100ms', DELIVERY_POLL_MS: '50' }, { resolver });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  it('refuses to connect when the saved name now points at a private address, and sends nothing', async () => {
    const port = new URL(receiver.url).port;
    answers['rebind.example.test'] = ['93.184.216.34', '127.0.0.1'];
    const org = await app.createOrg({ plan: 'business' });
    const cb = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Rebinder', url: `http://rebind.example.test:${port}/cb` } });
    expect(cb.status, JSON.stringify(cb.body)).toBe(201);
    const provider = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    const voted = await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user: 'Mallory' } });
    const id = voted.body.data.vote_id;
    const vote = await until(
      () => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data),
      (v) => v.callback_status === 'failed',
    );
    expect(vote.callback_attempts).toBe(1);
    const log = (await app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key })).body.data;
    expect(log.attempts[0]).toMatchObject({ success: false, status_code: null, error: expect.stringContaining('127.0.0.1') });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses, when saved, a name that resolves to a private address', async () => {
    answers['internal.example.test'] = ['10.0.0.7'];
    const org = await app.createOrg({ plan: 'business' });
    const res = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Inside', url: 'http://internal.example.test/cb' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: 'url', message: expect.stringContaining('10.0.0.7') });
  });
});

describe.skipIf(databaseUnavailable)('redirects are never followed', () => {
  let app: TestApp;
  let first: Receiver;
  let second: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms', DELIVERY_POLL_MS: '50' });
    first = await startReceiver();
    second = await startReceiver();
  });
  afterAll(async () => {
    await app?.stop();
    await first?.close();
    await second?.close();
  });

  it('treats a 3xx as a failed attempt and never calls the Location', async () => {
    first.fallback = { status: 307, headers: { location: `${second.url}/elsewhere` } };
    const org = await app.createOrg({ plan: 'business' });
    await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Redirector', url: `${first.url}/cb` } });
    const provider = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    const id = (await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user: 'R' } })).body.data.vote_id;
    await until(
      () => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data),
      (v) => v.callback_status === 'failed',
    );
    expect(first.requests).toHaveLength(2);
    expect(second.requests).toHaveLength(0);
  });
});
