import { describe, expect, it } from 'vitest';
import type { FoundVoter } from '../../domain/voter-identity.js';
import { voterCache } from './voter-cache.js';

const voter = (id: string, displayName = id): FoundVoter => ({ voterId: id, accounts: [], displayName, nameAt: 1_000 });

describe('voterCache', () => {
  it('keeps what a committed batch found', () => {
    const cache = voterCache(() => 1);
    cache.begin();
    cache.committed([['k1', voter('vtr_1')]]);
    cache.begin();
    expect(cache.get('k1')).toEqual(voter('vtr_1'));
    expect(cache.get('k2')).toBeUndefined();
  });

  it('takes a later batch’s view of a voter (a rename) over the one kept', () => {
    const cache = voterCache(() => 1);
    cache.begin();
    cache.committed([['k1', voter('vtr_1', 'Old')]]);
    cache.committed([['k1', voter('vtr_1', 'New')]]);
    expect(cache.get('k1')?.displayName).toBe('New');
  });

  it('forgets everything when another connection committed since the last batch (data_version moved)', () => {
    let version = 1;
    const cache = voterCache(() => version);
    cache.begin();
    cache.committed([['k1', voter('vtr_1')]]);
    cache.begin();
    expect(cache.get('k1')).toBeDefined();
    version = 2;
    cache.begin();
    expect(cache.get('k1')).toBeUndefined();
  });

  it('forgets everything after a batch that did not commit', () => {
    const cache = voterCache(() => 1);
    cache.begin();
    cache.committed([['k1', voter('vtr_1')]]);
    cache.abandoned();
    cache.begin();
    expect(cache.get('k1')).toBeUndefined();
  });

  it('holds a bounded number: the least recently used go first, a voter read again stays', () => {
    const cache = voterCache(() => 1, 2);
    cache.begin();
    cache.committed([
      ['a', voter('vtr_a')],
      ['b', voter('vtr_b')],
    ]);
    // The young generation is full: c starts a new one, a and b age.
    cache.committed([['c', voter('vtr_c')]]);
    expect(cache.get('a')).toBeDefined(); // read again: young once more, beside c
    cache.committed([['d', voter('vtr_d')]]); // young full (c, a): it ages, d starts a new one; b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
  });
});
