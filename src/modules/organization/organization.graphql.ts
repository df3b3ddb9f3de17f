// Organization, its settings and usage; the organization query and the settings/test-message mutations.
import { votePageOf } from '../../domain/vote-page.js';
import { addressWarnings } from '../../net/reach.js';
import { builder } from '../../graphql/builder.js';
import type { LeaderboardPosts } from '../../domain/leaderboard-schedule.js';
import { requireViewer } from '../../auth/access.js';
import type { Organization } from '../../generated/sqlite/client.js';
import { PLANS } from '../../domain/plans.js';
import { oneOf } from '../../graphql/stored-enum.js';
import { rule } from '../../graphql/input-rules.js';
import { updateOrganizationInput } from './organization.service.js';
import { testChatWebhookInput } from './chat-test.service.js';

// Closed sets as enums, with the lowercase values the REST interface shows.
export const PlanEnum = builder.enumType('Plan', { description: 'Plans in order: starter, growth, pro, business', values: PLANS });
const ORGANIZATION_STATUSES = ['active', 'suspended'] as const;
const OrganizationStatusEnum = builder.enumType('OrganizationStatus', { values: ORGANIZATION_STATUSES });
const MESSAGE_TYPES = ['simple', 'embed'] as const;
const MessageTypeEnum = builder.enumType('ChatMessageType', {
  description: 'simple: a text message; embed: a rich embed (Growth+)',
  values: MESSAGE_TYPES,
});

const MILESTONE_TYPES = ['total', 'streak'] as const;
const MilestoneTypeEnum = builder.enumType('MilestoneType', {
  description: "total: the voter's counted votes (in the organization, or on one site with provider); streak: consecutive voting days",
  values: MILESTONE_TYPES,
});

interface MilestoneRuleShape {
  type: string;
  every?: number;
  at?: number[];
  provider?: string;
}
const MilestoneRuleRef = builder.simpleObject('MilestoneRule', {
  description: 'Reached when the value is a multiple of every or one of at (README "Milestones")',
  fields: (t) => ({
    type: t.field({ type: MilestoneTypeEnum }),
    every: t.int({ nullable: true }),
    at: t.intList({ nullable: true }),
    provider: t.string({ nullable: true, description: 'A provider key: the total on that site only' }),
  }),
});
/** A stored rule as the API shows it: its type checked against the enum. */
const shownMilestone = (m: MilestoneRuleShape) => ({
  type: oneOf(MILESTONE_TYPES, m.type, 'milestone type'),
  every: m.every ?? null,
  at: m.at ?? null,
  provider: m.provider ?? null,
});

const LeaderboardPeriodEnum = builder.enumType('LeaderboardPeriod', {
  description: 'day, week or month: a leaderboard post covers the period that ends at it',
  values: ['day', 'week', 'month'] as const,
});

const LeaderboardPostsRef = builder.simpleObject('LeaderboardPosts', {
  description: 'When the top voters are posted to the chat webhook (README "Discord rewards")',
  fields: (t) => ({
    period: t.field({ type: LeaderboardPeriodEnum }),
    top: t.int({ description: 'How many voters it names' }),
    at: t.string({ description: '"HH:MM" (day), "Mon HH:MM" (week), "D HH:MM" (month, D 1 to 28), in settings.time_zone' }),
  }),
});

const VotePageRef = builder.simpleObject('VotePageSettings', {
  description: 'The players\' vote page at /vote/<slug> (README "Vote page")',
  fields: (t) => ({
    enabled: t.boolean(),
    title: t.string({ nullable: true, description: 'null: "Vote for <organization name>"' }),
    showLeaderboard: t.boolean({ description: "The page lists the last 30 days' top voters" }),
  }),
});

const VotePageInput = builder.inputType('VotePageInput', {
  fields: (t) => ({
    enabled: t.boolean({ required: true }),
    title: t.string({ description: 'At most 80 characters; null: "Vote for <organization name>"' }),
    showLeaderboard: t.boolean({ description: "List the last 30 days' top voters (default false)" }),
  }),
});

const LeaderboardPostsInput = builder.inputType('LeaderboardPostsInput', {
  fields: (t) => ({
    period: t.field({ type: LeaderboardPeriodEnum, required: true }),
    top: t.int({ required: true, description: '1 to 25' }),
    at: t.string({ required: true, description: '"HH:MM" (day), "Mon HH:MM" (week), "D HH:MM" (month, D 1 to 28)' }),
  }),
});

const MilestoneRuleInput = builder.inputType('MilestoneRuleInput', {
  fields: (t) => ({
    type: t.field({ type: MilestoneTypeEnum, required: true }),
    every: t.int(),
    at: t.intList(),
    provider: t.string(),
  }),
});

