// The hook request log in GraphQL: `HookRequest` entries, `Provider.requests` (cursor pages) and
// `Provider.requestDrops`, the numbered pages `hookRequests` (a provider's log, or the organization-level one) that
// REST maps onto, and the live `hookRequestReceived` subscription (the caller's organization only).
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import type { AppDeps } from '../../app/deps.js';
import { ProviderRef } from '../providers/providers.graphql.js';
import type { HookRequestEntry } from './entry.js';
import { createHookRequestService, type HookRequestFilter, type HookRequestService } from './hook-requests.service.js';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { keysetConnection } from '../../graphql/keyset-connection.js';
import { subscribeToHookRequests } from './hook-request-feed.js';
import type { HookOutcome, HookProtocol } from './observation.js';
import { oneOf } from '../../graphql/stored-enum.js';

const OUTCOMES: HookOutcome[] = ['accepted', 'duplicate', 'test', 'ignored', 'refused'];
const PROTOCOLS: HookProtocol[] = ['http', 'votifier_v1', 'votifier_v2', 'test_vote'];

const services = new WeakMap<AppDeps, HookRequestService>();
const serviceOf = (deps: AppDeps) => {
  let service = services.get(deps);
  if (!service) services.set(deps, (service = createHookRequestService(deps)));
  return service;
};

export const HookRequestOutcomeEnum = builder.enumType('HookRequestOutcome', {
  description: "How a hook request ended: accepted (a vote stored), duplicate, test (a site's test ping), ignored (not a vote event), refused",
  values: OUTCOMES,
});
export const HookRequestProtocolEnum = builder.enumType('HookRequestProtocol', {
  description: "http: a hook URL; votifier_v1 / votifier_v2: a Votifier session; test_vote: the owner's test vote",
  values: PROTOCOLS,
});

