// What a /v1 write route's JSON body may hold, learnt from the route itself (what its `variables` read, typed by
// the document's variables and input types: rest-compat/openapi-probe.ts) and checked before anything runs. A key
// the route does not take is a VALIDATION_ERROR naming it, with where it belongs when the route table knows
// ("belongs under settings", "POST /v1/callbacks takes it"), never dropped (README: Errors). On PATCH, the fields
// the route answers with that cannot be written (`id`, `created_at`, `votes_total`, `usage`, …) are accepted and
// ignored whatever their value, so a client may send back what it read: counters and timestamps among them move
// between a read and a write, so "equal to the current value" would refuse a faithful round trip.
import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type DocumentNode,
} from 'graphql';
import type { FieldError } from '../src/base/errors.js';
import type { RestRoute } from './route.js';
import { probeAnswer, probeInputs } from './openapi-probe.js';
import { SchemaRegistry, snake, type JsonSchema } from './openapi-schemas.js';

/** The keys of a route's answer, nested: what a client read and may send back on a PATCH. */
export type AnswerKeys = Map<string, AnswerKeys | null>;

/**
 * One level of a body: the keys it takes (REST names, snake_case; a GraphQL camelCase spelling is refused with the
 * REST name to use), each with its GraphQL type, and the answer's keys at the same place.
 */
interface Level {
  inputs: Map<string, GraphQLInputType>;
  answer: AnswerKeys | null;
}

export interface BodyFields {
  top: Level;
  /** Every key this route's body takes at any depth → the places (REST paths of the parent, '' = top) it goes. */
  places: Map<string, string[]>;
}

/** The route, as a client names it in a hint ("POST /v1/callbacks"). */
export interface RouteLabel {
  label: string;
  fields: BodyFields;
}

const unwrap = (type: GraphQLInputType): GraphQLInputType => (type instanceof GraphQLNonNull || type instanceof GraphQLList ? unwrap(type.ofType) : type);
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function addInputObject(level: Level, type: GraphQLInputObjectType) {
  for (const field of Object.values(type.getFields())) level.inputs.set(snake(field.name), field.type);
}

function levelOf(type: GraphQLInputObjectType, answer: AnswerKeys | null): Level {
  const level: Level = { inputs: new Map(), answer };
  addInputObject(level, type);
  return level;
}

/** The keys of an answer's JSON Schema (rest-compat/openapi-probe.ts), through nullability and lists. */
export function answerKeysOf(schema: JsonSchema | undefined): AnswerKeys | null {
  if (!schema) return null;
  if (Array.isArray(schema.anyOf)) {
    const merged: AnswerKeys = new Map();
    for (const choice of schema.anyOf as JsonSchema[]) for (const [k, v] of answerKeysOf(choice) ?? []) merged.set(k, v);
    return merged.size > 0 ? merged : null;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) return answerKeysOf(schema.items as JsonSchema | undefined);
  if (types.includes('object') && schema.properties) {
    return new Map(Object.entries(schema.properties as Record<string, JsonSchema>).map(([k, v]) => [k, answerKeysOf(v)]));
  }
  return null;
}

/** Routes whose JSON body is checked: every write under /v1 (a hook's body is the voting site's, read as bytes). */
export const takesJsonBody = (route: RestRoute) => route.method !== 'get' && !route.rawBody;

const cache = new WeakMap<GraphQLSchema, WeakMap<RestRoute, BodyFields>>();

