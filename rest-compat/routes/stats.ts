// /v1/stats: dashboard, trend, by-provider, conversion (Growth+), voter and leaderboard (Pro+).
import type { RestRoute } from '../route.js';
import { VOTE_FIELDS } from './votes.js';

export const statsRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/stats/dashboard',
    summary: 'Dashboard statistics',
    document: `query { dashboardStats {
      summary { today this_week: thisWeek this_month: thisMonth all_time: allTime }
      by_provider: byProvider { key name count }
      daily_trend: dailyTrend { date count } } }`,
    data: (r) => r.dashboardStats,
  },
  {
    method: 'get',
    path: '/stats/trend',
    summary: 'Votes over time',
    document: `query ($from: String, $to: String, $granularity: Granularity, $provider: String) {
      voteTrend(from: $from, to: $to, granularity: $granularity, provider: $provider) { trend { date count } from to granularity } }`,
    variables: (req) => ({ from: req.query.from, to: req.query.to, granularity: req.query.granularity, provider: req.query.provider }),
    data: (r) => r.voteTrend,
  },
  {
    method: 'get',
    path: '/stats/by-provider',
    summary: 'Votes by provider',
    document: `query ($from: String, $to: String) { votesByProvider(from: $from, to: $to) { providers { key name count percentage } total } }`,
    variables: (req) => ({ from: req.query.from, to: req.query.to }),
    data: (r) => r.votesByProvider,
  },
  {
    method: 'get',
    path: '/stats/conversion',
    summary: 'From clicks to votes, per site (the vote page)',
    document: `query ($from: String, $to: String) { conversionStats(from: $from, to: $to) {
      from to sites { provider name clicks votes converted_clicks: convertedClicks conversion median_seconds_to_vote: medianSecondsToVote } } }`,
    variables: (req) => ({ from: req.query.from, to: req.query.to }),
    data: (r) => r.conversionStats,
  },
  {
    method: 'get',
    path: '/stats/voter/:voter_name',
    summary: "One voter's statistics and votes",
    document: `query ($voterName: String!, $page: Int, $limit: Int, $provider: String, $from: String, $to: String) {
      voterStats(voterName: $voterName, page: $page, limit: $limit, provider: $provider, from: $from, to: $to) {
        voter_name: voterName
        summary { total today this_week: thisWeek this_month: thisMonth first_vote: firstVote last_vote: lastVote }
        standing { total month_total: monthTotal streak_days: streakDays best_streak_days: bestStreakDays last_vote_at: lastVoteAt
          time_zone: timeZone sites { key name total last_vote_at: lastVoteAt next_vote_at: nextVoteAt } }
        by_provider: byProvider { key name count }
        daily_trend: dailyTrend { date count }
        votes { ${VOTE_FIELDS} }
        pagination { page limit total pages } } }`,
    variables: (req) => ({
      voterName: req.params.voter_name,
      page: req.query.page,
      limit: req.query.limit,
      provider: req.query.provider,
      from: req.query.from,
      to: req.query.to,
    }),
    data: (r) => r.voterStats,
  },
  {
    method: 'get',
    path: '/stats/leaderboard',
    summary: 'Top voters',
    document: `query ($days: Int, $limit: Int, $provider: String) { leaderboard(days: $days, limit: $limit, provider: $provider) {
      voters { name votes last_vote: lastVote } } }`,
    variables: (req) => ({ days: req.query.days, limit: req.query.limit, provider: req.query.provider }),
    data: (r) => r.leaderboard,
  },
];