export const HookRequestRef = builder.objectRef<HookRequestEntry>('HookRequest').implement({
  description: 'One request to a hook URL or one Votifier session, accepted or not, secrets redacted (README "Hook request log")',
  fields: (t) => ({
    id: t.exposeID('id'),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    clientIp: t.exposeString('clientIp'),
    method: t.exposeString('method'),
    path: t.exposeString('path', { description: 'The path and query as received, secret segments and values redacted' }),
    protocol: t.field({ type: HookRequestProtocolEnum, resolve: (e) => oneOf(PROTOCOLS, e.protocol, 'hook request protocol') }),
    outcome: t.field({ type: HookRequestOutcomeEnum, resolve: (e) => oneOf(OUTCOMES, e.outcome, 'hook request outcome') }),
    status: t.exposeInt('status', { description: 'The HTTP status answered (a Votifier session: what the same refusal answers over HTTP)' }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
    hint: t.exposeString('hint', { nullable: true, description: 'What to fix, in words (refused and ignored requests)' }),
    voterName: t.exposeString('voterName', { nullable: true }),
    repairedFrom: t.exposeString('repairedFrom', {
      nullable: true,
      description: 'The name the site sent, when name repair gave the vote to the voter who clicked the vote page\'s button (README "Vote page")',
    }),
    voteId: t.exposeString('voteId', { nullable: true, description: "The vote's public id (accepted and duplicate)" }),
    durationMs: t.exposeInt('durationMs'),
    headers: t.field({ type: 'JSON', description: 'Header names (lower case) → values; credentials and signatures redacted', resolve: (e) => e.headers }),
    body: t.exposeString('body', { description: 'The first 2 KiB of the body, secret values redacted (binary bodies as base64:…)' }),
    bodyBytes: t.exposeInt('bodyBytes', { description: "The whole body's size in bytes" }),
    providerKey: t.exposeString('providerKey', { description: 'The provider key as addressed (a mistyped one as typed)' }),
    matched: t.boolean({
      description: "Whether the key named one of the organization's providers (false: the organization-level log's entries)",
      resolve: (e) => e.providerId !== null,
    }),
  }),
});

export const HookRequestDropRef = builder.simpleObject('HookRequestDrop', {
  description: 'Refused requests from one address that were not kept (over HOOK_LOG_MAX_REFUSED_PER_ADDRESS or the per-scope bound)',
  fields: (t) => ({ clientIp: t.string(), count: t.int(), firstAt: t.field({ type: 'DateTime' }), lastAt: t.field({ type: 'DateTime' }) }),
});

const HookRequestPageRef = builder.simpleObject('HookRequestPage', {
  description: 'A page of the hook request log, newest first, with the refused requests that were not kept',
  fields: (t) => ({
    requests: t.field({ type: [HookRequestRef] }),
    dropped: t.field({ type: [HookRequestDropRef] }),
    page: t.int(),
    limit: t.int(),
    total: t.int(),
    pages: t.int(),
  }),
});

type HookRequestConnectionShape = Awaited<ReturnType<typeof hookRequestConnection>>;

/** A provider's log as a Relay connection: the service checks the filter and reads the window. */
async function hookRequestConnection(
  service: HookRequestService,
  provider: { organizationId: string; id: string },
  args: HookRequestFilter & DefaultConnectionArguments,
) {
  const filter = service.connectionWhere(provider.organizationId, provider.id, args);
  return keysetConnection(args, filter, (window) => service.window(provider.organizationId, filter, window));
}

const HookRequestConnectionRef = builder.connectionObject<typeof HookRequestRef, HookRequestConnectionShape>({
  type: HookRequestRef,
  name: 'HookRequestConnection',
  description: 'Hook request log entries newest first, Relay-style (cursor = position after the given entry)',
  fields: (t) => ({ totalCount: t.int({ resolve: (c, _a, ctx) => serviceOf(ctx.deps).count(c.countWhere) }) }),
});

builder.objectFields(ProviderRef, (t) => ({
  requests: t.connection(
    {
      type: HookRequestRef,
      description: "This provider's hook request log, newest first (first / last: 1–100, default 50)",
      args: {
        outcome: t.arg({ type: HookRequestOutcomeEnum }),
        from: t.arg.string({ description: 'YYYY-MM-DD or ISO 8601' }),
        to: t.arg.string({ description: 'YYYY-MM-DD (that whole day) or ISO 8601' }),
      },
      resolve: (provider, args, ctx) => hookRequestConnection(serviceOf(ctx.deps), provider, args),
    },
    HookRequestConnectionRef,
  ),
  requestDrops: t.field({
    type: [HookRequestDropRef],
    description: 'Refused requests to this provider that were not kept, per client address (most first)',
    resolve: (provider, _args, ctx) => serviceOf(ctx.deps).drops(provider.organizationId, provider.id),
  }),
}));

builder.queryField('hookRequests', (t) =>
  t.field({
    type: HookRequestPageRef,
    description: "The hook request log, newest first: a provider's (provider: its key), or the organization-level one (requests to a key no provider has)",
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    args: {
      provider: t.arg.string({ description: "A provider's key; absent: the organization-level log" }),
      outcome: t.arg({ type: HookRequestOutcomeEnum }),
      from: t.arg.string({ description: 'YYYY-MM-DD or ISO 8601' }),
      to: t.arg.string({ description: 'YYYY-MM-DD (that whole day) or ISO 8601' }),
      page: t.arg.int({ description: 'From 1' }),
      limit: t.arg.int({ description: '1–100, default 50' }),
    },
    resolve: (_root, args, ctx) =>
      serviceOf(ctx.deps).page(requireViewer(ctx.auth).organizationId, args.provider ?? null, { ...args, outcome: args.outcome as HookOutcome | null }),
  }),
);

builder.subscriptionField('hookRequestReceived', (t) =>
  t.field({
    type: HookRequestRef,
    description: "Each new hook request log entry of the caller's organization, as it is written",
    authScopes: { access: { scope: 'read' } },
    args: { provider: t.arg.string({ description: 'Only entries addressed to this provider key' }) },
    subscribe: (_root, { provider }, ctx) => subscribeToHookRequests(ctx.deps, requireViewer(ctx.auth), provider),
    resolve: (entry: HookRequestEntry) => entry,
  }),
);
