// Providers: list with counts and limit, read, create (explicit or from a template), update, delete, new secret.
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import type { Provider } from '../../generated/sqlite/client.js';
import { providerWebhookUrl } from './auth-methods/registry.js';
import { AUTH_METHOD_NAMES } from './auth-methods/registry.js';
import { PAYLOAD_SOURCES, SIGNATURE_FORMATS } from './auth-methods/auth-method.js';
import { updateProviderInput, type VotifierSetup } from './providers.service.js';
import { findTemplate } from './templates/catalogue.js';
import { cooldownOf } from '../../domain/vote-cooldown.js';
import { VOTER_KINDS, type VoterKind } from '../../domain/voter-identity.js';
import { oneOf } from '../../graphql/stored-enum.js';
import { rule } from '../../graphql/input-rules.js';

export const AuthMethodEnum = builder.enumType('AuthMethod', {
  description: 'How a voting site proves a delivery is its own',
  values: AUTH_METHOD_NAMES,
});
const VoterKindEnum = builder.enumType('VoterKind', {
  description: 'What a provider\'s voter name is (README "Voters")',
  values: VOTER_KINDS,
});
const PayloadSourceEnum = builder.enumType('PayloadSource', { description: 'Where a provider reads votes from', values: PAYLOAD_SOURCES });
const SignatureFormatEnum = builder.enumType('SignatureFormat', {
  description: 'hmac providers: how the signature is written',
  values: SIGNATURE_FORMATS,
});

const events = (json: string | null) => (json ? (JSON.parse(json) as string[]) : null);

const VotifierSetupRef = builder.simpleObject('VotifierSetup', {
  description: 'What to type into a Votifier list: host, port, and the v1 public key or the v2 token',
  fields: (t) => ({
    host: t.string(),
    port: t.int({ description: 'The Votifier TCP listener (VOTIFIER_PORT); 0 when it is off (Votifier over HTTP still works)' }),
    publicKey: t.string({ description: 'Base64 DER (X.509 SubjectPublicKeyInfo), as NuVotifier keeps it in rsa/public.key' }),
    token: t.string({ nullable: true, description: 'The v2 token; shown only on creation and regeneration' }),
  }),
});

const RecoveryRef = builder.simpleObject('ProviderRecovery', {
  description: "Votes the hook missed, read back from the site's vote list (top.gg) with the owner's API token",
  fields: (t) => ({
    enabled: t.boolean({ description: 'An API token is set' }),
    checkedAt: t.field({ type: 'DateTime', nullable: true, description: "The last time the site's list was read" }),
    since: t.string({ nullable: true, description: 'The list is read from this time on (ISO 8601)' }),
    error: t.string({ nullable: true, description: 'Why the last read failed (null after a success)' }),
  }),
});

