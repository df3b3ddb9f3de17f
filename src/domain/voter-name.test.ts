import { describe, expect, it } from 'vitest';
import { spellingWins } from './voter-name.js';

describe('voter name rule', () => {
  it('the later vote decides the spelling; on the same instant the greater spelling, whichever was written first', () => {
    expect(spellingWins('STEVE', 2, 'steve', 1)).toBe(true);
    expect(spellingWins('steve', 1, 'STEVE', 2)).toBe(false);
    expect(spellingWins('steve', 5, 'STEVE', 5)).toBe(true);
    expect(spellingWins('STEVE', 5, 'steve', 5)).toBe(false);
  });
});
