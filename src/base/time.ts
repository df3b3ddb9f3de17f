// UTC calendar helpers shared by usage counters, rollups and statistics.

/** "YYYY-MM-DD" of the UTC day containing `date`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function utcMonthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

export function utcDayStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** Monday 00:00 UTC of the ISO week containing `date`. */
export function utcWeekStart(date: Date): Date {
  const day = utcDayStart(date);
  const offset = (day.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day.getTime() - offset * 86_400_000);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
