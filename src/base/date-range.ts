// from/to parameters (the README's statistics section): YYYY-MM-DD or full ISO 8601; a date-only `to` covers that whole UTC day;
// `from` after `to` is a VALIDATION_ERROR naming it. Ranges are half-open: [from, toExclusive).
import { validationError } from './errors.js';
import { addDays } from './time.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface DateRange {
  from: Date;
  toExclusive: Date;
}

/** One bound: a date (a date-only end covers that whole UTC day) or an ISO 8601 timestamp; errors name `field`. */
export function parseBound(value: string, field: string, end: boolean): Date {
  const text = value.trim();
  if (DATE_ONLY.test(text)) {
    const date = new Date(`${text}T00:00:00.000Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw validationError([{ field, message: 'is not a real date' }]);
    return end ? addDays(date, 1) : date;
  }
  if (ISO.test(text)) {
    const day = text.slice(0, 10);
    // V8 rolls 2026-02-30 over into March: the calendar date itself must exist.
    if (new Date(`${day}T00:00:00.000Z`).toISOString().slice(0, 10) !== day) throw validationError([{ field, message: 'is not a real date' }]);
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return end ? new Date(date.getTime() + 1) : date;
  }
  throw validationError([{ field, message: 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp' }]);
}

/** Parses optional bounds; missing ones take the defaults given. */
export function parseRange(
  input: { from?: string | null; to?: string | null },
  defaults: { from: Date | null; to: Date | null },
): { from: Date | null; toExclusive: Date | null } {
  const from = input.from ? parseBound(input.from, 'from', false) : defaults.from;
  const toExclusive = input.to ? parseBound(input.to, 'to', true) : defaults.to ? new Date(defaults.to.getTime() + 1) : null;
  if (from && toExclusive && from.getTime() >= toExclusive.getTime()) throw validationError([{ field: 'from', message: 'must not be after to' }]);
  return { from, toExclusive };
}

export function requireRange(r: { from: Date | null; toExclusive: Date | null }): DateRange {
  return { from: r.from!, toExclusive: r.toExclusive! };
}

export function isMidnight(date: Date): boolean {
  return date.getTime() % 86_400_000 === 0;
}
