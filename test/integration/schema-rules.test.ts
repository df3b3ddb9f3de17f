import { describe, expect, it } from 'vitest';
import { getNamedType, isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema.js';
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
