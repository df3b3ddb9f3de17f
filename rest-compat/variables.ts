// Turns REST input (JSON body, query string, path params) into GraphQL variables, guided by the schema:
// snake_case keys → the input type's camelCase fields, and every type mismatch reported as a VALIDATION_ERROR
// detail naming the REST field. Only the input type's keys are read: a body key the route does not take has been
// refused already, with its name (rest-compat/body-fields.ts; the README's Errors).
import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLEnumType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { FieldError } from '../src/base/errors.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../src/base/json-depth.js';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const join = (path: string, name: string) => (path ? `${path}.${name}` : name);
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Coerced = { ok: true; value: unknown } | { ok: false };

function coerceScalar(typeName: string, value: unknown, field: string, fromQuery: boolean, errors: FieldError[]): Coerced {
  const fail = (message: string): Coerced => {
    errors.push({ field, message });
    return { ok: false };
  };
  switch (typeName) {
    case 'String':
    case 'DateTime':
      if (typeof value !== 'string') return fail('must be a string');
      // PostgreSQL text cannot hold NUL; no legitimate value contains one.
      return value.includes('\u0000') ? fail('must not contain NUL characters') : { ok: true, value };
    case 'ID':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
        ? { ok: true, value: String(value) }
        : fail('must be a string');
    case 'Int': {
      const n = fromQuery && typeof value === 'string' && /^-?\d{1,10}$/.test(value.trim()) ? Number(value) : value;
      return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= 2_147_483_647 ? { ok: true, value: n } : fail('must be an integer');
    }
    case 'Float': {
      const n = fromQuery && typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? { ok: true, value: n } : fail('must be a number');
    }
    case 'Boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (fromQuery && (value === 'true' || value === 'false')) return { ok: true, value: value === 'true' };
      return fail('must be a boolean');
    }
    default:
      // JSON and other custom scalars take any JSON value of bounded depth, but no NUL in any string inside.
      if (exceedsJsonDepth(value)) return fail(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
      return JSON.stringify(value)?.includes('\\u0000') ? fail('must not contain NUL characters') : { ok: true, value };
  }
}

function coerce(type: GraphQLInputType, value: unknown, field: string, fromQuery: boolean, errors: FieldError[]): Coerced {
  if (type instanceof GraphQLNonNull) {
    if (value === undefined) {
      errors.push({ field, message: 'is required' });
      return { ok: false };
    }
    if (value === null) {
      errors.push({ field, message: 'must not be null' });
      return { ok: false };
    }
    return coerce(type.ofType, value, field, fromQuery, errors);
  }
  if (value === undefined || value === null) return { ok: true, value };
  if (type instanceof GraphQLList) {
    const items = Array.isArray(value) ? value : fromQuery ? [value] : null;
    if (!items) {
      errors.push({ field, message: 'must be an array' });
      return { ok: false };
    }
    const out: unknown[] = [];
    let ok = true;
    items.forEach((item, i) => {
      const r = coerce(type.ofType, item, `${field}[${i}]`, fromQuery, errors);
      if (r.ok) out.push(r.value);
      else ok = false;
    });
    return ok ? { ok: true, value: out } : { ok: false };
  }
  if (type instanceof GraphQLInputObjectType) {
    if (!isPlainObject(value)) {
      errors.push({ field: field || 'body', message: 'must be an object' });
      return { ok: false };
    }
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const def of Object.values(type.getFields())) {
      const key = snake(def.name);
      const raw = Object.hasOwn(value, key) ? value[key] : value[def.name];
      const r = coerce(def.type, raw, join(field, key), fromQuery, errors);
      if (!r.ok) ok = false;
      else if (r.value !== undefined) out[def.name] = r.value;
    }
    return ok ? { ok: true, value: out } : { ok: false };
  }
  if (type instanceof GraphQLEnumType) {
    if (typeof value === 'string' && type.getValue(value)) return { ok: true, value };
    errors.push({
      field,
      message: `must be one of ${type
        .getValues()
        .map((v) => v.name)
        .join(', ')}`,
    });
    return { ok: false };
  }
  return coerceScalar(type.name, value, field, fromQuery, errors);
}

export function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  raw: Record<string, unknown>,
  fromQuery: boolean,
): { variables: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = {};
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Unknown type for variable $${name}`);
    const named = type instanceof GraphQLNonNull ? type.ofType : type;
    // An input object's fields are named at the top level of the body; a scalar by its own name.
    const field = named instanceof GraphQLInputObjectType ? '' : snake(name);
    const r = coerce(type, raw[name], field, fromQuery, errors);
    if (r.ok && r.value !== undefined) variables[name] = r.value;
  }
  return { variables, errors };
}
