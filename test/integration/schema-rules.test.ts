import { describe, expect, it } from 'vitest';
import { getNamedType, isEnumType, isNonNullType, isObjectType, type GraphQLObjectType } from 'graphql';
import { schema } from '../../src/app/schema.js';
import { REST_ROUTES, prepareRoute } from '../../rest-compat/router.js';

describe('GraphQL schema rules', () => {
  it('every root field states who may call it (deny by default)', () => {
    const missing: string[] = [];
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      if (!root) continue;
      for (const field of Object.values(root.getFields())) {
        const options = (field.extensions?.pothosOptions ?? {}) as { authScopes?: unknown };
        if (!options.authScopes) missing.push(`${root.name}.${field.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every root field that a plan or scope may refuse is nullable (a refusal empties only that field)', () => {
    const nonNull: string[] = [];
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      for (const field of Object.values(root!.getFields())) {
        const options = (field.extensions?.pothosOptions ?? {}) as { authScopes?: { access?: unknown } };
        if (options.authScopes?.access && isNonNullType(field.type)) nonNull.push(`${root!.name}.${field.name}`);
      }
    }
    expect(nonNull).toEqual([]);
  });

  it('closed sets are enums with the lowercase values REST shows', () => {
    const enumOf = (type: string, field: string) => {
      const named = getNamedType((schema.getType(type) as GraphQLObjectType).getFields()[field].type);
      return isEnumType(named)
        ? named
            .getValues()
            .map((v) => v.name)
            .sort()
        : null;
    };
    expect(enumOf('Vote', 'chatStatus')).toEqual(['failed', 'pending', 'retrying', 'sent', 'skipped', 'uncertain']);
    expect(enumOf('Vote', 'callbackStatus')).toEqual(['failed', 'pending', 'retrying', 'sent', 'skipped', 'uncertain']);
    expect(enumOf('DeliveryJob', 'status')).toContain('running');
    expect(enumOf('DeliveryJob', 'kind')).toEqual(['alert', 'callback', 'chat', 'event', 'legacy_callback', 'post', 'pull']);
    expect(enumOf('Callback', 'events')).toEqual(['milestone', 'reminder', 'vote', 'vote_party']);
    expect(enumOf('MilestoneRule', 'type')).toEqual(['streak', 'total']);
    expect(enumOf('Callback', 'kind')).toEqual(['amqp', 'discord_dm', 'discord_role', 'http', 'mqtt', 'nats', 'rcon', 'redis_stream', 'votifier']);
    expect(enumOf('LeaderboardPosts', 'period')).toEqual(['day', 'month', 'week']);
    expect(enumOf('DiscordRoleGrant', 'status')).toEqual(['active', 'not_member', 'removed']);
    expect(enumOf('CallbackSetting', 'type')).toEqual(['boolean', 'int', 'json', 'string', 'strings']);
    expect(enumOf('Organization', 'plan')).toEqual(['business', 'growth', 'pro', 'starter']);
    expect(enumOf('Organization', 'status')).toEqual(['active', 'suspended']);
    expect(enumOf('OrganizationSettings', 'chatMessageType')).toEqual(['embed', 'simple']);
    expect(enumOf('ApiKey', 'scope')).toEqual(['full', 'read']);
    expect(enumOf('Trend', 'granularity')).toEqual(['day', 'month', 'week']);
    expect(enumOf('Provider', 'authMethod')).toEqual(['header', 'hmac', 'query', 'url_path', 'votifier']);
    expect(enumOf('Provider', 'payloadSource')).toEqual(['form', 'json', 'query']);
    expect(enumOf('Provider', 'signatureFormat')).toEqual(['plain', 'topgg']);
    expect(enumOf('ProviderTemplate', 'authMethod')).toEqual(['header', 'hmac', 'query', 'url_path', 'votifier']);
  });

  it('every REST route is a valid document against the schema', () => {
    expect(REST_ROUTES.length).toBeGreaterThan(0);
    for (const route of REST_ROUTES) expect(() => prepareRoute(schema, route)).not.toThrow();
  });

  it('uses camelCase names for REST fields', () => {
    const bad: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !isObjectType(getNamedType(type))) continue;
      for (const name of Object.keys((type as { getFields(): object }).getFields())) if (name.includes('_')) bad.push(`${type.name}.${name}`);
    }
    expect(bad).toEqual([]);
  });
});

import { afterAll as after, beforeAll as before } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('GraphQL abuse limits', () => {
  let app: TestApp;
  let hardened: TestApp;
  before(async () => {
    app = await startTestApp();
    hardened = await startTestApp({ GRAPHQL_INTROSPECTION: 'false' });
  });
  after(async () => {
    await app?.stop();
    await hardened?.stop();
  });

  it('refuses queries that are too deep or too wide before running them', async () => {
    const deep = `{ ${'organization { '.repeat(13)} slug ${'} '.repeat(13)} }`;
    const res = await app.request('POST', '/graphql', { body: { query: deep } });
    // Validation errors: nothing runs; Yoga answers application/json requests with 200 and `errors` (no `data`).
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/Query is 14 levels deep/);
    // Introspection has room for the standard queries (graphql-clients.test.ts), not for an endless ofType chain.
    const chain = `{ __schema { types { fields { type { ${'ofType { '.repeat(30)} name ${'} '.repeat(30)} } } } } }`;
    const introspection = await app.request('POST', '/graphql', { body: { query: chain } });
    expect(introspection.body.data).toBeUndefined();
    expect(introspection.body.errors[0].message).toMatch(/Introspection is \d+ levels deep; the limit is 24/);
    const wide = `{ ${Array.from({ length: 1_100 }, (_, i) => `a${i}: templates { slug }`).join(' ')} }`;
    const many = await app.request('POST', '/graphql', { body: { query: wide } });
    expect(many.body.data).toBeUndefined();
    expect(many.body.errors[0].message).toMatch(/more than 1000 fields/);
    const cyclic = await app.request('POST', '/graphql', { body: { query: 'query { templates { ...A } } fragment A on ProviderTemplate { slug ...A }' } });
    expect(cyclic.body.data).toBeUndefined();
    expect(cyclic.body.errors.length).toBeGreaterThan(0);
  });

  it('can turn introspection off', async () => {
    const on = await app.request('POST', '/graphql', { body: { query: '{ __schema { queryType { name } } }' } });
    expect(on.body.data.__schema.queryType.name).toBe('Query');
    const off = await hardened.request('POST', '/graphql', { body: { query: '{ __schema { queryType { name } } }' } });
    expect(off.body.data).toBeUndefined();
    expect(off.body.errors[0].message).toMatch(/introspection/i);
  });
});
