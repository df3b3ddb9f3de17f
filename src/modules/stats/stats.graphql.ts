// Statistics queries: dashboard, trend and by-provider (Growth+), voter and leaderboard (Pro+).
import type { QuietSite } from './site-watch.js';
import { silenceWords } from '../../domain/site-silence.js';
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import { VoteRef } from '../votes/votes.graphql.js';
import { oneOf } from '../../graphql/stored-enum.js';

const GRANULARITIES = ['day', 'week', 'month'] as const;
const GranularityEnum = builder.enumType('Granularity', {
  description: 'UTC buckets: a day, an ISO week (its Monday), a month (its first day)',
  values: GRANULARITIES,
});

// Result types are simple objects (their shape is their fields); VoterStats keeps an objectRef for its votes, read
// through the Prisma plugin from the ids its service found.
const ProviderCount = builder.simpleObject('ProviderCount', { fields: (t) => ({ key: t.string(), name: t.string(), count: t.int() }) });
const ProviderShare = builder.simpleObject('ProviderShare', {
  fields: (t) => ({ key: t.string(), name: t.string(), count: t.int(), percentage: t.float() }),
});
const TrendPoint = builder.simpleObject('TrendPoint', { fields: (t) => ({ date: t.string(), count: t.int() }) });
const Summary = builder.simpleObject('VoteSummary', {
  fields: (t) => ({ today: t.int(), thisWeek: t.int(), thisMonth: t.int(), allTime: t.int() }),
});
const Dashboard = builder.simpleObject('Dashboard', {
  fields: (t) => ({ summary: t.field({ type: Summary }), byProvider: t.field({ type: [ProviderCount] }), dailyTrend: t.field({ type: [TrendPoint] }) }),
});
const Trend = builder.simpleObject('Trend', {
  fields: (t) => ({
    trend: t.field({ type: [TrendPoint] }),
    from: t.field({ type: 'DateTime' }),
    to: t.field({ type: 'DateTime' }),
    granularity: t.field({ type: GranularityEnum }),
  }),
});
const ProviderShares = builder.simpleObject('ProviderShares', { fields: (t) => ({ providers: t.field({ type: [ProviderShare] }), total: t.int() }) });
const LeaderboardEntry = builder.simpleObject('LeaderboardEntry', {
  fields: (t) => ({ name: t.string(), votes: t.int(), lastVote: t.field({ type: 'DateTime' }) }),
});
const Leaderboard = builder.simpleObject('Leaderboard', { fields: (t) => ({ voters: t.field({ type: [LeaderboardEntry] }) }) });
type VoterStatsShape = Awaited<ReturnType<import('./stats.service.js').StatsService['voter']>>;
const VoterSummary = builder.simpleObject('VoterSummary', {
  fields: (t) => ({
    total: t.int(),
    today: t.int(),
    thisWeek: t.int(),
    thisMonth: t.int(),
    firstVote: t.field({ type: 'DateTime', nullable: true }),
    lastVote: t.field({ type: 'DateTime', nullable: true }),
  }),
});
const Pagination = builder.simpleObject('Pagination', { fields: (t) => ({ page: t.int(), limit: t.int(), total: t.int(), pages: t.int() }) });
const VoterSite = builder.simpleObject('VoterSite', {
  description: "The voter on one site: their counted votes there, and when they may vote again (the provider's vote_cooldown)",
  fields: (t) => ({
    key: t.string(),
    name: t.string(),
    total: t.int(),
    lastVoteAt: t.field({ type: 'DateTime' }),
    nextVoteAt: t.field({ type: 'DateTime', nullable: true }),
  }),
});
export const VoterStanding = builder.simpleObject('VoterStanding', {
  description:
    'The voter\'s standing now (README "Rewards"): counted votes, this month, the current streak (0 once a day was missed) and the best one, days in the organization\'s time zone',
  fields: (t) => ({
    total: t.int(),
    monthTotal: t.int(),
    streakDays: t.int(),
    bestStreakDays: t.int(),
    lastVoteAt: t.field({ type: 'DateTime' }),
    timeZone: t.string(),
    sites: t.field({ type: [VoterSite] }),
  }),
});
const VoterStats = builder.objectRef<VoterStatsShape>('VoterStats').implement({
  fields: (t) => ({
    voterName: t.exposeString('voterName'),
    standing: t.field({ type: VoterStanding, nullable: true, description: 'null for a voter with no counted vote', resolve: (v) => v.standing }),
    summary: t.field({ type: VoterSummary, resolve: (v) => v.summary }),
    byProvider: t.field({ type: [ProviderCount], resolve: (v) => v.byProvider }),
    dailyTrend: t.field({ type: [TrendPoint], resolve: (v) => v.dailyTrend }),
    votes: t.prismaField({
      type: [VoteRef],
      resolve: (query, v, _args, ctx) => ctx.services.votes.byIds(v.voteIds, query),
    }),
    pagination: t.field({ type: Pagination, resolve: (v) => v.pagination }),
  }),
});

