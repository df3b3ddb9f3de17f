// Callbacks: list (with count and limit), read, create, update, delete, test render, rotate the signing secret,
// and the template variables they may use.
import { builder } from '../../graphql/builder.js';
import { EVENT_TYPES } from '../../domain/reward-events.js';
import { eventsOf } from '../../domain/job-plan.js';
import { requireViewer } from '../../auth/access.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import type { Callback } from '../../generated/sqlite/client.js';
import { TEMPLATE_VARIABLES } from '../../delivery/template-variables.js';
import { createCallbackInput, FAILING_CALLBACK_STATES, replayCallbackArgs, updateCallbackInput } from './callbacks.service.js';
import { rule } from '../../graphql/input-rules.js';
import { ALL_SETTINGS, CALLBACK_KINDS, CALLBACK_KIND_NAMES, callbackKindOf } from '../../delivery/callback-kinds/registry.js';
import { hasFlagName, restName, shownSettings, type SettingValues, type SharedSetting } from '../../delivery/callback-kinds/settings-schema.js';
import type { CallbackKind } from '../../delivery/callback-kinds/callback-kind.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { oneOf } from '../../graphql/stored-enum.js';

const CallbackEventEnum = builder.enumType('CallbackEvent', {
  description: 'vote: each vote; milestone, vote_party, reminder: events beyond a vote (README "Rewards")',
  values: EVENT_TYPES,
});

const CallbackKindEnum = builder.enumType('CallbackKind', {
  description: CALLBACK_KINDS.map((k) => `${k.name}: ${k.description}`).join('; '),
  values: CALLBACK_KIND_NAMES,
});

// What a read shows of a callback's settings, worked out once per row (a list reads many fields of each).
const shownCache = new WeakMap<Callback, SettingValues>();
function shownOf(callback: Callback, secrets: Pick<SecretBox, 'open'>): SettingValues {
  let shown = shownCache.get(callback);
  if (!shown) {
    shown = shownSettings(callbackKindOf(callback.kind)?.settings ?? [], callback, secrets);
    shownCache.set(callback, shown);
  }
  return shown;
}
const shownValue = (callback: Callback, ctx: { deps: { secrets: SecretBox } }, name: string) => shownOf(callback, ctx.deps.secrets)[name] ?? null;

