import { describe, expect, it } from 'vitest';
import { lastPostAt, leaderboardPostsSchema, postWindow } from './leaderboard-schedule.js';

describe('leaderboard post schedule', () => {
  it('a weekly post falls on its weekday and time in the organization’s zone', () => {
    const posts = { period: 'week' as const, top: 10, at: 'Mon 18:00' };
    // Wednesday 2026-11-25 12:00 UTC: the last Monday 18:00 in Berlin (UTC+1) is 2026-11-23 17:00 UTC.
    expect(lastPostAt(posts, 'Europe/Berlin', new Date('2026-11-25T12:00:00Z')).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    // Exactly at the time: that post.
    expect(lastPostAt(posts, 'Europe/Berlin', new Date('2026-11-23T17:00:00Z')).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    // A second before: the week before.
    expect(lastPostAt(posts, 'Europe/Berlin', new Date('2026-11-23T16:59:59Z')).toISOString()).toBe('2026-11-16T17:00:00.000Z');
    const window = postWindow(posts, 'Europe/Berlin', new Date('2026-11-23T17:00:00Z'));
    expect(window.from.toISOString()).toBe('2026-11-16T17:00:00.000Z');
  });

  it('a daily post across a DST change keeps its wall-clock time', () => {
    const posts = { period: 'day' as const, top: 5, at: '09:30' };
    // New York: 2026-03-08 is the spring-forward day (UTC-5 → UTC-4).
    expect(lastPostAt(posts, 'America/New_York', new Date('2026-03-08T20:00:00Z')).toISOString()).toBe('2026-03-08T13:30:00.000Z');
    expect(lastPostAt(posts, 'America/New_York', new Date('2026-03-07T20:00:00Z')).toISOString()).toBe('2026-03-07T14:30:00.000Z');
  });

  it('a monthly post covers the month before it', () => {
    const posts = { period: 'month' as const, top: 3, at: '1 00:00' };
    const at = lastPostAt(posts, 'UTC', new Date('2026-03-15T00:00:00Z'));
    expect(at.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(postWindow(posts, 'UTC', at).from.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('refuses a time that does not fit its period', () => {
    expect(leaderboardPostsSchema.safeParse({ period: 'week', top: 10, at: '18:00' }).success).toBe(false);
    expect(leaderboardPostsSchema.safeParse({ period: 'month', top: 10, at: '31 18:00' }).success).toBe(false);
    expect(leaderboardPostsSchema.safeParse({ period: 'day', top: 0, at: '18:00' }).success).toBe(false);
    expect(leaderboardPostsSchema.safeParse({ period: 'day', top: 10, at: '18:00', extra: 1 }).success).toBe(false);
    expect(leaderboardPostsSchema.safeParse({ period: 'week', top: 10, at: 'Sun 23:59' }).success).toBe(true);
  });
});
