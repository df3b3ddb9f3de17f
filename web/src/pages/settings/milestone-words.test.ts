// Milestone rules in plain words, as Settings → Rewards shows each rule (web/src/pages/settings/milestone-words.ts).
import { describe, expect, it } from 'vitest';
import { listOf, ruleInWords } from './milestone-words.js';

const sites: Record<string, string> = { topgg: 'Top.gg' };
const name = (key: string) => sites[key] ?? key;

describe('milestone rules in plain words', () => {
  it('says "every" and "at" rules as people would', () => {
    expect(ruleInWords({ type: 'total', every: 10 })).toBe('Every 10 votes');
    expect(ruleInWords({ type: 'total', every: 1 })).toBe('Every vote');
    expect(ruleInWords({ type: 'total', every: 5, provider: 'topgg' }, name)).toBe('Every 5 votes on Top.gg');
    expect(ruleInWords({ type: 'total', at: [100, 500, 1000] })).toBe('At 100, 500 and 1,000 votes');
    expect(ruleInWords({ type: 'streak', at: [3, 7, 30] })).toBe('At 3, 7 and 30 day streaks');
    expect(ruleInWords({ type: 'streak', at: [7] })).toBe('At a 7 day streak');
    expect(ruleInWords({ type: 'streak', every: 7 })).toBe('Every 7 days in a row');
    expect(ruleInWords({ type: 'total', every: 10, at: [5], provider: 'mc' }, name)).toBe('Every 10 votes and at 5 votes on mc');
  });

  it('names no site for a streak (streaks count days across every site), and says when a rule has no number', () => {
    expect(ruleInWords({ type: 'streak', every: 2, provider: 'topgg' }, name)).toBe('Every 2 days in a row');
    expect(ruleInWords({ type: 'total', every: null, at: [] })).toBe('No number yet: give "every" or "at"');
  });

  it('joins numbers with commas and a last "and"', () => {
    expect(listOf([3])).toBe('3');
    expect(listOf([3, 7])).toBe('3 and 7');
    expect(listOf([3, 7, 30])).toBe('3, 7 and 30');
  });
});
