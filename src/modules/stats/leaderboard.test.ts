import { describe, expect, it } from 'vitest';
import { compareRanked, mergeRescored, type RankedVoter } from './leaderboard.js';

const v = (voterKey: string, votes: number, last: number): RankedVoter => ({ voterKey, votes, lastVoteAt: new Date(last) });

describe('leaderboard ranking', () => {
  it('orders by votes, then the more recent last vote, then the key', () => {
    const list = [v('b', 2, 10), v('a', 2, 10), v('c', 3, 1), v('d', 2, 20)].sort(compareRanked);
    expect(list.map((x) => x.voterKey)).toEqual(['c', 'd', 'a', 'b']);
  });

  it('re-scored voters replace their old entries, outsiders enter, the list is cut to its size', () => {
    const kept = [v('a', 5, 50), v('b', 4, 40), v('c', 3, 30)];
    const merged = mergeRescored(kept, [v('b', 6, 60), v('z', 4, 70)], 3);
    expect(merged).toEqual([v('b', 6, 60), v('a', 5, 50), v('z', 4, 70)]);
  });

  it('keeps entries nobody re-scored and does not duplicate a voter', () => {
    const merged = mergeRescored([v('a', 1, 1)], [v('a', 2, 2), v('b', 1, 3)]);
    expect(merged).toEqual([v('a', 2, 2), v('b', 1, 3)]);
  });
});
