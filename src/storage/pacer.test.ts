import { describe, expect, it } from 'vitest';
import { createMemoryPacer } from './pacer.js';

describe('pacing slots (in memory)', () => {
  it('hands out consecutive slots 1/rate apart, never twice, and starts afresh after a quiet spell', async () => {
    const pacer = createMemoryPacer();
    expect(await pacer.reserve('cb', 5, 1, 1_000)).toEqual([1_000]);
    expect(await pacer.reserve('cb', 5, 3, 1_000)).toEqual([1_200, 1_400, 1_600]);
    expect(await pacer.reserve('cb', 5, 1, 1_100)).toEqual([1_800]);
    // Another callback has its own slots.
    expect(await pacer.reserve('other', 2, 2, 1_000)).toEqual([1_000, 1_500]);
    // Long after the last slot, the next one is now.
    expect(await pacer.reserve('cb', 5, 1, 10_000)).toEqual([10_000]);
  });
});
