// The pacer on PostgreSQL (../pacer.ts): several instances share a callback's slots through its `nextSlotAt` row.
import type pg from 'pg';
import { slotIntervalMs, slots, type Pacer } from '../pacer.js';

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
