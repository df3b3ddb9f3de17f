// API keys: list (Growth+), create (value shown once), revoke.
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import { oneOf } from '../../graphql/stored-enum.js';
import { rule } from '../../graphql/input-rules.js';
import { createApiKeyInput } from './api-keys.service.js';

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

const ViewerRef = builder.simpleObject('Viewer', {
  description: 'The caller: which key it signed in with and what that key may do',
  fields: (t) => ({ apiKeyId: t.id(), scope: t.field({ type: ScopeEnum }) }),
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

const CreatedApiKeyRef = builder.simpleObject('CreatedApiKey', {
  description: 'A new API key; `key` is shown only here',
  fields: (t) => ({ id: t.id(), name: t.string(), key: t.string(), prefix: t.string(), scope: t.field({ type: ScopeEnum }) }),
});

const RevokedApiKey = builder.simpleObject('RevokedApiKey', { fields: (t) => ({ message: t.string(), id: t.id() }) });

const CreateApiKeyInput = builder
  .inputType('CreateApiKeyInput', {
    fields: (t) => ({ name: t.string({ required: true }), scope: t.field({ type: ScopeEnum, required: true }) }),
  })
  .validate(rule(createApiKeyInput));

builder.queryField('apiKeys', (t) =>
  t.prismaField({
    type: ['ApiKey'],
    description: 'Active API keys (prefix and metadata only)',
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    resolve: (query, _root, _args, ctx) => ctx.services.apiKeys.list(requireViewer(ctx.auth).organizationId, query),
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
