// Consistency of the per-day rollups: recompute them from raw votes and compare (`cli stats verify`), or replace
// them (`cli stats rebuild`). Raw SQL, written once; what differs by database (the day of a timestamp, parameters,
// the lock that holds vote writers off) comes from its folder (RollupSql). Days before the retention horizon
// (`keptFrom`, src/retention/retention.ts) have no raw votes any more: their rollups are the record, neither compared
// nor replaced. Test votes are in no rollup (README "Test votes"), so they are left out here too.
//
// Voter standings (README "Rewards") are checked against the rollups, which hold every counted vote whatever
// retention removed: a standing follows from its voter's days (src/domain/voter-standing.ts), which are their
// per-provider days (VoterDailyCount, UTC) summed per day, or, for an organization whose days are not UTC days
// (localDaysKept), their VoterDay rows, which must add up to the same total. A rebuild makes the standings again
// from those rows. A voter's total on each site, kept with their standing, is their VoterDailyCount rows there.
import { latestSpellingSql } from '../domain/voter-name.js';
import { realVotesSql } from '../domain/votes.js';
import { providerTotalsOf, standingFromDays, type ProviderTotals } from '../domain/voter-standing.js';
import type { Db, RollupDifference, Rollups, Tx } from './ports.js';

/**
 * Options of a Prisma transaction that copies or recounts an organization's standings (a first non-UTC time zone, a
 * provider's deletion): on a large organization that takes longer than Prisma's 5 s default.
 */
export const RECOUNT_TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

/** What the rollup statements need of one database's SQL. */
export interface RollupSql {
  /** The UTC day ('YYYY-MM-DD') of a timestamp column. */
  day(column: string): string;
  /** The n-th (1-based) parameter. */
  param(n: number): string;
  /** Run first in a transaction that must hold off vote writers (null: nothing to run). */
  lockRollups: string | null;
  /**
   * Statements (in order) that hold off the vote writers of one organization's rewards while its local days or party
   * change (null: nothing to run).
   */
  lockRewards: ((organizationId: string) => string[]) | null;
}

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

export function createRollups(prisma: Db, sql: RollupSql): Rollups {
  return {
    verify: (keptFrom, organizationId) => verifyRollups(prisma, sql, keptFrom, organizationId),
    rebuild: (keptFrom, organizationId) => rebuildRollups(prisma, sql, keptFrom, organizationId),
    async lockAgainstVoteWriters(tx: Tx) {
      if (sql.lockRollups) await tx.$executeRawUnsafe(sql.lockRollups);
    },
    recountStandings: (tx: Tx, organizationId: string, voterKeys?: string[]) => rebuildStandings(tx, organizationId, voterKeys),
    async lockRewards(tx: Tx, organizationId: string) {
      for (const statement of sql.lockRewards?.(organizationId) ?? []) await tx.$executeRawUnsafe(statement);
    },
  };
}

