// Leaderboard: the top voters of the last `days` UTC days (the README's statistics section), exact on every request and cheap after
// the first.
//
// Ranking a window means summing every voter-day row in it: O(voters active in the window), ~1 s at 10M votes. So
// the first request for an (organization, provider, first day) computes the top KEEP voters from the rollups and
// keeps them with the time it read them (the snapshot). Between two requests counts only grow, unless the
// organization's statsEpoch moved (a provider was deleted, rollups were rebuilt): so a voter outside the kept list
// who received no vote since the snapshot still ranks below the kept list's last entry, and the next request only
// re-scores the voters who received a vote since (one index range on Vote, one IN-list on VoterDailyCount) and
// merges them in. The merged list is the new snapshot, so the set to re-score stays "votes since the last request".
// It starts over when the epoch moves, the window's first day changes (midnight UTC), or too many voters changed.
// Each instance keeps its own lists; the re-scoring reads the shared database, so several instances stay exact.
import type { AppDeps } from '../../app/deps.js';
import { addDays, utcDay, utcDayStart } from '../../base/time.js';
import { REAL_VOTES } from '../../domain/votes.js';

/** The largest `limit` the API accepts: every kept list holds this many. */
export const LEADERBOARD_KEEP = 100;
/** A vote committed within this time of its receivedAt (PostgreSQL transactions time out after 5 s) and instance clocks agree within it: a vote is re-scored if received after the snapshot minus this. */
const COMMIT_MARGIN_MS = 30_000;
/** Beyond this many voters changed since the snapshot, ranking the window again is cheaper than re-scoring them. */
const MAX_RESCORED = 5_000;
const MAX_RESCORED_VOTES = 20_000;
const IN_LIST_CHUNK = 900;
const MAX_LISTS = 500;

export interface RankedVoter {
  voterKey: string;
  votes: number;
  lastVoteAt: Date;
}

interface Snapshot {
  epoch: number;
  takenAt: number;
  top: RankedVoter[];
}

/** Most votes first; ties: the more recent last vote, then the key (the order the SQL ranking uses too). */
export function compareRanked(a: RankedVoter, b: RankedVoter): number {
  return b.votes - a.votes || b.lastVoteAt.getTime() - a.lastVoteAt.getTime() || (a.voterKey < b.voterKey ? -1 : a.voterKey > b.voterKey ? 1 : 0);
}

/**
 * The new top `keep` from a list that was the exact top at its snapshot and the exact current scores of every voter
 * who received a vote since: those replace their old entries, everyone else is unchanged.
 */
export function mergeRescored(top: RankedVoter[], rescored: RankedVoter[], keep = LEADERBOARD_KEEP): RankedVoter[] {
  const byKey = new Map(top.map((v) => [v.voterKey, v]));
  for (const v of rescored) byKey.set(v.voterKey, v);
  return [...byKey.values()].sort(compareRanked).slice(0, keep);
}

