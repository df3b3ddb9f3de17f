// How rest-compat coerces a route's variables (variables.ts) against the schema's input types, without a server.
import { describe, it, expect } from 'vitest';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { coerceVariables } from './variables.js';

const schema = buildSchema(/* GraphQL */ `
  scalar JSON
  scalar DateTime

  enum Scope {
    read
    full
  }

  input SettingsInput {
    chatWebhookUrl: String
    notificationsEnabled: Boolean
    maxRetries: Int
  }

  input CreateThingInput {
    name: String!
    timeoutMs: Int
    enabled: Boolean
    ratio: Float
    scope: Scope
    settings: SettingsInput
    tags: [String!]
    payloadTemplate: JSON
    startsAt: DateTime
  }

  type Query {
    things(limit: Int, enabled: Boolean, ids: [ID!], ratio: Float, scope: Scope): [String]
    thing(id: ID!): String
  }

  type Mutation {
    createThing(input: CreateThingInput!): String
  }
`);

function operation(source: string): OperationDefinitionNode {
  const op = parse(source).definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!op) throw new Error('no operation');
  return op;
}

const create = operation('mutation ($input: CreateThingInput!) { createThing(input: $input) }');
const list = operation(
  'query ($limit: Int, $enabled: Boolean, $ids: [ID!], $ratio: Float, $scope: Scope) { things(limit: $limit, enabled: $enabled, ids: $ids, ratio: $ratio, scope: $scope) }',
);
const one = operation('query ($id: ID!) { thing(id: $id) }');

const body = (input: unknown) => coerceVariables(schema, create, { input }, false);

describe('coerceVariables — body (input object)', () => {
  it('maps snake_case keys to the camelCase fields', () => {
    const { variables, errors } = body({
      name: 'Thing',
      timeout_ms: 5000,
      enabled: false,
      ratio: 0.5,
      scope: 'full',
      settings: { chat_webhook_url: 'https://discord.com/api/webhooks/1/x', notifications_enabled: true, max_retries: 3 },
      tags: ['a', 'b'],
      starts_at: '2026-01-01T00:00:00Z',
    });
    expect(errors).toEqual([]);
    expect(variables).toEqual({
      input: {
        name: 'Thing',
        timeoutMs: 5000,
        enabled: false,
        ratio: 0.5,
        scope: 'full',
        settings: { chatWebhookUrl: 'https://discord.com/api/webhooks/1/x', notificationsEnabled: true, maxRetries: 3 },
        tags: ['a', 'b'],
        startsAt: '2026-01-01T00:00:00Z',
      },
    });
  });

  it("reads only the input type's keys, at the top and nested (the router refuses the others first: body-fields)", () => {
    const { variables, errors } = body({ name: 'Thing', bogus: 1, id: 'x', settings: { chat_webhook_url: null, extra: true } });
    expect(errors).toEqual([]);
    expect(variables).toEqual({ input: { name: 'Thing', settings: { chatWebhookUrl: null } } });
  });

  it('leaves out fields that are absent and keeps explicit null on optional fields', () => {
    const { variables } = body({ name: 'Thing', timeout_ms: null });
    expect(variables).toEqual({ input: { name: 'Thing', timeoutMs: null } });
    expect(Object.keys(variables.input as object)).not.toContain('enabled');
  });

  it('reports wrong types with the snake_case field path', () => {
    const { errors } = body({ name: 'Thing', settings: { chat_webhook_url: 42 } });
    expect(errors).toEqual([{ field: 'settings.chat_webhook_url', message: 'must be a string' }]);
  });

  it.each([
    [{ name: 5 }, 'name', 'must be a string'],
    [{ name: 'x', timeout_ms: '5000' }, 'timeout_ms', 'must be an integer'],
    [{ name: 'x', timeout_ms: 1.5 }, 'timeout_ms', 'must be an integer'],
    [{ name: 'x', timeout_ms: 2 ** 31 }, 'timeout_ms', 'must be an integer'],
    [{ name: 'x', enabled: 'true' }, 'enabled', 'must be a boolean'],
    [{ name: 'x', enabled: 1 }, 'enabled', 'must be a boolean'],
    [{ name: 'x', ratio: '0.5' }, 'ratio', 'must be a number'],
    [{ name: 'x', scope: 'admin' }, 'scope', 'must be one of read, full'],
    [{ name: 'x', settings: 'nope' }, 'settings', 'must be an object'],
    [{ name: 'x', settings: ['a'] }, 'settings', 'must be an object'],
    [{ name: 'x', settings: { max_retries: '3' } }, 'settings.max_retries', 'must be an integer'],
    [{ name: 'x', settings: { notifications_enabled: 'yes' } }, 'settings.notifications_enabled', 'must be a boolean'],
    [{ name: 'x', tags: 'a' }, 'tags', 'must be an array'],
    [{ name: 'x', tags: ['a', 3] }, 'tags[1]', 'must be a string'],
    [{ name: 'x', tags: ['a', null] }, 'tags[1]', 'must not be null'],
    [{ name: 'x', starts_at: 1700000000 }, 'starts_at', 'must be a string'],
  ])('body %j → %s %s', (input, field, message) => {
    const { variables, errors } = body(input);
    expect(errors).toEqual([{ field, message }]);
    expect(variables).toEqual({});
  });

  it("missing required → 'is required'", () => {
    expect(body({}).errors).toEqual([{ field: 'name', message: 'is required' }]);
    expect(body({ timeout_ms: 5 }).errors).toEqual([{ field: 'name', message: 'is required' }]);
  });

  it("explicit null on required → 'must not be null'", () => {
    expect(body({ name: null }).errors).toEqual([{ field: 'name', message: 'must not be null' }]);
  });

  it('reports every problem at once', () => {
    const { errors } = body({ timeout_ms: 'x', settings: { chat_webhook_url: 1, max_retries: 'y' } });
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'timeout_ms', message: 'must be an integer' },
        { field: 'settings.chat_webhook_url', message: 'must be a string' },
        { field: 'settings.max_retries', message: 'must be an integer' },
      ]),
    );
    expect(errors).toHaveLength(4);
  });

  it("a body that is not an object is reported as 'body'", () => {
    expect(body([]).errors).toEqual([{ field: 'body', message: 'must be an object' }]);
    expect(body('text').errors).toEqual([{ field: 'body', message: 'must be an object' }]);
  });

  it('body mode does not convert strings', () => {
    const { errors } = body({ name: 'x', timeout_ms: '5', enabled: 'true' });
    expect(errors).toEqual([
      { field: 'timeout_ms', message: 'must be an integer' },
      { field: 'enabled', message: 'must be a boolean' },
    ]);
  });

  it('JSON scalar values pass untouched, camelCase keys inside them included', () => {
    const template = { event: 'vote', voterName: '{{voter_name}}', nested: { someKey: [1, { deepKey: true }] }, n: null };
    const { variables, errors } = body({ name: 'x', payload_template: template });
    expect(errors).toEqual([]);
    expect((variables.input as { payloadTemplate: unknown }).payloadTemplate).toEqual({
      event: 'vote',
      voterName: '{{voter_name}}',
      nested: { someKey: [1, { deepKey: true }] },
      n: null,
    });
  });

  it('JSON scalar accepts any JSON value', () => {
    for (const value of ['text', 5, true, [1, 'a'], { a: 1 }]) {
      const { variables, errors } = body({ name: 'x', payload_template: value });
      expect(errors).toEqual([]);
      expect((variables.input as { payloadTemplate: unknown }).payloadTemplate).toEqual(value);
    }
  });
});

