// When the leaderboard posts (settings.leaderboard_posts, README "Discord rewards") fall due, and which votes each
// covers, in the organization's time zone: {"period": "day", "at": "18:00"}, {"period": "week", "at": "Mon 18:00"},
// {"period": "month", "at": "1 18:00"} (a day of the month from 1 to 28). A post covers the period that ends at it
// (the 24 hours, 7 days or month before it), so every vote is in exactly one post.
import { z } from 'zod';
import { localDay } from './voter-standing.js';
import { zoned } from './vote-cooldown.js';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const TIME = '([01]\\d|2[0-3]):([0-5]\\d)';
const AT: Record<LeaderboardPosts['period'], RegExp> = {
  day: new RegExp(`^${TIME}$`),
  week: new RegExp(`^(${WEEKDAYS.join('|')}) ${TIME}$`),
  month: new RegExp(`^([1-9]|1\\d|2[0-8]) ${TIME}$`),
};

export interface LeaderboardPosts {
  period: 'day' | 'week' | 'month';
  /** How many voters the post names (1 to 25). */
  top: number;
  at: string;
}

export const leaderboardPostsSchema = z
  .strictObject({
    period: z.enum(['day', 'week', 'month'], 'must be day, week or month'),
    top: z.number().int('must be an integer').min(1, 'must be at least 1').max(25, 'must be at most 25'),
    at: z.string().max(20),
  })
  .refine((p) => AT[p.period].test(p.at), {
    message: 'must be "HH:MM" for a day, "Mon HH:MM" (Sun to Sat) for a week, or "D HH:MM" (D from 1 to 28) for a month',
    path: ['at'],
  });

const dayBefore = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Whether posts fall on local `day` (YYYY-MM-DD), and at what wall-clock time. */
function postOn(posts: LeaderboardPosts, day: string): string | null {
  const parts = posts.at.split(' ');
  const time = parts[parts.length - 1];
  if (posts.period === 'day') return time;
  if (posts.period === 'week') return WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()] === parts[0] ? time : null;
  return Number(day.slice(8, 10)) === Number(parts[0]) ? time : null;
}

/** The latest post instant at or before `now` (looking back at most 32 local days). */
export function lastPostAt(posts: LeaderboardPosts, timeZone: string, now: Date): Date {
  let day = localDay(now, timeZone);
  for (let i = 0; i < 33; i++, day = dayBefore(day)) {
    const time = postOn(posts, day);
    if (!time) continue;
    const at = zoned(day, time, timeZone);
    if (at <= now.getTime()) return new Date(at);
  }
  throw new Error(`no leaderboard post time found for ${JSON.stringify(posts)}`);
}

/** The votes a post at `at` covers: the period that ends there. */
export function postWindow(posts: LeaderboardPosts, timeZone: string, at: Date): { from: Date; to: Date } {
  if (posts.period === 'day') return { from: new Date(at.getTime() - 86_400_000), to: at };
  if (posts.period === 'week') return { from: new Date(at.getTime() - 7 * 86_400_000), to: at };
  // A month: from the same post time a month before (the local day is 1 to 28, so it exists in every month).
  const day = localDay(at, timeZone);
  const [y, m] = day.split('-').map(Number);
  const before = new Date(Date.UTC(y, m - 2, Number(day.slice(8, 10)))).toISOString().slice(0, 10);
  return { from: new Date(zoned(before, posts.at.split(' ')[1], timeZone)), to: at };
}
