import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('API keys (/v1/api-keys)', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'growth' });
  });
  afterAll(() => app?.stop());

  it('creates a key whose value is shown once and works at once', async () => {
    const res = await app.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'CI deploy', scope: 'read' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'CI deploy',
      key: expect.stringMatching(/^vr_live_[A-Za-z0-9_-]{32,}$/),
      prefix: expect.any(String),
      scope: 'read',
    });
    expect(res.body.data.prefix).toHaveLength(16);
    expect(res.body.data.key.startsWith(res.body.data.prefix)).toBe(true);
    expect(res.body.meta.request_id).toBeTruthy();
    const use = await app.request('GET', '/v1/organization', { key: res.body.data.key });
    expect(use.status).toBe(200);
    expect(use.body.data.id).toBe(org.id);
  });

  it('lists keys with prefix and metadata only', async () => {
    const res = await app.request('GET', '/v1/api-keys', { key: org.readKey });
    expect(res.status).toBe(200);
    expect(res.body.data.keys.length).toBeGreaterThanOrEqual(3);
    for (const key of res.body.data.keys) {
      expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix', 'scope']);
      expect(key.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(JSON.stringify(res.body)).not.toContain(org.key);
    await app.request('GET', '/v1/organization', { key: org.readKey });
    const listed = (await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys;
    const used = listed.find((k: { name: string }) => k.name === 'read');
    expect(used.last_used_at).not.toBeNull();
  });

  it('stores only a hash of each key', async () => {
    const rows = await app.deps.db.prisma.apiKey.findMany({ where: { organizationId: org.id } });
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(org.key);
      expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('validates the body', async () => {
    const cases: [unknown, string][] = [
      [{ scope: 'read' }, 'name'],
      [{ name: 'x' }, 'scope'],
      [{ name: 'x', scope: 'admin' }, 'scope'],
      [{ name: 7, scope: 'read' }, 'name'],
      [{ name: '', scope: 'read' }, 'name'],
    ];
    const count = (await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys.length;
    for (const [body, field] of cases) {
      const res = await app.request('POST', '/v1/api-keys', { key: org.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe(field);
    }
    expect((await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys.length).toBe(count);
  });

  it('needs a full key to create or revoke', async () => {
    const create = await app.request('POST', '/v1/api-keys', { key: org.readKey, body: { name: 'x', scope: 'full' } });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('revokes a key at once', async () => {
    const made = (await app.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'temp', scope: 'full' } })).body.data;
    expect((await app.request('GET', '/v1/organization', { key: made.key })).status).toBe(200);
    const res = await app.request('DELETE', `/v1/api-keys/${made.id}`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'Key revoked' });
    const after = await app.request('GET', '/v1/organization', { key: made.key });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_API_KEY');
    const again = await app.request('DELETE', `/v1/api-keys/${made.id}`, { key: org.key });
    expect(again.status).toBe(404);
  });

  it("treats another organization's key id as NOT_FOUND", async () => {
    const other = await app.createOrg({ plan: 'growth' });
    const otherKeys = (await app.request('GET', '/v1/api-keys', { key: other.key })).body.data.keys;
    const res = await app.request('DELETE', `/v1/api-keys/${otherKeys[0].id}`, { key: org.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await app.request('GET', '/v1/organization', { key: other.key })).status).toBe(200);
    const mine = (await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys.map((k: { id: string }) => k.id);
    expect(mine).not.toContain(otherKeys[0].id);
  });

  it('enforces the plan key limit with PLAN_LIMIT', async () => {
    const small = await app.createOrg({ plan: 'growth' }); // 2 keys from the kit; growth allows 10
    for (let i = 0; i < 8; i++) {
      expect((await app.request('POST', '/v1/api-keys', { key: small.key, body: { name: `k${i}`, scope: 'read' } })).status).toBe(201);
    }
    const res = await app.request('POST', '/v1/api-keys', { key: small.key, body: { name: 'one too many', scope: 'read' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'PLAN_LIMIT', details: { limit: 10, current: 10 } });
  });

  it('is Growth+: starter gets PLAN_UPGRADE_REQUIRED', async () => {
    const starter = await app.createOrg({ plan: 'starter' });
    for (const [method, path, body] of [
      ['GET', '/v1/api-keys', undefined],
      ['POST', '/v1/api-keys', { name: 'x', scope: 'read' }],
    ] as const) {
      const res = await app.request(method, path, { key: starter.key, body });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', details: { required_plan: 'growth', current_plan: 'starter' } });
    }
  });
});