describe('coerceVariables — query string', () => {
  const query = (raw: Record<string, unknown>) => coerceVariables(schema, list, raw, true);

  it("converts '5' → 5 and 'true'/'false' → booleans", () => {
    expect(query({ limit: '5', enabled: 'true' })).toEqual({ variables: { limit: 5, enabled: true }, errors: [] });
    expect(query({ limit: '-3', enabled: 'false' }).variables).toEqual({ limit: -3, enabled: false });
    expect(query({ ratio: '0.25' }).variables).toEqual({ ratio: 0.25 });
  });

  it('turns a single value into a one-item list', () => {
    expect(query({ ids: 'a' }).variables).toEqual({ ids: ['a'] });
    expect(query({ ids: ['a', 'b'] }).variables).toEqual({ ids: ['a', 'b'] });
  });

  it('leaves out absent parameters', () => {
    expect(query({})).toEqual({ variables: {}, errors: [] });
  });

  it.each([
    [{ limit: 'abc' }, 'limit', 'must be an integer'],
    [{ limit: '5.5' }, 'limit', 'must be an integer'],
    [{ limit: '' }, 'limit', 'must be an integer'],
    [{ limit: '99999999999' }, 'limit', 'must be an integer'],
    [{ enabled: 'yes' }, 'enabled', 'must be a boolean'],
    [{ enabled: 'TRUE' }, 'enabled', 'must be a boolean'],
    [{ ratio: 'abc' }, 'ratio', 'must be a number'],
    [{ scope: 'admin' }, 'scope', 'must be one of read, full'],
  ])('query %j → %s %s', (raw, field, message) => {
    expect(query(raw).errors).toEqual([{ field, message }]);
  });

  it('the same strings are refused in body mode', () => {
    const { errors } = coerceVariables(schema, list, { limit: '5', enabled: 'true' }, false);
    expect(errors).toEqual([
      { field: 'limit', message: 'must be an integer' },
      { field: 'enabled', message: 'must be a boolean' },
    ]);
  });

  it('in body mode a single value is not a list', () => {
    expect(coerceVariables(schema, list, { ids: 'a' }, false).errors).toEqual([{ field: 'ids', message: 'must be an array' }]);
  });
});

describe('coerceVariables — scalar variables', () => {
  it('passes a path id through and turns integer ids into strings', () => {
    expect(coerceVariables(schema, one, { id: 'ak_1' }, true)).toEqual({ variables: { id: 'ak_1' }, errors: [] });
    expect(coerceVariables(schema, one, { id: 7 }, false)).toEqual({ variables: { id: '7' }, errors: [] });
  });

  it('names a missing or wrong required scalar by its snake_case name', () => {
    expect(coerceVariables(schema, one, {}, true).errors).toEqual([{ field: 'id', message: 'is required' }]);
    expect(coerceVariables(schema, one, { id: true }, false).errors).toEqual([{ field: 'id', message: 'must be a string' }]);
  });

  it('uses the snake_case form of a camelCase variable name in errors', () => {
    const op = operation('query ($maxCount: Int) { things(limit: $maxCount) }');
    expect(coerceVariables(schema, op, { maxCount: 'x' }, true).errors).toEqual([{ field: 'max_count', message: 'must be an integer' }]);
    expect(coerceVariables(schema, op, { maxCount: '4' }, true).variables).toEqual({ maxCount: 4 });
  });

  it('throws for a variable of an unknown type', () => {
    const op = operation('query ($x: Nope) { things }');
    expect(() => coerceVariables(schema, op, {}, true)).toThrow(/Unknown type/);
  });
});
