import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('authentication, suspension and the error envelope', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'pro' });
  });
  afterAll(() => app?.stop());

  it('AUTH_REQUIRED without a header, INVALID_API_KEY for bad keys', async () => {
    const none = await app.request('GET', '/v1/organization');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'AUTH_REQUIRED', message: expect.any(String) }, meta: { request_id: none.headers.get('x-request-id') } });
    // A bare `Bearer ` carries no key at all (GraphiQL's header template before one is pasted): AUTH_REQUIRED.
    const bare = await app.request('GET', '/v1/organization', { headers: { authorization: 'Bearer ' } });
    expect([bare.status, bare.body.error.code]).toEqual([401, 'AUTH_REQUIRED']);
    for (const header of [`Bearer vr_live_${'a'.repeat(32)}`, 'Bearer nonsense', 'Basic abc', org.key]) {
      const res = await app.request('GET', '/v1/organization', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
  });

  it('answers NOT_FOUND in the envelope for unknown routes', async () => {
    const res = await app.request('GET', '/v1/nothing-here', { key: org.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('echoes a sane incoming X-Request-Id', async () => {
    const res = await app.request('GET', '/v1/organization', { key: org.key, headers: { 'x-request-id': 'trace-1234567890' } });
    expect(res.headers.get('x-request-id')).toBe('trace-1234567890');
    expect(res.body.meta.request_id).toBe('trace-1234567890');
  });

  it('suspended organizations may read only their organization', async () => {
    const victim = await app.createOrg({ plan: 'growth' });
    await app.services.organizations.setStatus(victim.slug, 'suspended');
    const read = await app.request('GET', '/v1/organization', { key: victim.key });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe('suspended');
    for (const [method, path, body] of [
      ['GET', '/v1/api-keys', undefined],
      ['PATCH', '/v1/organization', { name: 'x' }],
      ['POST', '/v1/api-keys', { name: 'x', scope: 'read' }],
    ] as const) {
      const res = await app.request(method, path, { key: victim.key, body });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('ORG_SUSPENDED');
    }
    await app.services.organizations.setStatus(victim.slug, 'active');
    expect((await app.request('GET', '/v1/api-keys', { key: victim.key })).status).toBe(200);
  });

  it('GraphQL uses the same codes; statuses follow GraphQL over HTTP (README "Errors")', async () => {
    const gql = (query: string, key?: string, accept = 'application/json') => app.request('POST', '/graphql', { key, body: { query }, headers: { accept } });
    // A field that ran and was refused: 200 with the field null and the code in its error.
    const anon = await gql('{ organization { id } }');
    expect(anon.status).toBe(200);
    expect(anon.body.data).toEqual({ organization: null });
    expect(anon.body.errors[0].extensions.code).toBe('AUTH_REQUIRED');
    const scope = await gql('mutation { updateOrganization(input: {name: "x"}) { id } }', org.readKey);
    expect(scope.status).toBe(200);
    expect(scope.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    // A wrong key is refused before GraphQL runs.
    const badKey = await gql('{ templates { slug } }', 'vr_live_not_a_real_key_0000000000000000');
    expect(badKey.status).toBe(401);
    expect(badKey.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
    // A document that does not validate: 400 with application/graphql-response+json, 200 with application/json.
    const unknownJson = await gql('{ nope }', org.key);
    expect(unknownJson.status).toBe(200);
    expect(unknownJson.body.data).toBeUndefined();
    const unknownGraphql = await gql('{ nope }', org.key, 'application/graphql-response+json');
    expect(unknownGraphql.status).toBe(400);
    expect(unknownGraphql.body.data).toBeUndefined();
    const starter = await app.createOrg({ plan: 'starter' });
    const plan = await gql('{ apiKeys { id } }', starter.key);
    expect(plan.body.errors[0].extensions).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', details: { required_plan: 'growth', current_plan: 'starter' } });
    const invalid = await gql('mutation { updateOrganization(input: {slug: "BAD SLUG"}) { id } }', org.key);
    expect(invalid.status).toBe(200);
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'slug' }] });
    const ok = await gql('{ organization { slug usage { votesLimit } } templates { slug } }', org.key);
    expect(ok.status).toBe(200);
    expect(ok.body.data.organization).toEqual({ slug: org.slug, usage: { votesLimit: 25_000 } });
  });

  it('judges access before the input: a refused caller learns nothing from a bad input, and nothing changes', async () => {
    const gql = (query: string, key?: string) => app.request('POST', '/graphql', { key, body: { query } });
    // Each of these inputs breaks its field's input rule; the caller may not write at all.
    const writes = [
      'mutation { updateOrganization(input: {slug: "BAD SLUG"}) { id } }',
      'mutation { createApiKey(input: {name: "", scope: full}) { key } }',
      'mutation { createPluginToken(name: "") { token } }',
      'mutation { replayCallback(id: "x", since: "") { queued } }',
    ];
    for (const query of writes) {
      expect((await gql(query)).body.errors[0].extensions.code, query).toBe('AUTH_REQUIRED');
      expect((await gql(query, org.readKey)).body.errors[0].extensions.code, query).toBe('INSUFFICIENT_SCOPE');
      // With the right key, the same input is refused by its rule, the field named as REST names it.
      expect((await gql(query, org.key)).body.errors[0].extensions.code, query).toBe('VALIDATION_ERROR');
    }
    const named = await gql('mutation { createApiKey(input: {name: "", scope: full}) { key } }', org.key);
    expect(named.body.errors[0].extensions.details).toEqual([{ field: 'name', message: 'must not be empty' }]);
    // REST the same way: 401, then 403, then the field's problem.
    const body = { slug: 'BAD SLUG' };
    expect((await app.request('PATCH', '/v1/organization', { body })).body.error.code).toBe('AUTH_REQUIRED');
    expect((await app.request('PATCH', '/v1/organization', { key: org.readKey, body })).body.error.code).toBe('INSUFFICIENT_SCOPE');
    const rest = await app.request('PATCH', '/v1/organization', { key: org.key, body });
    expect([rest.status, rest.body.error.code, rest.body.error.details[0].field]).toEqual([400, 'VALIDATION_ERROR', 'slug']);
    const after = await app.request('GET', '/v1/organization', { key: org.key });
    expect(after.body.data.slug).toBe(org.slug);
  });

  it('never leaks stack traces or SQL for unexpected input', async () => {
    const res = await app.request('POST', '/graphql', {
      key: org.key,
      rawBody: '{"query": "{ organization { id } }", "variables": "nope"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+|SELECT|prisma/i);
  });
});

describe.skipIf(databaseUnavailable)('rate limits', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ API_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => app?.stop());

  it('limits each organization separately, with X-RateLimit headers and RATE_LIMITED', async () => {
    const noisy = await app.createOrg();
    const quiet = await app.createOrg();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await app.request('GET', '/v1/organization', { key: noisy.key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('x-ratelimit-limit')).toBe('5');
        expect(last.headers.get('x-ratelimit-remaining')).toBe('4');
        expect(Number(last.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.body.error.details.retry_after_seconds).toBe(Number(last!.headers.get('retry-after')));
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await app.request('GET', '/v1/organization', { key: quiet.key })).status).toBe(200);
  });
});

describe.skipIf(databaseUnavailable)('rate limits shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { API_RATE_LIMIT_PER_MINUTE: '5', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    a = await startTestApp(env);
    b = await startTestApp(env, { databaseUrl: a.config.databaseUrl });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('counts one organization across instances', async () => {
    const org = await a.createOrg();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await (i % 2 ? b : a).request('GET', '/v1/organization', { key: org.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
