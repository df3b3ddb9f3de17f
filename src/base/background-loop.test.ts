// backgroundLoop's promises: one pass at a time, its timer, a failed pass handed on, and stop waiting for the pass.
import { describe, expect, it, vi } from 'vitest';
import { backgroundLoop } from './background-loop.js';

describe('backgroundLoop', () => {
  it('runs one pass at a time: a caller during a pass shares it', async () => {
    let release!: () => void;
    let passes = 0;
    const loop = backgroundLoop({
      everyMs: 0,
      atStart: false,
      failed: () => {},
      pass: async () => {
        passes++;
        await new Promise<void>((r) => (release = r));
        return passes;
      },
    });
    const first = loop.runNow();
    const second = loop.runNow();
    expect(second).toBe(first);
    release();
    expect(await first).toBe(1);
    const third = loop.runNow();
    release();
    expect(await third).toBe(2);
  });

  it('passes every interval after start, a first one at once when asked, and none after stop', async () => {
    vi.useFakeTimers();
    try {
      const pass = vi.fn(async () => 0);
      const loop = backgroundLoop({ everyMs: 1_000, atStart: true, failed: () => {}, pass });
      loop.start();
      expect(pass).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(pass).toHaveBeenCalledTimes(4);
      await loop.stop();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(pass).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands a failed pass to `failed` and runs the next turn', async () => {
    vi.useFakeTimers();
    try {
      const failures: unknown[] = [];
      let n = 0;
      const loop = backgroundLoop({
        everyMs: 100,
        atStart: false,
        failed: (err) => failures.push(err),
        pass: async () => {
          n++;
          if (n === 1) throw new Error('down');
          return n;
        },
      });
      loop.start();
      await vi.advanceTimersByTimeAsync(250);
      expect(failures.map((e) => (e as Error).message)).toEqual(['down']);
      expect(n).toBe(2);
      await loop.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('never starts with everyMs 0, and stop waits for the pass under way', async () => {
    let done = false;
    const loop = backgroundLoop({
      everyMs: 0,
      atStart: true,
      failed: () => {},
      pass: async () => {
        await new Promise((r) => setTimeout(r, 20));
        done = true;
      },
    });
    loop.start();
    expect(done).toBe(false);
    void loop.runNow();
    await loop.stop();
    expect(done).toBe(true);
  });
});