export function createLeaderboard(deps: AppDeps) {
  const { prisma } = deps.db;
  const lists = new Map<string, Snapshot>();
  const inFlight = new Map<string, Promise<RankedVoter[]>>();

  function remember(key: string, snapshot: Snapshot) {
    lists.delete(key);
    lists.set(key, snapshot);
    if (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value!);
  }

  /** Sum, latest vote, per voter over the window (optionally one provider), best first. */
  async function score(organizationId: string, fromDay: string, providerId: string | undefined, voterKeys?: string[]): Promise<RankedVoter[]> {
    const groups = await prisma.voterDailyCount.groupBy({
      by: ['voterKey'],
      where: { organizationId, day: { gte: fromDay }, ...(providerId ? { providerId } : {}), ...(voterKeys ? { voterKey: { in: voterKeys } } : {}) },
      _sum: { count: true },
      _max: { lastVoteAt: true },
      orderBy: [{ _sum: { count: 'desc' } }, { _max: { lastVoteAt: 'desc' } }, { voterKey: 'asc' }],
      ...(voterKeys ? {} : { take: LEADERBOARD_KEEP }),
    });
    return groups.map((g) => ({ voterKey: g.voterKey, votes: g._sum.count ?? 0, lastVoteAt: g._max.lastVoteAt! }));
  }

  /** The voters who received a vote at or after `since` (null when there are too many to re-score). */
  async function changedSince(organizationId: string, since: Date, providerId: string | undefined): Promise<string[] | null> {
    // Newest votes through the (organization, receivedAt) index, de-duplicated here: a GROUP BY voterKey would
    // let SQLite walk the (organization, voterKey, …) index over every vote of the organization instead.
    const votes = await prisma.vote.findMany({
      where: { organizationId, receivedAt: { gte: since }, ...REAL_VOTES, ...(providerId ? { providerId } : {}) },
      orderBy: { receivedAt: 'desc' },
      select: { voterKey: true },
      take: MAX_RESCORED_VOTES + 1,
    });
    if (votes.length > MAX_RESCORED_VOTES) return null;
    const voters = [...new Set(votes.map((v) => v.voterKey))];
    return voters.length > MAX_RESCORED ? null : voters;
  }

  async function current(organizationId: string, fromDay: string, providerId: string | undefined): Promise<RankedVoter[]> {
    const key = `${organizationId}|${providerId ?? '*'}|${fromDay}`;
    // Read before anything else: a provider delete after this point makes the stored epoch stale, never the reverse.
    const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { statsEpoch: true } });
    const epoch = org?.statsEpoch ?? 0;
    const takenAt = deps.clock.now().getTime();
    const kept = lists.get(key);
    if (kept && kept.epoch === epoch) {
      const changed = await changedSince(organizationId, new Date(kept.takenAt - COMMIT_MARGIN_MS), providerId);
      if (changed) {
        const rescored: RankedVoter[] = [];
        for (let i = 0; i < changed.length; i += IN_LIST_CHUNK) {
          rescored.push(...(await score(organizationId, fromDay, providerId, changed.slice(i, i + IN_LIST_CHUNK))));
        }
        const top = mergeRescored(kept.top, rescored);
        remember(key, { epoch, takenAt, top });
        return top;
      }
    }
    // Rank the whole window; concurrent requests for the same list share one ranking.
    let ranking = inFlight.get(key);
    if (!ranking) {
      ranking = score(organizationId, fromDay, providerId).then((top) => {
        remember(key, { epoch, takenAt, top });
        return top;
      });
      inFlight.set(key, ranking);
      void ranking.catch(() => {}).finally(() => inFlight.delete(key));
    }
    return ranking;
  }

  /** The top `limit` voters of the last `days` days, each with the latest spelling of the name in the window. */
  async function top(organizationId: string, days: number, limit: number, providerId: string | undefined) {
    const fromDay = utcDay(addDays(utcDayStart(deps.clock.now()), -(days - 1)));
    const ranked = (await current(organizationId, fromDay, providerId)).slice(0, limit);
    const names = await prisma.voterDailyCount.findMany({
      where: { organizationId, voterKey: { in: ranked.map((v) => v.voterKey) }, day: { gte: fromDay } },
      select: { voterKey: true, voterName: true, lastVoteAt: true },
      orderBy: { lastVoteAt: 'desc' },
    });
    const latestName = new Map<string, string>();
    for (const row of names) if (!latestName.has(row.voterKey)) latestName.set(row.voterKey, row.voterName);
    const voters = ranked.map((v) => ({ name: latestName.get(v.voterKey) ?? v.voterKey, votes: v.votes, lastVote: v.lastVoteAt }));
    // Ties: the more recent last vote first, then the name (the README's statistics section).
    voters.sort((a, b) => b.votes - a.votes || b.lastVote.getTime() - a.lastVote.getTime() || a.name.localeCompare(b.name));
    return voters;
  }

  return { top };
}
