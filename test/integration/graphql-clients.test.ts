// GraphQL as clients nobody here wrote meet it: graphql-js's standard introspection query, @graphql-codegen/cli
// loading the schema from the running server's URL, and (further down) partial answers, WebSocket subscriptions
// with graphql-ws and GraphiQL served without any outside host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { generate } from '@graphql-codegen/cli';
import { schema } from '../../src/app/schema.js';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('GraphQL clients: introspection and schema loading', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'starter' });
  });
  afterAll(() => app?.stop());

  it("graphql-js's standard introspection query (every option on) answers the whole schema", async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    const res = await app.request('POST', '/graphql', { body: { query }, headers: { accept: 'application/graphql-response+json' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const loaded = buildClientSchema(res.body.data as IntrospectionQuery);
    expect(printSchema(lexicographicSortSchema(loaded))).toBe(printSchema(lexicographicSortSchema(schema)));
  });

  it('@graphql-codegen/cli loads the schema from the running server (with an API key, and without)', async () => {
    for (const headers of [{ authorization: `Bearer ${org.key}` }, {}] as Record<string, string>[]) {
      const [output] = await generate(
        { schema: [{ [`${app.url}/graphql`]: { headers } }], generates: { 'schema.graphql': { plugins: ['schema-ast'] } }, silent: true },
        false,
      );
      expect(output.content).toContain('type Query');
      expect(output.content).toContain('voteReceived');
    }
  });

  it('a plan-gated field comes back null with its error; the rest of the answer survives (REST keeps its 403)', async () => {
    const query = `{ organization { slug plan usage { votesThisMonth } } dashboardStats { summary { today } } templates { slug } }`;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await app.request('POST', '/graphql', { key: org.key, body: { query }, headers: { accept } });
      expect(res.status, `${accept}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(res.body.data.organization).toMatchObject({ slug: org.slug, plan: 'starter' });
      expect(res.body.data.dashboardStats).toBeNull();
      expect(res.body.data.templates.length).toBeGreaterThan(0);
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          path: ['dashboardStats'],
          extensions: { code: 'PLAN_UPGRADE_REQUIRED', details: { required_plan: 'growth', current_plan: 'starter' } },
        }),
      ]);
    }
    const rest = await app.request('GET', '/v1/stats/dashboard', { key: org.key });
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    // A read key's mutation: null with INSUFFICIENT_SCOPE.
    const mixed = await app.request('POST', '/graphql', {
      key: org.readKey,
      body: { query: 'mutation { updateOrganization(input: {name: "x"}) { name } }' },
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body.data).toEqual({ updateOrganization: null });
    expect(mixed.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('GraphiQL is served from the service itself: no resource from another host, the Authorization header shown', async () => {
    const res = await app.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = res.text;
    expect(html).toContain('<title>Vote Relay GraphQL</title>');
    expect(html).toContain('Authorization');
    expect(html).toContain('paste your API key');
    // Everything the page loads: script/link/img sources, CSS url() and @import. All inline, data: or same-origin.
    const loaded = [
      ...[...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']*)["']/g)].map((m) => m[1]),
      ...[...html.matchAll(/url\(\s*["']?([^)"']*)/g)].map((m) => m[1]),
      ...[...html.matchAll(/@import\s+(?:url\()?["']?([^"');\s]*)/g)].map((m) => m[1]),
    ];
    expect(loaded.length).toBeGreaterThan(0);
    const outside = loaded.filter((ref) => /^(?:https?:)?\/\//i.test(ref.trim()));
    expect(outside).toEqual([]);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr\.net|cdnjs|fonts\.googleapis/);
  });

  it('enums validate REST and GraphQL input alike, and REST answers keep their lowercase strings', async () => {
    const growth = await app.createOrg({ plan: 'growth' });
    const trend = await app.request('GET', '/v1/stats/trend?granularity=year', { key: growth.key });
    expect(trend.status).toBe(400);
    expect(trend.body.error.details).toEqual([
      { field: 'granularity', message: expect.stringMatching(/^must be one of (day|week|month), (day|week|month), (day|week|month)$/) },
    ]);
    const weekly = await app.request('GET', '/v1/stats/trend?granularity=week', { key: growth.key });
    expect(weekly.body.data.granularity).toBe('week');
    const key = await app.request('POST', '/v1/api-keys', { key: growth.key, body: { name: 'x', scope: 'admin' } });
    expect(key.status).toBe(400);
    expect(key.body.error.details).toEqual([{ field: 'scope', message: expect.stringMatching(/^must be one of (full, read|read, full)$/) }]);
    const viaGraphql = await app.request('POST', '/graphql', { key: growth.key, body: { query: '{ voteTrend(granularity: year) { granularity } }' } });
    expect(viaGraphql.body.errors[0].message).toMatch(/Granularity/);
    const org = await app.request('GET', '/v1/organization', { key: growth.key });
    expect(org.body.data).toMatchObject({ plan: 'growth', status: 'active', settings: { chat_message_type: 'simple' } });
  });

  it('GRAPHQL_INTROSPECTION=false still refuses it', async () => {
    const hardened = await startTestApp({ GRAPHQL_INTROSPECTION: 'false' });
    try {
      const res = await hardened.request('POST', '/graphql', { body: { query: getIntrospectionQuery() } });
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].message).toMatch(/introspection/i);
    } finally {
      await hardened.stop();
    }
  });
});
