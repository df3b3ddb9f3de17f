import { describe, expect, it } from 'vitest';
import { refusedFlags, withoutPreloads } from './thread-start.js';

describe('withoutPreloads', () => {
  it('drops --import, --require, -r and --loader with their values, in both spellings, and keeps other flags', () => {
    expect(
      withoutPreloads([
        '--expose-gc',
        '--import',
        'tsx',
        '--import=./probe.ts',
        '--require',
        'a.cjs',
        '-r',
        'b.cjs',
        '--loader',
        'x.mjs',
        '--experimental-loader=y.mjs',
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/p',
      ]),
    ).toEqual(['--expose-gc', '--cpu-prof', '--cpu-prof-dir=/tmp/p']);
  });
  it('keeps flags that only start like a preload flag', () => {
    expect(withoutPreloads(['--imports-are-not-a-flag', '--require-module'])).toEqual(['--imports-are-not-a-flag', '--require-module']);
  });
});

describe('refusedFlags', () => {
  it('reads the flags Node lists when a thread refuses them', () => {
    expect(refusedFlags('Initiated Worker with invalid execArgv flags: --expose-gc, --max-old-space-size=100')).toEqual([
      '--expose-gc',
      '--max-old-space-size=100',
    ]);
    expect(refusedFlags('something else')).toEqual([]);
  });
});
