// The delivery worker's pacing slots ahead (a replay may put back tens of thousands), earliest first.
/** A binary min-heap of numbers: push and pop in O(log n). */
export function createMinHeap() {
  const items: number[] = [];
  const swap = (i: number, j: number) => ([items[i], items[j]] = [items[j], items[i]]);
  return {
    size: () => items.length,
    peek: (): number | undefined => items[0],
    push(value: number) {
      items.push(value);
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (items[parent] <= items[i]) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop(): number | undefined {
      const top = items[0];
      const last = items.pop();
      if (items.length > 0 && last !== undefined) {
        items[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < items.length && items[l] < items[m]) m = l;
          if (r < items.length && items[r] < items[m]) m = r;
          if (m === i) break;
          swap(i, m);
          i = m;
        }
      }
      return top;
    },
  };
}
