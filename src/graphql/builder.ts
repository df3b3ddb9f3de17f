// Pothos builder configuration only (plugins, scalars, auth scopes); types live in src/modules/*.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { checkAccess, type AccessRule } from '../auth/access.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../base/json-depth.js';
import type { GraphQLContext } from './context.js';
import AccessFirstPlugin from './access-first.js';
import { inputRulesFailed } from './input-rules.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { public: boolean; access: AccessRule };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  plugins: [AccessFirstPlugin, ScopeAuthPlugin, ValidationPlugin, PrismaPlugin, RelayPlugin, SimpleObjectsPlugin],
  // Input rules are the services' zod schemas (graphql/input-rules.ts); access is checked before them (access-first.ts).
  validation: { validationError: inputRulesFailed },
  defaultFieldNullability: false,
  // Connections (votes, the hook request log) are the relay plugin's: its Connection, Edge and PageInfo types, edges
  // and nodes never null. The schema has no global object ids, so no `node` / `nodes` queries.
  relay: {
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
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

// DateTime and JSON are graphql-scalars' (RFC 3339 timestamps, written as UTC ISO strings; any JSON value). JSON
// inputs are bounded in depth on top of it.
builder.addScalarType('DateTime', DateTimeResolver);

/** A JSON input nested deeper than MAX_JSON_DEPTH is refused here, whether it came as a variable or inline. */
function boundedJson(value: unknown): unknown {
  if (exceedsJsonDepth(value)) {
    throw new GraphQLError(`JSON value is nested deeper than ${MAX_JSON_DEPTH} levels`, { extensions: { code: 'VALIDATION_ERROR' } });
  }
  return value;
}

builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    ...JSONResolver.toConfig(),
    description: `Any JSON value (inputs at most ${MAX_JSON_DEPTH} levels deep)`,
    parseValue: (value) => boundedJson(JSONResolver.parseValue(value)),
    parseLiteral: (node, variables) => boundedJson(JSONResolver.parseLiteral(node, variables)),
  }),
);
