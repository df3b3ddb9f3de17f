// Learns what a REST route reads and answers by running the route's own mappers on stand-ins, so the OpenAPI
// document follows the code instead of a second description of it:
// - `variables` runs on a request whose path parameters, query parameters and body properties name themselves,
//   which tells where each GraphQL variable (or input field) comes from;
// - `data` and `meta` run on a result built from the document's selection set (each leaf a marker naming its
//   field, one element per list), once as is and again with nullable fields null and enum fields set to each
//   of their values, so a mapper that leaves out null fields or shapes by kind is seen doing so: a property
//   present in every answer is required, one seen null is nullable.
import {
  GraphQLInputObjectType,
  GraphQLNonNull,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  typeFromAST,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Request } from 'express';
import type { RestRoute } from './route.js';
import { type SchemaRegistry, described, orNull, snake, type JsonSchema } from './openapi-schemas.js';

// ---- Where the variables come from -------------------------------------------------------------------------

export type InputLocation = 'path' | 'query' | 'body';

/** What `req.params.x`, `req.query.x` or `req.body.x` gives the stand-in request's reader. */
class Named {
  constructor(
    readonly location: InputLocation | 'request',
    readonly name: string,
  ) {}
}

export interface RouteInput {
  location: InputLocation;
  name: string;
  type: GraphQLInputType;
  description?: string;
  defaultValue?: unknown;
}

export interface RouteInputs {
  /** Path parameters, query parameters and single body properties, by the name the route reads. */
  named: RouteInput[];
  /** Input object variables that take the whole JSON body (`input: req.body`). */
  bodies: GraphQLInputType[];
}

function namesItself(location: InputLocation): Record<string, unknown> {
  return new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? new Named(location, name) : undefined) });
}

