// Callbacks: list (with count and limit), read, create, update, delete, test render, rotate the signing secret,
// and the template variables they may use.
import { builder } from '../../graphql/builder.js';
import { EVENT_TYPES } from '../../domain/reward-events.js';
import { eventsOf } from '../../domain/job-plan.js';
import { requireViewer } from '../../auth/access.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import type { Callback } from '../../generated/sqlite/client.js';
import { TEMPLATE_VARIABLES, type TemplateVariable } from '../../delivery/template-variables.js';
import { FAILING_CALLBACK_STATES, type CreatedCallback, type FailingCallback, type Replayed } from './callbacks.service.js';
import { CALLBACK_KIND_NAMES } from '../../delivery/callback-kinds/registry.js';

const CallbackEventEnum = builder.enumType('CallbackEvent', {
  description: 'vote: each vote; milestone, vote_party, reminder: events beyond a vote (README "Rewards")',
  values: [...EVENT_TYPES] as string[],
});

const CallbackKindEnum = builder.enumType('CallbackKind', {
  description: 'http: a signed POST; votifier: the Votifier protocol',
  values: [...CALLBACK_KIND_NAMES] as string[],
});

export const CallbackRef = builder.prismaObject('Callback', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: CallbackKindEnum }),
    url: t.exposeString('url', { nullable: true }),
    host: t.exposeString('host', { nullable: true }),
    port: t.exposeInt('port', { nullable: true }),
    serviceName: t.exposeString('serviceName', { nullable: true }),
    hasToken: t.boolean({ resolve: (c) => c.votifierTokenEnc !== null }),
    publicKey: t.exposeString('votifierPublicKey', { nullable: true }),
    timeoutMs: t.exposeInt('timeoutMs'),
    enabled: t.exposeBoolean('enabled'),
    priority: t.exposeInt('priority'),
    providers: t.stringList({
      description: 'Keys of the providers whose votes it takes; empty = every provider (unless all it named were deleted: see disabledReason)',
      resolve: async (c, _args, ctx) => {
        if (!c.providerIdsJson) return [];
        const keys = await Promise.all((JSON.parse(c.providerIdsJson) as string[]).map((id) => ctx.loaders.providerKey.load(id)));
        return keys.filter((k): k is string => k !== null).sort();
      },
    }),
    allProviders: t.boolean({
      description: 'It takes every provider (providers is empty); false with an empty providers: all it named were deleted, so it takes none',
      resolve: (c) => c.providerIdsJson === null,
    }),
    maxPerSecond: t.exposeInt('maxPerSecond', { nullable: true, description: 'At most this many deliveries start per second; null = no limit' }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why it was disabled automatically (null when enabled or disabled by hand)',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description: 'Start of its current run of failed attempts (null after a success)',
    }),
    payloadTemplate: t.field({
      type: 'JSON',
      nullable: true,
      description: 'http only (a votifier callback sends the Votifier vote, not a template)',
      resolve: (c) => (c.kind === 'http' ? JSON.parse(c.payloadTemplateJson) : null),
    }),
    events: t.field({
      type: [CallbackEventEnum],
      description: 'The events it takes (README "Rewards"); votifier callbacks take votes only',
      resolve: (c) => [...eventsOf(c.eventsJson)],
    }),
    eventTemplates: t.field({
      type: 'JSON',
      nullable: true,
      description: 'http only: its own payload per event other than vote (milestone, vote_party, reminder); an event left out gets its default',
      resolve: (c) => (c.kind === 'http' && c.eventTemplatesJson ? JSON.parse(c.eventTemplatesJson) : null),
    }),
    hasAuthSecret: t.boolean({ resolve: (c) => c.authSecretEnc !== null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CallbackList = builder.objectRef<{ callbacks: Callback[]; count: number; limit: number }>('CallbackList').implement({
  fields: (t) => ({
    callbacks: t.field({ type: [CallbackRef], resolve: (l) => l.callbacks }),
    count: t.exposeInt('count', { description: 'Callbacks the organization has (disabled ones too), against `limit`' }),
    limit: t.exposeInt('limit'),
  }),
});

const CreatedCallbackRef = builder.objectRef<CreatedCallback>('CreatedCallback').implement({
  description: 'A new callback; signingSecret is shown only here and by rotateCallbackSecret',
  fields: (t) => ({
    callback: t.field({ type: CallbackRef, resolve: (c) => c.callback }),
    signingSecret: t.exposeString('signingSecret', { nullable: true, description: 'http only (votifier callbacks are not signed)' }),
  }),
});

const ReplayedRef = builder.objectRef<Replayed>('CallbackReplay').implement({
  description: 'What a replay queued: one new delivery per vote of the window',
  fields: (t) => ({
    callbackId: t.exposeID('callbackId'),
    queued: t.exposeInt('queued'),
    since: t.expose('since', { type: 'DateTime' }),
    until: t.expose('until', { type: 'DateTime' }),
    onlyFailed: t.exposeBoolean('onlyFailed'),
  }),
});

const RotatedSecret = builder.objectRef<{ id: string; signingSecret: string }>('RotatedCallbackSecret').implement({
  fields: (t) => ({ id: t.exposeID('id'), signingSecret: t.exposeString('signingSecret') }),
});

const DeletedCallback = builder.objectRef<{ message: string; id: string }>('DeletedCallback').implement({
  fields: (t) => ({ message: t.exposeString('message'), id: t.exposeID('id') }),
});

const CallbackTest = builder
  .objectRef<{ url: string; method: string; headers: Record<string, string>; payload: unknown; sent: boolean }>('CallbackTest')
  .implement({
    fields: (t) => ({
      url: t.exposeString('url'),
      method: t.exposeString('method'),
      headers: t.field({ type: 'JSON', resolve: (r) => r.headers }),
      payload: t.field({ type: 'JSON', resolve: (r) => r.payload }),
      sent: t.exposeBoolean('sent'),
    }),
  });

const TemplateVariableRef = builder.objectRef<TemplateVariable>('TemplateVariable').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    example: t.exposeString('example'),
    type: t.exposeString('type'),
    events: t.field({
      type: [CallbackEventEnum],
      description: "The events whose templates have it (a milestone or a party also has its vote's variables)",
      resolve: (v) => [...v.events],
    }),
  }),
});

