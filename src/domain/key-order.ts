// Rows a batch writes go in the order of their keys, so two batches touching the same rows lock them alike.

/** A map's entries in the order of their keys. */
export const entriesInKeyOrder = <T>(rows: Map<string, T>): [string, T][] => [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A map's values in the order of their keys. */
export const inKeyOrder = <T>(rows: Map<string, T>): T[] => entriesInKeyOrder(rows).map(([, row]) => row);
