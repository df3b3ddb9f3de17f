// A voter's standing in an organization (README "Rewards"): how many votes, how many this month, the current and
// the best streak of consecutive days with at least one vote. Counted over the votes the statistics count (never a
// test vote: `countingOf` in votes.ts), with days in the organization's time zone.
// One rule for every place that needs it: both vote writers (in the vote's own transaction, so a vote's callbacks
// carry the standing it made), `stats rebuild`/`verify` and voter erasure (from the per-day rows, `standingFromDays`),
// and reads (`standingOn`, which lets a streak lapse and a month roll over without a write).
import { inKeyOrder } from './key-order.js';

/** What is kept per voter (VoterStanding). `lastDay` is the local day of the voter's latest counted vote. */
export interface Standing {
  total: number;
  /** Votes in the month of `lastDay` (YYYY-MM of it). */
  monthTotal: number;
  /** Consecutive days ending on `lastDay`, each with at least one vote. */
  streakDays: number;
  bestStreakDays: number;
  lastDay: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** True when `timeZone` is an IANA zone name this runtime knows ("UTC", "Europe/Berlin", …). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** "YYYY-MM-DD" of the day containing `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  if (timeZone === 'UTC') return at.toISOString().slice(0, 10);
  let format = formatters.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format.format(at);
}

/** The calendar day after `day` (both "YYYY-MM-DD"). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

const monthOf = (day: string) => day.slice(0, 7);

/**
 * The standing after one more counted vote on local `day`. null when the vote is older than the voter's latest
 * (a vote recovered after an outage): the streaks then need the voter's days, `standingFromDays`.
 */
export function advance(previous: Standing | null, day: string): Standing | null {
  if (!previous) return { total: 1, monthTotal: 1, streakDays: 1, bestStreakDays: 1, lastDay: day };
  if (day < previous.lastDay) return null;
  if (day === previous.lastDay) return { ...previous, total: previous.total + 1, monthTotal: previous.monthTotal + 1 };
  const streakDays = nextDay(previous.lastDay) === day ? previous.streakDays + 1 : 1;
  return {
    total: previous.total + 1,
    monthTotal: monthOf(previous.lastDay) === monthOf(day) ? previous.monthTotal + 1 : 1,
    streakDays,
    bestStreakDays: Math.max(previous.bestStreakDays, streakDays),
    lastDay: day,
  };
}

/** The standing from a voter's days and their vote counts (any order); null when there are none. */
export function standingFromDays(days: { day: string; count: number }[]): Standing | null {
  const counted = days.filter((d) => d.count > 0).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  if (counted.length === 0) return null;
  let total = 0;
  let run = 0;
  let best = 0;
  let previous: string | null = null;
  for (const { day, count } of counted) {
    total += count;
    run = previous !== null && nextDay(previous) === day ? run + 1 : previous === day ? run : 1;
    best = Math.max(best, run);
    previous = day;
  }
  const lastDay = counted[counted.length - 1].day;
  const monthTotal = counted.filter((d) => monthOf(d.day) === monthOf(lastDay)).reduce((sum, d) => sum + d.count, 0);
  return { total, monthTotal, streakDays: run, bestStreakDays: best, lastDay };
}

/**
 * The standing as it reads on local day `today`: a streak whose last day is before yesterday has lapsed (0), and
 * a month other than today's has no votes yet.
 */
export function standingOn(standing: Standing, today: string): Standing {
  const current = standing.lastDay === today || nextDay(standing.lastDay) === today;
  return {
    ...standing,
    streakDays: current ? standing.streakDays : 0,
    monthTotal: monthOf(standing.lastDay) === monthOf(today) ? standing.monthTotal : 0,
  };
}

/** What a counted vote made of its voter's standing; the vote keeps it (template variables, vote reads). */
export interface VoteStanding {
  voterTotal: number;
  voterMonthTotal: number;
  voterStreakDays: number;
  voterBestStreakDays: number;
  providerVoterTotal: number;
}

/** What counting a vote returns: the standing it made, and the voter's current streak before it (milestones). */
export type CountedStanding = VoteStanding & { streakBefore: number };

/** Counted votes per site (provider id → votes), kept with the standing: a vote reads its site total from there. */
export type ProviderTotals = Record<string, number>;

/** A stored standing with the time of the voter's latest counted vote (epoch ms) and their total on each site. */
export type StoredStanding = Standing & { lastVoteAt: number; providerTotals: ProviderTotals };

/** The provider totals as stored (VoterStanding.providerTotalsJson); anything but an object of counts reads as none. */
export function providerTotalsOf(json: string | null | undefined): ProviderTotals {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, n]) => Number.isInteger(n) && (n as number) > 0)) as ProviderTotals;
  } catch {
    return {};
  }
}

/** What a vote writer reads for a batch, as the database held it when the batch began. */
export interface StandingSource {
  /** The voter's stored standing, their site totals with it (a voter without one has no counted vote anywhere). */
  standing(organizationId: string, voterKey: string): StoredStanding | null;
  /**
   * The voter's days as the database holds them (local days, or their UTC rollups summed per day: StandingRows);
   * asked only for a vote older than the voter's latest.
   */
  days(organizationId: string, voterKey: string): { day: string; count: number }[];
}

/**
 * The rows a batch writes: standings as absolute values, local days as increments (kept only by organizations whose
 * days are not UTC days: the writers leave the others out). Each standing carries the voter's site totals (all of
 * them, the ones this batch moved included). Both in key order (organization, voter, day), so two batches writing the
 * same rows lock them alike.
 */
export interface StandingRows {
  standings: (StoredStanding & { organizationId: string; voterKey: string })[];
  days: { organizationId: string; voterKey: string; day: string; count: number }[];
}

/**
 * The standings of one batch of votes: each counted vote advances its voter's standing in batch order and gets the
 * standing it made; `rows()` then gives what to write. The writer holds its voters' rows for the batch (SQLite's
 * one writer; PostgreSQL's per-voter advisory locks), so what was read stays true until the batch commits.
 */
export function standingBatch(source: StandingSource) {
  const voters = new Map<string, { organizationId: string; voterKey: string; standing: Standing | null; lastVoteAt: number; providerTotals: ProviderTotals }>();
  const added = new Map<string, { organizationId: string; voterKey: string; day: string; count: number }>();

  return {
    count(vote: { organizationId: string; providerId: string; voterKey: string; day: string; at: number }): CountedStanding {
      const { organizationId, providerId, voterKey, day, at } = vote;
      const voterId = `${organizationId}\u0000${voterKey}`;
      let voter = voters.get(voterId);
      if (!voter) {
        const stored = source.standing(organizationId, voterKey);
        voter = { organizationId, voterKey, standing: stored, lastVoteAt: stored?.lastVoteAt ?? at, providerTotals: { ...stored?.providerTotals } };
        voters.set(voterId, voter);
      }
      const dayId = `${voterId}\u0000${day}`;
      const dayRow = added.get(dayId);
      if (dayRow) dayRow.count++;
      else added.set(dayId, { organizationId, voterKey, day, count: 1 });
      const before = voter.standing;
      const next = advance(voter.standing, day);
      // A late vote: the streaks are counted again from the voter's days (this one included).
      const days = next
        ? null
        : [...source.days(organizationId, voterKey), ...[...added.values()].filter((d) => d.organizationId === organizationId && d.voterKey === voterKey)];
      voter.standing = next ?? standingFromDays(days!);
      voter.lastVoteAt = Math.max(voter.lastVoteAt, at);

      const providerTotal = (voter.providerTotals[providerId] ?? 0) + 1;
      voter.providerTotals[providerId] = providerTotal;
      const s = voter.standing!;
      // The streak this vote continues (the one ending on its last day or the day before), else none.
      let streakBefore = before && (before.lastDay === s.lastDay || nextDay(before.lastDay) === s.lastDay) ? before.streakDays : 0;
      // A late vote on a missing day joins the run before it to the current one: that earlier run reached its own
      // values already, so only values past both runs are new.
      if (days) {
        const earlier = standingFromDays(days.filter((d) => d.day < day));
        if (earlier && nextDay(earlier.lastDay) === day) streakBefore = Math.max(streakBefore, earlier.streakDays);
      }
      return {
        streakBefore,
        voterTotal: s.total,
        voterMonthTotal: s.monthTotal,
        voterStreakDays: s.streakDays,
        voterBestStreakDays: s.bestStreakDays,
        providerVoterTotal: providerTotal,
      };
    },
    rows(): StandingRows {
      return {
        standings: inKeyOrder(voters).flatMap(({ standing: s, organizationId, voterKey, lastVoteAt, providerTotals }) =>
          s
            ? [
                {
                  total: s.total,
                  monthTotal: s.monthTotal,
                  streakDays: s.streakDays,
                  bestStreakDays: s.bestStreakDays,
                  lastDay: s.lastDay,
                  organizationId,
                  voterKey,
                  lastVoteAt,
                  providerTotals,
                },
              ]
            : [],
        ),
        days: inKeyOrder(added),
      };
    },
  };
}
