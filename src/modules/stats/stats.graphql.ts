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

interface Count {
  key: string;
  name: string;
  count: number;
}

const ProviderCount = builder.objectRef<Count>('ProviderCount').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name'), count: t.exposeInt('count') }),
});
const ProviderShare = builder.objectRef<Count & { percentage: number }>('ProviderShare').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name'), count: t.exposeInt('count'), percentage: t.exposeFloat('percentage') }),
});
const TrendPoint = builder.objectRef<{ date: string; count: number }>('TrendPoint').implement({
  fields: (t) => ({ date: t.exposeString('date'), count: t.exposeInt('count') }),
});
const Summary = builder.objectRef<{ today: number; thisWeek: number; thisMonth: number; allTime: number }>('VoteSummary').implement({
  fields: (t) => ({ today: t.exposeInt('today'), thisWeek: t.exposeInt('thisWeek'), thisMonth: t.exposeInt('thisMonth'), allTime: t.exposeInt('allTime') }),
});
const Dashboard = builder
  .objectRef<{
    summary: { today: number; thisWeek: number; thisMonth: number; allTime: number };
    byProvider: Count[];
    dailyTrend: { date: string; count: number }[];
  }>('Dashboard')
  .implement({
    fields: (t) => ({
      summary: t.field({ type: Summary, resolve: (d) => d.summary }),
      byProvider: t.field({ type: [ProviderCount], resolve: (d) => d.byProvider }),
      dailyTrend: t.field({ type: [TrendPoint], resolve: (d) => d.dailyTrend }),
    }),
  });
const Trend = builder.objectRef<{ trend: { date: string; count: number }[]; from: Date; to: Date; granularity: string }>('Trend').implement({
  fields: (t) => ({
    trend: t.field({ type: [TrendPoint], resolve: (d) => d.trend }),
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    granularity: t.field({ type: GranularityEnum, resolve: (s) => oneOf(GRANULARITIES, s.granularity, 'granularity') }),
  }),
});
const ProviderShares = builder.objectRef<{ providers: (Count & { percentage: number })[]; total: number }>('ProviderShares').implement({
  fields: (t) => ({ providers: t.field({ type: [ProviderShare], resolve: (d) => d.providers }), total: t.exposeInt('total') }),
});
const LeaderboardEntry = builder.objectRef<{ name: string; votes: number; lastVote: Date }>('LeaderboardEntry').implement({
  fields: (t) => ({ name: t.exposeString('name'), votes: t.exposeInt('votes'), lastVote: t.expose('lastVote', { type: 'DateTime' }) }),
});
const Leaderboard = builder.objectRef<{ voters: { name: string; votes: number; lastVote: Date }[] }>('Leaderboard').implement({
  fields: (t) => ({ voters: t.field({ type: [LeaderboardEntry], resolve: (d) => d.voters }) }),
});
type VoterStatsShape = Awaited<ReturnType<import('./stats.service.js').StatsService['voter']>>;
const VoterSummary = builder.objectRef<VoterStatsShape['summary']>('VoterSummary').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    today: t.exposeInt('today'),
    thisWeek: t.exposeInt('thisWeek'),
    thisMonth: t.exposeInt('thisMonth'),
    firstVote: t.expose('firstVote', { type: 'DateTime', nullable: true }),
    lastVote: t.expose('lastVote', { type: 'DateTime', nullable: true }),
  }),
});
const Pagination = builder.objectRef<VoterStatsShape['pagination']>('Pagination').implement({
  fields: (t) => ({ page: t.exposeInt('page'), limit: t.exposeInt('limit'), total: t.exposeInt('total'), pages: t.exposeInt('pages') }),
});
type StandingShape = NonNullable<VoterStatsShape['standing']>;
const VoterSite = builder.objectRef<StandingShape['sites'][number]>('VoterSite').implement({
  description: "The voter on one site: their counted votes there, and when they may vote again (the provider's vote_cooldown)",
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    total: t.exposeInt('total'),
    lastVoteAt: t.expose('lastVoteAt', { type: 'DateTime' }),
    nextVoteAt: t.expose('nextVoteAt', { type: 'DateTime', nullable: true }),
  }),
});
export const VoterStanding = builder.objectRef<StandingShape>('VoterStanding').implement({
  description:
    'The voter\'s standing now (README "Rewards"): counted votes, this month, the current streak (0 once a day was missed) and the best one, days in the organization\'s time zone',
  fields: (t) => ({
    total: t.exposeInt('total'),
    monthTotal: t.exposeInt('monthTotal'),
    streakDays: t.exposeInt('streakDays'),
    bestStreakDays: t.exposeInt('bestStreakDays'),
    lastVoteAt: t.expose('lastVoteAt', { type: 'DateTime' }),
    timeZone: t.exposeString('timeZone'),
    sites: t.field({ type: [VoterSite], resolve: (s) => s.sites }),
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
      resolve: (query, v, _args, ctx) =>
        ctx.deps.db.prisma.vote.findMany({ ...query, where: { id: { in: v.voteIds } }, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }] }),
    }),
    pagination: t.field({ type: Pagination, resolve: (v) => v.pagination }),
  }),
});

