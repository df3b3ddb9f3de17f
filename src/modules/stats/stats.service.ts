// Statistics from the per-day rollups (dashboard, trend, by-provider, voter, leaderboard). Whole UTC days come
// from ProviderDailyCount / VoterDailyCount; only a range's partial first and last day (ISO bounds) touch raw
// votes, through the (organization, receivedAt) index. Buckets are UTC and zero-filled (the README's statistics section).
// Test votes are never counted (README "Test votes"): the rollups hold none, and every raw read here leaves them out.
import type { AppDeps } from '../../app/deps.js';
import { validationError } from '../../base/errors.js';
import { addDays, utcDay, utcDayStart, utcMonthStart, utcWeekStart } from '../../base/time.js';
import { parseRange, requireRange, type DateRange } from '../../base/date-range.js';
import { createLeaderboard } from './leaderboard.js';
import { voterIdByName } from '../../storage/voter-lookup.js';
import { REAL_VOTES, REAL_VOTES_OF_VOTER } from '../../domain/votes.js';
import { localDay, standingOn } from '../../domain/voter-standing.js';
import { cooldownOf, nextVoteAt } from '../../domain/vote-cooldown.js';
import { pageOf } from '../../base/validation.js';

export type Granularity = 'day' | 'week' | 'month';
const DAY = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;

export function bucketStart(date: Date, granularity: Granularity): Date {
  if (granularity === 'week') return utcWeekStart(date);
  if (granularity === 'month') return utcMonthStart(date);
  return utcDayStart(date);
}

function nextBucket(date: Date, granularity: Granularity): Date {
  if (granularity === 'month') return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return addDays(date, granularity === 'week' ? 7 : 1);
}

/** The whole UTC days inside [from, to), and the partial pieces at each end. */
function split(range: DateRange): { firstDay: string | null; lastDay: string | null; edges: DateRange[] } {
  const firstWhole = new Date(Math.ceil(range.from.getTime() / DAY) * DAY);
  const endWhole = new Date(Math.floor(range.toExclusive.getTime() / DAY) * DAY);
  if (firstWhole.getTime() >= endWhole.getTime()) {
    // No whole day inside: at most one midnight, and each side belongs to its own day.
    const midnight = new Date(Math.ceil(range.from.getTime() / DAY) * DAY);
    const cut = midnight > range.from && midnight < range.toExclusive;
    return {
      firstDay: null,
      lastDay: null,
      edges: cut
        ? [
            { from: range.from, toExclusive: midnight },
            { from: midnight, toExclusive: range.toExclusive },
          ]
        : [range],
    };
  }
  const edges: DateRange[] = [];
  if (range.from < firstWhole) edges.push({ from: range.from, toExclusive: firstWhole });
  if (endWhole < range.toExclusive) edges.push({ from: endWhole, toExclusive: range.toExclusive });
  return { firstDay: utcDay(firstWhole), lastDay: utcDay(addDays(endWhole, -1)), edges };
}

