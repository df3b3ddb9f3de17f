// The delivery worker's context reads on PostgreSQL (ports.ts ContextReads): named statements on the pool (prepared
// once per connection), the ids as one text[] parameter. A timestamp(3) column holds UTC without a zone; it is read
// as UTC whatever the process's time zone (pg would read it as local time), so the rows are what Prisma gives.
import pg from 'pg';
import type { ContextReads, RowsById } from '../ports.js';
import { selectList, type ContextColumns } from '../context-reads.js';
import { Prisma } from '../../generated/postgresql/client.js';

const COLUMNS: ContextColumns = {
  Vote: Prisma.VoteScalarFieldEnum,
  Provider: Prisma.ProviderScalarFieldEnum,
  Callback: Prisma.CallbackScalarFieldEnum,
  Organization: Prisma.OrganizationScalarFieldEnum,
};

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;
const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_WITHOUT_TIME_ZONE && format !== 'binary' ? utcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const byIdsText = (table: keyof RowsById) => `SELECT ${selectList(COLUMNS, table)} FROM "${table}" WHERE id = ANY($1::text[])`;

export function createPgContextReads(pool: pg.Pool): ContextReads {
  return {
    async byIds(table, ids) {
      if (ids.length === 0) return [];
      const result = await pool.query({ name: `vr_context_${table.toLowerCase()}`, text: byIdsText(table), values: [ids], types });
      return result.rows as RowsById[typeof table][];
    },
    async minecraftUuids(voterKeys) {
      if (voterKeys.length === 0) return [];
      const result = await pool.query<{ voterId: string; value: string }>({
        name: 'vr_context_minecraft_uuids',
        text: `SELECT "voterId", "value" FROM "VoterIdentity" WHERE kind = 'minecraft_uuid' AND "voterId" = ANY($1::text[])`,
        values: [voterKeys],
      });
      return result.rows;
    },
  };
}
