// Consistency of the per-day rollups: recompute them from raw votes and compare (`cli stats verify`), or replace
// them (`cli stats rebuild`). Raw SQL because the day of a timestamp is written differently per dialect. Days
// before the retention horizon (`votes_kept_from`, src/retention/retention.ts) have no raw votes any more: their
// rollups are the record, neither compared nor replaced. Test votes are in no rollup (README "Test votes"), so they
// are left out here too.
import type { Database } from '../../db/client.js';
import { votesKeptFrom } from '../../retention/retention.js';
import { latestSpellingSql } from '../votes/voter-name.js';
import { realVotesSql } from '../votes/vote-store.js';

interface ProviderDay {
  organizationId: string;
  providerId: string;
  day: string;
  count: number;
}
interface VoterDay extends ProviderDay {
  voterKey: string;
  voterName: string;
  lastVoteAt: Date;
}

function daySql(db: Database, column: string): string {
  return db.dialect === 'postgresql' ? `to_char(${column}, 'YYYY-MM-DD')` : `strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`;
}

async function fromVotes(db: Database, organizationId?: string) {
  const day = daySql(db, '"receivedAt"');
  const filter = `WHERE ${realVotesSql()}${organizationId ? (db.dialect === 'postgresql' ? ' AND "organizationId" = $1' : ' AND "organizationId" = ?') : ''}`;
  const args = organizationId ? [organizationId] : [];
  const providerDays = await db.prisma.$queryRawUnsafe<ProviderDay[]>(
    `SELECT "organizationId", "providerId", ${day} AS day, COUNT(*) AS count FROM "Vote" ${filter} GROUP BY "organizationId", "providerId", ${day}`,
    ...args,
  );
  const voterDays = await db.prisma.$queryRawUnsafe<VoterDay[]>(
    `SELECT "organizationId", "providerId", "voterKey", ${day} AS day, COUNT(*) AS count, MAX("receivedAt") AS "lastVoteAt", MAX("voterName") AS "voterName"
     FROM "Vote" ${filter} GROUP BY "organizationId", "providerId", "voterKey", ${day}`,
    ...args,
  );
  return {
    providerDays: providerDays.map((r) => ({ ...r, count: Number(r.count) })),
    voterDays: voterDays.map((r) => ({
      ...r,
      count: Number(r.count),
      lastVoteAt: r.lastVoteAt instanceof Date ? r.lastVoteAt : new Date(Number(r.lastVoteAt)),
    })),
  };
}

export interface RollupDifference {
  table: 'ProviderDailyCount' | 'VoterDailyCount';
  key: string;
  expected: number;
  actual: number;
}

export async function verifyRollups(db: Database, organizationId?: string): Promise<RollupDifference[]> {
  const keptFrom = (await votesKeptFrom(db.prisma)) ?? '';
  const expected = await fromVotes(db);
  const where = { ...(organizationId ? { organizationId } : {}), day: { gte: keptFrom } };
  const [providerRows, voterRows] = await Promise.all([
    db.prisma.providerDailyCount.findMany({ where }),
    db.prisma.voterDailyCount.findMany({ where, select: { providerId: true, voterKey: true, day: true, count: true, organizationId: true } }),
  ]);
  const differences: RollupDifference[] = [];
  const compare = (table: RollupDifference['table'], want: Map<string, number>, have: Map<string, number>) => {
    for (const key of new Set([...want.keys(), ...have.keys()])) {
      const e = want.get(key) ?? 0;
      const a = have.get(key) ?? 0;
      if (e !== a) differences.push({ table, key, expected: e, actual: a });
    }
  };
  const mine = <T extends { organizationId: string; day: string }>(rows: T[]) =>
    rows.filter((r) => (!organizationId || r.organizationId === organizationId) && r.day >= keptFrom);
  compare(
    'ProviderDailyCount',
    new Map(mine(expected.providerDays).map((r) => [`${r.providerId}/${r.day}`, r.count])),
    new Map(providerRows.map((r) => [`${r.providerId}/${r.day}`, r.count])),
  );
  compare(
    'VoterDailyCount',
    new Map(mine(expected.voterDays).map((r) => [`${r.providerId}/${r.voterKey}/${r.day}`, r.count])),
    new Map(voterRows.map((r) => [`${r.providerId}/${r.voterKey}/${r.day}`, r.count])),
  );
  return differences;
}

/**
 * Replaces the rollup rows (of one organization, or all) with what the raw votes say, in one transaction.
 * On PostgreSQL the rollup tables are locked first: a vote being written waits, then adds itself on top of the
 * rebuilt rows, so nothing is counted twice or lost. SQLite has a single writer anyway.
 */
export async function rebuildRollups(db: Database, organizationId?: string): Promise<{ providerDays: number; voterDays: number }> {
  const pg = db.dialect === 'postgresql';
  const day = daySql(db, '"receivedAt"');
  const keptFrom = (await votesKeptFrom(db.prisma)) ?? '';
  // Only the days whose raw votes are all kept: $1 (or the first ?) is the horizon, then the organization.
  const p = (n: number) => (pg ? `$${n}` : '?');
  const filter = `WHERE day >= ${p(1)}${organizationId ? ` AND "organizationId" = ${p(2)}` : ''}`;
  const voteFilter = `WHERE ${realVotesSql()} AND ${day} >= ${p(1)}${organizationId ? ` AND "organizationId" = ${p(2)}` : ''}`;
  const args = organizationId ? [keptFrom, organizationId] : [keptFrom];
  return db.prisma.$transaction(
    async (tx) => {
      if (pg) await tx.$executeRawUnsafe('LOCK TABLE "ProviderDailyCount", "VoterDailyCount" IN EXCLUSIVE MODE');
      await tx.$executeRawUnsafe(`DELETE FROM "ProviderDailyCount" ${filter}`, ...args);
      await tx.$executeRawUnsafe(`DELETE FROM "VoterDailyCount" ${filter}`, ...args);
      const providerDays = await tx.$executeRawUnsafe(
        `INSERT INTO "ProviderDailyCount" ("organizationId", "providerId", day, count)
         SELECT "organizationId", "providerId", ${day}, COUNT(*) FROM "Vote" ${voteFilter} GROUP BY "organizationId", "providerId", ${day}`,
        ...args,
      );
      // The spelling shown is the day's latest vote's, as the writers keep it (votes/voter-name.ts).
      const voterDays = await tx.$executeRawUnsafe(
        `INSERT INTO "VoterDailyCount" ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
         SELECT g."organizationId", g."providerId", g."voterKey", g.day, ${latestSpellingSql((column) => daySql(db, column))}, g.count, g."lastVoteAt"
         FROM (SELECT "organizationId", "providerId", "voterKey", ${day} AS day, COUNT(*) AS count, MAX("receivedAt") AS "lastVoteAt"
               FROM "Vote" ${voteFilter} GROUP BY "organizationId", "providerId", "voterKey", ${day}) AS g`,
        ...args,
      );
      // Counts may have changed either way: cached leaderboards must rank again (stats/leaderboard.ts).
      await tx.$executeRawUnsafe(
        `UPDATE "Organization" SET "statsEpoch" = "statsEpoch" + 1 ${organizationId ? (pg ? 'WHERE id = $1' : 'WHERE id = ?') : ''}`,
        ...(organizationId ? [organizationId] : []),
      );
      return { providerDays, voterDays };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}
