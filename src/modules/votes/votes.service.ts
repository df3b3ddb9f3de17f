// Reading one vote, its delivery log, and redelivering what failed.
import type { AppDeps } from '../../app-deps.js';
import { notFound } from '../../errors.js';
import type { Vote } from '../../generated/sqlite/client.js';
import { refreshVoteStatus } from '../../delivery/job-queue.js';
import { CHAT_MAX_ATTEMPTS } from './vote-store.js';

export function createVoteService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function get(organizationId: string, publicId: string): Promise<Vote> {
    const vote = await prisma.vote.findFirst({ where: { publicId, organizationId } });
    if (!vote) throw notFound('Vote');
    return vote;
  }

  /** Queues the vote's failed jobs again, each with a fresh attempt budget; history stays. */
  async function redeliver(organizationId: string, publicId: string): Promise<{ voteId: string; requeued: number }> {
    const vote = await get(organizationId, publicId);
    const now = deps.clock.now();
    const requeued = await prisma.$transaction(async (tx) => {
      const failed = await tx.deliveryJob.findMany({ where: { voteId: vote.id, status: 'failed' } });
      for (const job of failed) {
        const budget = job.kind === 'chat' ? CHAT_MAX_ATTEMPTS : deps.config.retryScheduleMs.length + 1;
        await tx.deliveryJob.update({
          where: { id: job.id },
          data: { status: 'pending', runAt: now, maxAttempts: job.attempts + budget, lockedBy: null, lockedUntil: null },
        });
      }
      if (failed.length > 0) await refreshVoteStatus(tx, vote.id);
      return failed.length;
    });
    if (requeued > 0) deps.events.publish('voteWritten', { organizationId, voteId: vote.id, publicId, providerKey: '' });
    return { voteId: publicId, requeued };
  }

  return { get, redeliver };
}

export type VoteService = ReturnType<typeof createVoteService>;
