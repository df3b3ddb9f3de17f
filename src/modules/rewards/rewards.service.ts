// Rewards beyond a vote (README "Rewards"): the vote party's progress, and voters' reminder opt-outs. Milestone
// rules and the party and reminder settings are organization settings (organization.service.ts); the events are
// decided in the vote writers (src/domain/reward-events.ts) and by the reminder scheduler (reminder-scheduler.ts).
import type { AppDeps } from '../../app/deps.js';
import { validationError } from '../../base/errors.js';
import { voterIdByName, voterIdForName } from '../../storage/voter-lookup.js';
import { pageOf } from '../../base/validation.js';
import { deleteReminders } from '../../storage/reminder-store.js';
import { MAX_VOTER_NAME_LENGTH } from '../votes/ingest.service.js';

export interface VotePartyProgress {
  /** settings.vote_party_every is set. */
  enabled: boolean;
  every: number | null;
  /** The provider whose votes count (its key), or null: every site's. */
  provider: string | null;
  /** Counted votes since the party was set (or last changed). */
  count: number;
  /** Votes toward the next party: count mod every ("63 of 100"). */
  progress: number;
  remaining: number | null;
  /** Parties completed so far. */
  completed: number;
}

export interface ReminderOptOutRow {
  voterName: string;
  createdAt: Date;
}

export function createRewardService(deps: AppDeps) {
  const { prisma } = deps.db;

  /** The party's progress (enabled false when none is set). */
  async function partyProgress(organizationId: string): Promise<VotePartyProgress> {
    const org = await prisma.organization.findUniqueOrThrow({
      where: { id: organizationId },
      select: { votePartyEvery: true, votePartyProviderId: true, voteParty: { select: { count: true } } },
    });
    if (!org.votePartyEvery) return { enabled: false, every: null, provider: null, count: 0, progress: 0, remaining: null, completed: 0 };
    const provider = org.votePartyProviderId ? await prisma.provider.findUnique({ where: { id: org.votePartyProviderId }, select: { key: true } }) : null;
    const count = org.voteParty?.count ?? 0;
    const progress = count % org.votePartyEvery;
    return {
      enabled: true,
      every: org.votePartyEvery,
      provider: provider?.key ?? null,
      count,
      progress,
      remaining: org.votePartyEvery - progress,
      completed: Math.floor(count / org.votePartyEvery),
    };
  }

  function voterNameOf(voterName: string): string {
    const name = voterName.trim();
    if (!name || name.length > MAX_VOTER_NAME_LENGTH) {
      throw validationError([{ field: 'voter_name', message: `must be 1-${MAX_VOTER_NAME_LENGTH} characters` }]);
    }
    return name;
  }

  /**
   * Turns one voter's reminders off (a user who asked the bot to stop: their pending reminders go at once, and none
   * is scheduled for them again) or back on. Names match case-insensitively, as everywhere.
   */
  async function setReminders(organizationId: string, voterName: string, enabled: unknown): Promise<{ voterName: string; enabled: boolean }> {
    const name = voterNameOf(voterName);
    if (typeof enabled !== 'boolean') throw validationError([{ field: 'enabled', message: 'must be true or false' }]);
    await prisma.$transaction(async (tx) => {
      if (enabled) {
        const voterKey = await voterIdByName(tx, organizationId, name);
        if (voterKey) await tx.reminderOptOut.deleteMany({ where: { organizationId, voterKey } });
        return;
      }
      // The voter the name names (README "Voters"), made if they never voted yet: their first vote finds them.
      const voterKey = await voterIdForName(tx, organizationId, name, deps.clock.now());
      await tx.reminderOptOut.upsert({
        where: { organizationId_voterKey: { organizationId, voterKey } },
        create: { organizationId, voterKey, voterName: name, createdAt: deps.clock.now() },
        update: {},
      });
      await deleteReminders(tx, organizationId, { voterKey });
    });
    return { voterName: name, enabled };
  }

  /** The voters who turned reminders off, newest first. */
  async function optOuts(organizationId: string, input: { page?: number | null; limit?: number | null }) {
    const { page, limit } = pageOf(input, 50);
    const [rows, total] = await Promise.all([
      prisma.reminderOptOut.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { voterKey: 'asc' }],
        skip: (page - 1) * limit,
        take: limit,
        select: { voterName: true, createdAt: true },
      }),
      prisma.reminderOptOut.count({ where: { organizationId } }),
    ]);
    return { optOuts: rows as ReminderOptOutRow[], total, page, limit };
  }

  return { partyProgress, setReminders, optOuts };
}

export type RewardService = ReturnType<typeof createRewardService>;
