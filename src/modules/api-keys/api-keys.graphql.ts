// API keys: list (Growth+), create (value shown once), revoke.
import { builder } from '../../graphql/builder.js';
import { requireViewer, type Viewer } from '../../auth/access.js';
import type { CreatedApiKey } from './api-keys.service.js';
import { oneOf } from '../../graphql/stored-enum.js';

const SCOPES = ['read', 'full'] as const;
export const ScopeEnum = builder.enumType('Scope', {
  description: 'read: every query; full: everything',
  values: SCOPES,
});

builder.prismaObject('ApiKey', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix'),
    scope: t.field({ type: ScopeEnum, resolve: (k) => oneOf(SCOPES, k.scope, 'API key scope') }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The caller: which key it signed in with and what that key may do',
  fields: (t) => ({
    apiKeyId: t.exposeID('apiKeyId'),
    scope: t.expose('scope', { type: ScopeEnum }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: 'The API key of this request (a dashboard disables writes for a read key)',
    nullable: true,
    authScopes: { access: { scope: 'read', allowSuspended: true } },
    resolve: (_root, _args, ctx) => requireViewer(ctx.auth),
  }),
);

const CreatedApiKeyRef = builder.objectRef<CreatedApiKey>('CreatedApiKey').implement({
  description: 'A new API key; `key` is shown only here',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    key: t.exposeString('key'),
    prefix: t.exposeString('prefix'),
    scope: t.expose('scope', { type: ScopeEnum }),
  }),
});

const RevokedApiKey = builder.objectRef<{ message: string; id: string }>('RevokedApiKey').implement({
  fields: (t) => ({ message: t.exposeString('message'), id: t.exposeID('id') }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({ name: t.string({ required: true }), scope: t.field({ type: ScopeEnum, required: true }) }),
});

builder.queryField('apiKeys', (t) =>
  t.prismaField({
    type: ['ApiKey'],
    description: 'Active API keys (prefix and metadata only)',
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    resolve: (query, _root, _args, ctx) =>
      ctx.deps.db.prisma.apiKey.findMany({
        ...query,
        where: { organizationId: requireViewer(ctx.auth).organizationId, revokedAt: null },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
  }),
);

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: CreatedApiKeyRef,
    nullable: true,
    authScopes: { access: { scope: 'full', plan: 'growth' } },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apiKeys.create(requireViewer(ctx.auth).organizationId, input),
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    type: RevokedApiKey,
    description: 'Revokes a key at once',
    nullable: true,
    authScopes: { access: { scope: 'full', plan: 'growth' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.apiKeys.revoke(requireViewer(ctx.auth).organizationId, String(id)),
  }),
);