// biome-ignore lint/suspicious/noExplicitAny: the same fields serve two input types, each with its own Pothos field builder type
const callbackFields = (t: any) => ({
  name: t.string(),
  url: t.string(),
  authSecret: t.string({ description: 'Sent as Authorization: Bearer <auth_secret>; never returned' }),
  timeoutMs: t.int(),
  enabled: t.boolean(),
  priority: t.int(),
  payloadTemplate: t.field({ type: 'JSON' }),
  providers: t.stringList({ description: 'Keys of the providers whose votes it takes; empty = every provider' }),
  maxPerSecond: t.int({ description: 'At most this many deliveries start per second (1-1000); null = no limit' }),
  events: t.field({ type: [CallbackEventEnum], description: 'The events it takes; default [vote]' }),
  eventTemplates: t.field({
    type: 'JSON',
    description: 'http only: {milestone?, vote_party?, reminder?}, each a payload template; null: the defaults',
  }),
  host: t.string({ description: 'votifier: the Votifier server host' }),
  port: t.int({ description: 'votifier: port (default 8192)' }),
  serviceName: t.string({ description: 'votifier: the service name the server sees' }),
  token: t.string({ description: 'votifier v2: the server token; never returned' }),
  publicKey: t.string({ description: 'votifier v1: the RSA public key (PEM or base64)' }),
});
const CreateCallbackInput = builder.inputType('CreateCallbackInput', {
  fields: (t) => ({ ...callbackFields(t), kind: t.field({ type: CallbackKindEnum, description: 'Default http' }), name: t.string({ required: true }) }),
});
const UpdateCallbackInput = builder.inputType('UpdateCallbackInput', { fields: (t) => callbackFields(t) });

const defined = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
const orgId = (ctx: { auth: Parameters<typeof requireViewer>[0] }) => requireViewer(ctx.auth).organizationId;

builder.queryField('callbackVariables', (t) =>
  t.field({ type: [TemplateVariableRef], nullable: true, authScopes: { access: { scope: 'read' } }, resolve: () => TEMPLATE_VARIABLES }),
);

builder.queryField('callbacks', (t) =>
  t.field({
    type: CallbackList,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    args: { includeDisabled: t.arg.boolean({ defaultValue: false }) },
    resolve: async (_root, { includeDisabled }, ctx) => {
      const viewer = requireViewer(ctx.auth);
      const [callbacks, count] = await Promise.all([
        ctx.services.callbacks.list(viewer.organizationId, includeDisabled ?? false),
        ctx.deps.db.prisma.callback.count({ where: { organizationId: viewer.organizationId } }),
      ]);
      return { callbacks, count, limit: PLAN_LIMITS[planOf(viewer)].callbacks };
    },
  }),
);

