import { describe, expect, it } from 'vitest';
import { advance, isTimeZone, localDay, nextDay, providerTotalsOf, standingBatch, standingFromDays, standingOn, type Standing } from './voter-standing.js';

describe('voter standing', () => {
  it('counts consecutive days as a streak, keeps the best one, and starts a month over', () => {
    let s: Standing | null = null;
    for (const day of ['2026-01-30', '2026-01-31', '2026-01-31', '2026-02-01', '2026-02-03', '2026-02-04']) s = advance(s, day);
    expect(s).toEqual({ total: 6, monthTotal: 3, streakDays: 2, bestStreakDays: 3, lastDay: '2026-02-04' });
  });

  it('crosses years and leap days', () => {
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2024-02-29')).toBe('2024-03-01');
    expect(nextDay('2025-12-31')).toBe('2026-01-01');
    expect(advance({ total: 1, monthTotal: 1, streakDays: 1, bestStreakDays: 1, lastDay: '2025-12-31' }, '2026-01-01')).toEqual({
      total: 2,
      monthTotal: 1,
      streakDays: 2,
      bestStreakDays: 2,
      lastDay: '2026-01-01',
    });
  });

  it('leaves a vote older than the latest to the per-day recount, which agrees with voting in order', () => {
    const late = { total: 2, monthTotal: 2, streakDays: 1, bestStreakDays: 1, lastDay: '2026-03-05' };
    expect(advance(late, '2026-03-04')).toBeNull();
    expect(
      standingFromDays([
        { day: '2026-03-05', count: 1 },
        { day: '2026-03-03', count: 1 },
        { day: '2026-03-04', count: 1 },
      ]),
    ).toEqual({ total: 3, monthTotal: 3, streakDays: 3, bestStreakDays: 3, lastDay: '2026-03-05' });
    expect(standingFromDays([])).toBeNull();
  });

  it('votes in order and the per-day recount agree on seeded random histories', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let history = 0; history < 200; history++) {
      let day = '2025-12-20';
      let s: Standing | null = null;
      const counts = new Map<string, number>();
      for (let v = 0; v < 1 + Math.floor(random() * 40); v++) {
        const gap = random() < 0.5 ? 0 : random() < 0.7 ? 1 : 1 + Math.floor(random() * 5);
        for (let g = 0; g < gap; g++) day = nextDay(day);
        s = advance(s, day);
        counts.set(day, (counts.get(day) ?? 0) + 1);
      }
      expect(s).toEqual(standingFromDays([...counts].map(([d, count]) => ({ day: d, count }))));
    }
  });

  it('reads a lapsed streak as 0 and a past month as no votes yet', () => {
    const s = { total: 9, monthTotal: 4, streakDays: 3, bestStreakDays: 5, lastDay: '2026-05-31' };
    expect(standingOn(s, '2026-05-31')).toEqual(s);
    expect(standingOn(s, '2026-06-01')).toEqual({ ...s, monthTotal: 0 }); // still a streak: today's vote would extend it
    expect(standingOn(s, '2026-06-02')).toEqual({ ...s, monthTotal: 0, streakDays: 0 });
  });

  it("days are the organization's: the same instant falls on different days in different zones", () => {
    const at = new Date('2026-03-01T02:30:00Z');
    expect(localDay(at, 'UTC')).toBe('2026-03-01');
    expect(localDay(at, 'America/New_York')).toBe('2026-02-28');
    expect(localDay(at, 'Asia/Tokyo')).toBe('2026-03-01');
    expect(localDay(new Date('2026-02-28T16:00:00Z'), 'Asia/Tokyo')).toBe('2026-03-01');
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('a late vote that joins two runs counts from the longer of them for milestones (streakBefore)', () => {
    // Days 1-6 and 8-10 of June stored; a late vote on the 7th joins them into 10 days.
    const stored = [1, 2, 3, 4, 5, 6, 8, 9, 10].map((d) => ({ day: `2026-06-${String(d).padStart(2, '0')}`, count: 1 }));
    const batch = standingBatch({
      standing: () => ({ ...standingFromDays(stored)!, lastVoteAt: 0, providerTotals: { p: 9 } }),
      days: () => stored,
    });
    const late = batch.count({ organizationId: 'o', providerId: 'p', voterKey: 'k', day: '2026-06-07', at: 1 });
    expect(late).toMatchObject({ voterTotal: 10, voterStreakDays: 10, voterBestStreakDays: 10, streakBefore: 6 });
    // A late vote on a day that already had one changes no streak.
    const again = batch.count({ organizationId: 'o', providerId: 'p', voterKey: 'k', day: '2026-06-04', at: 2 });
    expect(again).toMatchObject({ voterTotal: 11, voterStreakDays: 10, streakBefore: 10 });
  });

  it('keeps each site total with the standing: a first vote on a site starts at 1, the others are carried over', () => {
    const batch = standingBatch({
      standing: () => ({ total: 5, monthTotal: 5, streakDays: 1, bestStreakDays: 2, lastDay: '2026-06-01', lastVoteAt: 0, providerTotals: { a: 4, b: 1 } }),
      days: () => [],
    });
    expect(batch.count({ organizationId: 'o', providerId: 'a', voterKey: 'k', day: '2026-06-02', at: 1 }).providerVoterTotal).toBe(5);
    expect(batch.count({ organizationId: 'o', providerId: 'c', voterKey: 'k', day: '2026-06-02', at: 2 }).providerVoterTotal).toBe(1);
    expect(batch.rows().standings[0]).toMatchObject({ total: 7, providerTotals: { a: 5, b: 1, c: 1 } });
  });

  it('reads stored site totals, refusing anything but positive whole counts', () => {
    expect(providerTotalsOf('{"a":3,"b":1}')).toEqual({ a: 3, b: 1 });
    expect(providerTotalsOf('{"a":-1,"b":1.5,"c":"2","d":2}')).toEqual({ d: 2 });
    expect(providerTotalsOf('[1]')).toEqual({});
    expect(providerTotalsOf('not json')).toEqual({});
    expect(providerTotalsOf(null)).toEqual({});
  });
});
