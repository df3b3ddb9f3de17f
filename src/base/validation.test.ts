import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.js';
import { parseInput } from './validation.js';

/** The details parseInput refuses `input` with. */
function details(schema: z.ZodType, input: unknown): { field: string; message: string }[] {
  try {
    parseInput(schema, input);
  } catch (err) {
    if (err instanceof AppError) return err.details as { field: string; message: string }[];
    throw err;
  }
  throw new Error('accepted');
}

describe('parseInput says what is wrong in words', () => {
  const schema = z.object({
    name: z.string().min(1).max(5),
    count: z.number().int().min(1).max(10),
    kind: z.enum(['a', 'b']),
    tags: z.array(z.string()).max(2),
    url: z.url(),
  });
  const good = { name: 'x', count: 2, kind: 'a', tags: [], url: 'https://example.com/' };

  it.each([
    [{ ...good, name: undefined }, 'name', 'is required'],
    [{ ...good, name: 7 }, 'name', 'must be text (got a number)'],
    [{ ...good, name: '' }, 'name', 'must not be empty'],
    [{ ...good, name: 'abcdefg' }, 'name', 'must be at most 5 characters'],
    [{ ...good, count: 'two' }, 'count', 'must be a number (got text)'],
    [{ ...good, count: 1.5 }, 'count', 'must be a whole number (got a number)'],
    [{ ...good, count: 0 }, 'count', 'must be at least 1'],
    [{ ...good, count: 11 }, 'count', 'must be at most 10'],
    [{ ...good, kind: 'c' }, 'kind', 'must be one of a, b'],
    [{ ...good, tags: ['x', 'y', 'z'] }, 'tags', 'must have at most 2 items'],
    [{ ...good, tags: 'x' }, 'tags', 'must be a list (got text)'],
    [{ ...good, url: 'nope' }, 'url', 'must be a URL'],
  ])('%j: %s %s', (input, field, message) => {
    expect(details(schema, input)).toEqual([{ field, message }]);
  });

  it('keeps a message the schema gives itself', () => {
    expect(details(z.object({ slug: z.string().regex(/^[a-z]+$/, 'must be lower-case letters') }), { slug: 'A' })).toEqual([
      { field: 'slug', message: 'must be lower-case letters' },
    ]);
  });
});
