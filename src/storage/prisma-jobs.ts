// The job queue's rare writes, the same on both databases through Prisma: a vote's failed and uncertain jobs queued
// again (redeliver), a pull job handed to the plugin that settles it, and a job parked for an offline player.
import { voteStatusFrom } from '../domain/jobs.js';
import type { Db, Tx } from './ports.js';

export async function requeueFailedWithPrisma(prisma: Db, voteId: string, now: Date, budget: (kind: string) => number): Promise<number> {
  return prisma.$transaction(async (tx) => {
    // A write first, on the vote's row: on SQLite the transaction then holds the write lock from its start (a read
    // first could not be turned into a write once the delivery worker's connection had committed meanwhile:
    // SQLITE_BUSY at once), and two redelivers of one vote take turns on both databases.
    await tx.vote.updateMany({ where: { id: voteId }, data: { callbackAttempts: { increment: 0 } } });
    // Uncertain ones too (README "Delivery guarantees"): the owner asks for this resend on purpose.
    const failed = await tx.deliveryJob.findMany({ where: { voteId, status: { in: ['failed', 'uncertain'] } } });
    for (const job of failed) {
      await tx.deliveryJob.update({
        where: { id: job.id },
        data: { status: 'pending', runAt: now, maxAttempts: job.attempts + budget(job.kind), lockedBy: null, lockedUntil: null, sendingAt: null },
      });
    }
    if (failed.length > 0) await refreshVoteStatuses(tx, voteId);
    return failed.length;
  });
}

export async function holdWithPrisma(prisma: Db, jobId: string, holder: string): Promise<void> {
  await prisma.deliveryJob.updateMany({ where: { id: jobId, status: { not: 'sent' } }, data: { lockedBy: holder } });
}

export async function parkWithPrisma(prisma: Db, jobId: string, holder: string, now: Date): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const parked = await tx.deliveryJob.updateMany({
      where: { id: jobId, status: { notIn: ['sent', 'failed', 'skipped', 'uncertain'] } },
      // Nothing left for the player (RCON asks `list` before any command): the mark goes with the lease.
      data: { status: 'parked', parkedAt: now, parkedBy: holder, lockedBy: null, lockedUntil: null, sendingAt: null, lastError: 'player_offline' },
    });
    if (parked.count === 0) return false;
    // A pull job given up before it was parked is waiting again: the vote's statuses say so.
    const job = await tx.deliveryJob.findUniqueOrThrow({ where: { id: jobId }, select: { voteId: true } });
    if (job.voteId) await refreshVoteStatuses(tx, job.voteId);
    return true;
  });
}

/** A vote's chat and callback statuses again from its jobs (voteStatusFrom), after a write outside a batch of finishes. */
async function refreshVoteStatuses(tx: Tx, voteId: string): Promise<void> {
  const jobs = await tx.deliveryJob.findMany({
    where: { voteId },
    select: { kind: true, status: true, attempts: true, sentAt: true, callbackId: true, createdAt: true },
  });
  await tx.vote.update({ where: { id: voteId }, data: voteStatusFrom(jobs) });
}