const OrganizationSettings = builder.objectRef<Organization>('OrganizationSettings').implement({
  fields: (t) => ({
    chatWebhookUrl: t.exposeString('chatWebhookUrl', { nullable: true }),
    chatAdminWebhookUrl: t.exposeString('chatAdminWebhookUrl', { nullable: true }),
    chatNotificationsEnabled: t.exposeBoolean('chatNotificationsEnabled'),
    chatMessageType: t.field({ type: MessageTypeEnum, resolve: (s) => oneOf(MESSAGE_TYPES, s.chatMessageType, 'chat message type') }),
    chatMessageTemplate: t.exposeString('chatMessageTemplate'),
    chatEmbedTemplate: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (org) => (org.chatEmbedTemplateJson ? JSON.parse(org.chatEmbedTemplateJson) : null),
    }),
    adminDailySummary: t.exposeBoolean('adminDailySummary'),
    adminWeeklySummary: t.exposeBoolean('adminWeeklySummary'),
    adminVoteSpikeAlerts: t.exposeBoolean('adminVoteSpikeAlerts'),
    adminPermanentFailAlerts: t.exposeBoolean('adminPermanentFailAlerts'),
    adminUsageWarnings: t.exposeBoolean('adminUsageWarnings'),
    serverCallbackUrl: t.exposeString('serverCallbackUrl', { nullable: true, deprecationReason: 'Use callbacks' }),
    timeZone: t.exposeString('timeZone', {
      description: 'IANA time zone of the organization\'s days for voter streaks and month totals (README "Rewards"); default UTC',
    }),
    milestones: t.field({
      type: [MilestoneRuleRef],
      description: 'Milestone rules: a vote that reaches one sends a milestone event (README "Milestones")',
      resolve: (org) => (org.milestonesJson ? (JSON.parse(org.milestonesJson) as MilestoneRuleShape[]).map(shownMilestone) : []),
    }),
    votePartyEvery: t.exposeInt('votePartyEvery', { nullable: true, description: 'Every this many counted votes, a vote_party event; null: no party' }),
    votePartyProvider: t.string({
      nullable: true,
      description: "Key of the only provider whose votes count toward the party; null: every site's",
      resolve: (org, _args, ctx) => (org.votePartyProviderId ? ctx.loaders.providerKey.load(org.votePartyProviderId) : null),
    }),
    remindersEnabled: t.exposeBoolean('remindersEnabled', {
      description: 'Reminder events when a voter\'s cooldown on a site ends and they have not voted again (README "Reminders")',
    }),
    chatMilestoneTemplate: t.exposeString('chatMilestoneTemplate', { nullable: true, description: 'Chat message for milestones; null: not posted' }),
    chatVotePartyTemplate: t.exposeString('chatVotePartyTemplate', { nullable: true, description: 'Chat message for vote parties; null: not posted' }),
    discordBotTokenSet: t.boolean({
      description: 'Whether the organization\'s Discord bot token is set (it is write-only: README "Discord rewards")',
      resolve: (org) => org.discordBotTokenEnc !== null,
    }),
    discordGuildId: t.exposeString('discordGuildId', { nullable: true, description: 'The Discord server the bot gives vote roles in' }),
    leaderboardPosts: t.field({
      type: LeaderboardPostsRef,
      nullable: true,
      description: "The period's top voters posted to the chat webhook: {period, top, at}; null: none",
      resolve: (org) => (org.leaderboardPostsJson ? (JSON.parse(org.leaderboardPostsJson) as LeaderboardPosts) : null),
    }),
    votePage: t.field({
      type: VotePageRef,
      nullable: true,
      description: "The players' vote page at /vote/<slug>: {enabled, title, showLeaderboard}; null: off",
      resolve: (org) => votePageOf(org.votePageJson),
    }),
    bedrockPrefix: t.exposeString('bedrockPrefix', {
      nullable: true,
      description: 'The prefix Floodgate puts before Bedrock players\' names (often "."); RCON commands accept such names; null: none',
    }),
  }),
});

const OrganizationUsage = builder.simpleObject('OrganizationUsage', {
  fields: (t) => ({ votesThisMonth: t.int(), votesLimit: t.int(), providersCount: t.int(), providersLimit: t.int() }),
});