export const CallbackRef = builder.prismaObject('Callback', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: CallbackKindEnum }),
    target: t.string({
      description: "Where its deliveries go, as the delivery log names it (no secret in it: a broker URL's password is left out)",
      resolve: (c, _args, ctx) => {
        const kind = callbackKindOf(c.kind);
        return kind ? kind.target(shownOf(c, ctx.deps.secrets)) : '';
      },
    }),
    // Each kind's settings (src/delivery/callback-kinds/): null where this callback's kind has no such setting; a
    // secret is never shown (has<Name> tells whether it is set).
    ...Object.fromEntries(
      ALL_SETTINGS.map((setting) => {
        const description = setting.description;
        if (setting.writeOnly)
          return [
            hasFlagName(setting.byKind[0].field),
            t.boolean({ description, resolve: (c, _a, ctx) => shownValue(c, ctx, hasFlagName(setting.byKind[0].field)) === true }),
          ];
        switch (setting.type) {
          case 'string':
            return [setting.name, t.string({ nullable: true, description, resolve: (c, _a, ctx) => shownValue(c, ctx, setting.name) as string | null })];
          case 'int':
            return [setting.name, t.int({ nullable: true, description, resolve: (c, _a, ctx) => shownValue(c, ctx, setting.name) as number | null })];
          case 'boolean':
            return [setting.name, t.boolean({ nullable: true, description, resolve: (c, _a, ctx) => shownValue(c, ctx, setting.name) as boolean | null })];
          case 'strings':
            return [setting.name, t.stringList({ nullable: true, description, resolve: (c, _a, ctx) => shownValue(c, ctx, setting.name) as string[] | null })];
          case 'json':
            return [setting.name, t.field({ type: 'JSON', nullable: true, description, resolve: (c, _a, ctx) => shownValue(c, ctx, setting.name) })];
        }
      }),
    ),
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
    events: t.field({
      type: [CallbackEventEnum],
      description: 'The events it takes (README "Rewards"); each kind takes the events callbackKinds lists for it',
      resolve: (c) => [...eventsOf(c.eventsJson)].map((e) => oneOf(EVENT_TYPES, e, 'callback event')),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const CallbackList = builder.simpleObject('CallbackList', {
  fields: (t) => ({
    callbacks: t.field({ type: [CallbackRef] }),
    count: t.int({ description: 'Callbacks the organization has (disabled ones too), against `limit`' }),
    limit: t.int(),
  }),
});

const CreatedCallbackRef = builder.simpleObject('CreatedCallback', {
  description: 'A new callback; signingSecret is shown only here and by rotateCallbackSecret',
  fields: (t) => ({
    callback: t.field({ type: CallbackRef }),
    signingSecret: t.string({ nullable: true, description: 'Kinds that sign their requests only (callbackKinds: signed)' }),
  }),
});

const ReplayedRef = builder.simpleObject('CallbackReplay', {
  description: 'What a replay queued: one new delivery per vote of the window',
  fields: (t) => ({
    callbackId: t.id(),
    queued: t.int(),
    since: t.field({ type: 'DateTime' }),
    until: t.field({ type: 'DateTime' }),
    onlyFailed: t.boolean(),
  }),
});

const RotatedSecret = builder.simpleObject('RotatedCallbackSecret', { fields: (t) => ({ id: t.id(), signingSecret: t.string() }) });

const DeletedCallback = builder.simpleObject('DeletedCallback', { fields: (t) => ({ message: t.string(), id: t.id() }) });

const CallbackTest = builder.simpleObject('CallbackTest', {
  fields: (t) => ({
    url: t.string(),
    method: t.string(),
    headers: t.field({ type: 'JSON' }),
    payload: t.field({ type: 'JSON' }),
    sent: t.boolean({ description: 'true when the test talked to the target (RCON logs in and runs list); no vote is ever delivered' }),
    message: t.string({ nullable: true, description: 'What a live check saw, in words; null for a render' }),
  }),
});

const CallbackSettingTypeEnum = builder.enumType('CallbackSettingType', {
  description: 'How a setting is written: string, int, boolean, strings (a list of text), json',
  values: ['string', 'int', 'boolean', 'strings', 'json'] as const,
});

const CallbackSettingRef = builder.objectRef<CallbackKind['settings'][number]>('CallbackSetting').implement({
  description: 'One setting of a callback kind: the dashboard draws its form from these, and the REST body takes it under restName',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The GraphQL input and output field' }),
    restName: t.string({ description: 'The REST body and answer field', resolve: (f) => restName(f.name) }),
    type: t.field({ type: CallbackSettingTypeEnum, resolve: (f) => f.type }),
    label: t.exposeString('label'),
    help: t.exposeString('help'),
    required: t.boolean({ description: 'Must be given on create', resolve: (f) => f.required === true && f.default === undefined }),
    nullable: t.boolean({ description: 'null clears it', resolve: (f) => f.nullable === true }),
    secret: t.boolean({ description: 'Write-only: reads show has<Name> (or a redacted form), never the value', resolve: (f) => f.secret === true }),
    readAs: t.string({
      description: 'The Callback field a read shows it under (has<Name> for a secret never shown)',
      resolve: (f) => (f.secret && !f.shown ? hasFlagName(f) : f.name),
    }),
    widget: t.string({
      description: 'text, password, number, checkbox, lines (one value a line), json, textarea',
      resolve: (f) => f.widget ?? (f.secret ? 'password' : { string: 'text', int: 'number', boolean: 'checkbox', strings: 'lines', json: 'json' }[f.type]),
    }),
    placeholder: t.string({ nullable: true, resolve: (f) => f.placeholder ?? null }),
    default: t.field({ type: 'JSON', nullable: true, description: 'Its value when a create leaves it out', resolve: (f) => f.default ?? null }),
  }),
});

const CallbackKindInfoRef = builder.objectRef<CallbackKind>('CallbackKindInfo').implement({
  description: 'A kind of callback: what it sends, the events it takes and its settings',
  fields: (t) => ({
    name: t.field({ type: CallbackKindEnum, resolve: (k) => k.name }),
    label: t.exposeString('label'),
    description: t.exposeString('description'),
    events: t.field({ type: [CallbackEventEnum], resolve: (k) => [...k.events] }),
    signed: t.exposeBoolean('signed', { description: 'Its requests are signed (Standard Webhooks): it has a signing secret' }),
    marksTests: t.exposeBoolean('marksTests', {
      description: 'Its deliveries tell the target that a vote is a test; otherwise a test vote reaches it only when asked',
    }),
    settings: t.field({ type: [CallbackSettingRef], resolve: (k) => [...k.settings] }),
  }),
});

