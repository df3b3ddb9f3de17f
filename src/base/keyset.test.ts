import { describe, expect, it } from 'vitest';
import { checkConnectionSize, keysetCursor, keysetWindow } from './keyset.js';

describe('keyset cursors', () => {
  const row = { receivedAt: new Date('2026-11-30T04:00:00.123Z'), id: 'abc' };

  it('bounds a window by the time and id a cursor carries, newest first unless inverted', () => {
    const cursor = keysetCursor(row);
    expect(keysetCursor({ ...row, receivedAt: row.receivedAt.toISOString() })).toBe(cursor);
    const after = keysetWindow({ after: cursor, limit: 11, inverted: false });
    expect(after).toEqual({
      bounds: [{ receivedAt: { lte: row.receivedAt }, NOT: { receivedAt: row.receivedAt, id: { gte: 'abc' } } }],
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: 11,
    });
    const before = keysetWindow({ before: cursor, limit: 3, inverted: true });
    expect(before.bounds).toEqual([{ receivedAt: { gte: row.receivedAt }, NOT: { receivedAt: row.receivedAt, id: { lte: 'abc' } } }]);
    expect(before.orderBy).toEqual([{ receivedAt: 'asc' }, { id: 'asc' }]);
    expect(keysetWindow({ limit: 5, inverted: false }).bounds).toEqual([]);
  });

  it('refuses what is not a cursor of this API, by the argument that carried it', () => {
    for (const bad of [
      '',
      'x',
      Buffer.from('12|').toString('base64url'),
      Buffer.from('-1|a').toString('base64url'),
      Buffer.from('1|a|b').toString('base64url'),
    ]) {
      expect(() => keysetWindow({ after: bad || 'AA', limit: 2, inverted: false })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    }
    try {
      keysetWindow({ before: 'nope', limit: 2, inverted: true });
      expect.unreachable();
    } catch (e) {
      expect((e as { details: unknown }).details).toEqual([{ field: 'before', message: 'is not a cursor from this API' }]);
    }
  });

  it('takes page sizes from 1 to 100 only', () => {
    expect(() => checkConnectionSize({ first: 1, last: 100 })).not.toThrow();
    expect(() => checkConnectionSize({})).not.toThrow();
    for (const size of [0, 101, 1.5, -3]) {
      expect(() => checkConnectionSize({ last: size })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    }
  });
});
