import { describe, it, expect } from 'vitest';
import { isValidPath, parsePath, readPath, readPathAsText } from './json-path.js';

describe('parsePath', () => {
  it('splits a dotted path', () => {
    expect(parsePath('user.name')).toEqual(['user', 'name']);
    expect(parsePath('username')).toEqual(['username']);
  });

  it('accepts an optional $. prefix (and a bare $ before an index)', () => {
    expect(parsePath('$.user.name')).toEqual(['user', 'name']);
    expect(parsePath('$.data.votes[0].user')).toEqual(['data', 'votes', 0, 'user']);
    expect(parsePath('$[1]')).toEqual([1]);
  });

  it('reads [n] indexes as numbers', () => {
    expect(parsePath('data.votes[0].user')).toEqual(['data', 'votes', 0, 'user']);
    expect(parsePath('matrix[2][10]')).toEqual(['matrix', 2, 10]);
  });

  it('keeps keys with dashes, underscores and digits', () => {
    expect(parsePath('voter.discord_id')).toEqual(['voter', 'discord_id']);
    expect(parsePath('x-topgg-signature')).toEqual(['x-topgg-signature']);
    expect(parsePath('a.0')).toEqual(['a', '0']);
  });

  it('ignores surrounding whitespace', () => {
    expect(parsePath('  user.name  ')).toEqual(['user', 'name']);
  });

  it.each([
    ['empty', ''],
    ['only whitespace', '   '],
    ['only $', '$'],
    ['only $.', '$.'],
    ['double dot', 'a..b'],
    ['trailing dot', 'a.'],
    ['non-numeric index', '[x]'],
    ['non-numeric index after a key', 'a[x]'],
    ['negative index', 'a[-1]'],
    ['unclosed bracket', 'a[0'],
    ['stray closing bracket', 'a]'],
    ['empty brackets', 'a[]'],
  ])('returns null for an invalid path (%s: %j)', (_label, path) => {
    expect(parsePath(path)).toBeNull();
    expect(isValidPath(path)).toBe(false);
  });

  it('isValidPath is true for the documented forms', () => {
    expect(isValidPath('user.name')).toBe(true);
    expect(isValidPath('$.data.votes[0].user')).toBe(true);
    expect(isValidPath('data.user.name')).toBe(true);
  });
});

describe('readPath', () => {
  const body = {
    username: 'Steve',
    user: { name: 'Alex', id: 42 },
    data: { votes: [{ user: 'first' }, { user: 'second' }], user: { platform_id: '123456789012345678' } },
    empty: '',
    nothing: null,
    flag: false,
    zero: 0,
  };

  it('reads top-level and nested keys', () => {
    expect(readPath(body, 'username')).toBe('Steve');
    expect(readPath(body, 'user.name')).toBe('Alex');
    expect(readPath(body, '$.user.id')).toBe(42);
  });

  it('reads array elements by index', () => {
    expect(readPath(body, '$.data.votes[0].user')).toBe('first');
    expect(readPath(body, 'data.votes[1].user')).toBe('second');
    expect(readPath([10, 20], '[1]')).toBe(20);
  });

  it('returns the value itself for objects and arrays', () => {
    expect(readPath(body, 'user')).toEqual({ name: 'Alex', id: 42 });
    expect(readPath(body, 'data.votes')).toHaveLength(2);
  });

  it('returns falsy values as they are', () => {
    expect(readPath(body, 'empty')).toBe('');
    expect(readPath(body, 'nothing')).toBeNull();
    expect(readPath(body, 'flag')).toBe(false);
    expect(readPath(body, 'zero')).toBe(0);
  });

  it('returns undefined for missing segments', () => {
    expect(readPath(body, 'missing')).toBeUndefined();
    expect(readPath(body, 'user.missing')).toBeUndefined();
    expect(readPath(body, 'missing.deeper.still')).toBeUndefined();
    expect(readPath(body, 'data.votes[5].user')).toBeUndefined();
    expect(readPath(body, 'username.length')).toBeUndefined(); // strings are not walked into
    expect(readPath(body, 'nothing.x')).toBeUndefined();
    expect(readPath(body, 'zero.x')).toBeUndefined();
  });

  it('does not index objects with [n] and needs an array for it', () => {
    expect(readPath({ a: { 0: 'zero' } }, 'a[0]')).toBeUndefined();
    expect(readPath({ a: 'text' }, 'a[0]')).toBeUndefined();
  });

  it('returns undefined for an invalid path', () => {
    expect(readPath(body, 'a..b')).toBeUndefined();
    expect(readPath(body, '')).toBeUndefined();
    expect(readPath(body, '[x]')).toBeUndefined();
  });

  it('returns undefined for non-object roots', () => {
    expect(readPath(null, 'a')).toBeUndefined();
    expect(readPath(undefined, 'a')).toBeUndefined();
    expect(readPath('text', 'a')).toBeUndefined();
    expect(readPath(5, 'a')).toBeUndefined();
  });

  it('never reads from the prototype', () => {
    expect(readPath({}, '__proto__')).toBeUndefined();
    expect(readPath({}, 'constructor')).toBeUndefined();
    expect(readPath({}, 'constructor.name')).toBeUndefined();
    expect(readPath({}, 'toString')).toBeUndefined();
    expect(readPath({}, 'hasOwnProperty')).toBeUndefined();
    expect(readPath({ a: {} }, 'a.__proto__.constructor')).toBeUndefined();
    expect(readPath({ list: [] }, 'list.constructor')).toBeUndefined();
    expect(readPath({ list: [] }, 'list.map')).toBeUndefined();
  });

  it('reads __proto__ or constructor when the JSON body really has them as own keys', () => {
    const parsed = JSON.parse('{"__proto__":{"name":"p"},"constructor":"c"}') as unknown;
    expect(readPath(parsed, '__proto__.name')).toBe('p');
    expect(readPath(parsed, 'constructor')).toBe('c');
    // ...and reading them did not pollute Object.prototype.
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });
});

describe('readPathAsText', () => {
  it('returns strings as they are', () => {
    expect(readPathAsText({ user: { name: 'Steve' } }, 'user.name')).toBe('Steve');
    expect(readPathAsText({ name: '' }, 'name')).toBe('');
  });

  it('turns numbers into decimal strings', () => {
    expect(readPathAsText({ user: 123456 }, 'user')).toBe('123456');
    expect(readPathAsText({ n: 0 }, 'n')).toBe('0');
    expect(readPathAsText({ n: -7 }, 'n')).toBe('-7');
    expect(readPathAsText({ n: 1.5 }, 'n')).toBe('1.5');
    expect(readPathAsText({ data: { votes: [{ user: 987654321 }] } }, '$.data.votes[0].user')).toBe('987654321');
  });

  it('turns booleans into true/false', () => {
    expect(readPathAsText({ test: true }, 'test')).toBe('true');
    expect(readPathAsText({ test: false }, 'test')).toBe('false');
  });

  it('serialises objects and arrays as JSON', () => {
    expect(readPathAsText({ user: { id: 1, name: 'A' } }, 'user')).toBe('{"id":1,"name":"A"}');
    expect(readPathAsText({ tags: ['a', 1] }, 'tags')).toBe('["a",1]');
  });

  it('returns undefined for missing values and null', () => {
    expect(readPathAsText({}, 'missing')).toBeUndefined();
    expect(readPathAsText({ a: null }, 'a')).toBeUndefined();
    expect(readPathAsText({ a: 1 }, 'a..b')).toBeUndefined();
    expect(readPathAsText({}, 'constructor')).toBeUndefined();
  });
});