const TemplateVariableRef = builder.simpleObject('TemplateVariable', {
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    example: t.string(),
    type: t.string(),
    events: t.field({
      type: [CallbackEventEnum],
      description: "The events whose templates have it (a milestone or a party also has its vote's variables)",
    }),
  }),
});
/** The fields every kind shares, and each kind's settings (the union: a callback takes only its own kind's). */
const callbackInputFields = (t: PothosSchemaTypes.InputFieldBuilder<CallbackSchemaTypes, 'InputObject'>) => ({
  name: t.string(),
  timeoutMs: t.int(),
  enabled: t.boolean(),
  priority: t.int(),
  providers: t.stringList({ description: 'Keys of the providers whose votes it takes; empty = every provider' }),
  maxPerSecond: t.int({ description: 'At most this many deliveries start per second (1-1000); null = no limit' }),
  events: t.field({ type: [CallbackEventEnum], description: 'The events it takes; default [vote]' }),
  ...Object.fromEntries(ALL_SETTINGS.map((setting) => [setting.name, settingInput(t, setting)])),
});
function settingInput(t: PothosSchemaTypes.InputFieldBuilder<CallbackSchemaTypes, 'InputObject'>, setting: SharedSetting) {
  const description = setting.description;
  switch (setting.type) {
    case 'string':
      return t.string({ description });
    case 'int':
      return t.int({ description });
    case 'boolean':
      return t.boolean({ description });
    case 'strings':
      return t.stringList({ description });
    case 'json':
      return t.field({ type: 'JSON', description });
  }
}
type CallbackSchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
const CreateCallbackInput = builder
  .inputType('CreateCallbackInput', {
    fields: (t) => ({
      ...callbackInputFields(t),
      kind: t.field({ type: CallbackKindEnum, description: `Default ${CALLBACK_KIND_NAMES[0]}` }),
      name: t.string({ required: true }),
    }),
  })
  .validate(rule(createCallbackInput));
const UpdateCallbackInput = builder.inputType('UpdateCallbackInput', { fields: (t) => callbackInputFields(t) }).validate(rule(updateCallbackInput));

const orgId = (ctx: { auth: Parameters<typeof requireViewer>[0] }) => requireViewer(ctx.auth).organizationId;

builder.queryField('callbackVariables', (t) =>
  t.field({ type: [TemplateVariableRef], nullable: true, authScopes: { access: { scope: 'read' } }, resolve: () => TEMPLATE_VARIABLES }),
);

builder.queryField('callbackKinds', (t) =>
  t.field({
    type: [CallbackKindInfoRef],
    description: 'Every kind of callback with its settings (the dashboard draws its forms from them)',
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    resolve: () => [...CALLBACK_KINDS],
  }),
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
        ctx.services.callbacks.count(viewer.organizationId),
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
    resolve: (_root, { input }, ctx) => ctx.services.callbacks.create(orgId(ctx), input),
  }),
);

builder.mutationField('updateCallback', (t) =>
  t.field({
    type: CallbackRef,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCallbackInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => ctx.services.callbacks.update(orgId(ctx), String(id), input),
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
    validate: rule(replayCallbackArgs),
    resolve: (_root, args, ctx) => ctx.services.callbacks.replay(orgId(ctx), args),
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
  values: FAILING_CALLBACK_STATES,
});

const FailingCallbackRef = builder.simpleObject('FailingCallback', {
  description: 'A callback with failed attempts in the last 24 hours (retrying, given up or since recovered), or disabled with a reason (disabledReason)',
  fields: (t) => ({
    callback: t.field({ type: CallbackRef }),
    state: t.field({ type: FailingCallbackStateEnum }),
    failedAttemptsLast24h: t.int({ description: 'Failed delivery attempts in the last 24 hours, whatever became of their deliveries' }),
    retryingDeliveries: t.int({ description: 'Deliveries waiting for another attempt now' }),
    failedLast24h: t.int({ description: 'Deliveries given up (failed for good) in the last 24 hours' }),
    lastError: t.string({ nullable: true, description: "The newest failed attempt's error (a disabled callback's reason when nothing failed)" }),
    lastFailedAt: t.field({ type: 'DateTime', description: 'When the newest failed attempt was made (when it was disabled, when nothing failed)' }),
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
