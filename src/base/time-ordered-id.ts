// UUID version 7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then random bits. Rows keyed by it are inserted at
// the end of their primary-key index instead of at a random place in it, which is what a log written in batches of
// hundreds of rows a second wants (a random UUID touched a different index page for nearly every row).
import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

export function timeOrderedId(nowMs: number = Date.now()): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 16);
  offset += 16;
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
