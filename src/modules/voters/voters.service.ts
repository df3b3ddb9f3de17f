// A voter's erasure (the README's Retention and erasure): every vote of one voter in every provider of the
// organization goes, with its stored payload, delivery jobs and attempts (foreign-key cascades), and the voter's
// per-day rollup rows; the per-provider day counts lose exactly what the voter's rows counted, so statistics stay
// consistent (`cli stats verify`) even for days whose raw votes retention has already removed.
import type { AppDeps } from '../../app-deps.js';
import { validationError } from '../../errors.js';
import { MAX_VOTER_NAME_LENGTH } from '../votes/ingest.service.js';
import { voterKeyOf } from '../votes/voter-name.js';

export interface ErasedVoter {
  voterName: string;
  votesDeleted: number;
  attemptsDeleted: number;
  rollupRowsDeleted: number;
}

export function createVoterService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function erase(organizationId: string, voterName: string): Promise<ErasedVoter> {
    const name = voterName.trim();
    if (!name || name.length > MAX_VOTER_NAME_LENGTH) {
      throw validationError([{ field: 'voter_name', message: `must be 1-${MAX_VOTER_NAME_LENGTH} characters` }]);
    }
    const voterKey = voterKeyOf(name);
    return prisma.$transaction(
      async (tx) => {
        // Vote writers must not add to this voter's rows between the reads and the deletes: PostgreSQL locks the
        // rollup tables (a vote being written waits, as for `stats rebuild`); on SQLite the first write takes the
        // database's single write lock.
        if (deps.db.dialect === 'postgresql') await tx.$executeRawUnsafe('LOCK TABLE "ProviderDailyCount", "VoterDailyCount" IN EXCLUSIVE MODE');
        // Counts go down: cached leaderboards rank afresh (stats/leaderboard.ts).
        await tx.organization.update({ where: { id: organizationId }, data: { statsEpoch: { increment: 1 } } });
        const rows = await tx.voterDailyCount.findMany({ where: { organizationId, voterKey }, select: { providerId: true, day: true, count: true } });
        for (const row of rows) {
          await tx.providerDailyCount.updateMany({ where: { providerId: row.providerId, day: row.day }, data: { count: { decrement: row.count } } });
        }
        const emptied = await tx.providerDailyCount.deleteMany({ where: { organizationId, count: { lte: 0 } } });
        const attemptsDeleted = await tx.deliveryAttempt.count({ where: { organizationId, vote: { voterKey } } });
        const votes = await tx.vote.deleteMany({ where: { organizationId, voterKey } });
        const rollups = await tx.voterDailyCount.deleteMany({ where: { organizationId, voterKey } });
        return { voterName: name, votesDeleted: votes.count, attemptsDeleted, rollupRowsDeleted: rollups.count + emptied.count };
      },
      { timeout: 60_000 },
    );
  }

  return { erase };
}

export type VoterService = ReturnType<typeof createVoterService>;
