// The storage on PostgreSQL (../ports.ts): Prisma and plain SQL on one pool, the hot writes on the write thread
// (writes.ts) or, in one-shot commands, on that pool; several instances share the database.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as PostgresClient } from '../../generated/postgresql/client.js';
import type { Config } from '../../config/config.js';
import { createGroupCommit } from '../group-commit.js';
import type { StorageOptions } from '../options.js';
import type { Db, FailedAttempts, Storage } from '../ports.js';
import { withQueryLog } from '../query-log.js';
import { createRollups } from '../rollups.js';
import { createReminderStore } from '../reminder-store.js';
import { CALLBACK_JOB_KINDS, FAILED_ATTEMPT_STATUSES, failedAttemptsOf, pingStorage } from '../reports.js';
import { openPgPool, serverOf } from './connection.js';
import { exportVotesPostgres } from './export.js';
import { createPostgresJobQueue, finishesWrite, marksWrite } from './jobs.js';
import { createPostgresPacer } from './pacer.js';
import { createPgVoteStore, rewardLockIds } from './votes.js';
import { createPgContextReads } from './context-reads.js';
import { pgCommit, pgWriters } from './writes.js';

export async function openPostgresStorage(config: Config, options: StorageOptions): Promise<Storage> {
  const queries = withQueryLog(options.countQueries);
  const pool = openPgPool(config.databaseUrl, options.poolSize ?? 10);
  const writes = pgWriters(config, options.planRules, pool, options.writeThread);
  // Minimal errors: the operator's log gets Prisma's message, not a frame of our source around the call.
  const prisma = new PostgresClient({ adapter: new PrismaPg(pool), log: queries.log, errorFormat: 'minimal' }) as unknown as Db;
  queries.attach(prisma);
  const finishes = createGroupCommit({ maxBatch: config.writeBatchMax, commit: pgCommit(pool, finishesWrite) });
  const marks = createGroupCommit({ maxBatch: config.writeBatchMax, commit: pgCommit(pool, marksWrite) });
  const jobs = createPostgresJobQueue(prisma, pool, finishes, marks);
  return {
    prisma,
    contexts: createPgContextReads(pool),
    votes: createPgVoteStore(config, pool, writes.votes),
    jobs,
    // Several instances take due reminders at once: each row goes to one of them (SKIP LOCKED), earliest first.
    reminders: createReminderStore(
      prisma,
      {
        text: `DELETE FROM "Reminder" AS r
               USING (SELECT "providerId", "voterKey" FROM "Reminder" WHERE "dueAt" <= $1::timestamp(3) ORDER BY "dueAt" LIMIT $2 FOR UPDATE SKIP LOCKED) AS d
               WHERE r."providerId" = d."providerId" AND r."voterKey" = d."voterKey"
               RETURNING r."organizationId", r."providerId", r."voterKey", r."voterName", (extract(epoch FROM r."dueAt") * 1000)::float8 AS "dueAt", r."voteId"`,
        at: (now) => now.toISOString(),
      },
      (tx, due) => jobs.enqueue(tx, due),
    ),
    hookLog: writes.hookLog,
    rollups: createRollups(prisma, {
      day: (column) => `to_char(${column}, 'YYYY-MM-DD')`,
      param: (n) => `$${n}`,
      // A vote being written waits, then adds itself on top of the rebuilt rows: nothing counted twice or lost.
      lockRollups: 'LOCK TABLE "ProviderDailyCount", "VoterDailyCount" IN EXCLUSIVE MODE',
      // The vote batches' own advisory locks (votes.ts lockStatement), in the order they take them.
      lockRewards: (organizationId) => rewardLockIds(organizationId).map((id) => `SELECT pg_advisory_xact_lock(${id}::bigint)`),
    }),
    reports: {
      async failedAttemptsSince(organizationId, dueSince, since): Promise<FailedAttempts[]> {
        const rows = await prisma.$queryRawUnsafe<{ callbackId: string; failedAttempts: number; lastFailedAt: number; lastError: string | null }[]>(
          `SELECT j."callbackId" AS "callbackId", COUNT(*)::int AS "failedAttempts",
             (extract(epoch FROM MAX(a."createdAt")) * 1000)::float8 AS "lastFailedAt",
             (array_agg(a.error ORDER BY a."createdAt" DESC))[1] AS "lastError"
           FROM "DeliveryJob" j JOIN "DeliveryAttempt" a ON a."jobId" = j.id
           WHERE j."organizationId" = $1 AND j.kind IN (${CALLBACK_JOB_KINDS}) AND j.status IN (${FAILED_ATTEMPT_STATUSES}) AND j."runAt" >= $2::timestamp(3)
             AND j."callbackId" IS NOT NULL AND a.success = false AND a."createdAt" >= $3::timestamp(3)
           GROUP BY j."callbackId"`,
          organizationId,
          dueSince.toISOString(),
          since.toISOString(),
        );
        return failedAttemptsOf(rows);
      },
      exportVotes: (organizationId, range, includeTests) => exportVotesPostgres(prisma, organizationId, range, includeTests),
      async hourlyVotes(providerId, from, toExclusive) {
        const rows = await prisma.$queryRawUnsafe<{ h: number; n: number }[]>(
          `SELECT floor(extract(epoch FROM "receivedAt") / 3600)::float8 AS h, COUNT(*)::int AS n FROM "Vote"
           WHERE "providerId" = $1 AND "receivedAt" >= $2::timestamp(3) AND "receivedAt" < $3::timestamp(3) AND test = false
           GROUP BY 1`,
          providerId,
          from.toISOString(),
          toExclusive.toISOString(),
        );
        return new Map(rows.map((r) => [Number(r.h), Number(r.n)]));
      },
    },
    pacer: createPostgresPacer(pool),
    describe: () => ({ kind: 'postgresql', location: serverOf(config.databaseUrl) }),
    alive: writes.alive,
    connect: writes.connect,
    ping: () => pingStorage(writes.alive, prisma),
    close: async () => {
      await writes.close();
      finishes.close();
      marks.close();
      await Promise.all([finishes.idle(), marks.idle()]);
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
    queryCount: queries.count,
  };
}
