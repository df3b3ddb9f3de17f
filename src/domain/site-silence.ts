// A site that goes quiet (README "A site that goes quiet"): from a provider's votes per hour over the 14 days before
// its last vote, its usual rate at each hour of the week; a silence since its last vote is one when zero votes over that stretch
// would happen less than once in a thousand times at those rates (a Poisson process whose rate follows the week).
// Pure: the alert scheduler and the overview give it the counts and the clock.

export const HISTORY_DAYS = 14;
/** Below this chance of the silence at the usual rates, the site is silent. */
export const SILENCE_CHANCE = 0.001;
/** Sites with fewer real votes than this over the history are too quiet to judge. */
export const MIN_HISTORY_VOTES = 50;
/** A silence shorter than this is never one (a site's own retry gap, a minute with no voter). */
export const MIN_SILENCE_MS = 3_600_000;

const HOUR = 3_600_000;
const WEEK_HOURS = 168;

/** The hour of the week (0: Monday 00:00 UTC, … 167) of an epoch hour (hours since 1970-01-01, a Thursday). */
const hourOfWeek = (epochHour: number) => (((epochHour + 72) % WEEK_HOURS) + WEEK_HOURS) % WEEK_HOURS;

/**
 * Votes per hour expected at each hour of the week, from `counts` (epoch hour → real votes) over the whole hours in
 * [fromMs, toMs): each hour of the week is the mean of its occurrences, then smoothed with its neighbours (¼, ½, ¼)
 * and kept at most that mean, so that a busy hour with one odd sample is not taken for more than it is, and the
 * rate never reaches into hours the site is quiet in.
 */
export function weeklyRates(counts: ReadonlyMap<number, number>, fromMs: number, toMs: number): number[] {
  const sums = new Array<number>(WEEK_HOURS).fill(0);
  const seen = new Array<number>(WEEK_HOURS).fill(0);
  for (let hour = Math.ceil(fromMs / HOUR); hour < Math.floor(toMs / HOUR); hour++) {
    const slot = hourOfWeek(hour);
    sums[slot] += counts.get(hour) ?? 0;
    seen[slot] += 1;
  }
  const mean = sums.map((sum, slot) => (seen[slot] > 0 ? sum / seen[slot] : 0));
  // Never above the hour's own mean: a site that stops at 20:00 every day is not expected to send at 20:30.
  return mean.map((m, slot) => Math.min(m, (mean[(slot + WEEK_HOURS - 1) % WEEK_HOURS] + 2 * m + mean[(slot + 1) % WEEK_HOURS]) / 4));
}

/** The usual votes per hour at `atMs`. */
export const usualRate = (rates: readonly number[], atMs: number) => rates[hourOfWeek(Math.floor(atMs / HOUR))];

/** Votes expected in [fromMs, toMs) at the usual rates, hour by hour (the partial first and last hours in part). */
export function expectedVotes(rates: readonly number[], fromMs: number, toMs: number): number {
  let expected = 0;
  for (let at = fromMs; at < toMs; ) {
    const hourEnd = (Math.floor(at / HOUR) + 1) * HOUR;
    const until = Math.min(hourEnd, toMs);
    expected += usualRate(rates, at) * ((until - at) / HOUR);
    at = until;
  }
  return expected;
}

export interface Silence {
  /** Votes the usual rates expected since the last vote. */
  expected: number;
  /** The chance of no vote at all over that stretch at the usual rates. */
  chance: number;
  silent: boolean;
}

/** Whether the stretch since `lastVoteMs` is a silence (`historyVotes`: the real votes over the history). */
export function silenceOf(rates: readonly number[], historyVotes: number, lastVoteMs: number, nowMs: number): Silence {
  const expected = expectedVotes(rates, lastVoteMs, nowMs);
  const chance = Math.exp(-expected);
  return { expected, chance, silent: historyVotes >= MIN_HISTORY_VOTES && nowMs - lastVoteMs >= MIN_SILENCE_MS && chance < SILENCE_CHANCE };
}

/** A stretch of time in words: "3 h", "2 h 15 min", "45 min", "2 days 3 h". */
export function durationWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${days} day${days === 1 ? '' : 's'}${hours ? ` ${hours} h` : ''}`;
  if (hours > 0) return `${hours} h${rest ? ` ${rest} min` : ''}`;
  return `${rest} min`;
}

/** What the words of a silence are made of (a quiet site as the overview and the alert have it). */
export interface SiteSilenceFacts {
  providerName: string;
  silentForMs: number;
  usualPerHour: number;
  lastRequest: { outcome: string; hint: string | null } | null;
}

/** A rate in words: "40 an hour", or "one every 3 h" for less than one an hour. */
export function rateWords(perHour: number): string {
  if (perHour >= 1) return `${Math.round(perHour)} an hour`;
  return `one every ${durationWords(Math.round(3_600_000 / Math.max(perHour, 0.001) / 60_000) * 60_000)}`;
}

/** What the site's last request since its last vote says, if any did arrive. */
function lastRequestWords(site: SiteSilenceFacts): string {
  const last = site.lastRequest;
  if (!last) return 'no request has reached its webhook since its last vote';
  if (last.outcome === 'refused') return `its last request was refused: ${last.hint ?? 'see its request log'}`;
  if (last.outcome === 'ignored') return `its last request was ignored: ${last.hint ?? 'its event is not a vote event'}`;
  if (last.outcome === 'duplicate') return 'its last request repeated an earlier vote';
  return `its last request was a ${last.outcome} one`;
}

/** The sentence the overview shows and the admin alert sends for a site that went quiet. */
export function silenceWords(site: SiteSilenceFacts): string {
  return `${site.providerName} has sent no vote for ${durationWords(site.silentForMs)}; it usually sends ${rateWords(site.usualPerHour)} at this time; ${lastRequestWords(site)}`;
}
