// The OpenAPI 3.1 document of /v1 and the hook routes, generated from the route table and the GraphQL schema so
// it cannot drift: paths and methods from REST_ROUTES and HOOK_ROUTES, parameters and bodies from what each route
// reads (rest-compat/openapi-probe.ts) typed by its variables, answers from what its mappers make of the
// document's result, access from the root field's rule, errors from the one code table (src/base/errors.ts).
// Served at GET /v1/openapi.json, with a reference page at GET /v1/reference (src/http/api-reference.ts).
import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { GraphQLInputObjectType, GraphQLNonNull, print, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { ERROR_STATUS, type ErrorCode } from '../src/base/errors.js';
import type { AccessRule } from '../src/auth/access.js';
import { apiReference } from '../src/http/api-reference.js';
import type { RestRoute } from './route.js';
import { HOOK_ROUTES, REST_ROUTES, accessOf, prepareRoute } from './router.js';
import { probeAnswer, probeInputs, rootFields } from './openapi-probe.js';
import { SchemaRegistry, described, hasRequiredField, orNull, snake, type JsonSchema } from './openapi-schemas.js';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };
type Operation = Record<string, unknown>;

/** Where each route table is mounted (src/app/app.ts). */
export const MOUNTS = { rest: '/v1', hooks: '/hooks' } as const;

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** `/callbacks/:id/test` → `/callbacks/{id}/test` (OpenAPI's path templating). */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** `post /callbacks/:id/rotate-secret` → `postCallbacksByIdRotateSecret`: unique as method and path are. */
export function operationId(method: string, path: string): string {
  const pascal = (s: string) => s.replace(/(^|[-_])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `By${pascal(seg.slice(1))}` : pascal(seg)));
  return method + parts.join('');
}

function accessText(rule: AccessRule): string {
  if (rule.scope === 'public') return 'Public: no key needed.';
  if (rule.scope === 'plugin') return 'A plugin token (`vr_plugin_…`) only.';
  const who = rule.scope === 'full' ? 'A `full` API key' : 'Any API key (`read` or `full`)';
  const plan = rule.plan ? `; the organization's plan \`${rule.plan}\` or higher` : '';
  const suspended = rule.allowSuspended ? '; also while the organization is suspended' : '';
  return `${who}${plan}${suspended}.`;
}

/** What each code means, for the error answers' descriptions (the README's Errors table). */
const WHEN: Record<ErrorCode, string> = {
  VALIDATION_ERROR: '`VALIDATION_ERROR`: bad input; `details` is `[{field, message}]` with the REST field name',
  WEBHOOK_ERROR: "`WEBHOOK_ERROR`: the test message was not delivered; `details.error` is the chat platform's reason",
  AUTH_REQUIRED: '`AUTH_REQUIRED`: no key',
  INVALID_API_KEY: '`INVALID_API_KEY`: an unknown, malformed or revoked key',
  AUTH_FAILED: "`AUTH_FAILED`: the provider's secret or signature is missing or wrong",
  INSUFFICIENT_SCOPE: '`INSUFFICIENT_SCOPE`: a `read` key on a write, or the wrong kind of credential',
  PLAN_UPGRADE_REQUIRED: '`PLAN_UPGRADE_REQUIRED`: `details: {required_plan, current_plan, field?}`',
  PLAN_LIMIT: "`PLAN_LIMIT`: the plan's limit is reached; `details: {limit, current}`",
  ORG_SUSPENDED: '`ORG_SUSPENDED`: the organization is suspended',
  PROVIDER_DISABLED: '`PROVIDER_DISABLED`: the provider is disabled',
  NOT_FOUND: "`NOT_FOUND`: unknown resource (another organization's resources too), or a path no route has",
  METHOD_NOT_ALLOWED: '`METHOD_NOT_ALLOWED`: the path takes other methods, listed in the `Allow` header',
  PAYLOAD_TOO_LARGE: '`PAYLOAD_TOO_LARGE`: body over 1 MiB (API) or 64 KiB (hooks)',
  RATE_LIMITED: '`RATE_LIMITED`: `Retry-After` header and `details.retry_after_seconds`',
  INTERNAL_ERROR: '`INTERNAL_ERROR`: never a stack trace or SQL text',
  SERVICE_UNAVAILABLE: '`SERVICE_UNAVAILABLE`: the database cannot be reached; nothing was stored; `Retry-After: 5`',
};

/** Codes by HTTP status, in the table's order. */
const CODES_BY_STATUS = new Map<number, ErrorCode[]>();
for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) CODES_BY_STATUS.set(status, [...(CODES_BY_STATUS.get(status) ?? []), code]);