const orgId = (ctx: { auth: Parameters<typeof requireViewer>[0] }) => requireViewer(ctx.auth).organizationId;

const QuietSiteRef = builder.objectRef<QuietSite & { message: string }>('QuietSite').implement({
  description: 'A site that has gone quiet (README "A site that goes quiet"): no vote for longer than its usual rate makes likely',
  fields: (t) => ({
    providerKey: t.exposeString('providerKey'),
    providerName: t.exposeString('providerName'),
    lastVoteAt: t.expose('lastVoteAt', { type: 'DateTime' }),
    silentForSeconds: t.int({ resolve: (s) => Math.floor(s.silentForMs / 1000) }),
    usualPerHour: t.exposeFloat('usualPerHour', { description: 'Votes per hour the site usually sends at this hour of the week (last 14 days)' }),
    lastRequestAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastRequest?.at ?? null }),
    lastRequestOutcome: t.string({
      nullable: true,
      description: 'The last request to its hook since its last vote: its outcome; null: none came',
      resolve: (s) => s.lastRequest?.outcome ?? null,
    }),
    lastRequestHint: t.string({
      nullable: true,
      description: 'What to fix, when that request was refused or ignored',
      resolve: (s) => s.lastRequest?.hint ?? null,
    }),
    message: t.exposeString('message', { description: 'The whole of it in one sentence, as the admin alert says it' }),
  }),
});

builder.queryField('quietSites', (t) =>
  t.field({
    type: [QuietSiteRef],
    nullable: true,
    description: "The organization's enabled sites that have gone quiet now (every plan; the admin alert goes to settings.chat_admin_webhook_url)",
    authScopes: { access: { scope: 'read' } },
    resolve: async (_r, _a, ctx) =>
      (await ctx.services.siteWatch.quietSites(orgId(ctx), ctx.deps.clock.now())).map((site) => ({ ...site, message: silenceWords(site) })),
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
    resolve: (_r, args, ctx) => ctx.services.stats.trend(orgId(ctx), args),
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

type ConversionShape = Awaited<ReturnType<import('./stats.service.js').StatsService['conversion']>>;

const SiteConversion = builder.objectRef<ConversionShape['sites'][number]>('SiteConversion').implement({
  description: 'One site\'s clicks on the vote page\'s button and its votes (README "Vote page")',
  fields: (t) => ({
    provider: t.exposeString('provider', { description: 'The provider key' }),
    name: t.exposeString('name'),
    clicks: t.exposeInt('clicks', { description: "Clicks on the site's button" }),
    votes: t.exposeInt('votes', { description: "The site's counted votes in the range, clicked or not" }),
    convertedClicks: t.exposeInt('convertedClicks', { description: "Clicks followed within a day by that voter's vote on that site" }),
    conversion: t.exposeFloat('conversion', { nullable: true, description: 'convertedClicks / clicks (0 to 1); null without clicks' }),
    medianSecondsToVote: t.exposeInt('medianSecondsToVote', { nullable: true, description: 'From a click to its vote; null without one' }),
  }),
});

const ConversionStats = builder.objectRef<ConversionShape>('ConversionStats').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    sites: t.field({ type: [SiteConversion], resolve: (c) => c.sites }),
  }),
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