/** Where each of the operation's variables comes from, read by running the route's `variables` on a stand-in. */
export function probeInputs(schema: GraphQLSchema, route: RestRoute, operation: OperationDefinitionNode): RouteInputs {
  const body = namesItself('body');
  const parts: Record<string, unknown> = { params: namesItself('path'), query: namesItself('query'), body };
  const req = new Proxy(parts, {
    get: (target, name) => (typeof name !== 'string' ? undefined : name in target ? target[name] : new Named('request', name)),
  }) as unknown as Request;
  const raw = route.variables ? route.variables(req) : {};
  const found: RouteInputs = { named: [], bodies: [] };
  const args = argumentsByVariable(schema, operation);

  const trace = (value: unknown, type: GraphQLInputType, about: { description?: string; defaultValue?: unknown }) => {
    if (value instanceof Named) {
      if (value.location !== 'request') found.named.push({ location: value.location, name: value.name, type, ...about });
      return;
    }
    if (value === body) return void found.bodies.push(type);
    const named = type instanceof GraphQLNonNull ? type.ofType : type;
    // A variable assembled from several parts (the hook route's target): its fields as the router reads them.
    if (named instanceof GraphQLInputObjectType && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const field of Object.values(named.getFields()) as GraphQLInputField[]) {
        const parts = value as Record<string, unknown>;
        const key = snake(field.name);
        trace(Object.hasOwn(parts, key) ? parts[key] : parts[field.name], field.type, fieldAbout(field));
      }
    }
  };
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Unknown type for variable $${name}`);
    const arg = args.get(name);
    trace(raw[name], type, arg ? fieldAbout(arg) : {});
  }
  return found;
}

function fieldAbout(field: GraphQLArgument | GraphQLInputField): { description?: string; defaultValue?: unknown } {
  return {
    ...(field.description ? { description: field.description } : {}),
    ...(field.defaultValue !== undefined ? { defaultValue: field.defaultValue } : {}),
  };
}

/** Each variable passed straight to a root field's argument, with that argument (its description and default). */
function argumentsByVariable(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, GraphQLArgument> {
  const out = new Map<string, GraphQLArgument>();
  for (const { node, field } of rootFields(schema, operation)) {
    for (const arg of node.arguments ?? []) {
      const def = field.args.find((a) => a.name === arg.name.value);
      if (def && arg.value.kind === Kind.VARIABLE) out.set(arg.value.name.value, def);
    }
  }
  return out;
}

export function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'query' ? schema.getQueryType() : null;
  if (!root) throw new Error(`A REST route cannot run a ${operation.operation}`);
  return root;
}

export function rootFields(schema: GraphQLSchema, operation: OperationDefinitionNode): { node: FieldNode; field: GraphQLField<unknown, unknown> }[] {
  const root = rootType(schema, operation);
  return operation.selectionSet.selections
    .filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value !== '__typename')
    .map((node) => ({ node, field: root.getFields()[node.name.value] }));
}

// ---- What `data` and `meta` look like ----------------------------------------------------------------------

type Observed =
  | { kind: 'null' }
  | { kind: 'leaf'; schema: JsonSchema }
  | { kind: 'array'; items: Observed[] }
  | { kind: 'object'; props: Map<string, Observed>; description?: string };

/** One nullable field set to null and/or one enum field set to one of its values, or one Boolean false; the rest are markers. */
type Variant = { nullAt?: string; enumAt?: string; value?: string; falseAt?: string };

/** A marker can never be a real value of a field: it starts with NUL, which no stored text holds. */
const marker = (position: string) => `\u0000${position}`;

interface Sample {
  result: Record<string, unknown>;
  /** The output schema of the leaf each marker (or, in an enum variant, its value) stands for. */
  leaves: Map<string, JsonSchema>;
  /** The GraphQL description of each object in the sample. */
  descriptions: WeakMap<object, string>;
  nullable: string[];
  enums: { position: string; values: string[] }[];
  /** Boolean fields: a mapper may leave one out when false (a vote's `recovered`). */
  booleans: string[];
}

function buildSample(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  registry: SchemaRegistry,
  variant: Variant = {},
): Sample {
  const sample: Sample = { result: {}, leaves: new Map(), descriptions: new WeakMap(), nullable: [], enums: [], booleans: [] };
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));

  const fieldsOf = (set: SelectionSetNode, parent: GraphQLObjectType, out: FieldNode[] = []): FieldNode[] => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) out.push(selection);
      else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value)!;
        const on = fragment.typeCondition?.name.value;
        if (on && on !== parent.name) throw new Error(`fragments on ${on} inside ${parent.name} are not supported in REST documents`);
        fieldsOf(fragment.selectionSet, parent, out);
      }
    }
    return out;
  };

  const value = (type: GraphQLOutputType, node: FieldNode, position: string, description: string | undefined, root = false): unknown => {
    if (isNonNullType(type)) return inner(type.ofType, node, position, description);
    // A root field is null only when refused, and a refusal is the error envelope: an answer always has it.
    if (!root) {
      sample.nullable.push(position);
      if (variant.nullAt === position) return null;
    }
    return inner(type, node, position, description);
  };

  const inner = (type: GraphQLOutputType, node: FieldNode, position: string, description: string | undefined): unknown => {
    if (isListType(type)) return [value(type.ofType, node, `${position}[]`, undefined)];
    if (isLeafType(type)) {
      const schemaOf = described(registry.leaf(type), description);
      if (type.name === 'Boolean') {
        sample.booleans.push(position);
        if (variant.falseAt === position) return false;
      }
      if (isEnumType(type)) {
        sample.enums.push({ position, values: type.getValues().map((v) => v.value as string) });
        if (variant.enumAt === position && variant.value !== undefined) {
          sample.leaves.set(variant.value, schemaOf);
          return variant.value;
        }
      }
      sample.leaves.set(marker(position), schemaOf);
      return marker(position);
    }
    if (!isObjectType(type)) throw new Error(`${type.name} at ${position}: abstract types are not supported in REST documents`);
    const object: Record<string, unknown> = {};
    for (const child of fieldsOf(node.selectionSet!, type)) {
      const key = child.alias?.value ?? child.name.value;
      if (child.name.value === '__typename') {
        object[key] = type.name;
        continue;
      }
      const field = type.getFields()[child.name.value];
      object[key] = value(field.type, child, `${position}.${key}`, field.description ?? undefined);
    }
    if (description) sample.descriptions.set(object, description);
    return object;
  };

  for (const { node, field } of rootFields(schema, operation)) {
    const key = node.alias?.value ?? node.name.value;
    sample.result[key] = value(field.type, node, key, field.description ?? undefined, true);
  }
  return sample;
}

function observe(value: unknown, sample: Sample): Observed {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'leaf', schema: sample.leaves.get(value) ?? { type: 'string' } };
  if (typeof value === 'number') return { kind: 'leaf', schema: { type: Number.isInteger(value) ? 'integer' : 'number' } };
  if (typeof value === 'boolean') return { kind: 'leaf', schema: { type: 'boolean' } };
  if (Array.isArray(value)) return { kind: 'array', items: value.filter((v) => v !== undefined).map((v) => observe(v, sample)) };
  if (typeof value === 'object') {
    // JSON leaves out undefined properties, as res.json() does.
    const props = new Map(
      Object.entries(value as object)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, observe(v, sample)]),
    );
    return { kind: 'object', props, description: sample.descriptions.get(value as object) };
  }
  return { kind: 'leaf', schema: {} };
}

/** One schema for everything seen at one place across the runs (and across a list's elements). */
function merge(seen: Observed[]): JsonSchema {
  const present = seen.filter((o) => o.kind !== 'null');
  if (present.length === 0) return { type: 'null' };
  const choices: JsonSchema[] = [];
  const objects = present.filter((o): o is Extract<Observed, { kind: 'object' }> => o.kind === 'object');
  if (objects.length > 0) choices.push(mergeObjects(objects));
  const arrays = present.filter((o): o is Extract<Observed, { kind: 'array' }> => o.kind === 'array');
  if (arrays.length > 0) {
    const items = arrays.flatMap((a) => a.items);
    choices.push({ type: 'array', items: items.length > 0 ? merge(items) : {} });
  }
  const leaves = new Map<string, JsonSchema>();
  for (const o of present) if (o.kind === 'leaf') leaves.set(JSON.stringify(o.schema), o.schema);
  choices.push(...leaves.values());
  const schema = choices.length === 1 ? choices[0] : { anyOf: choices };
  return present.length < seen.length ? orNull(schema) : schema;
}

function mergeObjects(objects: Extract<Observed, { kind: 'object' }>[]): JsonSchema {
  const keys = [...new Set(objects.flatMap((o) => [...o.props.keys()]))];
  const properties: Record<string, JsonSchema> = {};
  for (const key of keys) properties[key] = merge(objects.flatMap((o) => (o.props.has(key) ? [o.props.get(key)!] : [])));
  const required = keys.filter((key) => objects.every((o) => o.props.has(key)));
  const description = objects.find((o) => o.description)?.description;
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

export interface RouteAnswer {
  data: JsonSchema;
  /** The route's extra `meta` fields (pagination), if it has any. */
  meta: JsonSchema | null;
}

/** The JSON Schemas of the route's `data` and extra `meta`, read by running its mappers on sample results. */
export function probeAnswer(
  schema: GraphQLSchema,
  route: RestRoute,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  registry: SchemaRegistry,
): RouteAnswer {
  const base = buildSample(schema, document, operation, registry);
  // Each null alone, each enum value alone, and each null with each enum value (a field that only one kind has
  // may still be null for that kind).
  const kinds: Variant[] = base.enums.flatMap(({ position, values }) => values.map((value) => ({ enumAt: position, value })));
  const variants: Variant[] = [
    ...base.nullable.map((nullAt) => ({ nullAt })),
    ...base.booleans.map((falseAt) => ({ falseAt })),
    ...kinds,
    ...base.nullable.flatMap((nullAt) => kinds.map((kind) => ({ ...kind, nullAt }))),
  ];
  const data: Observed[] = [];
  const meta: Observed[] = [];
  const run = (sample: Sample) => {
    const answer = observe(route.data(sample.result), sample);
    const extra = route.meta ? observe(route.meta(sample.result), sample) : null;
    data.push(answer);
    if (extra) meta.push(extra);
  };
  run(base);
  for (const variant of variants) {
    // A mapper that cannot take a variant (it reads into a field the schema says may be null) never answers with it.
    try {
      run(buildSample(schema, document, operation, registry, variant));
    } catch {}
  }
  return { data: merge(data), meta: route.meta ? merge(meta) : null };
}
