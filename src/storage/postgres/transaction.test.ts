import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { arrayParameter, inlineParameters, sqlLiteral } from './transaction.js';

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

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

describe('arrayParameter', () => {
  it('writes an array of text, numbers, booleans and nulls exactly as pg would', () => {
    const arrays: unknown[][] = [
      [],
      ['a', 'vt_0191abc', '2026-11-26T10:00:00.000Z'],
      ['say "hi"', 'back\\slash', '\\"', '{braces}', 'comma,inside', 'NULL', '', ' spaced ', '😀 ünï', "o'brien"],
      [1, -2, 0, 3.5, null, undefined],
      [true, false, null],
      ['mixed', 7, false, null],
    ];
    for (const array of arrays) expect(arrayParameter(array)).toBe(prepareValue(array));
  });

  it('leaves everything else to pg', () => {
    const date = new Date(0);
    for (const value of ['text', 3, null, [date], [['nested']], [Buffer.from('x')], [{ a: 1 }], [Number.NaN]]) expect(arrayParameter(value)).toBe(value);
  });
});
