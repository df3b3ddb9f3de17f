import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inlineParameters, sqlLiteral } from './transaction.js';

describe('sqlLiteral', () => {
  it('quotes text exactly as pg.escapeLiteral does, with or without quotes and backslashes', () => {
    const texts = ['', 'plain', 'vt_0191abc', "o'brien", "''", 'back\\slash', "both ' and \\", '\'); DROP TABLE "Vote"; --', '$1 $$', '😀 ünï', "E'\\x41'"];
    for (const text of texts) expect(sqlLiteral(text)).toBe(pg.escapeLiteral(text));
  });

  it('writes arrays, numbers, booleans and null, and refuses NUL and non-finite numbers', () => {
    expect(sqlLiteral(['a', "b'c", null, 2, true, 'NULL', ''])).toBe(`'{"a","b''c",NULL,"2","true","NULL",""}'`);
    expect(sqlLiteral(['say "hi"', 'back\\slash'])).toBe(pg.escapeLiteral('{"say \\"hi\\"","back\\\\slash"}'));
    expect(sqlLiteral([])).toBe("'{}'");
    expect(() => sqlLiteral([['nested']])).toThrow(/array element/);
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(() => sqlLiteral('a\u0000b')).toThrow(/NUL/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/finite/);
    expect(inlineParameters('SELECT $1, $2', ['x', 3])).toBe("SELECT 'x', 3");
  });
});