const orgId = (ctx: { auth: Parameters<typeof requireViewer>[0] }) => requireViewer(ctx.auth).organizationId;

const QuietSiteRef = builder.simpleObject('QuietSite', {
  description: 'A site that has gone quiet (README "A site that goes quiet"): no vote for longer than its usual rate makes likely',
  fields: (t) => ({
    providerKey: t.string(),
    providerName: t.string(),
    lastVoteAt: t.field({ type: 'DateTime' }),
    silentForSeconds: t.int(),
    usualPerHour: t.float({ description: 'Votes per hour the site usually sends at this hour of the week (last 14 days)' }),
    lastRequestAt: t.field({ type: 'DateTime', nullable: true }),
    lastRequestOutcome: t.string({ nullable: true, description: 'The last request to its hook since its last vote: its outcome; null: none came' }),
    lastRequestHint: t.string({ nullable: true, description: 'What to fix, when that request was refused or ignored' }),
    message: t.string({ description: 'The whole of it in one sentence, as the admin alert says it' }),
  }),
});

/** A quiet site as the API shows it. */
const shownQuietSite = (site: QuietSite) => ({
  providerKey: site.providerKey,
  providerName: site.providerName,
  lastVoteAt: site.lastVoteAt,
  silentForSeconds: Math.floor(site.silentForMs / 1000),
  usualPerHour: site.usualPerHour,
  lastRequestAt: site.lastRequest?.at ?? null,
  lastRequestOutcome: site.lastRequest?.outcome ?? null,
  lastRequestHint: site.lastRequest?.hint ?? null,
  message: silenceWords(site),
});

builder.queryField('quietSites', (t) =>
  t.field({
    type: [QuietSiteRef],
    nullable: true,
    description: "The organization's enabled sites that have gone quiet now (every plan; the admin alert goes to settings.chat_admin_webhook_url)",
    authScopes: { access: { scope: 'read' } },
    resolve: async (_r, _a, ctx) => (await ctx.services.siteWatch.quietSites(orgId(ctx), ctx.deps.clock.now())).map(shownQuietSite),
  }),
);

builder.queryField('dashboardStats', (t) =>
  t.field({
    type: Dashboard,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    resolve: (_r, _a, ctx) => ctx.services.stats.dashboard(orgId(ctx)),
  }),
);

builder.queryField('voteTrend', (t) =>
  t.field({
    type: Trend,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    args: { from: t.arg.string(), to: t.arg.string(), granularity: t.arg({ type: GranularityEnum }), provider: t.arg.string() },
    resolve: async (_r, args, ctx) => {
      const trend = await ctx.services.stats.trend(orgId(ctx), args);
      return { ...trend, granularity: oneOf(GRANULARITIES, trend.granularity, 'granularity') };
    },
  }),
);

builder.queryField('votesByProvider', (t) =>
  t.field({
    type: ProviderShares,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    args: { from: t.arg.string(), to: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.stats.providerShare(orgId(ctx), args),
  }),
);

builder.queryField('voterStats', (t) =>
  t.field({
    type: VoterStats,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'pro' } },
    args: {
      voterName: t.arg.string({ required: true }),
      page: t.arg.int(),
      limit: t.arg.int(),
      provider: t.arg.string(),
      from: t.arg.string(),
      to: t.arg.string(),
    },
    resolve: (_r, { voterName, ...args }, ctx) => ctx.services.stats.voter(orgId(ctx), voterName, args),
  }),
);

builder.queryField('leaderboard', (t) =>
  t.field({
    type: Leaderboard,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'pro' } },
    args: { days: t.arg.int(), limit: t.arg.int(), provider: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.stats.leaderboard(orgId(ctx), args),
  }),
);

const SiteConversion = builder.simpleObject('SiteConversion', {
  description: 'One site\'s clicks on the vote page\'s button and its votes (README "Vote page")',
  fields: (t) => ({
    provider: t.string({ description: 'The provider key' }),
    name: t.string(),
    clicks: t.int({ description: "Clicks on the site's button" }),
    votes: t.int({ description: "The site's counted votes in the range, clicked or not" }),
    convertedClicks: t.int({ description: "Clicks followed within a day by that voter's vote on that site" }),
    conversion: t.float({ nullable: true, description: 'convertedClicks / clicks (0 to 1); null without clicks' }),
    medianSecondsToVote: t.int({ nullable: true, description: 'From a click to its vote; null without one' }),
  }),
});

const ConversionStats = builder.simpleObject('ConversionStats', {
  fields: (t) => ({ from: t.field({ type: 'DateTime' }), to: t.field({ type: 'DateTime' }), sites: t.field({ type: [SiteConversion] }) }),
});

builder.queryField('conversionStats', (t) =>
  t.field({
    type: ConversionStats,
    nullable: true,
    description: "From clicks to votes, per site: the vote page's clicks, the site's votes, conversion and the median time to vote",
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    args: { from: t.arg.string(), to: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.stats.conversion(orgId(ctx), args),
  }),
);
