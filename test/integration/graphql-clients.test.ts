// GraphQL as clients nobody here wrote meet it: graphql-js's standard introspection query, @graphql-codegen/cli
// loading the schema from the running server's URL, and (further down) partial answers, WebSocket subscriptions
// with graphql-ws and GraphiQL served without any outside host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildClientSchema,
  buildSchema,
  findBreakingChanges,
  getIntrospectionQuery,
  Kind,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { generate } from '@graphql-codegen/cli';
import { schema } from '../../src/app/schema.js';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { ROOT } from '../kit/processes.js';

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

  it('a client generated before issue 39 still works: nothing breaks from its schema, codegen makes it again from the URL, its reads run', async () => {
    const fixtures = join(ROOT, 'test/fixtures/client-before-issue-39');
    const introspection = await app.request('POST', '/graphql', { body: { query: getIntrospectionQuery() } });
    const live = buildClientSchema(introspection.body.data as IntrospectionQuery);
    const before = buildSchema(readFileSync(join(fixtures, 'schema.graphql'), 'utf8'));
    // graphql-js's own comparison: no type, field or argument a client used is gone or changed (added optional
    // arguments, such as the connections' `last` and `before`, are allowed).
    expect(findBreakingChanges(before, live)).toEqual([]);
    // The client preset, from the running server, over that client's documents: each must validate against it.
    const documents = join(fixtures, 'operations.graphql');
    const outputs = await generate(
      {
        schema: [{ [`${app.url}/graphql`]: { headers: { authorization: `Bearer ${org.key}` } } }],
        generates: { 'gql/': { preset: 'client', documents, presetConfig: { fragmentMasking: false } } },
        silent: true,
      },
      false,
    );
    const definitions = parse(readFileSync(documents, 'utf8')).definitions;
    const typed = outputs.find((o: { filename: string }) => o.filename === 'gql/graphql.ts')?.content ?? '';
    for (const op of definitions) if (op.kind === Kind.OPERATION_DEFINITION) expect(typed).toContain(`export const ${op.name?.value}Document`);
    // Every query of it that needs no variable, sent as that client sends it (with the fragments it spreads).
    const fragments = new Map(definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, print(d)]));
    const spread = (source: string, seen = new Set<string>()): string[] => {
      for (const [, name] of source.matchAll(/\.\.\.([A-Za-z_]\w*)/g)) {
        if (fragments.has(name) && !seen.has(name)) {
          seen.add(name);
          spread(fragments.get(name)!, seen);
        }
      }
      return [...seen].map((name) => fragments.get(name)!);
    };
    const growth = await app.createOrg({ plan: 'business' });
    let ran = 0;
    for (const op of definitions) {
      if (op.kind !== Kind.OPERATION_DEFINITION || op.operation !== 'query' || op.variableDefinitions?.some((v) => v.type.kind === Kind.NON_NULL_TYPE))
        continue;
      const query = [print(op), ...spread(print(op))].join('\n');
      const res = await app.request('POST', '/graphql', { key: growth.key, body: { query } });
      expect([res.status, res.body.errors], op.name?.value).toEqual([200, undefined]);
      ran += 1;
    }
    expect(ran).toBeGreaterThan(10);
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
