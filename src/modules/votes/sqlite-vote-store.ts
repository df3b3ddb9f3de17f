// The embedded-SQLite hook path: the target read by prepared statements on this thread's connection, the vote
// written by the SQLite hot writes (src/db/hot-writes.ts; the write itself in sqlite-vote-write.ts): every vote
// that arrives while a transaction is being written joins the next one, so one fsync (synchronous=FULL)
// acknowledges many votes. Each caller's promise resolves only after its commit.
import type Sqlite from 'better-sqlite3';
import type { SqliteHotWrites } from '../../db/hot-writes.js';
import type { HookOrg, HookProvider, VoteStore } from './vote-store.js';

export function createSqliteVoteStore(db: Sqlite.Database, writes: SqliteHotWrites): VoteStore {
  const orgBySlug = db.prepare('SELECT id, slug, plan, status, chatNotificationsEnabled, chatWebhookUrl, serverCallbackUrl FROM "Organization" WHERE slug = ?');
  const providerByKey = db.prepare(
    `SELECT id, key, authMethod, authField, authValueEnc, authTimestampField, signatureFormat, payloadSource, voteePath, eventPath, voteEventsJson, testEventsJson, enabled,
       bodyTimestampPath, bodyTimestampMaxAgeS
     FROM "Provider" WHERE organizationId = ? AND key = ?`,
  );
  const toOrg = (row: Record<string, unknown> | undefined): HookOrg | null =>
    row ? ({ ...row, chatNotificationsEnabled: row.chatNotificationsEnabled === 1 } as unknown as HookOrg) : null;
  const toProvider = (row: Record<string, unknown> | undefined): HookProvider | null =>
    row ? ({ ...row, enabled: row.enabled === 1 } as unknown as HookProvider) : null;

  return {
    async findTarget(slug, key) {
      const org = toOrg(orgBySlug.get(slug) as Record<string, unknown> | undefined);
      return org && { org, provider: toProvider(providerByKey.get(org.id, key) as Record<string, unknown> | undefined) };
    },
    write: (vote) => writes.votes.submit(vote),
    // The writes are closed with the database (they also carry the job queue's).
    close: () => {},
  };
}
