// Windows that match the senders (README: Inbound hooks): the duplicate window is a setting whose default outlasts
// the catalogue's longest retry horizon (top.gg legacy, about 17 minutes), and a site that signs a body timestamp
// (Hytale-Servers.pro) has old bodies refused through its template. An injected clock moves minutes ahead.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };
const MINUTE = 60_000;

describe.skipIf(databaseUnavailable)('duplicate window and body timestamps', () => {
  let app: TestApp;
  let short: TestApp;

  beforeAll(async () => {
    app = await startTestApp({}, { clock });
    short = await startTestApp({ DUPLICATE_WINDOW: '10m' }, { clock });
  });
  afterAll(async () => {
    await app?.stop();
    await short?.stop();
  });

  async function legacyTopgg(target: TestApp) {
    const org: TestOrg = await target.createOrg({ plan: 'business' });
    const made = await target.request('POST', '/v1/providers', { key: org.key, body: { template: 'topgg-legacy', auth_value: 'legacy-secret-123' } });
    expect(made.status, made.text).toBe(201);
    const path = new URL(made.body.data.webhook_url).pathname;
    const body = JSON.stringify({ bot: '1', user: '140862798832861184', type: 'upvote', isWeekend: false, query: '' });
    const send = () => target.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', authorization: 'legacy-secret-123' } });
    const count = () => target.deps.db.prisma.vote.count({ where: { organizationId: org.id } });
    return { send, count };
  }

  it('a retry 17 minutes later (top.gg legacy) is still the same vote with the default window, and a new vote after it', async () => {
    expect(app.config.duplicateWindowMs).toBe(20 * MINUTE);
    const s = await legacyTopgg(app);
    const first = await s.send();
    expect(first.body.data.duplicate).toBe(false);
    clock.offset += 17 * MINUTE;
    const retry = await s.send();
    expect(retry.body.data).toEqual({ received: true, vote_id: first.body.data.vote_id, duplicate: true });
    expect(await s.count()).toBe(1);
    clock.offset += 4 * MINUTE;
    const later = await s.send();
    expect(later.body.data.duplicate).toBe(false);
    expect(await s.count()).toBe(2);
  });

  it('DUPLICATE_WINDOW=10m: the same retry after 17 minutes is a second vote (why the default is longer)', async () => {
    const s = await legacyTopgg(short);
    expect((await s.send()).body.data.duplicate).toBe(false);
    clock.offset += 17 * MINUTE;
    expect((await s.send()).body.data.duplicate).toBe(false);
    expect(await s.count()).toBe(2);
  });

  it('Hytale-Servers.pro: a body timestamp older than 5 minutes is refused and recorded nowhere; a fresh one is a vote', async () => {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const made = await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'hytale-servers-pro', auth_value: 'hsp-secret-0123456789' } });
    expect(made.status, made.text).toBe(201);
    const read = await app.request('GET', '/v1/providers/hytale-servers-pro', { key: org.key });
    expect(read.body.data).toMatchObject({ body_timestamp_path: 'timestamp', body_timestamp_max_age: 300 });
    const path = new URL(made.body.data.webhook_url).pathname;
    const send = (timestamp: unknown, voter = 'Player123') => {
      const body = JSON.stringify({ hytale_username: voter, timestamp, server_slug: 'wDFDtxbf', vote_id: `v-${voter}-${String(timestamp)}` });
      const signature = createHmac('sha256', 'hsp-secret-0123456789').update(body).digest('hex');
      return app.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature } });
    };
    const now = clock.now().getTime();
    const stale = await send(now - 6 * MINUTE);
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('AUTH_FAILED');
    expect(stale.body.error.message).toContain('not within the last 300 seconds');
    const ahead = await send(now + 5 * MINUTE);
    expect(ahead.status).toBe(401);
    const missing = await send('not a time');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(0);
    const fresh = await send(now - 2 * MINUTE);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.duplicate).toBe(false);
    // Seconds work too, and the check can be turned off for a provider.
    expect((await send(Math.floor(now / 1000), 'InSeconds')).status).toBe(200);
    const off = await app.request('PATCH', '/v1/providers/hytale-servers-pro', { key: org.key, body: { body_timestamp_path: null } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.data).not.toHaveProperty('body_timestamp_path');
    expect((await send(now - 60 * MINUTE, 'Old')).status).toBe(200);
  });

  it('the test vote of a template with a body timestamp is fresh, and a second one soon after is a duplicate', async () => {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    expect(
      (await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'hytale-servers-pro', auth_value: 'hsp-secret-0123456789' } })).status,
    ).toBe(201);
    const mutation = { query: 'mutation { sendTestVote(key: "hytale-servers-pro") { received voteId duplicate } }' };
    const first = await app.request('POST', '/graphql', { key: org.key, body: mutation });
    expect(first.body.errors, first.text).toBeUndefined();
    expect(first.body.data.sendTestVote).toMatchObject({ received: true, duplicate: false });
    const again = await app.request('POST', '/graphql', { key: org.key, body: mutation });
    expect(again.body.data.sendTestVote).toMatchObject({ voteId: first.body.data.sendTestVote.voteId, duplicate: true });
  });

  it('DUPLICATE_WINDOW is checked at start: shorter than 10 minutes is refused with its reason', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    expect(() => loadConfig({ DUPLICATE_WINDOW: '5m' })).toThrow(/DUPLICATE_WINDOW: must be one duration from 10m to 7d/);
    expect(() => loadConfig({ CALLBACK_DISABLE_AFTER: 'soon' })).toThrow(/CALLBACK_DISABLE_AFTER/);
    expect(loadConfig({ DUPLICATE_WINDOW: '1h', CALLBACK_DISABLE_AFTER: '2d' })).toMatchObject({
      duplicateWindowMs: 3_600_000,
      callbackDisableAfterMs: 172_800_000,
    });
  });
});
