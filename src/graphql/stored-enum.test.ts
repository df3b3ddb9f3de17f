// oneOf gives a stored string back as the enum's value it names, and refuses one the enum does not name.
import { describe, expect, it } from 'vitest';
import { oneOf } from './stored-enum.js';

describe('oneOf', () => {
  const STATUSES = ['pending', 'sent'] as const;
  it('gives back the value the enum names', () => {
    expect(oneOf(STATUSES, 'sent', 'status')).toBe('sent');
  });
  it('refuses a value the enum does not name, saying which and what it knows', () => {
    expect(() => oneOf(STATUSES, 'exploded', 'delivery job status')).toThrow('delivery job status "exploded" is not one this version knows (pending, sent)');
  });
});
