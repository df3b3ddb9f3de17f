import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

const hookPath = (url: string) => new URL(url).pathname + new URL(url).search;

describe.skipIf(databaseUnavailable)('providers (/v1/providers)', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'growth' });
  });
  afterAll(() => app?.stop());

  const create = (body: unknown, key = org.key) => app.request('POST', '/v1/providers', { key, body });
  const vote = (path: string, body: unknown, headers: Record<string, string> = {}) => app.request('POST', path, { body, headers });

  it('creates a provider and shows its secret once, in the interface shape', async () => {
    const res = await create({
      key: 'dbl',
      name: 'DiscordBotList',
      auth_method: 'header',
      auth_field: 'Authorization',
      auth_value: 'auto',
      votee_path: 'username',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      key: 'dbl',
      name: 'DiscordBotList',
      auth_value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      webhook_url: `http://localhost:${app.port}/hooks/${org.slug}/dbl`,
    });
    const read = await app.request('GET', '/v1/providers/dbl', { key: org.readKey });
    expect(read.status).toBe(200);
    expect(read.body.meta).toBeUndefined();
    expect(read.body.data).toMatchObject({
      id: res.body.data.id,
      key: 'dbl',
      name: 'DiscordBotList',
      auth_method: 'header',
      auth_field: 'Authorization',
      votee_path: 'username',
      enabled: true,
      webhook_url: res.body.data.webhook_url,
      votes_today: 0,
      votes_total: 0,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(JSON.stringify(read.body)).not.toContain(res.body.data.auth_value);
  });

  it('puts the secret in the webhook URL for query and url_path providers', async () => {
    const q = await create({ key: 'topg', name: 'TopG', auth_method: 'query', auth_field: 'token', votee_path: 'p_resp' });
    expect(q.body.data.webhook_url).toBe(`http://localhost:${app.port}/hooks/${org.slug}/topg?token=${q.body.data.auth_value}`);
    const p = await create({ key: 'pathy', name: 'Path', auth_method: 'url_path', auth_field: 'secret', votee_path: 'user' });
    expect(p.body.data.webhook_url).toBe(`http://localhost:${app.port}/hooks/${org.slug}/pathy/${p.body.data.auth_value}`);
    const list = await app.request('GET', '/v1/providers', { key: org.key });
    const listed = list.body.data.providers.find((x: { key: string }) => x.key === 'topg');
    expect(listed.webhook_url).toBe(`http://localhost:${app.port}/hooks/${org.slug}/topg`);
  });

  it('lists providers with counts and the plan limit', async () => {
    const res = await app.request('GET', '/v1/providers', { key: org.readKey });
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(res.body.data.providers.length);
    expect(res.body.data.limit).toBe(10);
    for (const p of res.body.data.providers) {
      expect(Object.keys(p).sort()).toEqual(['auth_method', 'enabled', 'id', 'key', 'name', 'votee_path', 'votes_today', 'votes_total', 'webhook_url']);
    }
  });

  it('creates from a template, filling what the body leaves out', async () => {
    const other = await app.createOrg({ plan: 'growth' });
    const res = await create({ template: 'topgg', auth_value: 'whs_0123456789abcdef0123456789' }, other.key);
    expect(res.status).toBe(201);
    expect(res.body.data.key).toBe('topgg');
    const read = (await app.request('GET', '/v1/providers/topgg', { key: other.key })).body.data;
    expect(read).toMatchObject({
      auth_method: 'hmac',
      auth_field: 'x-topgg-signature',
      votee_path: 'data.user.name',
      event_path: 'type',
      vote_events: ['vote.create'],
      test_events: ['webhook.test'],
    });
    const byId = await create({ template: 'tpl_hylist', key: 'hylist-2', name: 'My Hylist' }, other.key);
    expect(byId.status).toBe(201);
    expect(byId.body.data).toMatchObject({ key: 'hylist-2', name: 'My Hylist', auth_value: expect.any(String) });
    const siteIssued = await create({ template: 'hytale-servers-pro' }, other.key);
    expect(siteIssued.status).toBe(400);
    expect(siteIssued.body.error.details[0].field).toBe('auth_value');
    const unknown = await create({ template: 'nope' }, other.key);
    expect(unknown.body.error.details[0].field).toBe('template');
  });

  it('validates input and changes nothing', async () => {
    const before = (await app.request('GET', '/v1/providers', { key: org.key })).body.data.count;
    const base = { key: 'x1', name: 'X', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, key: undefined }, 'key'],
      [{ ...base, key: 'Bad Key' }, 'key'],
      [{ ...base, auth_method: 'magic' }, 'auth_method'],
      [{ ...base, auth_field: '' }, 'auth_field'],
      [{ ...base, auth_field: 'bad header' }, 'auth_field'],
      [{ ...base, auth_value: 'short' }, 'auth_value'],
      [{ ...base, votee_path: 'a..b' }, 'votee_path'],
      [{ ...base, votee_path: 12 }, 'votee_path'],
      [{ ...base, vote_events: 'vote' }, 'vote_events'],
      [{ ...base, key: 'dbl' }, 'key'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe(field);
    }
    expect((await app.request('GET', '/v1/providers', { key: org.key })).body.data.count).toBe(before);
  });

  it('updates only the fields given, including the key', async () => {
    await create({ key: 'upd', name: 'Before', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' });
    const res = await app.request('PATCH', '/v1/providers/upd', {
      key: org.key,
      body: { name: 'After', enabled: false, event_path: 'type', vote_events: ['upvote'], test_events: ['test'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      key: 'upd',
      name: 'After',
      enabled: false,
      auth_field: 'Authorization',
      votee_path: 'user',
      event_path: 'type',
      vote_events: ['upvote'],
      test_events: ['test'],
    });
    const renamed = await app.request('PATCH', '/v1/providers/upd', { key: org.key, body: { key: 'upd2', enabled: true } });
    expect(renamed.body.data).toMatchObject({ key: 'upd2', enabled: true, name: 'After' });
    expect((await app.request('GET', '/v1/providers/upd', { key: org.key })).status).toBe(404);
    const clash = await app.request('PATCH', '/v1/providers/upd2', { key: org.key, body: { key: 'dbl' } });
    expect(clash.status).toBe(400);
    const wrongType = await app.request('PATCH', '/v1/providers/upd2', { key: org.key, body: { enabled: 'yes' } });
    expect(wrongType.body.error.details).toEqual([{ field: 'enabled', message: 'must be a boolean' }]);
  });

  it('enforces the plan provider limit', async () => {
    const starter = await app.createOrg({ plan: 'starter' });
    for (const key of ['a', 'b']) {
      expect((await create({ key, name: key, auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' }, starter.key)).status).toBe(201);
    }
    const res = await create({ key: 'c', name: 'c', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' }, starter.key);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'PLAN_LIMIT', details: { limit: 2, current: 2 } });
  });

  it('keeps read keys and other organizations out', async () => {
    const write = await create({ key: 'r', name: 'r', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' }, org.readKey);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const other = await app.createOrg();
    for (const [method, path] of [
      ['GET', '/v1/providers/dbl'],
      ['PATCH', '/v1/providers/dbl'],
      ['DELETE', '/v1/providers/dbl'],
      ['POST', '/v1/providers/dbl/regenerate-secret'],
    ] as const) {
      const res = await app.request(method, path, { key: other.key, body: method === 'PATCH' ? { name: 'pwned' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await app.request('GET', '/v1/providers/dbl', { key: org.key })).body.data.name).toBe('DiscordBotList');
  });

  it('stores secrets encrypted: neither the row nor the database file reveals them', async () => {
    const res = await create({
      key: 'enc',
      name: 'Enc',
      auth_method: 'header',
      auth_field: 'Authorization',
      auth_value: 'my-very-own-secret-value-123',
      votee_path: 'user',
    });
    const row = await app.deps.db.prisma.provider.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(JSON.stringify(row)).not.toContain('my-very-own-secret-value-123');
    expect(row.authValueEnc).toMatch(/^v1:/);
    if (dialect === 'sqlite') {
      await app.deps.db.prisma.$queryRawUnsafe('PRAGMA wal_checkpoint(FULL)');
      const path = app.deps.db.describe().location;
      const bytes = Buffer.concat([
        readFileSync(path),
        ...['-wal'].map((s) => {
          try {
            return readFileSync(path + s);
          } catch {
            return Buffer.alloc(0);
          }
        }),
      ]);
      expect(bytes.includes(Buffer.from('my-very-own-secret-value-123'))).toBe(false);
    }
  });

  it('regenerating the secret kills the old one at once', async () => {
    const made = (await create({ key: 'regen', name: 'Regen', auth_method: 'query', auth_field: 'k', votee_path: 'user', payload_source: 'json' })).body.data;
    const first = await vote(hookPath(made.webhook_url), { user: 'alice' });
    expect(first.status).toBe(200);
    const regen = await app.request('POST', '/v1/providers/regen/regenerate-secret', { key: org.key });
    expect(regen.status).toBe(200);
    expect(regen.body.data.auth_value).not.toBe(made.auth_value);
    expect(regen.body.data.webhook_url).toContain(`k=${regen.body.data.auth_value}`);
    const old = await vote(hookPath(made.webhook_url), { user: 'bob' });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('AUTH_FAILED');
    const fresh = await vote(hookPath(regen.body.data.webhook_url), { user: 'bob' });
    expect(fresh.status).toBe(200);
  });

  it('deleting a provider removes its votes and every count derived from them', async () => {
    const victim = await app.createOrg({ plan: 'growth' });
    const made = (await create({ key: 'gone', name: 'Gone', auth_method: 'url_path', auth_field: 'secret', votee_path: 'user' }, victim.key)).body.data;
    const keep = (await create({ key: 'keep', name: 'Keep', auth_method: 'url_path', auth_field: 'secret', votee_path: 'user' }, victim.key)).body.data;
    for (const user of ['a', 'b', 'c']) expect((await vote(hookPath(made.webhook_url), { user })).status).toBe(200);
    expect((await vote(hookPath(keep.webhook_url), { user: 'z' })).status).toBe(200);
    const before = (await app.request('GET', '/v1/organization', { key: victim.key })).body.data.usage.votes_this_month;
    expect(before).toBe(4);
    const listed = (await app.request('GET', '/v1/providers', { key: victim.key })).body.data.providers.find((p: { key: string }) => p.key === 'gone');
    expect(listed).toMatchObject({ votes_today: 3, votes_total: 3 });
    const res = await app.request('DELETE', '/v1/providers/gone', { key: victim.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: expect.any(String), votes_deleted: 3 });
    expect((await app.request('GET', '/v1/organization', { key: victim.key })).body.data.usage).toMatchObject({ votes_this_month: 1, providers_count: 1 });
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: victim.id } })).toBe(1);
    expect(await app.deps.db.prisma.providerDailyCount.count({ where: { providerId: made.id } })).toBe(0);
    expect(await app.deps.db.prisma.voterDailyCount.count({ where: { providerId: made.id } })).toBe(0);
    const late = await vote(hookPath(made.webhook_url), { user: 'late' });
    expect(late.status).toBe(404);
  });
});