builder.prismaObject('Organization', {
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    plan: t.field({ type: PlanEnum, resolve: (o) => oneOf(PLANS, o.plan, 'plan') }),
    status: t.field({ type: OrganizationStatusEnum, resolve: (o) => oneOf(ORGANIZATION_STATUSES, o.status, 'organization status') }),
    settings: t.field({ type: OrganizationSettings, resolve: (org) => org }),
    usage: t.field({ type: OrganizationUsage, resolve: (org, _args, ctx) => ctx.services.organizations.usage(org) }),
    hookBaseUrl: t.string({
      description: "Where this organization's hook URLs start ({hook_base_url}/<slug>): a provider's URL is this, its key, and for url_path its secret",
      resolve: (org, _args, ctx) => `${ctx.deps.config.hookBaseUrl}/${encodeURIComponent(org.slug)}`,
    }),
    hookAddressWarning: t.string({
      nullable: true,
      description:
        'Why no voting site can reach the hook URLs (an address of this machine or its network), naming the setting to change (PUBLIC_BASE_URL or HOOK_BASE_URL); null when nothing is known against them (README "First steps")',
      resolve: (_org, _args, ctx) => addressWarnings(ctx.deps.config).hooks,
    }),
    votifierAddressWarning: t.string({
      nullable: true,
      description:
        'Why no Votifier list can reach the Votifier address given out (VOTIFIER_HOST, else the host of PUBLIC_BASE_URL); null when nothing is known against it or the listener is off',
      resolve: (_org, _args, ctx) => addressWarnings(ctx.deps.config).votifier,
    }),
  }),
});

const OrganizationSettingsInput = builder.inputType('OrganizationSettingsInput', {
  fields: (t) => ({
    chatWebhookUrl: t.string(),
    chatAdminWebhookUrl: t.string(),
    chatNotificationsEnabled: t.boolean(),
    chatMessageType: t.field({ type: MessageTypeEnum }),
    chatMessageTemplate: t.string(),
    chatEmbedTemplate: t.field({ type: 'JSON' }),
    adminDailySummary: t.boolean(),
    adminWeeklySummary: t.boolean(),
    adminVoteSpikeAlerts: t.boolean(),
    adminPermanentFailAlerts: t.boolean(),
    adminUsageWarnings: t.boolean(),
    serverCallbackUrl: t.string(),
    timeZone: t.string({ description: 'IANA time zone name; applies to votes from then on (days already counted keep their day)' }),
    milestones: t.field({ type: [MilestoneRuleInput], description: 'Replaces every rule; [] removes them' }),
    votePartyEvery: t.int({ description: 'At least 2; null turns the party off; a change starts the count over' }),
    votePartyProvider: t.string({ description: 'A provider key, or null for every site; a change starts the count over' }),
    remindersEnabled: t.boolean(),
    chatMilestoneTemplate: t.string(),
    chatVotePartyTemplate: t.string(),
    bedrockPrefix: t.string({ description: 'Floodgate\'s username prefix (e.g. "."); null: none' }),
    discordBotToken: t.string({ description: "Your Discord bot's token (checked with Discord when saved; never returned); null removes it" }),
    discordGuildId: t.string({ description: 'The Discord server (guild) id the bot gives vote roles in' }),
    leaderboardPosts: t.field({ type: LeaderboardPostsInput, description: "Post the period's top voters to the chat webhook; null: stop" }),
    votePage: t.field({ type: VotePageInput, description: "The players' vote page at /vote/<slug>; null turns it off" }),
  }),
});

const UpdateOrganizationInput = builder
  .inputType('UpdateOrganizationInput', {
    fields: (t) => ({
      name: t.string(),
      slug: t.string(),
      settings: t.field({ type: OrganizationSettingsInput }),
    }),
  })
  .validate(rule(updateOrganizationInput));

const TestChatWebhookInput = builder
  .inputType('TestChatWebhookInput', {
    fields: (t) => ({
      webhookUrl: t.string({ required: true }),
      messageType: t.field({ type: MessageTypeEnum }),
      messageTemplate: t.string(),
      embedTemplate: t.field({ type: 'JSON' }),
    }),
  })
  .validate(rule(testChatWebhookInput));

const TestChatWebhookResult = builder.simpleObject('TestChatWebhookResult', { fields: (t) => ({ success: t.boolean(), message: t.string() }) });

builder.queryField('organization', (t) =>
  t.prismaField({
    type: 'Organization',
    description: "The caller's organization, with settings and usage",
    nullable: true,
    authScopes: { access: { scope: 'read', allowSuspended: true } },
    resolve: (query, _root, _args, ctx) => ctx.services.organizations.read(requireViewer(ctx.auth).organizationId, query),
  }),
);

builder.mutationField('updateOrganization', (t) =>
  t.prismaField({
    type: 'Organization',
    description: 'Partial update: only the fields given change',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const org = await ctx.services.organizations.update(requireViewer(ctx.auth).organizationId, input);
      return ctx.services.organizations.read(org.id, query);
    },
  }),
);

builder.mutationField('testChatWebhook', (t) =>
  t.field({
    type: TestChatWebhookResult,
    description: 'Sends a sample message (marked as a test) to the given chat webhook',
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { input: t.arg({ type: TestChatWebhookInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.chatTest.send(requireViewer(ctx.auth).organizationId, input),
  }),
);