export function createStatsService(deps: AppDeps) {
  const { prisma } = deps.db;
  const ranking = createLeaderboard(deps);

  /** from/to default to the 30 days before `to` (itself defaulting to now). */
  function defaultRange(input: { from?: string | null; to?: string | null }) {
    const now = deps.clock.now();
    const to = parseRange({ to: input.to }, { from: null, to: now }).toExclusive!;
    return parseRange(input, { from: new Date(to.getTime() - 1 - DEFAULT_RANGE_DAYS * DAY), to: new Date(to.getTime() - 1) });
  }

  async function providerId(organizationId: string, key: string | null | undefined): Promise<string | undefined> {
    if (!key) return undefined;
    const provider = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key } }, select: { id: true } });
    if (!provider) throw validationError([{ field: 'provider', message: `no provider with key ${key}` }]);
    return provider.id;
  }

  /** Counts per UTC day (YYYY-MM-DD → n) and per provider over an exact range. */
  async function countsByDayAndProvider(organizationId: string, range: DateRange, onlyProvider?: string) {
    const { firstDay, lastDay, edges } = split(range);
    const rows = firstDay
      ? await prisma.providerDailyCount.findMany({
          where: { organizationId, day: { gte: firstDay, lte: lastDay! }, ...(onlyProvider ? { providerId: onlyProvider } : {}) },
          select: { day: true, providerId: true, count: true },
        })
      : [];
    const edgeRows = (
      await Promise.all(
        edges.map((edge) =>
          prisma.vote
            .groupBy({
              by: ['providerId'],
              where: {
                organizationId,
                receivedAt: { gte: edge.from, lt: edge.toExclusive },
                ...REAL_VOTES,
                ...(onlyProvider ? { providerId: onlyProvider } : {}),
              },
              _count: { _all: true },
            })
            .then((groups) => groups.map((g) => ({ day: utcDay(edge.from), providerId: g.providerId, count: g._count._all }))),
        ),
      )
    ).flat();
    return [...rows, ...edgeRows];
  }

  /** Counts per UTC day over an exact range, summed in the database (one row per day whatever the providers). */
  async function countsByDay(organizationId: string, range: DateRange, onlyProvider?: string) {
    const { firstDay, lastDay, edges } = split(range);
    const [days, edgeCounts] = await Promise.all([
      firstDay
        ? prisma.providerDailyCount.groupBy({
            by: ['day'],
            where: { organizationId, day: { gte: firstDay, lte: lastDay! }, ...(onlyProvider ? { providerId: onlyProvider } : {}) },
            _sum: { count: true },
          })
        : [],
      Promise.all(
        edges.map((edge) =>
          prisma.vote.count({
            where: {
              organizationId,
              receivedAt: { gte: edge.from, lt: edge.toExclusive },
              ...REAL_VOTES,
              ...(onlyProvider ? { providerId: onlyProvider } : {}),
            },
          }),
        ),
      ),
    ]);
    return [...days.map((d) => ({ day: d.day, count: d._sum.count ?? 0 })), ...edges.map((edge, i) => ({ day: utcDay(edge.from), count: edgeCounts[i] }))];
  }

  function zeroFilledTrend(rows: { day: string; count: number }[], range: DateRange, granularity: Granularity) {
    const buckets = new Map<string, number>();
    for (let b = bucketStart(range.from, granularity); b < range.toExclusive; b = nextBucket(b, granularity)) buckets.set(utcDay(b), 0);
    for (const row of rows) {
      const key = utcDay(bucketStart(new Date(`${row.day}T00:00:00.000Z`), granularity));
      if (buckets.has(key)) buckets.set(key, buckets.get(key)! + row.count);
    }
    return [...buckets].map(([date, count]) => ({ date, count }));
  }

  async function providersOf(organizationId: string) {
    return prisma.provider.findMany({ where: { organizationId }, select: { id: true, key: true, name: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  function byProvider(providers: { id: string; key: string; name: string }[], rows: { providerId: string; count: number }[]) {
    const totals = new Map(providers.map((p) => [p.id, 0]));
    for (const row of rows) if (totals.has(row.providerId)) totals.set(row.providerId, totals.get(row.providerId)! + row.count);
    return providers.map((p) => ({ key: p.key, name: p.name, count: totals.get(p.id)! })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  }

  const sumSince = async (organizationId: string, fromDay: string) =>
    (await prisma.providerDailyCount.aggregate({ where: { organizationId, day: { gte: fromDay } }, _sum: { count: true } }))._sum.count ?? 0;

  async function dashboard(organizationId: string) {
    const now = deps.clock.now();
    const today = utcDayStart(now);
    const range = { from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), toExclusive: addDays(today, 1) };
    const [todayCount, week, month, allTime, rows, providers] = await Promise.all([
      sumSince(organizationId, utcDay(today)),
      sumSince(organizationId, utcDay(utcWeekStart(now))),
      sumSince(organizationId, utcDay(utcMonthStart(now))),
      sumSince(organizationId, '0000-00-00'),
      countsByDayAndProvider(organizationId, range),
      providersOf(organizationId),
    ]);
    return {
      summary: { today: todayCount, thisWeek: week, thisMonth: month, allTime },
      byProvider: byProvider(providers, rows),
      dailyTrend: zeroFilledTrend(rows, range, 'day'),
    };
  }

  async function trend(organizationId: string, input: { from?: string | null; to?: string | null; granularity?: string | null; provider?: string | null }) {
    const granularity = (input.granularity ?? 'day') as Granularity;
    if (!['day', 'week', 'month'].includes(granularity)) throw validationError([{ field: 'granularity', message: 'must be day, week or month' }]);
    const range = requireRange(defaultRange(input));
    if (range.toExclusive.getTime() - range.from.getTime() > 3_700 * DAY)
      throw validationError([{ field: 'from', message: 'the range may cover at most 10 years' }]);
    const rows = await countsByDay(organizationId, range, await providerId(organizationId, input.provider));
    return { trend: zeroFilledTrend(rows, range, granularity), from: range.from, to: new Date(range.toExclusive.getTime() - 1), granularity };
  }

  async function providerShare(organizationId: string, input: { from?: string | null; to?: string | null }) {
    const range = requireRange(defaultRange(input));
    const [rows, providers] = await Promise.all([countsByDayAndProvider(organizationId, range), providersOf(organizationId)]);
    const list = byProvider(providers, rows);
    const total = list.reduce((sum, p) => sum + p.count, 0);
    return { providers: list.map((p) => ({ ...p, percentage: total === 0 ? 0 : Math.round((p.count / total) * 10_000) / 100 })), total };
  }

  /**
   * From clicks to votes (README "Vote page"), per site in the range: the vote page's clicks, the site's votes, and
   * the share of clicks followed by that voter's vote on that site within a day (each vote answering one click),
   * with the median time from click to vote.
   */
  async function conversion(organizationId: string, input: { from?: string | null; to?: string | null }) {
    const range = requireRange(defaultRange(input));
    const from = range.from!;
    const until = range.toExclusive!;
    const [rows, providers, clickCounts] = await Promise.all([
      countsByDayAndProvider(organizationId, range),
      providersOf(organizationId),
      prisma.voteClick.groupBy({ by: ['providerId'], where: { organizationId, at: { gte: from, lt: until } }, _count: { _all: true } }),
    ]);
    // Each click answered by the voter's first vote on that site within a day that no earlier click took. Clicks are
    // read in time order a chunk at a time, with the votes that could answer them; per (site, voter id) and (site,
    // name) the votes wait in time order behind a cursor that only moves forward (a vote passed is taken, or older
    // than every later click), so matching is linear in clicks and votes.
    const delays = new Map<string, number[]>();
    const used = new Set<string>();
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const clicks: { id: string; providerId: string; voterName: string; voterId: string | null; at: Date }[] = await prisma.voteClick.findMany({
        where: {
          organizationId,
          at: { gte: from, lt: until },
          ...(after ? { OR: [{ at: { gt: after.at } }, { at: after.at, id: { gt: after.id } }] } : {}),
        },
        orderBy: [{ at: 'asc' }, { id: 'asc' }],
        select: { id: true, providerId: true, voterName: true, voterId: true, at: true },
        take: CONVERSION_CLICK_CHUNK,
      });
      if (clicks.length === 0) break;
      after = clicks[clicks.length - 1];
      const named = clicks.filter((c) => c.voterName);
      const votes = named.length
        ? await prisma.vote.findMany({
            where: {
              organizationId,
              providerId: { in: [...new Set(named.map((c) => c.providerId))] },
              receivedAt: { gte: named[0].at, lt: new Date(Math.min(named[named.length - 1].at.getTime(), until.getTime()) + DAY) },
              ...REAL_VOTES,
              OR: [
                { voterKey: { in: [...new Set(named.flatMap((c) => (c.voterId ? [c.voterId] : [])))] } },
                { voterName: { in: [...new Set(named.map((c) => c.voterName))] } },
                { repairedFrom: { not: null } },
              ],
            },
            orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
            select: { id: true, providerId: true, voterKey: true, voterName: true, receivedAt: true },
          })
        : [];
      const queues = new Map<string, { votes: typeof votes; next: number }>();
      const enqueue = (key: string, vote: (typeof votes)[number]) => {
        const queue = queues.get(key);
        if (queue) queue.votes.push(vote);
        else queues.set(key, { votes: [vote], next: 0 });
      };
      for (const v of votes) {
        if (used.has(v.id)) continue;
        enqueue(`k\u0000${v.providerId}\u0000${v.voterKey}`, v);
        enqueue(`n\u0000${v.providerId}\u0000${v.voterName.toLowerCase()}`, v);
      }
      /** The first vote of `key`'s queue not taken and not before the click. */
      const firstFor = (key: string, at: number) => {
        const queue = queues.get(key);
        if (!queue) return undefined;
        while (queue.next < queue.votes.length) {
          const v = queue.votes[queue.next];
          if (!used.has(v.id) && v.receivedAt.getTime() >= at) return v;
          queue.next++;
        }
        return undefined;
      };
      for (const click of named) {
        const at = click.at.getTime();
        const byId = click.voterId ? firstFor(`k\u0000${click.providerId}\u0000${click.voterId}`, at) : undefined;
        const byName = firstFor(`n\u0000${click.providerId}\u0000${click.voterName.toLowerCase()}`, at);
        const vote = byId && byName ? (byName.receivedAt < byId.receivedAt ? byName : byId) : (byId ?? byName);
        if (!vote || vote.receivedAt.getTime() - at > DAY) continue;
        used.add(vote.id);
        const list = delays.get(click.providerId);
        if (list) list.push((vote.receivedAt.getTime() - at) / 1000);
        else delays.set(click.providerId, [(vote.receivedAt.getTime() - at) / 1000]);
      }
      if (clicks.length < CONVERSION_CLICK_CHUNK) break;
    }
    const clicksOf = new Map(clickCounts.map((c) => [c.providerId, c._count._all]));
    const votesOf = new Map<string, number>();
    for (const r of rows) votesOf.set(r.providerId, (votesOf.get(r.providerId) ?? 0) + r.count);
    return {
      from,
      to: new Date(until.getTime() - 1),
      sites: providers.map((p) => {
        const converted = delays.get(p.id) ?? [];
        const n = clicksOf.get(p.id) ?? 0;
        return {
          provider: p.key,
          name: p.name,
          clicks: n,
          votes: votesOf.get(p.id) ?? 0,
          convertedClicks: converted.length,
          conversion: n === 0 ? null : Math.round((converted.length / n) * 10_000) / 10_000,
          medianSecondsToVote: converted.length === 0 ? null : median(converted),
        };
      }),
    };
  }

  async function leaderboard(organizationId: string, input: { days?: number | null; limit?: number | null; provider?: string | null }) {
    const days = input.days ?? 30;
    const limit = input.limit ?? 10;
    if (!Number.isInteger(days) || days < 1 || days > 3_650) throw validationError([{ field: 'days', message: 'must be an integer from 1 to 3650' }]);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
    return { voters: await ranking.top(organizationId, days, limit, await providerId(organizationId, input.provider)) };
  }

  async function voter(
    organizationId: string,
    voterName: string,
    input: { page?: number | null; limit?: number | null; provider?: string | null; from?: string | null; to?: string | null },
  ) {
    const { page, limit } = pageOf(input, 20);
    const range = parseRange(input, { from: null, to: null });
    const onlyProvider = await providerId(organizationId, input.provider);
    // The voter the name names (README "Voters"); a name that names no one has no votes (a key no row holds).
    const voterKey = (await voterIdByName(prisma, organizationId, voterName)) ?? '';
    const now = deps.clock.now();
    const last30 = utcDay(addDays(utcDayStart(now), -(DEFAULT_RANGE_DAYS - 1)));
    const dayWhere = { organizationId, voterKey, ...(onlyProvider ? { providerId: onlyProvider } : {}) };
    const realVotes = { ...dayWhere, ...REAL_VOTES_OF_VOTER };
    const voteWhere = {
      organizationId,
      voterKey,
      ...REAL_VOTES_OF_VOTER,
      ...(onlyProvider ? { providerId: onlyProvider } : {}),
      ...(range.from || range.toExclusive
        ? { receivedAt: { ...(range.from ? { gte: range.from } : {}), ...(range.toExclusive ? { lt: range.toExclusive } : {}) } }
        : {}),
    };
    const sum = async (fromDay?: string) =>
      (await prisma.voterDailyCount.aggregate({ where: { ...dayWhere, ...(fromDay ? { day: { gte: fromDay } } : {}) }, _sum: { count: true } }))._sum.count ??
      0;
    const [total, today, week, month, first, last, days, providers, votes, matching] = await Promise.all([
      sum(),
      sum(utcDay(now)),
      sum(utcDay(utcWeekStart(now))),
      sum(utcDay(utcMonthStart(now))),
      prisma.vote.findFirst({ where: realVotes, orderBy: { receivedAt: 'asc' }, select: { receivedAt: true } }),
      prisma.vote.findFirst({ where: realVotes, orderBy: { receivedAt: 'desc' }, select: { receivedAt: true } }),
      prisma.voterDailyCount.groupBy({ by: ['day'], where: { ...dayWhere, day: { gte: last30 } }, _sum: { count: true } }),
      prisma.voterDailyCount.groupBy({ by: ['providerId'], where: dayWhere, _sum: { count: true } }),
      prisma.vote.findMany({
        where: voteWhere,
        orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
        skip: (page - 1) * limit,
        take: limit,
        select: { id: true },
      }),
      prisma.vote.count({ where: voteWhere }),
    ]);
    const providerRows = await providersOf(organizationId);
    const trendRange = { from: new Date(`${last30}T00:00:00.000Z`), toExclusive: addDays(utcDayStart(now), 1) };
    return {
      voterName: voterName.trim(),
      standing: await standingOf(organizationId, voterKey, now),
      summary: { total, today, thisWeek: week, thisMonth: month, firstVote: first?.receivedAt ?? null, lastVote: last?.receivedAt ?? null },
      byProvider: byProvider(
        providerRows,
        providers.map((p) => ({ providerId: p.providerId, count: p._sum.count ?? 0 })),
      ).filter((p) => p.count > 0),
      dailyTrend: zeroFilledTrend(
        days.map((d) => ({ day: d.day, count: d._sum.count ?? 0 })),
        trendRange,
        'day',
      ),
      voteIds: votes.map((v) => v.id),
      pagination: { page, limit, total: matching, pages: Math.ceil(matching / limit) },
    };
  }

  /**
   * A voter's standing as it reads now (README "Rewards"): a streak whose last day is before yesterday in the
   * organization's time zone has lapsed, and this month starts at 0; per site, the total and when they may vote again.
   */
  async function standingOf(organizationId: string, voterKey: string, now: Date) {
    // A voter's total on a site is their per-day rows there (src/storage/rollups.ts).
    const [org, stored, perSite] = await Promise.all([
      prisma.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { timeZone: true } }),
      prisma.voterStanding.findUnique({ where: { organizationId_voterKey: { organizationId, voterKey } } }),
      prisma.voterDailyCount.groupBy({ by: ['providerId'], where: { organizationId, voterKey }, _sum: { count: true }, _max: { lastVoteAt: true } }),
    ]);
    if (!stored) return null;
    const providers = new Map(
      (
        await prisma.provider.findMany({
          where: { id: { in: perSite.map((g) => g.providerId) } },
          select: { id: true, key: true, name: true, voteCooldownJson: true },
        })
      ).map((p) => [p.id, p]),
    );
    const sites = perSite.flatMap((g) => {
      const provider = providers.get(g.providerId);
      return provider && g._max.lastVoteAt ? [{ provider, total: g._sum.count ?? 0, lastVoteAt: g._max.lastVoteAt }] : [];
    });
    const current = standingOn(stored, localDay(now, org.timeZone));
    return {
      total: current.total,
      monthTotal: current.monthTotal,
      streakDays: current.streakDays,
      bestStreakDays: current.bestStreakDays,
      lastVoteAt: stored.lastVoteAt,
      timeZone: org.timeZone,
      sites: sites
        .map((site) => {
          const cooldown = cooldownOf(site.provider.voteCooldownJson);
          return {
            key: site.provider.key,
            name: site.provider.name,
            total: site.total,
            lastVoteAt: site.lastVoteAt,
            nextVoteAt: cooldown ? nextVoteAt(cooldown, site.lastVoteAt) : null,
          };
        })
        .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key)),
    };
  }

  /** Exact number of votes (optionally of one provider, optionally in a range) from the rollups: O(days), not O(votes). */
  async function countVotes(organizationId: string, options: { providerId?: string; from: Date | null; toExclusive: Date | null }): Promise<number> {
    if (!options.from && !options.toExclusive) {
      // One provider (already resolved inside this organization): its own rows through the (providerId, day) key.
      const sum = await prisma.providerDailyCount.aggregate({
        where: options.providerId ? { providerId: options.providerId } : { organizationId },
        _sum: { count: true },
      });
      return sum._sum.count ?? 0;
    }
    const range = { from: options.from ?? new Date(0), toExclusive: options.toExclusive ?? new Date(deps.clock.now().getTime() + DAY) };
    const rows = await countsByDay(organizationId, range, options.providerId);
    return rows.reduce((sum, r) => sum + r.count, 0);
  }

  return { dashboard, trend, providerShare, conversion, leaderboard, voter, standingOf, providerId, countVotes };
}

/**
 * Clicks a conversion read matches at a time, with the votes that could answer them: their voter ids and names are
 * the votes read's parameters, which SQLite takes at most 999 of.
 */
const CONVERSION_CLICK_CHUNK = 400;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return Math.round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);
}

export type StatsService = ReturnType<typeof createStatsService>;
