// The OpenAPI generator's mapping, without a server: paths and ids, where parameters and bodies come from, and
// what a route's mappers make of its document's result (wrapped, renamed, null fields left out, shaped by kind).
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { schema } from '../src/app/schema.js';
import { HOOK_ROUTES, REST_ROUTES } from './router.js';
import { buildOpenApiDocument, operationId, openApiPath } from './openapi.js';
import type { RestRoute } from './route.js';

const only = (...rest: RestRoute[]) => buildOpenApiDocument(schema, { rest, hooks: [] }) as any;
const success = (op: any, status = '200') => op.responses[status].content['application/json'].schema;

describe('OpenAPI document', () => {
  it('turns Express paths into OpenAPI templates and method + path into a unique operationId', () => {
    expect(openApiPath('/stats/voter/:voter_name')).toBe('/stats/voter/{voter_name}');
    expect(operationId('post', '/callbacks/:id/rotate-secret')).toBe('postCallbacksByIdRotateSecret');
    expect(operationId('get', '/stats/voter/:voter_name')).toBe('getStatsVoterByVoterName');
  });

  it('is valid OpenAPI 3.1 and has one operation per REST and hook route', async () => {
    const doc = buildOpenApiDocument(schema);
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    for (const route of REST_ROUTES) expect(doc.paths[`/v1${openApiPath(route.path)}`]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    for (const route of HOOK_ROUTES) expect(doc.paths[`/hooks${openApiPath(route.path)}`]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads query parameters by the names the route reads, typed by their variables, and wrapped data and meta', () => {
    const doc = only({
      method: 'get',
      path: '/list',
      document: `query ($page: Int, $voter: String, $chat: DeliveryStatus) { votes(page: $page, voter: $voter, chatStatus: $chat) { page votes { id voter_name: voterName } } }`,
      variables: (req) => ({ page: req.query.p, voter: req.query.who, chat: req.query.chat_status }),
      data: (r) => ({ list: r.votes.votes }),
      meta: (r) => ({ page: r.votes.page }),
    });
    const op = doc.paths['/v1/list'].get;
    expect(op.parameters).toEqual([
      { name: 'p', in: 'query', required: false, schema: { type: 'integer', format: 'int32' } },
      { name: 'who', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'chat_status', in: 'query', required: false, schema: { $ref: '#/components/schemas/DeliveryStatus' } },
    ]);
    expect(doc.components.schemas.DeliveryStatus.enum).toContain('sent');
    const body = success(op);
    expect(body.required).toEqual(['data', 'meta']);
    expect(body.properties.data).toEqual({
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, voter_name: { type: 'string' } },
            required: ['id', 'voter_name'],
            additionalProperties: false,
          },
        },
      },
      required: ['list'],
      additionalProperties: false,
    });
    expect(body.properties.meta.properties).toEqual({ page: { type: 'integer', format: 'int32' }, request_id: { type: 'string' } });
    expect(body.properties.meta.required).toEqual(['page', 'request_id']);
  });

  it('sees a mapper leave out null fields (optional, never null) and pass others through (nullable)', () => {
    const doc = only({
      method: 'get',
      path: '/p/:key',
      document: `query ($key: String!) { provider(key: $key) { key event_path: eventPath body_timestamp_path: bodyTimestampPath } }`,
      variables: (req) => ({ key: req.params.key }),
      omitMeta: true,
      data: (r) => Object.fromEntries(Object.entries(r.provider).filter(([k, v]) => !(k === 'body_timestamp_path' && v === null))),
    });
    const op = doc.paths['/v1/p/{key}'].get;
    expect(op.parameters).toEqual([{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }]);
    const data = success(op).properties.data;
    expect(success(op).required).toEqual(['data']);
    expect(data.required).toEqual(['key', 'event_path']);
    expect(data.properties.event_path.type).toEqual(['string', 'null']);
    expect(data.properties.body_timestamp_path.type).toBe('string');
    expect(op.responses['404']).toBeDefined();
  });

  it('sees a mapper shape by an enum value: fields of one kind are optional', () => {
    const doc = only({
      method: 'get',
      path: '/c/:id',
      document: `query ($id: ID!) { callback(id: $id) { id kind host } }`,
      variables: (req) => ({ id: req.params.id }),
      data: (r) => (r.callback.kind === 'votifier' ? r.callback : { id: r.callback.id, kind: r.callback.kind }),
    });
    const data = success(doc.paths['/v1/c/{id}'].get).properties.data;
    expect(Object.keys(data.properties)).toEqual(['id', 'kind', 'host']);
    expect(data.required).toEqual(['id', 'kind']);
    expect(data.properties.kind).toEqual({ $ref: '#/components/schemas/CallbackKind' });
  });

  it('documents a whole-body input as its input type, single body fields inline, and access from the field rule', () => {
    const doc = only(
      {
        method: 'post',
        path: '/keys',
        document: `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { id renamed: name } }`,
        variables: (req) => ({ input: req.body ?? {} }),
        status: 201,
        data: (r) => r.createApiKey,
      },
      {
        method: 'post',
        path: '/pulled/:id/fail',
        document: `mutation ($id: String!, $reason: String) { failPulledVote(id: $id, reason: $reason) { status } }`,
        variables: (req) => ({ id: req.params.id, reason: req.body?.reason }),
        data: (r) => r.failPulledVote,
      },
    );
    const create = doc.paths['/v1/keys'].post;
    expect(create.requestBody.required).toBe(true);
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateApiKeyInput' });
    expect(doc.components.schemas.CreateApiKeyInput).toMatchObject({
      type: 'object',
      required: ['name', 'scope'],
      properties: { scope: { $ref: '#/components/schemas/Scope' } },
    });
    expect(success(create, '201').properties.data.properties).toHaveProperty('renamed');
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(create.responses['403'].description).toContain('PLAN_UPGRADE_REQUIRED');
    expect(create.responses['413']).toBeDefined();

    const fail = doc.paths['/v1/pulled/{id}/fail'].post;
    expect(fail.security).toEqual([{ pluginToken: [] }]);
    expect(fail.requestBody).toMatchObject({
      required: false,
      content: { 'application/json': { schema: { type: 'object', properties: { reason: { type: ['string', 'null'] } } } } },
    });
  });

  it('admits no body key the route does not take, except on a PATCH what it answers with, marked readOnly', () => {
    const doc = buildOpenApiDocument(schema) as any;
    for (const [name, input] of Object.entries(doc.components.schemas as Record<string, any>)) {
      if (name.endsWith('Input')) expect(input.additionalProperties, name).toBe(false);
    }
    const replay = doc.paths['/v1/callbacks/{id}/replay'].post.requestBody.content['application/json'].schema;
    expect(replay).toMatchObject({ type: 'object', required: ['since'], additionalProperties: false });
    expect(Object.keys(replay.properties)).toEqual(['since', 'until', 'only_failed']);

    const patch = doc.paths['/v1/organization'].patch.requestBody.content['application/json'].schema;
    expect(patch.additionalProperties).toBe(false);
    expect(patch.properties.name.readOnly).toBeUndefined();
    for (const key of ['id', 'plan', 'status', 'usage']) expect(patch.properties[key], key).toMatchObject({ readOnly: true });
    expect(patch.properties.usage.properties).toHaveProperty('votes_this_month');
    // The settings it answers are writable, but for what is read only there (whether the write-only bot token is set).
    expect(patch.properties.settings.additionalProperties).toBe(false);
    expect(patch.properties.settings.properties.discord_bot_token_set).toMatchObject({ readOnly: true });
    expect(patch.properties.settings.properties.discord_bot_token.readOnly).toBeUndefined();
    expect(patch.properties.settings.properties.chat_webhook_url.readOnly).toBeUndefined();
    const provider = doc.paths['/v1/providers/{key}'].patch.requestBody.content['application/json'].schema;
    for (const key of ['id', 'webhook_url', 'votes_total', 'created_at', 'auth_method', 'votifier'])
      expect(provider.properties[key], key).toMatchObject({ readOnly: true });
    // A create takes no read-only field.
    expect(doc.paths['/v1/providers'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateProviderInput' });
  });

  it('documents a public route without security or 401/403, and the error envelope per status', () => {
    const doc = only({ method: 'get', path: '/t', document: `query { templates { id } }`, omitMeta: true, data: (r) => ({ templates: r.templates }) });
    const op = doc.paths['/v1/t'].get;
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '429', '500', '503']);
    expect(doc.components.responses.Error403.content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toEqual([
      'INSUFFICIENT_SCOPE',
      'PLAN_UPGRADE_REQUIRED',
      'PLAN_LIMIT',
      'ORG_SUSPENDED',
      'PROVIDER_DISABLED',
    ]);
  });
});
