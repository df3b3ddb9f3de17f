// When a voter may vote again on a site (README "Rewards"): the provider's vote cooldown, from its template (the
// site's documented rule) or set by the owner. Either a number of hours after the vote (top.gg: 12), or a daily
// reset at a fixed local time (a list that allows one vote per day).
import { localDay, nextDay } from './voter-standing.js';

export type VoteCooldown = { hours: number } | { daily_reset: string; time_zone: string };

const RESET = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parsed cooldowns by their stored text: the vote writers read one per counted vote. */
const parsed = new Map<string, VoteCooldown | null>();
const PARSED_MAX = 1_000;

/** The cooldown stored on a provider (voteCooldownJson); null when unset or not one this version reads. */
export function cooldownOf(json: string | null | undefined): VoteCooldown | null {
  if (!json) return null;
  let cooldown = parsed.get(json);
  if (cooldown === undefined) {
    cooldown = parseCooldown(json);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(json, cooldown);
  }
  return cooldown;
}

function parseCooldown(json: string): VoteCooldown | null {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    if (typeof value.hours === 'number' && value.hours > 0) return { hours: value.hours };
    if (typeof value.daily_reset === 'string' && RESET.test(value.daily_reset) && typeof value.time_zone === 'string')
      return { daily_reset: value.daily_reset, time_zone: value.time_zone };
  } catch {
    // not JSON: no cooldown
  }
  return null;
}

/** The problem with a cooldown given by an owner, or null when it is one (`isZone` checks a time zone name). */
export function cooldownProblem(value: unknown, isZone: (zone: string) => boolean): string | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'must be {"hours": N} or {"daily_reset": "HH:MM", "time_zone": "<IANA zone>"}';
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  if (keys === 'hours') return typeof v.hours === 'number' && v.hours > 0 && v.hours <= 24 * 31 ? null : 'hours must be a number from 0 to 744';
  if (keys === 'daily_reset,time_zone') {
    if (typeof v.daily_reset !== 'string' || !RESET.test(v.daily_reset)) return 'daily_reset must be a time of day, HH:MM (24-hour)';
    if (typeof v.time_zone !== 'string' || !isZone(v.time_zone)) return 'time_zone must be an IANA time zone name, e.g. "UTC" or "Europe/Berlin"';
    return null;
  }
  return 'must be {"hours": N} or {"daily_reset": "HH:MM", "time_zone": "<IANA zone>"}';
}

/** One formatter per time zone: making one costs far more than using it, and a daily-reset site's votes use two. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds `timeZone` is ahead of UTC at `at`. */
function offsetMs(at: number, timeZone: string): number {
  let wallClock = wallClocks.get(timeZone);
  if (!wallClock) {
    wallClock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, wallClock);
  }
  const parts = wallClock.formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(at / 1000) * 1000;
}

/** The instant the wall clock in `timeZone` shows `time` (HH:MM) on local `day` (twice corrected, for DST). */
export function zoned(day: string, time: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let at = wall - offsetMs(wall, timeZone);
  at = wall - offsetMs(at, timeZone);
  return at;
}

/** When a voter who voted at `votedAt` may vote again. */
export function nextVoteAt(cooldown: VoteCooldown, votedAt: Date): Date {
  if ('hours' in cooldown) return new Date(votedAt.getTime() + cooldown.hours * 3_600_000);
  const today = localDay(votedAt, cooldown.time_zone);
  const reset = zoned(today, cooldown.daily_reset, cooldown.time_zone);
  return new Date(reset > votedAt.getTime() ? reset : zoned(nextDay(today), cooldown.daily_reset, cooldown.time_zone));
}
