// Pacing (a callback's `max_per_second`): each delivery attempt of a paced callback takes the next free slot of
// that callback, 1/max_per_second apart. Slots are handed out in order and never twice, so a burst is spread out
// and nothing is dropped. In memory on SQLite (one process sends: createMemoryPacer), a row update on PostgreSQL
// (several instances share the slots through the callback's `nextSlotAt`: postgres/pacer.ts).

export interface Pacer {
  /** `count` consecutive slots of the callback from `now` on (epoch ms), earliest first. */
  reserve(callbackId: string, maxPerSecond: number, count: number, now: number): Promise<number[]>;
}

export const slots = (first: number, intervalMs: number, count: number) => Array.from({ length: count }, (_, i) => first + i * intervalMs);
export const slotIntervalMs = (maxPerSecond: number) => 1_000 / maxPerSecond;

export function createMemoryPacer(): Pacer {
  const next = new Map<string, number>();
  return {
    async reserve(callbackId, maxPerSecond, count, now) {
      const interval = slotIntervalMs(maxPerSecond);
      const first = Math.max(next.get(callbackId) ?? now, now);
      next.set(callbackId, first + count * interval);
      return slots(first, interval, count);
    },
  };
}
