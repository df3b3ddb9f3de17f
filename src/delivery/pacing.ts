// Pacing (a callback's `max_per_second`): each delivery attempt of a paced callback takes the next free slot of
// that callback, 1/max_per_second apart. Slots are handed out in order and never twice, so a burst is spread out
// and nothing is dropped. Chosen once at start: in memory on SQLite (one process sends), a row update on
// PostgreSQL (several instances share the slots through the callback's `nextSlotAt`).
import type pg from 'pg';

export interface Pacer {
  /** `count` consecutive slots of the callback from `now` on (epoch ms), earliest first. */
  reserve(callbackId: string, maxPerSecond: number, count: number, now: number): Promise<number[]>;
}

const slots = (first: number, intervalMs: number, count: number) => Array.from({ length: count }, (_, i) => first + i * intervalMs);
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

const RESERVE = {
  name: 'vr_pacing_reserve',
  text: `UPDATE "Callback" SET "nextSlotAt" = GREATEST(COALESCE("nextSlotAt", $2::timestamp(3)), $2::timestamp(3)) + ($3::float8 * interval '1 millisecond')
         WHERE id = $1 RETURNING (extract(epoch FROM "nextSlotAt") * 1000)::float8 AS next`,
};

export function createPostgresPacer(pool: pg.Pool): Pacer {
  return {
    async reserve(callbackId, maxPerSecond, count, now) {
      const interval = slotIntervalMs(maxPerSecond);
      const result = await pool.query<{ next: number }>({ ...RESERVE, values: [callbackId, new Date(now).toISOString(), count * interval] });
      // A deleted callback: its jobs are skipped anyway.
      if (result.rows.length === 0) return slots(now, interval, count);
      return slots(result.rows[0].next - count * interval, interval, count);
    },
  };
}
