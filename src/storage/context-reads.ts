// What both databases' context reads (ports.ts ContextReads) share: each table's columns, named as Prisma's model
// names its scalar fields (each database's generated client lists them: `<Model>ScalarFieldEnum`), so a row read by
// plain SQL has the model's shape, and an instance keeps reading the columns it knows while a newer one adds others.
import type { RowsById } from './ports.js';

/** Each table's scalar fields, from the generated client of the database at hand. */
export type ContextColumns = { [T in keyof RowsById]: Record<string, string> };

export const selectList = (columns: ContextColumns, table: keyof RowsById) =>
  Object.values(columns[table])
    .map((c) => `"${c}"`)
    .join(', ');