builder.queryField('callback', (t) =>
  t.field({
    type: CallbackRef,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.callbacks.get(orgId(ctx), String(id)),
  }),
);

builder.mutationField('createCallback', (t) =>
  t.field({
    type: CreatedCallbackRef,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { input: t.arg({ type: CreateCallbackInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.callbacks.create(orgId(ctx), defined(input)),
  }),
);

builder.mutationField('updateCallback', (t) =>
  t.field({
    type: CallbackRef,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCallbackInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => ctx.services.callbacks.update(orgId(ctx), String(id), defined(input)),
  }),
);

builder.mutationField('deleteCallback', (t) =>
  t.field({
    type: DeletedCallback,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.callbacks.remove(orgId(ctx), String(id)),
  }),
);

builder.mutationField('testCallback', (t) =>
  t.field({
    type: CallbackTest,
    description: 'Renders what a delivery would send, with sample values; nothing is sent',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: {
      id: t.arg.id({ required: true }),
      event: t.arg({ type: CallbackEventEnum, description: 'Which delivery to render: vote (default) or an event the callback takes' }),
    },
    resolve: (_root, { id, event }, ctx) => ctx.services.callbacks.test(orgId(ctx), String(id), event),
  }),
);

builder.mutationField('replayCallback', (t) =>
  t.field({
    type: ReplayedRef,
    description: "Queues this callback's delivery of every vote received in [since, until) again (onlyFailed: those whose last delivery to it failed)",
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: {
      id: t.arg.id({ required: true }),
      since: t.arg.string({ required: true, description: 'YYYY-MM-DD or ISO 8601' }),
      until: t.arg.string({ description: 'YYYY-MM-DD (that whole day) or ISO 8601; default now' }),
      onlyFailed: t.arg.boolean({ defaultValue: false }),
    },
    resolve: (_root, { id, ...window }, ctx) => ctx.services.callbacks.replay(orgId(ctx), String(id), defined(window)),
  }),
);

builder.mutationField('rotateCallbackSecret', (t) =>
  t.field({
    type: RotatedSecret,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.callbacks.rotateSecret(orgId(ctx), String(id)),
  }),
);

const FailingCallbackStateEnum = builder.enumType('FailingCallbackState', {
  description:
    'disabled: turned off with a reason; retrying: deliveries wait for another attempt; failing: its last attempt failed and nothing is left to retry; recovered: it failed in the last 24 hours and its last attempt succeeded',
  values: FAILING_CALLBACK_STATES as string[],
});

const FailingCallbackRef = builder.objectRef<FailingCallback>('FailingCallback').implement({
  description: 'A callback with failed attempts in the last 24 hours (retrying, given up or since recovered), or disabled with a reason (disabledReason)',
  fields: (t) => ({
    callback: t.field({ type: CallbackRef, resolve: (f) => f.callback }),
    state: t.field({ type: FailingCallbackStateEnum, resolve: (f) => f.state }),
    failedAttemptsLast24h: t.exposeInt('failedAttemptsLast24h', {
      description: 'Failed delivery attempts in the last 24 hours, whatever became of their deliveries',
    }),
    retryingDeliveries: t.exposeInt('retryingDeliveries', { description: 'Deliveries waiting for another attempt now' }),
    failedLast24h: t.exposeInt('failedLast24h', { description: 'Deliveries given up (failed for good) in the last 24 hours' }),
    lastError: t.exposeString('lastError', {
      nullable: true,
      description: "The newest failed attempt's error (a disabled callback's reason when nothing failed)",
    }),
    lastFailedAt: t.expose('lastFailedAt', {
      type: 'DateTime',
      description: 'When the newest failed attempt was made (when it was disabled, when nothing failed)',
    }),
  }),
});

builder.queryField('failingCallbacks', (t) =>
  t.field({
    type: [FailingCallbackRef],
    description: 'For a dashboard: callbacks with failed attempts in the last 24 hours (most failed attempts first), then those disabled with a reason',
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    resolve: (_root, _args, ctx) => ctx.services.callbacks.failing(orgId(ctx)),
  }),
);
