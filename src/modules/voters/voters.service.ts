// A voter's erasure (the README's Retention and erasure): every vote of one voter in every provider of the
// organization goes, with its stored payload, delivery jobs and attempts (foreign-key cascades), and the voter's
// per-day rollup rows; the per-provider day counts lose exactly what the voter's rows counted, so statistics stay
// consistent (`cli stats verify`) even for days whose raw votes retention has already removed.
import type { AppDeps } from '../../app-deps.js';
import { validationError } from '../../errors.js';
import { MAX_VOTER_NAME_LENGTH } from '../votes/ingest.service.js';
import { voterIdByName } from '../../storage/voter-lookup.js';
import { TEST_VOTER_PREFIX } from '../../domain/voter-identity.js';
import { EVENT_JOB_KIND, type EventData } from '../../domain/reward-events.js';
import { deleteReminders } from '../../storage/reminder-store.js';

/** Votes removed per transaction before the counts are adjusted. */
const ERASE_BATCH = 1_000;

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
    // The voter the name names (README "Voters"), and the owner's test votes under that name (they make no voter).
    const voterId = await voterIdByName(prisma, organizationId, name);
    const voterKey = { in: [...(voterId ? [voterId] : []), `${TEST_VOTER_PREFIX}${name.toLowerCase()}`] };
    const names = new Set([name.toLowerCase()]);
    if (voterId) {
      const identities = await prisma.voterIdentity.findMany({ where: { voterId }, select: { value: true } });
      for (const i of identities) names.add(i.value);
    }
    // The organization inside the relation filter too, so the (organizationId, voterKey, receivedAt) index finds the votes.
    const attemptsDeleted = await prisma.deliveryAttempt.count({ where: { organizationId, vote: { organizationId, voterKey } } });
    // The votes first, in batches, each its own short transaction (their jobs and attempts go with them), so no
    // lock is held while a voter's whole history is removed.
    let votesDeleted = 0;
    for (;;) {
      const ids = await prisma.vote.findMany({ where: { organizationId, voterKey }, select: { id: true }, take: ERASE_BATCH });
      if (ids.length === 0) break;
      votesDeleted += (await prisma.vote.deleteMany({ where: { id: { in: ids.map((v) => v.id) } } })).count;
    }
    // Then the counts, briefly locked against vote writers: PostgreSQL locks the rollup tables (a vote being written
    // waits, as for `stats rebuild`); on SQLite the first write takes the database's single write lock. A vote of
    // this voter that arrived meanwhile goes too, so the counts taken off are exactly the votes removed.
    const rollups = await prisma.$transaction(
      async (tx) => {
        await deps.db.rollups.lockAgainstVoteWriters(tx);
        // Counts go down: cached leaderboards rank afresh (stats/leaderboard.ts).
        await tx.organization.update({ where: { id: organizationId }, data: { statsEpoch: { increment: 1 } } });
        votesDeleted += (await tx.vote.deleteMany({ where: { organizationId, voterKey } })).count;
        const rows = await tx.voterDailyCount.findMany({ where: { organizationId, voterKey }, select: { providerId: true, day: true, count: true } });
        for (const row of rows) {
          await tx.providerDailyCount.updateMany({ where: { providerId: row.providerId, day: row.day }, data: { count: { decrement: row.count } } });
        }
        const emptied = await tx.providerDailyCount.deleteMany({ where: { organizationId, count: { lte: 0 } } });
        const deleted = await tx.voterDailyCount.deleteMany({ where: { organizationId, voterKey } });
        // The voter's standing (README "Rewards") goes with them: a returning voter starts from nothing.
        const standings =
          (await tx.voterStanding.deleteMany({ where: { organizationId, voterKey } })).count +
          (await tx.voterDay.deleteMany({ where: { organizationId, voterKey } })).count;
        // Their reminders (README "Reminders") and opt-out go too, and reminder events queued for them after the
        // vote that set them was gone (a reminder's job otherwise goes with its vote).
        const reminders =
          (voterId ? await deleteReminders(tx, organizationId, { voterKey: voterId }) : 0) +
          (await tx.reminderOptOut.deleteMany({ where: { organizationId, voterKey } })).count;
        const orphanEvents = await tx.deliveryJob.findMany({
          where: { organizationId, kind: EVENT_JOB_KIND, voteId: null },
          select: { id: true, payloadJson: true },
        });
        const theirs = orphanEvents.filter((job) => {
          const data = JSON.parse(job.payloadJson ?? '{}') as EventData;
          if (data.event !== 'reminder') return false;
          return data.reminder.voterId ? data.reminder.voterId === voterId : names.has(data.reminder.voterName.toLowerCase());
        });
        if (theirs.length > 0) await tx.deliveryJob.deleteMany({ where: { id: { in: theirs.map((job) => job.id) } } });
        // The voter itself: who they were (their identities) goes with what they did.
        if (voterId) {
          await tx.voterIdentity.deleteMany({ where: { voterId } });
          await tx.voter.deleteMany({ where: { id: voterId } });
        }
        return deleted.count + emptied.count + standings + reminders + theirs.length;
      },
      { timeout: 60_000 },
    );
    return { voterName: name, votesDeleted, attemptsDeleted, rollupRowsDeleted: rollups };
  }

  return { erase };
}

export type VoterService = ReturnType<typeof createVoterService>;
