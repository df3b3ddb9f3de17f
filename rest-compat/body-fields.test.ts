// What a route's body may hold, learnt from the route (its mappers, its document's variables and input types), and
// the refusals of everything else, without a server.
import { describe, expect, it } from 'vitest';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { bodyFieldsOf, unknownBodyFields, type RouteLabel } from './body-fields.js';
import type { RestRoute } from './route.js';

const schema = buildSchema(/* GraphQL */ `
  scalar JSON
  input RowInput {
    label: String!
    weight: Int
  }
  input SettingsInput {
    chatWebhookUrl: String
    rows: [RowInput!]
    template: JSON
  }
  input ThingInput {
    name: String
    settings: SettingsInput
  }
  type Settings {
    chatWebhookUrl: String
    lastSentAt: String
  }
  type Thing {
    id: ID!
    name: String
    votesTotal: Int!
    settings: Settings!
  }
  type Query {
    thing(id: ID!): Thing
  }
  type Mutation {
    updateThing(id: ID!, input: ThingInput!): Thing
    createThing(input: ThingInput!): Thing
    retry(id: ID!, since: String!, onlyFailed: Boolean): Boolean
    forget(id: ID!): Boolean
    createHook(url: String!, timeoutMs: Int): Boolean
  }
`);

const THING = `id name votes_total: votesTotal settings { chat_webhook_url: chatWebhookUrl last_sent_at: lastSentAt }`;
const routes: Record<string, RestRoute> = {
  patch: {
    method: 'patch',
    path: '/things/:id',
    document: `mutation ($id: ID!, $input: ThingInput!) { updateThing(id: $id, input: $input) { ${THING} } }`,
    variables: (req) => ({ id: req.params.id, input: req.body ?? {} }),
    data: (r) => r.updateThing,
  },
  create: {
    method: 'post',
    path: '/things',
    document: `mutation ($input: ThingInput!) { createThing(input: $input) { ${THING} } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    data: (r) => r.createThing,
  },
  retry: {
    method: 'post',
    path: '/things/:id/retry',
    document: `mutation ($id: ID!, $since: String!, $onlyFailed: Boolean) { retry(id: $id, since: $since, onlyFailed: $onlyFailed) }`,
    variables: (req) => ({ id: req.params.id, since: req.body?.since, onlyFailed: req.body?.only_failed }),
    data: (r) => r.retry,
  },
  forget: {
    method: 'delete',
    path: '/things/:id',
    document: `mutation ($id: ID!) { forget(id: $id) }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.forget,
  },
  hook: {
    method: 'post',
    path: '/hooks',
    document: `mutation ($url: String!, $timeoutMs: Int) { createHook(url: $url, timeoutMs: $timeoutMs) }`,
    variables: (req) => ({ url: req.body?.url, timeoutMs: req.body?.timeout_ms }),
    data: (r) => r.createHook,
  },
};

const fieldsOf = (route: RestRoute) => {
  const document = parse(route.document);
  const operation = document.definitions[0] as OperationDefinitionNode;
  return bodyFieldsOf(schema, route, document, operation);
};
const labels: RouteLabel[] = Object.values(routes).map((route) => ({ label: `${route.method.toUpperCase()} /v1${route.path}`, fields: fieldsOf(route) }));
const check = (name: keyof typeof routes, body: unknown) => unknownBodyFields(body, fieldsOf(routes[name]), labels);

