// The embedded-SQLite hook path: a dedicated better-sqlite3 connection, prepared statements, and the batch
// writer's SQLite driver — every vote that arrives while a transaction is being written joins the next one, so one
// fsync (synchronous=FULL) acknowledges many votes. Each caller's promise resolves only after its commit.
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type { AppDeps } from '../../app-deps.js';
import { createSqliteBatchWriter } from '../../db/batch-writer/sqlite.js';
import type { SqliteJobQueue } from '../../delivery/job-queue/sqlite.js';
import { spellingWinsSql, voterKeyOf } from './voter-name.js';
import { initialStatuses, planJobs } from '../../delivery/job-plan.js';
import { utcDay } from '../../time.js';
import {
  DUPLICATE_WINDOW_MS,
  monthRange,
  monthlyLimit,
  type HookOrg,
  type HookProvider,
  type NewVote,
  type StoredVote,
  type VoteStore,
} from './vote-store.js';

export function createSqliteVoteStore(deps: AppDeps, db: Sqlite.Database, queue: SqliteJobQueue): VoteStore {

  const orgBySlug = db.prepare(
    'SELECT id, slug, plan, status, chatNotificationsEnabled, chatWebhookUrl, serverCallbackUrl FROM "Organization" WHERE slug = ?',
  );
  const providerByKey = db.prepare(
    `SELECT id, key, authMethod, authField, authValueEnc, authTimestampField, signatureFormat, payloadSource, voteePath, eventPath, voteEventsJson, testEventsJson, enabled
     FROM "Provider" WHERE organizationId = ? AND key = ?`,
  );
  const findDuplicate = db.prepare(
    'SELECT publicId FROM "Vote" WHERE providerId = ? AND dedupKey = ? AND receivedAt >= ? ORDER BY receivedAt ASC LIMIT 1',
  );
  const findIdempotent = db.prepare(
    'SELECT publicId FROM "Vote" WHERE providerId = ? AND idempotencyKey = ? AND receivedAt >= ? ORDER BY receivedAt ASC LIMIT 1',
  );
  const monthCount = db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ? AND day <= ?');
  const enabledCallbacks = db.prepare(
    'SELECT id, priority FROM "Callback" WHERE organizationId = ? AND enabled = 1 ORDER BY priority ASC, createdAt ASC',
  );
  const activePluginTokens = db.prepare('SELECT COUNT(*) AS n FROM "PluginToken" WHERE organizationId = ? AND revokedAt IS NULL');
  const insertVote = db.prepare(
    `INSERT INTO "Vote" (id, publicId, organizationId, providerId, voterName, voterKey, receivedAt, rawPayload, dedupKey, idempotencyKey, overLimit, chatStatus, callbackStatus, callbackAttempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const bumpProviderDay = db.prepare(
    `INSERT INTO "ProviderDailyCount" (organizationId, providerId, day, count) VALUES (?, ?, ?, 1)
     ON CONFLICT (providerId, day) DO UPDATE SET count = count + 1`,
  );
  const bumpVoterDay = db.prepare(
    `INSERT INTO "VoterDailyCount" (organizationId, providerId, voterKey, day, voterName, count, lastVoteAt) VALUES (?, ?, ?, ?, ?, 1, ?)
     ON CONFLICT (providerId, voterKey, day) DO UPDATE SET count = count + 1,
       voterName = ${spellingWinsSql('"VoterDailyCount"')},
       lastVoteAt = MAX(lastVoteAt, excluded.lastVoteAt)`,
  );

  /** Writes a batch; per-organization facts (month count, callbacks) are read once per batch. */
  const writeBatch = (batch: NewVote[]): StoredVote[] => {
    const used = new Map<string, number>();
    const callbacksOf = new Map<string, { id: string; priority: number }[]>();
    const pullOf = new Map<string, boolean>();
    return batch.map((vote) => {
      const { org, provider, receivedAt } = vote;
      const at = receivedAt.getTime();
      const since = at - DUPLICATE_WINDOW_MS;
      const dup = (findDuplicate.get(provider.id, vote.dedupKey, since) ??
        (vote.idempotencyKey ? findIdempotent.get(provider.id, vote.idempotencyKey, since) : undefined)) as { publicId: string } | undefined;
      if (dup) return { id: null, publicId: dup.publicId, duplicate: true };

      if (!used.has(org.id)) {
        const month = monthRange(receivedAt);
        used.set(org.id, (monthCount.get(org.id, month.from, month.to) as { n: number }).n);
      }
      const overLimit = used.get(org.id)! >= monthlyLimit(org);
      if (!overLimit && !callbacksOf.has(org.id)) callbacksOf.set(org.id, enabledCallbacks.all(org.id) as { id: string; priority: number }[]);
      if (!overLimit && !pullOf.has(org.id)) pullOf.set(org.id, (activePluginTokens.get(org.id) as { n: number }).n > 0);
      const jobs = planJobs(deps.config, org, callbacksOf.get(org.id) ?? [], overLimit, pullOf.get(org.id) ?? false);

      const uuid = randomUUID();
      const voterKey = voterKeyOf(vote.voterName);
      const { chatStatus, callbackStatus } = initialStatuses(jobs);
      insertVote.run(
        uuid, `vt_${uuid}`, org.id, provider.id, vote.voterName, voterKey, at, vote.rawPayload, vote.dedupKey, vote.idempotencyKey, overLimit ? 1 : 0,
        chatStatus,
        callbackStatus,
      );
      queue.insertInTransaction(jobs.map((job) => ({ ...job, organizationId: org.id, voteId: uuid, runAt: receivedAt })));
      const day = utcDay(receivedAt);
      bumpProviderDay.run(org.id, provider.id, day);
      bumpVoterDay.run(org.id, provider.id, voterKey, day, vote.voterName, at);
      used.set(org.id, used.get(org.id)! + 1);
      return { id: uuid, publicId: `vt_${uuid}`, duplicate: false };
    });
  };

  const writer = createSqliteBatchWriter<NewVote, StoredVote>({ db, write: writeBatch, maxBatch: deps.config.writeBatchMax });

  const toOrg = (row: Record<string, unknown> | undefined): HookOrg | null =>
    row ? ({ ...row, chatNotificationsEnabled: row.chatNotificationsEnabled === 1 } as unknown as HookOrg) : null;
  const toProvider = (row: Record<string, unknown> | undefined): HookProvider | null =>
    row ? ({ ...row, enabled: row.enabled === 1 } as unknown as HookProvider) : null;

  return {
    async findTarget(slug, key) {
      const org = toOrg(orgBySlug.get(slug) as Record<string, unknown> | undefined);
      return org && { org, provider: toProvider(providerByKey.get(org.id, key) as Record<string, unknown> | undefined) };
    },
    write: (vote) => writer.submit(vote),
    close: () => writer.close(),
  };
}