async function fromVotes(prisma: Db, sql: RollupSql, organizationId?: string) {
  const day = sql.day('"receivedAt"');
  const filter = `WHERE ${realVotesSql()}${organizationId ? ` AND "organizationId" = ${sql.param(1)}` : ''}`;
  const args = organizationId ? [organizationId] : [];
  const providerDays = await prisma.$queryRawUnsafe<ProviderDay[]>(
    `SELECT "organizationId", "providerId", ${day} AS day, COUNT(*) AS count FROM "Vote" ${filter} GROUP BY "organizationId", "providerId", ${day}`,
    ...args,
  );
  const voterDays = await prisma.$queryRawUnsafe<VoterDay[]>(
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

/** Every key whose count differs between what should be (`expected`) and what is (`actual`); a missing key is 0. */
function differencesOf(table: RollupDifference['table'], expected: Map<string, number>, actual: Map<string, number>): RollupDifference[] {
  return [...new Set([...expected.keys(), ...actual.keys()])].flatMap((key) => {
    const e = expected.get(key) ?? 0;
    const a = actual.get(key) ?? 0;
    return e === a ? [] : [{ table, key, expected: e, actual: a }];
  });
}

async function verifyRollups(prisma: Db, sql: RollupSql, keptFrom: string, organizationId?: string): Promise<RollupDifference[]> {
  const expected = await fromVotes(prisma, sql);
  const where = { ...(organizationId ? { organizationId } : {}), day: { gte: keptFrom } };
  const [providerRows, voterRows] = await Promise.all([
    prisma.providerDailyCount.findMany({ where }),
    prisma.voterDailyCount.findMany({ where, select: { providerId: true, voterKey: true, day: true, count: true, organizationId: true } }),
  ]);
  const differences: RollupDifference[] = [];
  const compare = (table: RollupDifference['table'], want: Map<string, number>, have: Map<string, number>) =>
    differences.push(...differencesOf(table, want, have));
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
  differences.push(...(await verifyStandings(prisma, organizationId)));
  return differences;
}

/** The standings' rows as the rollups say they should be (see the head of this file). */
async function standingsFromRollups(prisma: Db, organizationId?: string, voterKeys?: string[]) {
  const where = { ...(organizationId ? { organizationId } : {}), ...(voterKeys ? { voterKey: { in: voterKeys } } : {}) };
  const kept = (
    await prisma.organization.findMany({ where: { ...(organizationId ? { id: organizationId } : {}), localDaysKept: true }, select: { id: true } })
  ).map((o) => o.id);
  const [perSite, utcDays, localDays] = await Promise.all([
    prisma.voterDailyCount.groupBy({ by: ['organizationId', 'voterKey', 'providerId'], where, _sum: { count: true }, _max: { lastVoteAt: true } }),
    prisma.voterDailyCount.groupBy({
      by: ['organizationId', 'voterKey', 'day'],
      where: { ...where, organizationId: { ...(organizationId ? { equals: organizationId } : {}), notIn: kept } },
      _sum: { count: true },
    }),
    kept.length > 0
      ? prisma.voterDay.findMany({
          where: { organizationId: { in: kept }, ...(voterKeys ? { voterKey: { in: voterKeys } } : {}) },
          select: { organizationId: true, voterKey: true, day: true, count: true },
        })
      : [],
  ]);
  const daysOf = new Map<string, { day: string; count: number }[]>();
  const add = (organizationId_: string, voterKey: string, day: string, count: number) => {
    const key = `${organizationId_}/${voterKey}`;
    daysOf.set(key, [...(daysOf.get(key) ?? []), { day, count }]);
  };
  for (const d of utcDays) add(d.organizationId, d.voterKey, d.day, d._sum.count ?? 0);
  for (const d of localDays) add(d.organizationId, d.voterKey, d.day, d.count);
  // Each voter's votes, latest vote and total on each site, from their rows per site.
  const voters = new Map<string, { organizationId: string; voterKey: string; total: number; lastVoteAt: Date; providerTotals: ProviderTotals }>();
  for (const g of perSite) {
    const key = `${g.organizationId}/${g.voterKey}`;
    const count = g._sum.count ?? 0;
    const voter = voters.get(key) ?? { organizationId: g.organizationId, voterKey: g.voterKey, total: 0, lastVoteAt: g._max.lastVoteAt!, providerTotals: {} };
    voter.total += count;
    if (g._max.lastVoteAt! > voter.lastVoteAt) voter.lastVoteAt = g._max.lastVoteAt!;
    if (count) voter.providerTotals[g.providerId] = count;
    voters.set(key, voter);
  }
  return { kept: new Set(kept), voters, daysOf };
}

async function verifyStandings(prisma: Db, organizationId?: string): Promise<RollupDifference[]> {
  const where = organizationId ? { organizationId } : {};
  const want = await standingsFromRollups(prisma, organizationId);
  const standings = await prisma.voterStanding.findMany({ where });
  const differences: RollupDifference[] = [];
  // An organization's local days add up to its voters' per-provider days.
  const keptVoters = [...want.voters.values()].filter((v) => want.kept.has(v.organizationId));
  differences.push(
    ...differencesOf(
      'VoterDay',
      new Map(keptVoters.map((r) => [`${r.organizationId}/${r.voterKey}`, r.total])),
      new Map([...want.daysOf].filter(([key]) => want.kept.has(key.split('/')[0])).map(([key, days]) => [key, days.reduce((sum, d) => sum + d.count, 0)])),
    ),
  );
  // Each number of a standing, as its voter's days give it.
  const stored = new Map(standings.map((s) => [`${s.organizationId}/${s.voterKey}`, s]));
  for (const key of new Set([...want.daysOf.keys(), ...stored.keys()])) {
    const expected = standingFromDays(want.daysOf.get(key) ?? []);
    const actual = stored.get(key);
    for (const field of ['total', 'monthTotal', 'streakDays', 'bestStreakDays'] as const) {
      const e = expected?.[field] ?? 0;
      const a = actual?.[field] ?? 0;
      if (e !== a) differences.push({ table: 'VoterStanding', key: `${key}/${field}`, expected: e, actual: a });
    }
    // Each site total it carries, as the voter's day rows on that site give it.
    const wantTotals = want.voters.get(key)?.providerTotals ?? {};
    const haveTotals = actual ? providerTotalsOf(actual.providerTotalsJson) : {};
    for (const providerId of new Set([...Object.keys(wantTotals), ...Object.keys(haveTotals)])) {
      const [e, a] = [wantTotals[providerId] ?? 0, haveTotals[providerId] ?? 0];
      if (e !== a) differences.push({ table: 'VoterStanding', key: `${key}/providerTotals/${providerId}`, expected: e, actual: a });
    }
  }
  return differences;
}

/** Replaces the standings with what the rollups say (inside the rebuild's transaction). */
async function rebuildStandings(tx: Tx, organizationId?: string, voterKeys?: string[]): Promise<number> {
  const want = await standingsFromRollups(tx as unknown as Db, organizationId, voterKeys);
  const where = { ...(organizationId ? { organizationId } : {}), ...(voterKeys ? { voterKey: { in: voterKeys } } : {}) };
  await tx.voterStanding.deleteMany({ where });
  const standings = [...want.daysOf].flatMap(([key, days]) => {
    const standing = standingFromDays(days);
    const voter = want.voters.get(key);
    if (!standing || !voter) return [];
    const { organizationId: id, voterKey, lastVoteAt, providerTotals } = voter;
    return [{ organizationId: id, voterKey, ...standing, lastVoteAt, providerTotalsJson: JSON.stringify(providerTotals) }];
  });
  await tx.voterStanding.createMany({ data: standings });
  return standings.length;
}

/**
 * Replaces the rollup rows (of one organization, or all) with what the raw votes say, in one transaction.
 * On PostgreSQL the rollup tables are locked first: a vote being written waits, then adds itself on top of the
 * rebuilt rows, so nothing is counted twice or lost. SQLite has a single writer anyway.
 */
async function rebuildRollups(
  prisma: Db,
  sql: RollupSql,
  keptFrom: string,
  organizationId?: string,
): Promise<{ providerDays: number; voterDays: number; voterStandings: number }> {
  const day = sql.day('"receivedAt"');
  // Only the days whose raw votes are all kept: the first parameter is the horizon, then the organization.
  const p = sql.param;
  const filter = `WHERE day >= ${p(1)}${organizationId ? ` AND "organizationId" = ${p(2)}` : ''}`;
  const voteFilter = `WHERE ${realVotesSql()} AND ${day} >= ${p(1)}${organizationId ? ` AND "organizationId" = ${p(2)}` : ''}`;
  const args = organizationId ? [keptFrom, organizationId] : [keptFrom];
  return prisma.$transaction(
    async (tx) => {
      if (sql.lockRollups) await tx.$executeRawUnsafe(sql.lockRollups);
      await tx.$executeRawUnsafe(`DELETE FROM "ProviderDailyCount" ${filter}`, ...args);
      await tx.$executeRawUnsafe(`DELETE FROM "VoterDailyCount" ${filter}`, ...args);
      const providerDays = await tx.$executeRawUnsafe(
        `INSERT INTO "ProviderDailyCount" ("organizationId", "providerId", day, count)
         SELECT "organizationId", "providerId", ${day}, COUNT(*) FROM "Vote" ${voteFilter} GROUP BY "organizationId", "providerId", ${day}`,
        ...args,
      );
      // The spelling shown is the day's latest vote's, as the writers keep it (src/domain/voter-name.ts).
      const voterDays = await tx.$executeRawUnsafe(
        `INSERT INTO "VoterDailyCount" ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
         SELECT g."organizationId", g."providerId", g."voterKey", g.day, ${latestSpellingSql(sql.day)}, g.count, g."lastVoteAt"
         FROM (SELECT "organizationId", "providerId", "voterKey", ${day} AS day, COUNT(*) AS count, MAX("receivedAt") AS "lastVoteAt"
               FROM "Vote" ${voteFilter} GROUP BY "organizationId", "providerId", "voterKey", ${day}) AS g`,
        ...args,
      );
      const voterStandings = await rebuildStandings(tx, organizationId);
      // Counts may have changed either way: cached leaderboards must rank again (stats/leaderboard.ts).
      await tx.$executeRawUnsafe(
        `UPDATE "Organization" SET "statsEpoch" = "statsEpoch" + 1 ${organizationId ? `WHERE id = ${p(1)}` : ''}`,
        ...(organizationId ? [organizationId] : []),
      );
      return { providerDays, voterDays, voterStandings };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}
