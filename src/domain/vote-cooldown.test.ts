import { describe, expect, it } from 'vitest';
import { cooldownOf, cooldownProblem, nextVoteAt } from './vote-cooldown.js';
import { isTimeZone } from './voter-standing.js';

describe('vote cooldown', () => {
  it('hours after the vote', () => {
    expect(nextVoteAt({ hours: 12 }, new Date('2026-05-01T20:00:00Z')).toISOString()).toBe('2026-05-02T08:00:00.000Z');
  });

  it('minutes after the vote, alone or with hours', () => {
    expect(nextVoteAt({ minutes: 90 }, new Date('2026-05-01T20:00:00Z')).toISOString()).toBe('2026-05-01T21:30:00.000Z');
    expect(nextVoteAt({ hours: 1, minutes: 30 }, new Date('2026-05-01T20:00:00Z')).toISOString()).toBe('2026-05-01T21:30:00.000Z');
    expect(cooldownOf('{"minutes":90}')).toEqual({ minutes: 90 });
    expect(cooldownProblem({ minutes: 90 }, () => true)).toBeNull();
    expect(cooldownProblem({ hours: 1, minutes: 30 }, () => true)).toBeNull();
    expect(cooldownProblem({ minutes: 0 }, () => true)).toMatch(/more than 0/);
    expect(cooldownProblem({ minutes: 44_641 }, () => true)).toMatch(/at most 31 days/);
    expect(cooldownProblem({ minutes: '90' }, () => true)).toBe('minutes must be a number of at least 0');
    expect(cooldownProblem({ seconds: 90 }, () => true)).toMatch(/^must be \{"hours": N\}, \{"minutes": N\}/);
  });

  it('a daily reset at a local time: later today, else tomorrow, across a DST change', () => {
    const reset = { daily_reset: '00:00', time_zone: 'America/New_York' };
    // 2026-03-07 22:00 in New York (UTC-5): the next local midnight, 2026-03-08 00:00 EST = 05:00Z.
    expect(nextVoteAt(reset, new Date('2026-03-08T03:00:00Z')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    // 2026-03-08 10:00 EDT (clocks moved forward at 02:00): the next midnight is EDT, 04:00Z.
    expect(nextVoteAt(reset, new Date('2026-03-08T14:00:00Z')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(nextVoteAt({ daily_reset: '06:30', time_zone: 'UTC' }, new Date('2026-05-01T06:00:00Z')).toISOString()).toBe('2026-05-01T06:30:00.000Z');
    expect(nextVoteAt({ daily_reset: '06:30', time_zone: 'UTC' }, new Date('2026-05-01T06:30:00Z')).toISOString()).toBe('2026-05-02T06:30:00.000Z');
  });

  it('reads what is stored and says what is wrong with what an owner sends', () => {
    expect(cooldownOf('{"hours":12}')).toEqual({ hours: 12 });
    expect(cooldownOf('{"daily_reset":"00:00","time_zone":"UTC"}')).toEqual({ daily_reset: '00:00', time_zone: 'UTC' });
    expect(cooldownOf(null)).toBeNull();
    expect(cooldownOf('nonsense')).toBeNull();
    expect(cooldownProblem({ hours: 12 }, isTimeZone)).toBeNull();
    expect(cooldownProblem(null, isTimeZone)).toBeNull();
    expect(cooldownProblem({ hours: 0 }, isTimeZone)).toMatch(/hours/);
    expect(cooldownProblem({ daily_reset: '25:00', time_zone: 'UTC' }, isTimeZone)).toMatch(/HH:MM/);
    expect(cooldownProblem({ daily_reset: '00:00', time_zone: 'Mars/Base' }, isTimeZone)).toMatch(/IANA/);
    expect(cooldownProblem({ hours: 12, extra: 1 }, isTimeZone)).toMatch(/must be/);
  });
});
