// The reminder scheduler's take (ports.ts, ReminderStore), the same on both databases through a Prisma transaction
// but for the one statement that deletes due rows and returns them, which each database's folder writes: along the
// dueAt index, at most `limit` rows, so a tick never scans the table.
import type { NewJob } from '../domain/jobs.js';
import type { Db, DueReminder, ReminderStore, Tx } from './ports.js';

export interface ReminderTakeSql {
  /** Deletes and returns up to $2 rows due by $1 (the database's own placeholders and time parameter). */
  text: string;
  /** `now` as the statement's parameter (epoch ms on SQLite, an ISO text cast on PostgreSQL). */
  at: (now: Date) => unknown;
}

export function createReminderStore(prisma: Db, take: ReminderTakeSql, enqueue: (tx: Tx, jobs: NewJob[]) => Promise<number>): ReminderStore {
  return {
    takeDue: (now, limit, plan) =>
      prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<(Omit<DueReminder, 'dueAt'> & { dueAt: Date | number | string })[]>(take.text, take.at(now), limit);
        if (rows.length === 0) return { taken: 0, queued: 0 };
        const due = rows.map((row) => ({ ...row, dueAt: new Date(typeof row.dueAt === 'string' ? `${row.dueAt.replace(' ', 'T')}Z` : row.dueAt) }));
        const jobs = await plan(tx, due);
        const queued = jobs.length > 0 ? await enqueue(tx, jobs) : 0;
        return { taken: due.length, queued };
      }),
  };
}

/**
 * Deletes reminders of one organization: a voter's, or one site's. Along the primary key (providerId, voterKey) of
 * each of the organization's providers: the table has no foreign keys and no index by organization.
 */
export async function deleteReminders(tx: Tx, organizationId: string, where: { voterKey: string } | { providerId: string }): Promise<number> {
  if ('providerId' in where) return (await tx.reminder.deleteMany({ where: { organizationId, providerId: where.providerId } })).count;
  const providers = await tx.provider.findMany({ where: { organizationId }, select: { id: true } });
  return (await tx.reminder.deleteMany({ where: { voterKey: where.voterKey, providerId: { in: providers.map((p) => p.id) } } })).count;
}