export const ProviderRef = builder.prismaObject('Provider', {
  fields: (t) => ({
    id: t.exposeID('id'),
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    template: t.exposeString('templateSlug', { nullable: true }),
    authMethod: t.field({ type: AuthMethodEnum, resolve: (p) => oneOf(AUTH_METHOD_NAMES, p.authMethod, 'auth method') }),
    authField: t.exposeString('authField'),
    authTimestampField: t.exposeString('authTimestampField', { nullable: true }),
    signatureFormat: t.field({
      type: SignatureFormatEnum,
      nullable: true,
      description: 'hmac only: plain (HMAC of the body, or of <timestamp>.<body> with authTimestampField) or topgg (t=<unix>,v1=<hex>)',
      resolve: (p) => (p.signatureFormat === null ? null : oneOf(SIGNATURE_FORMATS, p.signatureFormat, 'signature format')),
    }),
    payloadSource: t.field({
      type: PayloadSourceEnum,
      description: 'Where votes are read from: json or form body, or the query string',
      resolve: (p) => oneOf(PAYLOAD_SOURCES, p.payloadSource, 'payload source'),
    }),
    voteePath: t.exposeString('voteePath'),
    eventPath: t.exposeString('eventPath', { nullable: true }),
    voteEvents: t.stringList({ nullable: true, resolve: (p) => events(p.voteEventsJson) }),
    testEvents: t.stringList({ nullable: true, resolve: (p) => events(p.testEventsJson) }),
    voteCooldown: t.field({
      type: 'JSON',
      nullable: true,
      description: 'When a voter may vote again: {"hours": N}, {"minutes": N}, both, or {"daily_reset": "HH:MM", "time_zone": "<IANA>"}; null when unknown',
      resolve: (p) => cooldownOf(p.voteCooldownJson),
    }),
    voteUrl: t.exposeString('voteUrl', {
      nullable: true,
      description: "The site's page where a voter votes (reminder events carry it, rendered with the vote's variables)",
    }),
    discordIdPath: t.exposeString('discordIdPath', {
      nullable: true,
      description: "Where the voter's Discord user id is in a vote's body (Discord sites' templates set it); null: none",
    }),
    voterKind: t.field({
      type: VoterKindEnum,
      description: 'What the name at voteePath is: a Discord id, a Minecraft name (Bedrock behind bedrockPrefix), a Hytale name, or any name',
      resolve: (p) => p.voterKind as VoterKind,
    }),
    voterAddressPath: t.exposeString('voterAddressPath', {
      nullable: true,
      description: "Where the voter's IP address is in a vote's body (Votifier lists, TopG); null: none",
    }),
    enabled: t.exposeBoolean('enabled'),
    bodyTimestampPath: t.exposeString('bodyTimestampPath', {
      nullable: true,
      description: 'A timestamp in the signed body; one older than bodyTimestampMaxAge seconds is refused',
    }),
    bodyTimestampMaxAge: t.exposeInt('bodyTimestampMaxAgeS', { nullable: true }),
    recovery: t.field({
      type: RecoveryRef,
      nullable: true,
      description: 'Providers of a site with a vote list (top.gg): recovery of missed votes (the API token is never returned)',
      resolve: (p) =>
        p.templateSlug && findTemplate(p.templateSlug)?.recovery
          ? { enabled: p.apiTokenEnc !== null, checkedAt: p.recoveryCheckedAt, since: p.recoveryCursor, error: p.recoveryError }
          : null,
    }),
    votifier: t.field({
      type: VotifierSetupRef,
      nullable: true,
      description: 'votifier providers: host, port and public key (never the token)',
      resolve: (p, _args, ctx) => ctx.services.providers.votifierOf(p),
    }),
    webhookUrl: t.string({
      description: 'Inbound URL ({hook_base_url}/<organization_slug>/<provider_key>); secrets are shown only on creation and regeneration',
      resolve: (p, _args, ctx) => providerWebhookUrl(ctx.deps.config.hookBaseUrl, requireViewer(ctx.auth).organizationSlug, p),
    }),
    votesToday: t.int({ resolve: async (p, _args, ctx) => (await ctx.loaders.providerCounts.load(p.id)).votesToday }),
    votesTotal: t.int({ resolve: async (p, _args, ctx) => (await ctx.loaders.providerCounts.load(p.id)).votesTotal }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ProviderList = builder.simpleObject('ProviderList', {
  fields: (t) => ({ providers: t.field({ type: [ProviderRef] }), count: t.int(), limit: t.int() }),
});

const CreatedProvider = builder
  .objectRef<{ provider: Provider; secret: string; webhookUrl: string; votifier: VotifierSetup | null }>('CreatedProvider')
  .implement({
    description: 'A new provider; authValue (the secret) is shown only here',
    fields: (t) => ({
      id: t.id({ resolve: (c) => c.provider.id }),
      provider: t.field({ type: ProviderRef, resolve: (c) => c.provider }),
      key: t.string({ resolve: (c) => c.provider.key }),
      name: t.string({ resolve: (c) => c.provider.name }),
      authMethod: t.field({ type: AuthMethodEnum, resolve: (c) => oneOf(AUTH_METHOD_NAMES, c.provider.authMethod, 'auth method') }),
      authField: t.string({ resolve: (c) => c.provider.authField }),
      authValue: t.exposeString('secret'),
      webhookUrl: t.exposeString('webhookUrl'),
      votifier: t.field({
        type: VotifierSetupRef,
        nullable: true,
        description: 'votifier providers: host, port, public key and token',
        resolve: (c) => c.votifier,
      }),
    }),
  });

const RegeneratedSecret = builder.simpleObject('RegeneratedProviderSecret', {
  fields: (t) => ({
    authValue: t.string(),
    webhookUrl: t.string(),
    votifier: t.field({ type: VotifierSetupRef, nullable: true, description: 'votifier providers: the new key pair and token' }),
  }),
});

const DeletedProvider = builder.simpleObject('DeletedProvider', { fields: (t) => ({ message: t.string(), votesDeleted: t.int() }) });

type ProviderSchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** The fields a new provider and a change to one share. */
const providerInputFields = (t: PothosSchemaTypes.InputFieldBuilder<ProviderSchemaTypes, 'InputObject'>) => ({
  key: t.string(),
  name: t.string(),
  authField: t.string(),
  authTimestampField: t.string(),
  voteePath: t.string(),
  eventPath: t.string(),
  voteEvents: t.stringList(),
  testEvents: t.stringList(),
  payloadSource: t.field({ type: PayloadSourceEnum, description: 'Default: query for query providers, json otherwise' }),
  signatureFormat: t.field({ type: SignatureFormatEnum, description: 'hmac only; default plain' }),
  enabled: t.boolean(),
  bodyTimestampPath: t.string({ description: 'A timestamp in the signed body (dotted path; epoch s or ms, or ISO 8601); null turns the check off' }),
  bodyTimestampMaxAge: t.int({ description: 'Seconds; an older body timestamp is refused (default 300)' }),
  apiToken: t.string({ description: "top.gg providers: the project's API token, to recover votes the hook missed; never returned; null removes it" }),
  voteCooldown: t.field({
    type: 'JSON',
    description:
      'When a voter may vote again on the site: {"hours": N}, {"minutes": N}, both, or {"daily_reset": "HH:MM", "time_zone": "<IANA>"}; null: unknown',
  }),
  voteUrl: t.string({ description: "The site's vote page for reminders (http(s); may hold variables such as {{payload.bot}}); null: none" }),
  discordIdPath: t.string({ description: "Where the voter's Discord user id is in the body (dotted path); null: none" }),
  voterAddressPath: t.string({ description: "Where the voter's IP address is in the body (dotted path); null: none" }),
});

const CreateProviderInput = builder.inputType('CreateProviderInput', {
  fields: (t) => ({
    template: t.string({ description: 'Template id or slug (GET /v1/templates); fills what is left out' }),
    authMethod: t.field({ type: AuthMethodEnum }),
    authValue: t.string({ description: 'The secret; "auto" or omitted generates one' }),
    votifierPort: t.int({ description: 'votifier only: a port of its own within VOTIFIER_DEDICATED_PORTS (v1 without routing)' }),
    voterKind: t.field({ type: VoterKindEnum, description: 'What the name at voteePath is (default: minecraft for votifier, name otherwise)' }),
    ...providerInputFields(t),
  }),
});

const UpdateProviderInput = builder
  .inputType('UpdateProviderInput', {
    fields: (t) => ({
      votifierPort: t.int({ description: 'votifier only: a port of its own within VOTIFIER_DEDICATED_PORTS; null goes back to the shared port' }),
      voterKind: t.field({ type: VoterKindEnum, description: 'What the name at voteePath is' }),
      ...providerInputFields(t),
    }),
  })
  .validate(rule(updateProviderInput));

const defined = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

builder.queryField('providers', (t) =>
  t.field({
    type: ProviderList,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    resolve: async (_root, _args, ctx) => {
      const viewer = requireViewer(ctx.auth);
      const providers = await ctx.services.providers.list(viewer.organizationId);
      return { providers, count: providers.length, limit: PLAN_LIMITS[planOf(viewer)].providers };
    },
  }),
);

builder.queryField('provider', (t) =>
  t.field({
    type: ProviderRef,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => ctx.services.providers.get(requireViewer(ctx.auth).organizationId, key),
  }),
);

builder.mutationField('createProvider', (t) =>
  t.field({
    type: CreatedProvider,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { input: t.arg({ type: CreateProviderInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.providers.create(requireViewer(ctx.auth).organizationId, defined(input)),
  }),
);

builder.mutationField('updateProvider', (t) =>
  t.field({
    type: ProviderRef,
    description: 'Partial update: only the fields given change',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { key: t.arg.string({ required: true }), input: t.arg({ type: UpdateProviderInput, required: true }) },
    resolve: (_root, { key, input }, ctx) => ctx.services.providers.update(requireViewer(ctx.auth).organizationId, key, input),
  }),
);

builder.mutationField('deleteProvider', (t) =>
  t.field({
    type: DeletedProvider,
    description: 'Irreversible: removes the provider, all its votes and every count derived from them',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => ctx.services.providers.remove(requireViewer(ctx.auth).organizationId, key),
  }),
);

builder.mutationField('regenerateProviderSecret', (t) =>
  t.field({
    type: RegeneratedSecret,
    description: 'The old secret stops working at once; the new one is shown only here',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => {
      const viewer = requireViewer(ctx.auth);
      return ctx.services.providers.regenerateSecret(viewer.organizationId, key, viewer.organizationSlug);
    },
  }),
);
