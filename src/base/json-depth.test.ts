import { describe, expect, it } from 'vitest';
import { documentNesting, exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects as levels; scalars are depth 0', () => {
    expect(exceedsJsonDepth('x', 0)).toBe(false);
    expect(exceedsJsonDepth([1], 0)).toBe(true);
    expect(exceedsJsonDepth([1], 1)).toBe(false);
    expect(exceedsJsonDepth({ a: [{ b: 1 }] }, 2)).toBe(true);
    expect(exceedsJsonDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
  });

  it('accepts the limit exactly and refuses one more, on every branch', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth({ shallow: 1, deep: nested(MAX_JSON_DEPTH) })).toBe(true);
  });

  it('measures a million levels without running out of stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(exceedsJsonDepth(deep)).toBe(true);
  });
});

describe('documentNesting', () => {
  it('counts braces, brackets and parentheses outside strings and comments', () => {
    expect(documentNesting('{ a { b(x: [1, {y: 2}]) } }')).toBe(5);
    expect(documentNesting('{ a(x: "{{{{[[[[") }')).toBe(2);
    expect(documentNesting('{ a(x: """ {{{ \n [[[ """) } # {{{{{{')).toBe(2);
    expect(documentNesting('{ a(x: "esc \\" {{{") }')).toBe(2);
  });

  it('stops once past the limit', () => {
    expect(documentNesting('['.repeat(100_000), 64)).toBe(65);
  });
});