/** Every route may answer these: input checks, rate limits, and the server's own failures. */
const ALWAYS: ErrorCode[] = ['VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

function errorCodes(route: RestRoute, rule: AccessRule): ErrorCode[] {
  const codes = new Set<ErrorCode>(ALWAYS);
  if (rule.scope !== 'public') {
    for (const code of ['AUTH_REQUIRED', 'INVALID_API_KEY', 'INSUFFICIENT_SCOPE'] as const) codes.add(code);
    if (!rule.allowSuspended) codes.add('ORG_SUSPENDED');
  }
  if (rule.plan) codes.add('PLAN_UPGRADE_REQUIRED');
  if (pathParams(route.path).length > 0) codes.add('NOT_FOUND');
  if (route.method === 'post' || route.method === 'patch') codes.add('PAYLOAD_TOO_LARGE');
  for (const code of route.errors ?? []) codes.add(code);
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}

const HEADERS = {
  'X-Request-Id': { description: 'Equal to `meta.request_id`', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the window resets (unix seconds)', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

function components(registry: SchemaRegistry) {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of CODES_BY_STATUS) {
    responses[`Error${status}`] = {
      description: codes.map((code) => WHEN[code]).join('; '),
      headers: {
        'X-Request-Id': header('X-Request-Id'),
        ...(status === 429 || status === 503 ? { 'Retry-After': header('Retry-After') } : {}),
      },
      content: {
        'application/json': {
          schema: {
            allOf: [registry.ref('ErrorEnvelope'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
          },
        },
      },
    };
  }
  return {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (`vr_live_…`): `read` keys may call every GET, `full` keys everything' },
      pluginToken: { type: 'http', scheme: 'bearer', description: 'A plugin token (`vr_plugin_…`), for the /v1/plugin/votes endpoints only' },
    },
    headers: HEADERS,
    responses,
    schemas: {
      ...registry.schemas,
      ErrorEnvelope: {
        type: 'object',
        description: "Every error answer (the README's Errors)",
        properties: {
          error: {
            type: 'object',
            properties: {
              // Each status's response lists its own codes (a reader's example then shows one of them).
              code: { type: 'string', description: `One of ${Object.keys(ERROR_STATUS).join(', ')}` },
              message: { type: 'string' },
              details: { description: 'Per code: `[{field, message}]` for VALIDATION_ERROR, an object for the plan and limit codes' },
            },
            required: ['code', 'message'],
            additionalProperties: false,
          },
          meta: { type: 'object', properties: { request_id: { type: 'string' } }, required: ['request_id'], additionalProperties: false },
        },
        required: ['error', 'meta'],
        additionalProperties: false,
      },
    },
  };
}

const BODY_RULES = 'JSON; a key the route does not take, or a field of the wrong type, is a VALIDATION_ERROR naming it (never ignored)';

/** The object properties of an answer's schema, through `anyOf` with null. */
function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> | null {
  if (!schema) return null;
  if (schema.properties) return schema.properties as Record<string, JsonSchema>;
  const object = (schema.anyOf as JsonSchema[] | undefined)?.find((choice) => choice.properties);
  return object ? (object.properties as Record<string, JsonSchema>) : null;
}

/**
 * A PATCH body: the input type, plus the fields the route answers with that cannot be written, marked readOnly
 * (sent back, they are accepted and ignored: rest-compat/body-fields.ts), at every level where there are some.
 */
function patchBody(registry: SchemaRegistry, type: GraphQLInputType, answer: JsonSchema | undefined): JsonSchema {
  const ref = registry.inputInner(type);
  const named = type instanceof GraphQLNonNull ? type.ofType : type;
  const answered = propertiesOf(answer);
  if (!(named instanceof GraphQLInputObjectType) || !answered) return ref;
  const component = registry.component(named);
  const writable = component.properties as Record<string, JsonSchema>;
  const extra: Record<string, JsonSchema> = {};
  for (const [key, schema] of Object.entries(answered)) {
    if (!(key in writable))
      extra[key] = {
        ...schema,
        readOnly: true,
        description: `${schema.description ? `${schema.description}. ` : ''}Read-only: accepted and ignored when sent back`,
      };
  }
  for (const field of Object.values(named.getFields())) {
    const key = snake(field.name);
    const inner = field.type instanceof GraphQLNonNull ? field.type.ofType : field.type;
    if (!(inner instanceof GraphQLInputObjectType) || !answered[key]) continue;
    const nested = patchBody(registry, inner, answered[key]);
    if (!nested.$ref) extra[key] = described(field.type instanceof GraphQLNonNull ? nested : orNull(nested), field.description);
  }
  return Object.keys(extra).length === 0 ? ref : { ...component, properties: { ...writable, ...extra } };
}

const tagOf = (mount: string, path: string) => (mount === MOUNTS.hooks ? 'hooks' : (path.split('/').filter(Boolean)[0] ?? 'api'));

function operation(schema: GraphQLSchema, registry: SchemaRegistry, route: RestRoute, mount: string): Operation {
  const { document, operation: op } = prepareRoute(schema, route);
  const roots = rootFields(schema, op);
  // The strictest rule of the document's root fields (every route runs one today).
  const rules = roots.map((r) => accessOf(r.field));
  const rule = rules.find((r) => r.scope === 'plugin') ?? rules.find((r) => r.scope === 'full') ?? rules.find((r) => r.scope === 'read') ?? rules[0];
  const field = roots[0].field;

  const inputs = probeInputs(schema, route, op);
  const answer = route.stream ? null : probeAnswer(schema, route, document, op, registry);
  const parameters: unknown[] = [];
  for (const name of pathParams(route.path)) {
    const input = inputs.named.find((i) => i.location === 'path' && i.name === name);
    parameters.push({
      name,
      in: 'path',
      required: true,
      ...(input?.description ? { description: input.description } : {}),
      schema: input ? registry.inputInner(input.type) : { type: 'string' },
    });
  }
  for (const input of inputs.named.filter((i) => i.location === 'query')) {
    parameters.push({
      name: input.name,
      in: 'query',
      required: input.type instanceof GraphQLNonNull,
      ...(input.description ? { description: input.description } : {}),
      schema: { ...registry.inputInner(input.type), ...(input.defaultValue !== undefined ? { default: input.defaultValue } : {}) },
    });
  }
  if (route.rawBody && route.method === 'get') {
    parameters.push({
      name: 'fields',
      in: 'query',
      description: "The vote's fields, for a provider whose `payload_source` is `query` (its secret may be one of them)",
      style: 'form',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
  }

  let requestBody: unknown;
  if (route.rawBody && route.method !== 'get') {
    requestBody = {
      description:
        "The voting site's delivery, read as the exact bytes (signatures cover them) and parsed as the provider's `payload_source` says, whatever the Content-Type; at most 64 KiB",
      content: {
        'application/json': { schema: {}, example: { user: { name: 'Steve' } } },
        'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    };
  } else {
    const single = inputs.named.filter((i) => i.location === 'body');
    const singles: Record<string, JsonSchema> = Object.fromEntries(
      single.map((i) => [
        i.name,
        { ...described(registry.input(i.type), i.description), ...(i.defaultValue !== undefined ? { default: i.defaultValue } : {}) },
      ]),
    );
    const singleRequired = single.filter((i) => i.type instanceof GraphQLNonNull).map((i) => i.name);
    let schemaOfBody: JsonSchema | null = null;
    if (inputs.bodies.length === 1 && single.length === 0) {
      // A PATCH takes back what it answers with: its read-only fields are listed, marked readOnly.
      schemaOfBody = route.method === 'patch' && answer ? patchBody(registry, inputs.bodies[0], answer.data) : registry.inputInner(inputs.bodies[0]);
    } else if (inputs.bodies.length + single.length > 0) {
      // One object of every key the route reads (rest-compat/body-fields.ts refuses any other).
      const parts = inputs.bodies.map((type) => registry.component(type));
      const required = [...parts.flatMap((p) => (p.required as string[] | undefined) ?? []), ...singleRequired];
      schemaOfBody = {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => p.properties), singles),
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      };
    }
    if (schemaOfBody) {
      requestBody = {
        required: inputs.bodies.some(hasRequiredField) || single.some((i) => i.type instanceof GraphQLNonNull),
        description: BODY_RULES,
        content: { 'application/json': { schema: schemaOfBody } },
      };
    }
  }

  const status = String(route.status ?? 200);
  const headers = {
    'X-Request-Id': header('X-Request-Id'),
    ...(mount === MOUNTS.rest
      ? {
          'X-RateLimit-Limit': header('X-RateLimit-Limit'),
          'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
          'X-RateLimit-Reset': header('X-RateLimit-Reset'),
        }
      : {}),
  };
  let success: Record<string, unknown>;
  if (route.stream || !answer) {
    success = { description: 'Streamed', headers, content: { [route.streamType ?? 'application/octet-stream']: { schema: { type: 'string' } } } };
  } else {
    const meta = {
      type: 'object',
      properties: { ...((answer.meta?.properties as object | undefined) ?? {}), request_id: { type: 'string' } },
      required: [...((answer.meta?.required as string[] | undefined) ?? []), 'request_id'],
      additionalProperties: false,
    };
    success = {
      description: 'OK',
      headers,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { data: answer.data, ...(route.omitMeta ? {} : { meta }) },
            required: route.omitMeta ? ['data'] : ['data', 'meta'],
            additionalProperties: false,
          },
        },
      },
    };
  }

  const responses: Record<string, unknown> = { [status]: success };
  const codes = errorCodes(route, rule);
  for (const [httpStatus, all] of CODES_BY_STATUS) {
    const here = all.filter((code) => codes.includes(code));
    if (here.length > 0)
      responses[String(httpStatus)] = { $ref: `#/components/responses/Error${httpStatus}`, description: here.map((code) => WHEN[code]).join('; ') };
  }

  return {
    operationId: operationId(route.method, mount === MOUNTS.hooks ? `/hooks${route.path}` : route.path),
    tags: [tagOf(mount, route.path)],
    summary: route.summary ?? field.description?.split('\n')[0] ?? field.name,
    description: `${route.access ?? accessText(rule)}\n\nGraphQL: this route runs\n\n\`\`\`graphql\n${print(document)}\n\`\`\``,
    security: rule.scope === 'public' ? [] : [{ [rule.scope === 'plugin' ? 'pluginToken' : 'apiKey']: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The document and the reference page themselves (not GraphQL routes). */
function referenceOperations(): Record<string, Record<string, Operation>> {
  const headers = { 'X-Request-Id': header('X-Request-Id') };
  const errors = { '429': { $ref: '#/components/responses/Error429' }, '500': { $ref: '#/components/responses/Error500' } };
  return {
    [`${MOUNTS.rest}/openapi.json`]: {
      get: {
        operationId: 'getOpenapiJson',
        tags: ['reference'],
        summary: 'This document (OpenAPI 3.1)',
        description: 'Public: no key needed. Generated from the REST route table and the GraphQL schema by the running service.',
        security: [],
        responses: {
          '200': { description: 'OK', headers, content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } } },
          ...errors,
        },
      },
    },
    [`${MOUNTS.rest}/reference`]: {
      get: {
        operationId: 'getReference',
        tags: ['reference'],
        summary: 'This document as a web page',
        description: 'Public: no key needed. Swagger UI, served by the service itself: nothing is loaded from another host.',
        security: [],
        responses: { '200': { description: 'OK', headers, content: { 'text/html': { schema: { type: 'string' } } } }, ...errors },
      },
    },
  };
}

export function buildOpenApiDocument(
  schema: GraphQLSchema,
  tables: { rest: RestRoute[]; hooks: RestRoute[] } = { rest: REST_ROUTES, hooks: HOOK_ROUTES },
): OpenApiDocument {
  const registry = new SchemaRegistry();
  const paths: Record<string, Record<string, Operation>> = {};
  const tags: string[] = [];
  for (const [mount, routes] of [
    [MOUNTS.rest, tables.rest],
    [MOUNTS.hooks, tables.hooks],
  ] as const) {
    for (const route of routes) {
      const path = `${mount}${openApiPath(route.path)}`;
      try {
        (paths[path] ??= {})[route.method] = operation(schema, registry, route, mount);
      } catch (err) {
        throw new Error(`OpenAPI for ${route.method.toUpperCase()} ${mount}${route.path}: ${(err as Error).message}`, { cause: err });
      }
      const tag = tagOf(mount, route.path);
      if (!tags.includes(tag)) tags.push(tag);
    }
  }
  Object.assign(paths, referenceOperations());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vote Relay REST API',
      version: VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description: [
        'The REST compatibility API (`/v1`) and the inbound vote hooks (`/hooks`). GraphQL (`/graphql`) is the model:',
        'each route here is one GraphQL document plus two small mappers, and this document is generated from those',
        'routes and the GraphQL schema, so it always describes the running service.',
        '',
        'Authentication: `Authorization: Bearer <API_KEY>`. Successful answers are `{ "data": …, "meta": { "request_id": … } }`',
        '(a few, marked, without `meta`); errors are `{ "error": { "code", "message", "details"? }, "meta": { "request_id" } }`',
        'with the HTTP status of the code.',
      ].join('\n'),
    },
    tags: [...tags, 'reference'].map((name) => ({ name })),
    security: [{ apiKey: [] }],
    paths,
    components: components(registry),
  };
}

const built = new WeakMap<GraphQLSchema, string>();

/**
 * GET /openapi.json and the reference page, for mounting at /v1. The document is built on its first request
 * (a few hundred milliseconds of probing that a start-up need not wait for), then kept for the schema's life.
 */
export function openApiRouter(schema: GraphQLSchema): Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    let body = built.get(schema);
    if (!body) built.set(schema, (body = JSON.stringify(buildOpenApiDocument(schema))));
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(body);
  });
  router.use(apiReference('/openapi.json'));
  return router;
}