describe('unknownBodyFields', () => {
  it('takes every key of the input type, nested, and nothing is said of a JSON value', () => {
    expect(
      check('create', { name: 'x', settings: { chat_webhook_url: null, rows: [{ label: 'a', weight: 1 }], template: { anything: { at: 'all' } } } }),
    ).toEqual([]);
    expect(check('create', {})).toEqual([]);
    expect(check('create', undefined)).toEqual([]);
  });

  it('names an unknown key at the top, nested, and in each element of a list', () => {
    expect(check('create', { name: 'x', colour: 'red', settings: { rows: [{ label: 'a' }, { label: 'b', extra: 1 }], other: true } })).toEqual([
      { field: 'colour', message: 'is not a field of this request' },
      { field: 'settings.rows[1].extra', message: 'is not a field of settings.rows' },
      { field: 'settings.other', message: 'is not a field of settings' },
    ]);
  });

  it('says where a misplaced key belongs, by its REST name even when sent in its GraphQL spelling', () => {
    expect(check('create', { chat_webhook_url: 'https://x' })).toEqual([
      { field: 'chat_webhook_url', message: 'is not a field of this request; chat_webhook_url belongs under settings' },
    ]);
    expect(check('create', { chatWebhookUrl: 'https://x' })).toEqual([
      { field: 'chatWebhookUrl', message: 'is not a field of this request; chat_webhook_url belongs under settings' },
    ]);
    expect(check('create', { settings: { name: 'x', label: 'y' } })).toEqual([
      { field: 'settings.name', message: 'is not a field of settings; name belongs at the top level' },
      { field: 'settings.label', message: 'is not a field of settings; label belongs under settings.rows' },
    ]);
  });

  it('suggests the key a typo or another spelling meant, strictly for short names', () => {
    expect(check('create', { settings: { chat_webhok_url: null } })[0].message).toBe('is not a field of settings; did you mean chat_webhook_url?');
    expect(check('create', { settings: { chatWebhookUrl: null } })[0].message).toBe('is not a field of settings; did you mean chat_webhook_url?');
    expect(check('create', { nmae: 'x' })[0].message).toBe('is not a field of this request');
    expect(check('create', { Name: 'x' })[0].message).toBe('is not a field of this request; did you mean name?');
    expect(check('retry', { sinse: 'x' })[0].message).toBe('is not a field of this request; did you mean since?');
  });

  it('names another route that takes the key', () => {
    expect(check('create', { timeout_ms: 5 })).toEqual([{ field: 'timeout_ms', message: 'is not a field of this request; POST /v1/hooks takes timeout_ms' }]);
    expect(check('hook', { url: 'https://x', chat_webhook_url: 'y' })).toEqual([
      {
        field: 'chat_webhook_url',
        message:
          'is not a field of this request; PATCH /v1/things/:id takes chat_webhook_url under settings, POST /v1/things takes chat_webhook_url under settings',
      },
    ]);
  });

  it('knows the single body fields a route reads, and a route that reads none', () => {
    expect(check('retry', { since: '2026-01-01', only_failed: true })).toEqual([]);
    expect(check('retry', { since: '2026-01-01', id: 'x' })).toEqual([{ field: 'id', message: 'is not a field of this request' }]);
    expect(check('forget', {})).toEqual([]);
    expect(check('forget', { reason: 'x' })).toEqual([{ field: 'reason', message: 'is not read: this request takes no body fields' }]);
  });

  it('on a PATCH, takes back what the route answers with (whatever the value), at every level; on a create, not', () => {
    const read = { id: 't1', name: 'x', votes_total: 3, settings: { chat_webhook_url: null, last_sent_at: '2026-01-01T00:00:00Z' } };
    expect(check('patch', read)).toEqual([]);
    expect(check('patch', { ...read, id: 'changed', votes_total: 999 })).toEqual([]);
    expect(check('patch', { ...read, settings: { ...read.settings, bogus: 1 } })).toEqual([{ field: 'settings.bogus', message: 'is not a field of settings' }]);
    expect(check('create', read)).toEqual([
      { field: 'id', message: 'is not a field of this request' },
      { field: 'votes_total', message: 'is not a field of this request' },
      { field: 'settings.last_sent_at', message: 'is not a field of settings' },
    ]);
  });

  it('refuses a body that is not an object as one problem', () => {
    expect(check('create', [{ name: 'x' }])).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    expect(check('forget', [])).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });
});
