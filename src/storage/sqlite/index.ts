// The storage on embedded SQLite (../ports.ts): Prisma for the ordinary reads and writes, a better-sqlite3
// connection on this thread for the hook path's reads, and the hot writes on the write thread (writes.ts) or, in
// one-shot commands, on this thread.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient as SqliteClient } from '../../generated/sqlite/client.js';
import type { Config } from '../../config/config.js';
import type { StorageOptions } from '../options.js';
import { createMemoryPacer } from '../pacer.js';
import type { FailedAttempts, Storage } from '../ports.js';
import { withQueryLog } from '../query-log.js';
import { createRollups } from '../rollups.js';
import { createReminderStore } from '../reminder-store.js';
import { CALLBACK_JOB_KINDS, FAILED_ATTEMPT_STATUSES, failedAttemptsOf, pingStorage } from '../reports.js';
import { openSqliteConnection, sqlitePathFromUrl } from './connection.js';
import { exportRowsSqlite } from './export.js';
import { createSqliteJobQueue, type ClaimRequest } from './jobs.js';
import { createSqliteVoteStore } from './votes.js';
import { createSqliteContextReads } from './context-reads.js';
import { sqliteWriters } from './writes.js';
import type { AttemptWrite, BatchWriter, Renewal } from '../ports.js';
import type { ClaimedJob } from '../../domain/jobs.js';

/**
 * Takes the database's one write lock at once, first in a transaction that reads before it writes: a transaction
 * that read first and then writes after the write thread committed is refused outright (WAL's busy snapshot),
 * while one that asks for the lock first waits for it (busy_timeout). It writes one row, the first time only.
 */
const TAKE_WRITE_LOCK = `INSERT INTO "ServiceState" ("key", "value", "updatedAt") VALUES ('write_lock', '', 0) ON CONFLICT ("key") DO NOTHING`;

export async function openSqliteStorage(config: Config, options: StorageOptions): Promise<Storage> {
  const queries = withQueryLog(options.countQueries);
  const path = sqlitePathFromUrl(config.databaseUrl);
  if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
  // Integer epoch-ms timestamps: compact, and raw range scans compare numbers.
  const adapter = new PrismaBetterSqlite3({ url: path, timeout: 15_000 }, { timestampFormat: 'unixepoch-ms' });
  // Minimal errors: the operator's log gets Prisma's message, not a frame of our source around the call.
  const prisma = new SqliteClient({ adapter, log: queries.log, errorFormat: 'minimal' });
  queries.attach(prisma);
  // WAL lets readers run beside the single writer; FULL syncs each commit (an acknowledged vote survives power loss).
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await prisma.$queryRawUnsafe('PRAGMA synchronous = FULL');
  await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  await prisma.$queryRawUnsafe('PRAGMA busy_timeout = 15000');
  // timeout 0: never block the event loop waiting for a lock another connection holds; callers retry later.
  const sqlite = openSqliteConnection(path, 0);
  const writes = sqliteWriters(config, options.planRules, sqlite, options.writeThread);
  const jobs = createSqliteJobQueue(prisma, {
    claims: writes.claims as unknown as BatchWriter<ClaimRequest, ClaimedJob[]>,
    renewals: writes.renewals as unknown as BatchWriter<Renewal, boolean>,
    attempts: writes.attempts as unknown as BatchWriter<AttemptWrite, boolean>,
  });

  return {
    prisma,
    contexts: createSqliteContextReads(sqlite),
    votes: createSqliteVoteStore(sqlite, writes.votes as never),
    jobs,
    hookLog: writes.hookLog as never,
    // One writer: the take is atomic as it is.
    reminders: createReminderStore(
      prisma,
      {
        text: `DELETE FROM "Reminder" WHERE ("providerId", "voterKey") IN (SELECT "providerId", "voterKey" FROM "Reminder" WHERE "dueAt" <= ? ORDER BY "dueAt" LIMIT ?)
               RETURNING "organizationId", "providerId", "voterKey", "voterName", "dueAt", "voteId"`,
        at: (now) => now.getTime(),
      },
      (tx, due) => jobs.enqueue(tx, due),
    ),
    rollups: createRollups(prisma, {
      day: (column) => `strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`,
      param: () => '?',
      lockRollups: TAKE_WRITE_LOCK,
      lockRewards: () => [TAKE_WRITE_LOCK],
    }),
    reports: {
      async failedAttemptsSince(organizationId, dueSince, since): Promise<FailedAttempts[]> {
        // The bare a.error comes from the row holding MAX(a."createdAt") (SQLite's documented min/max rule).
        const rows = await prisma.$queryRawUnsafe<
          { callbackId: string; failedAttempts: number | bigint; lastFailedAt: number | bigint; lastError: string | null }[]
        >(
          `SELECT j."callbackId" AS "callbackId", COUNT(*) AS "failedAttempts", MAX(a."createdAt") AS "lastFailedAt", a.error AS "lastError"
           FROM "DeliveryJob" j JOIN "DeliveryAttempt" a ON a."jobId" = j.id
           WHERE j."organizationId" = ? AND j.kind IN (${CALLBACK_JOB_KINDS}) AND j.status IN (${FAILED_ATTEMPT_STATUSES}) AND j."runAt" >= ?
             AND j."callbackId" IS NOT NULL AND a.success = 0 AND a."createdAt" >= ?
           GROUP BY j."callbackId"`,
          organizationId,
          dueSince.getTime(),
          since.getTime(),
        );
        return failedAttemptsOf(rows);
      },
      exportVotes: (organizationId, range, includeTests) => exportRowsSqlite(path, organizationId, range, undefined, includeTests),
      async hourlyVotes(providerId, from, toExclusive) {
        const rows = await prisma.$queryRawUnsafe<{ h: number | bigint; n: number | bigint }[]>(
          `SELECT "receivedAt" / 3600000 AS h, COUNT(*) AS n FROM "Vote"
           WHERE "providerId" = ? AND "receivedAt" >= ? AND "receivedAt" < ? AND test = 0
           GROUP BY h`,
          providerId,
          from.getTime(),
          toExclusive.getTime(),
        );
        return new Map(rows.map((r) => [Number(r.h), Number(r.n)]));
      },
    },
    // One process sends: slots in memory.
    pacer: createMemoryPacer(),
    describe: () => ({ kind: 'sqlite', location: resolve(path) }),
    alive: writes.alive,
    connect: writes.connect,
    ping: () => pingStorage(writes.alive, prisma),
    close: async () => {
      await writes.close();
      if (sqlite.open) sqlite.close();
      await prisma.$disconnect();
    },
    queryCount: queries.count,
  };
}
