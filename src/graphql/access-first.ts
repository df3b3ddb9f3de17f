// Access before input. Pothos runs a field's argument mappers (where the validation plugin checks input rules)
// outside every plugin's resolver wrapper, so scope-auth would judge a request only after its input. The interface
// puts access first: a read key on any write is 403 INSUFFICIENT_SCOPE whatever it sends, a missing key 401. This
// plugin checks a field's `access` rule ahead of its argument mappers; scope-auth checks it again inside (a pure
// function of the request's auth state, no I/O).
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { checkAccess, type AccessRule, type AuthState } from '../auth/access.js';

export class AccessFirstPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const scopes = (fieldConfig.pothosOptions as { authScopes?: unknown }).authScopes;
    // A mutation's subscribe is undefined: Pothos still passes it here.
    if (!resolver || fieldConfig.argMappers.length === 0 || scopes === undefined) return resolver;
    const rule = typeof scopes === 'object' && scopes !== null ? (scopes as { access?: AccessRule; public?: boolean }) : null;
    if (rule?.public === true) return resolver;
    if (!rule?.access) {
      // Only a static access rule can be checked ahead of the input; any other form would be judged after it.
      throw new Error(`${fieldConfig.parentType}.${fieldConfig.name}: input rules need a static authScopes { access } (or { public: true })`);
    }
    const access = rule.access;
    return (parent, args, context, info) => {
      checkAccess((context as { auth: AuthState }).auth, access);
      return resolver(parent, args, context, info);
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      accessFirst: AccessFirstPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('accessFirst', AccessFirstPlugin);

export default 'accessFirst' as const;
