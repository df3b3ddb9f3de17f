// When a voter may vote again on a site (README "Rewards"): the provider's vote cooldown, from its template (the
// site's documented rule) or set by the owner. Either a time after the vote, in hours and/or minutes (top.gg: 12
// hours; a list with a 90-minute cooldown), or a daily reset at a fixed local time (a list that allows one vote per day).
import { localDay, nextDay } from './voter-standing.js';

export type VoteCooldown = { hours?: number; minutes?: number } | { daily_reset: string; time_zone: string };

/** The longest cooldown after a vote: 31 days. */
const MAX_MINUTES = 31 * 24 * 60;
const SHAPES = 'must be {"hours": N}, {"minutes": N}, {"hours": N, "minutes": N} or {"daily_reset": "HH:MM", "time_zone": "<IANA zone>"}';

/** A cooldown after a vote, in milliseconds. */
const afterVoteMs = (cooldown: { hours?: number; minutes?: number }) => ((cooldown.hours ?? 0) * 60 + (cooldown.minutes ?? 0)) * 60_000;

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
    const hours = typeof value.hours === 'number' && value.hours >= 0 ? value.hours : undefined;
    const minutes = typeof value.minutes === 'number' && value.minutes >= 0 ? value.minutes : undefined;
    if ((hours ?? 0) + (minutes ?? 0) > 0) return { ...(hours !== undefined ? { hours } : {}), ...(minutes !== undefined ? { minutes } : {}) };
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
  if (typeof value !== 'object' || Array.isArray(value)) return SHAPES;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  if (keys === 'hours' || keys === 'minutes' || keys === 'hours,minutes') {
    for (const unit of ['hours', 'minutes'] as const) {
      if (unit in v && (typeof v[unit] !== 'number' || !Number.isFinite(v[unit]) || (v[unit] as number) < 0)) return `${unit} must be a number of at least 0`;
    }
    const total = ((v.hours as number | undefined) ?? 0) * 60 + ((v.minutes as number | undefined) ?? 0);
    if (total <= 0 || total > MAX_MINUTES) return 'must be more than 0 and at most 31 days (744 hours, 44640 minutes)';
    return null;
  }
  if (keys === 'daily_reset,time_zone') {
    if (typeof v.daily_reset !== 'string' || !RESET.test(v.daily_reset)) return 'daily_reset must be a time of day, HH:MM (24-hour)';
    if (typeof v.time_zone !== 'string' || !isZone(v.time_zone)) return 'time_zone must be an IANA time zone name, e.g. "UTC" or "Europe/Berlin"';
    return null;
  }
  return SHAPES;
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
  if (!('daily_reset' in cooldown)) return new Date(votedAt.getTime() + afterVoteMs(cooldown));
  const today = localDay(votedAt, cooldown.time_zone);
  const reset = zoned(today, cooldown.daily_reset, cooldown.time_zone);
  return new Date(reset > votedAt.getTime() ? reset : zoned(nextDay(today), cooldown.daily_reset, cooldown.time_zone));
}
