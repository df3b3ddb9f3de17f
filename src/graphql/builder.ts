// Pothos builder configuration only (plugins, scalars, auth scopes); types live in src/modules/*.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { checkAccess, type AccessRule } from '../auth/access.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../base/json-depth.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { public: boolean; access: AccessRule };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.deps.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
  },
  scopeAuth: {
    authorizeOnSubscribe: true,
    // `access` throws the precise AppError (AUTH_REQUIRED, INSUFFICIENT_SCOPE, PLAN_UPGRADE_REQUIRED, ...).
    authScopes: (ctx) => ({
      public: true,
      access: (rule: AccessRule) => {
        checkAccess(ctx.auth, rule);
        return true;
      },
    }),
  },
});

builder.queryType({});
builder.mutationType({});

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp, UTC',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
});

function literalToJson(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      return undefined;
  }
}

/** A JSON input nested deeper than MAX_JSON_DEPTH is refused here, whether it came as a variable or inline. */
function boundedJson(value: unknown): unknown {
  if (exceedsJsonDepth(value)) {
    throw new GraphQLError(`JSON value is nested deeper than ${MAX_JSON_DEPTH} levels`, { extensions: { code: 'VALIDATION_ERROR' } });
  }
  return value;
}

builder.scalarType('JSON', {
  description: `Any JSON value (inputs at most ${MAX_JSON_DEPTH} levels deep)`,
  serialize: (value) => value,
  parseValue: boundedJson,
  parseLiteral: (node, variables) => boundedJson(literalToJson(node, variables)),
});