/** What the route's body may hold; learnt once per route and schema (the probes run the route's own mappers). */
export function bodyFieldsOf(schema: GraphQLSchema, route: RestRoute, document: DocumentNode, operation: OperationDefinitionNode): BodyFields {
  let perRoute = cache.get(schema);
  if (!perRoute) cache.set(schema, (perRoute = new WeakMap()));
  const known = perRoute.get(route);
  if (known) return known;

  const inputs = probeInputs(schema, route, operation);
  // A PATCH answers with the resource it changed: that answer is what a client read and may send back.
  const answer = route.method === 'patch' && !route.stream ? answerKeysOf(probeAnswer(schema, route, document, operation, new SchemaRegistry()).data) : null;
  const top: Level = { inputs: new Map(), answer };
  for (const body of inputs.bodies) {
    const type = unwrap(body);
    if (type instanceof GraphQLInputObjectType) addInputObject(top, type);
  }
  for (const input of inputs.named) if (input.location === 'body') top.inputs.set(input.name, input.type);

  const places = new Map<string, string[]>();
  const seen = new Set<GraphQLInputObjectType>();
  const index = (level: Level, path: string) => {
    for (const [key, type] of level.inputs) {
      places.set(key, [...(places.get(key) ?? []), path]);
      const inner = unwrap(type);
      if (inner instanceof GraphQLInputObjectType && !seen.has(inner)) {
        seen.add(inner);
        index(levelOf(inner, null), path ? `${path}.${key}` : key);
      }
    }
  };
  index(top, '');
  const fields = { top, places };
  perRoute.set(route, fields);
  return fields;
}

/** "under settings" / "at the top level". */
const placeName = (path: string) => (path ? `under ${path}` : 'at the top level');

/** A typo (a small edit distance), or the same name in another case or with other separators (chatWebhookUrl). */
function looksLike(a: string, b: string): boolean {
  const plain = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  if (plain(a) === plain(b)) return true;
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  // Two edits make a typo of a long name, but of a short one (id, ip, url) they make another word.
  return previous[b.length] <= (Math.min(a.length, b.length) < 6 ? 1 : 2);
}

function unknownMessage(key: string, at: string, level: Level, own: BodyFields, others: RouteLabel[]): string {
  const path = at.replace(/\[\d+\]/g, '');
  const here = path
    ? `is not a field of ${path}`
    : level.inputs.size === 0
      ? 'is not read: this request takes no body fields'
      : 'is not a field of this request';
  // The REST name: a GraphQL spelling (chatWebhookUrl) is placed as chat_webhook_url.
  const name = snake(key);
  const similar = [...level.inputs.keys()].find((known) => looksLike(key, known));
  if (similar) return `${here}; did you mean ${similar}?`;
  const elsewhere = (own.places.get(name) ?? []).filter((p) => p !== path);
  if (elsewhere.length > 0) return `${here}; ${name} belongs ${elsewhere.map(placeName).join(' or ')}`;
  if (!path) {
    const takers = others.filter((o) => o.fields !== own && o.fields.places.has(name)).slice(0, 2);
    if (takers.length > 0) {
      return `${here}; ${takers
        .map((t) => {
          const at = t.fields.places.get(name)!.filter(Boolean);
          return at.length > 0 ? `${t.label} takes ${name} ${placeName(at[0])}` : `${t.label} takes ${name}`;
        })
        .join(', ')}`;
    }
  }
  return here;
}

/**
 * Every key of `body` the route does not take (a key the route answers with, on a PATCH, is taken and ignored).
 * Values are not checked here: rest-compat/variables.ts reports wrong types; JSON-typed fields (a callback's
 * payload_template) are free by design, and the services check the ones with a shape (the chat embed template).
 */
export function unknownBodyFields(body: unknown, own: BodyFields, others: RouteLabel[] = []): FieldError[] {
  const errors: FieldError[] = [];
  if (body === undefined) return errors;
  if (!isPlainObject(body)) return [{ field: 'body', message: 'must be a JSON object' }];
  const walk = (value: Record<string, unknown>, level: Level, path: string) => {
    for (const [key, child] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      const input = level.inputs.get(key);
      if (input === undefined) {
        if (level.answer?.has(key)) continue;
        errors.push({ field, message: unknownMessage(key, path, level, own, others) });
        continue;
      }
      const type = unwrap(input);
      if (!(type instanceof GraphQLInputObjectType)) continue;
      const below = levelOf(type, level.answer?.get(key) ?? null);
      const at = field;
      if (isPlainObject(child)) walk(child, below, at);
      else if (Array.isArray(child)) child.forEach((item, i) => isPlainObject(item) && walk(item, below, `${at}[${i}]`));
    }
  };
  walk(body, own.top, '');
  return errors;
}
