// The pacing slots' heap gives back what it was given, smallest first.
import { describe, expect, it } from 'vitest';
import { createMinHeap } from './min-heap.js';

describe('createMinHeap', () => {
  it('gives back every value pushed, smallest first, duplicates included', () => {
    const heap = createMinHeap();
    const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 263);
    for (const v of values) heap.push(v);
    expect(heap.size()).toBe(500);
    expect(heap.peek()).toBe(0);
    const out: number[] = [];
    while (heap.size() > 0) out.push(heap.pop()!);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.pop()).toBeUndefined();
    expect(heap.peek()).toBeUndefined();
  });

  it('keeps its order when pushes and pops interleave', () => {
    const heap = createMinHeap();
    heap.push(5);
    heap.push(3);
    expect(heap.pop()).toBe(3);
    heap.push(1);
    heap.push(4);
    expect([heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 4, 5]);
  });
});
