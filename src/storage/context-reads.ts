// What both databases' context reads (ports.ts ContextReads) share: each table's columns, named as Prisma's model
// names its scalar fields (the generated client lists them), so a row read by plain SQL has the model's shape, and an
// instance keeps reading the columns it knows while a newer one adds others.
import { Prisma } from '../generated/sqlite/client.js';
import type { RowsById } from './ports.js';

export const CONTEXT_COLUMNS: { [T in keyof RowsById]: readonly string[] } = {
  Vote: Object.values(Prisma.VoteScalarFieldEnum),
  Provider: Object.values(Prisma.ProviderScalarFieldEnum),
  Callback: Object.values(Prisma.CallbackScalarFieldEnum),
  Organization: Object.values(Prisma.OrganizationScalarFieldEnum),
};

export const quotedColumns = (table: keyof RowsById) => CONTEXT_COLUMNS[table].map((c) => `"${c}"`).join(', ');
