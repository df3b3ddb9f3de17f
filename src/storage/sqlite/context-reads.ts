// The delivery worker's context reads on embedded SQLite (ports.ts ContextReads): statements prepared once on this
// thread's connection, the ids as one JSON array parameter. SQLite keeps a DateTime as its epoch milliseconds and a
// Boolean as 0 or 1 (the columns' declared types say which is which); the rows come back as Prisma gives them.
import type Sqlite from 'better-sqlite3';
import type { ContextReads, RowsById } from '../ports.js';
import { selectList, type ContextColumns } from '../context-reads.js';
import { Prisma } from '../../generated/sqlite/client.js';

const COLUMNS: ContextColumns = {
  Vote: Prisma.VoteScalarFieldEnum,
  Provider: Prisma.ProviderScalarFieldEnum,
  Callback: Prisma.CallbackScalarFieldEnum,
  Organization: Prisma.OrganizationScalarFieldEnum,
};

type Row = Record<string, unknown>;

/** A stored DateTime: epoch milliseconds as Prisma writes it, or SQLite's own UTC text (CURRENT_TIMESTAMP). */
function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

export function createSqliteContextReads(db: Sqlite.Database): ContextReads {
  const readers = new Map<keyof RowsById, (ids: string[]) => Row[]>();
  function reader(table: keyof RowsById) {
    let read = readers.get(table);
    if (read) return read;
    const statement = db.prepare(`SELECT ${selectList(COLUMNS, table)} FROM "${table}" WHERE id IN (SELECT value FROM json_each(?))`);
    const declared = statement.columns();
    const dates = declared.filter((c) => c.type?.toUpperCase() === 'DATETIME').map((c) => c.name);
    const flags = declared.filter((c) => c.type?.toUpperCase() === 'BOOLEAN').map((c) => c.name);
    read = (ids) => {
      const rows = statement.all(JSON.stringify(ids)) as Row[];
      for (const row of rows) {
        for (const name of dates) row[name] = dateOf(row[name]);
        for (const name of flags) row[name] = row[name] === null ? null : Boolean(row[name]);
      }
      return rows;
    };
    readers.set(table, read);
    return read;
  }
  const uuids = db.prepare(`SELECT "voterId", "value" FROM "VoterIdentity" WHERE kind = 'minecraft_uuid' AND "voterId" IN (SELECT value FROM json_each(?))`);
  return {
    async byIds(table, ids) {
      return ids.length === 0 ? [] : (reader(table)(ids) as never);
    },
    async minecraftUuids(voterKeys) {
      return voterKeys.length === 0 ? [] : (uuids.all(JSON.stringify(voterKeys)) as { voterId: string; value: string }[]);
    },
  };
}
