// The job queue on embedded SQLite (job-queue.ts): claims, lease renewals and attempt records are the SQLite hot
// writes (src/db/hot-writes.ts, statements in sqlite-writes.ts here): a single writer, so one atomic
// UPDATE … RETURNING claims; what arrives while a batch is being written shares the next transaction and fsync.
import type { Database } from '../../db/client.js';
import type { SqliteHotWrites } from '../../db/hot-writes.js';
import { enqueueWithPrisma, holdWithPrisma, leaseStillCovers, requeueFailedWithPrisma, type ClaimedJob, type JobQueue } from './job-queue.js';

export interface SqliteJobQueue extends JobQueue {
  readonly dialect: 'sqlite';
}

export function createSqliteJobQueue(db: Database, writes: SqliteHotWrites): SqliteJobQueue {
  const leased = (rows: ClaimedJob[], until: number) => rows.map((r) => ({ ...r, leaseUntil: until }));
  const claim = async (holder: string, now: Date, leaseMs: number, limit: number, organizationId?: string) => {
    const until = now.getTime() + leaseMs;
    return leased(await writes.claims.submit({ holder, now: now.getTime(), until, limit, organizationId }), until);
  };

  return {
    dialect: 'sqlite',
    claim: (workerId, now, leaseMs, limit) => claim(workerId, now, leaseMs, limit),
    claimPull: (holder, organizationId, now, leaseMs, limit) => claim(holder, now, leaseMs, limit, organizationId),
    async renew(job, workerId, now, leaseMs, needMs = 0) {
      if (leaseStillCovers(job, now, needMs)) return true;
      job.leaseUntil = now.getTime() + leaseMs;
      return writes.renewals.submit({ jobId: job.id, holder: workerId, now: now.getTime(), until: job.leaseUntil });
    },
    hold: (jobId, holder) => holdWithPrisma(db, jobId, holder),
    finish: (job, workerId, now, attempt, resolution, errorText) => writes.finishes.submit({ job, workerId, now, attempt, resolution, errorText }),
    requeueFailed: (voteId, now, budget) => requeueFailedWithPrisma(db, voteId, now, budget),
    enqueue: (tx, jobs) => enqueueWithPrisma(tx, jobs),
    // The writes are closed with the database (they also carry the votes).
    close: () => {},
  };
}
