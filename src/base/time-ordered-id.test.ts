import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose first 48 bits are the time, so ids of later milliseconds sort after', () => {
    const a = timeOrderedId(1_764_000_000_000);
    const b = timeOrderedId(1_764_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(a.replace(/-/g, '').slice(0, 12), 16)).toBe(1_764_000_000_000);
    expect(a < b).toBe(true);
  });

  it('differs within one millisecond (random bits), across many calls', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedId(1_764_000_000_000)));
    expect(ids.size).toBe(10_000);
  });
});
