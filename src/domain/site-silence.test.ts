import { describe, expect, it } from 'vitest';
import { durationWords, expectedVotes, HISTORY_DAYS, rateWords, silenceOf, silenceWords, usualRate, weeklyRates } from './site-silence.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-30T15:30:00Z'); // a Monday
const FROM = NOW - HISTORY_DAYS * 24 * HOUR;

/** Two weeks of `perHour(hourOfDayUtc)` votes every hour. */
function history(perHour: (hourOfDay: number) => number): Map<number, number> {
  const counts = new Map<number, number>();
  for (let hour = Math.ceil(FROM / HOUR); hour < Math.floor(NOW / HOUR); hour++) counts.set(hour, perHour(new Date(hour * HOUR).getUTCHours()));
  return counts;
}

describe('a site that goes quiet', () => {
  it('learns the usual rate of each hour of the week', () => {
    const rates = weeklyRates(
      history(() => 40),
      FROM,
      NOW,
    );
    expect(usualRate(rates, NOW)).toBeCloseTo(40, 5);
    const daytime = weeklyRates(
      history((h) => (h >= 8 && h < 20 ? 60 : 0)),
      FROM,
      NOW,
    );
    expect(usualRate(daytime, Date.parse('2026-11-30T12:00:00Z'))).toBeCloseTo(60, 5);
    expect(usualRate(daytime, Date.parse('2026-11-30T03:00:00Z'))).toBe(0);
    // The hour before the busy hours expects nothing: smoothing never reaches into a quiet hour.
    expect(usualRate(daytime, Date.parse('2026-11-30T07:00:00Z'))).toBe(0);
    // The first busy hour is smoothed down with the quiet one before it.
    expect(usualRate(daytime, Date.parse('2026-11-30T08:00:00Z'))).toBeCloseTo(45, 5);
  });

  it('40 an hour: 10 minutes of nothing is nothing, 3 hours is a silence', () => {
    const counts = history(() => 40);
    const rates = weeklyRates(counts, FROM, NOW);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(silenceOf(rates, total, NOW - 10 * 60_000, NOW).silent).toBe(false);
    const three = silenceOf(rates, total, NOW - 3 * HOUR, NOW);
    expect(three.silent).toBe(true);
    expect(three.expected).toBeCloseTo(120, 5);
  });

  it('a site busy by day is not silent at night, and is after an hour of its busy time', () => {
    const counts = history((h) => (h >= 8 && h < 20 ? 30 : 0));
    const rates = weeklyRates(counts, FROM, NOW);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    // Its last vote at 20:00, now 05:00: the night expects (almost) nothing.
    expect(silenceOf(rates, total, Date.parse('2026-11-29T20:00:00Z'), Date.parse('2026-11-30T05:00:00Z')).silent).toBe(false);
    // From 09:00 to 10:30: 45 expected, e^-45.
    expect(silenceOf(rates, total, Date.parse('2026-11-30T09:00:00Z'), Date.parse('2026-11-30T10:30:00Z')).silent).toBe(true);
  });

  it('nothing for a site too quiet to judge, or a silence under an hour', () => {
    const counts = history((h) => (h === 12 ? 1 : 0)); // 14 votes in two weeks
    const rates = weeklyRates(counts, FROM, NOW);
    expect(silenceOf(rates, 14, NOW - 5 * 24 * HOUR, NOW).silent).toBe(false);
    const busy = weeklyRates(
      history(() => 500),
      FROM,
      NOW,
    );
    expect(silenceOf(busy, 168_000, NOW - 50 * 60_000, NOW).silent).toBe(false);
  });

  it('counts a partial hour in part', () => {
    const rates = new Array(168).fill(10);
    expect(expectedVotes(rates, NOW - 90 * 60_000, NOW)).toBeCloseTo(15, 5);
  });

  it('says a stretch in words', () => {
    expect(durationWords(3 * HOUR)).toBe('3 h');
    expect(durationWords(2 * HOUR + 15 * 60_000)).toBe('2 h 15 min');
    expect(durationWords(45 * 60_000)).toBe('45 min');
    expect(durationWords(51 * HOUR)).toBe('2 days 3 h');
  });

  it('says the silence in one sentence, with its last request', () => {
    const site = { providerName: 'Top.gg', silentForMs: 3 * HOUR, usualPerHour: 40.2 };
    expect(silenceWords({ ...site, lastRequest: { outcome: 'refused', hint: 'the signature did not match: check the secret you pasted into the site' } })).toBe(
      'Top.gg has sent no vote for 3 h; it usually sends 40 an hour at this time; its last request was refused: the signature did not match: check the secret you pasted into the site',
    );
    expect(silenceWords({ ...site, lastRequest: null })).toMatch(/; no request has reached its webhook since its last vote$/);
    expect(rateWords(0.5)).toBe('one every 2 h');
    expect(rateWords(3)).toBe('3 an hour');
  });
});
