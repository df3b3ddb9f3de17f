// GraphQL as clients nobody here wrote meet it: graphql-js's standard introspection query, @graphql-codegen/cli
// loading the schema from the running server's URL, and (further down) partial answers, WebSocket subscriptions
// with graphql-ws and GraphiQL served without any outside host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { generate } from '@graphql-codegen/cli';
import { schema } from '../../src/graphql/schema.js';
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
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const res = await app.request('POST', '/graphql', { body: { query }, headers: { accept: 'application/graphql-response+json' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const loaded = buildClientSchema(res.body.data as IntrospectionQuery);
    expect(printSchema(lexicographicSortSchema(loaded))).toBe(printSchema(lexicographicSortSchema(schema)));
  });

  it('@graphql-codegen/cli loads the schema from the running server (with an API key, and without)', async () => {
    for (const headers of [{ authorization: `Bearer ${org.key}` }, {}]) {
      const [output] = await generate(
        { schema: [{ [`${app.url}/graphql`]: { headers } }], generates: { 'schema.graphql': { plugins: ['schema-ast'] } }, silent: true },
        false,
      );
      expect(output.content).toContain('type Query');
      expect(output.content).toContain('voteReceived');
    }
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
