// What both databases' report reads share (ports.ts, Reports): the job kinds and statuses the failing-callbacks panel
// looks through, and its rows as the port returns them.
import type { Db, FailedAttempts } from './ports.js';
import { TO_CALLBACKS } from '../domain/jobs.js';

/** The job kinds a callback sends (domain TO_CALLBACKS), as a SQL list. */
export const CALLBACK_JOB_KINDS = [...TO_CALLBACKS].map((kind) => `'${kind}'`).join(', ');

/** Every status a job with a failed attempt in the window can be in. */
export const FAILED_ATTEMPT_STATUSES = `'pending', 'running', 'retrying', 'held', 'sent', 'failed'`;

/** Raw rows (counts and times as the driver returns them: numbers, bigints) as the port's. */
export const failedAttemptsOf = (
  rows: { callbackId: string; failedAttempts: number | bigint; lastFailedAt: number | bigint; lastError: string | null }[],
): FailedAttempts[] =>
  rows.map((r) => ({
    callbackId: r.callbackId,
    failedAttempts: Number(r.failedAttempts),
    lastFailedAt: new Date(Number(r.lastFailedAt)),
    lastError: r.lastError,
  }));

/** The health check: the write thread alive, and the database answering. */
export async function pingStorage(alive: () => boolean, prisma: Db): Promise<void> {
  if (!alive()) throw Object.assign(new Error('The write thread stopped'), { code: 'WRITE_THREAD_GONE' });
  await prisma.$queryRawUnsafe('SELECT 1');
}
