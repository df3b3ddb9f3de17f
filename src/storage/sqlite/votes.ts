// The embedded-SQLite hook path. The target is read by prepared statements on the main thread's connection; the
// vote write is one synchronous function that writes a batch of votes (each with its duplicate check, monthly
// limit, jobs and rollups) inside the transaction its caller holds, a named write (writes.ts) that runs on the write
// thread in the service, so an fsync never blocks the thread that parses requests. Every vote that arrives while a
// transaction is being written joins the next one, so one fsync (synchronous=FULL) acknowledges many votes.
import { timeOrderedId } from '../../base/time-ordered-id.js';
import type Sqlite from 'better-sqlite3';
import type { Config } from '../../config/config.js';
import { sentAtOnce, type ClaimedJob, type NewJob } from '../../domain/jobs.js';
import { attemptBudget, initialStatuses, planJobs, type PlanningCallback, type PlanRules } from '../../domain/job-plan.js';
import { rewardBatch } from '../../domain/reward-events.js';
import { utcDay } from '../../base/time.js';
import { spellingWins, spellingWinsSql } from '../../domain/voter-name.js';
import { ACCOUNT_KINDS, voterBatch, type FoundVoter, type Identity, type IdentityKind } from '../../domain/voter-identity.js';
import { countingOf, monthRange, type HookOrg, type HookProvider, type NewVote, type StoredVote } from '../../domain/votes.js';
import { localDay, providerTotalsOf, standingBatch, type CountedStanding, type StandingSource, type StoredStanding } from '../../domain/voter-standing.js';
import { cooldownOf, nextVoteAt } from '../../domain/vote-cooldown.js';
import type { BatchWriter, VoteStore } from '../ports.js';
import { voterCache } from './voter-cache.js';

export function createSqliteVoteStore(db: Sqlite.Database, votes: BatchWriter<NewVote, StoredVote>): VoteStore {
  const orgBySlug = db.prepare(
    `SELECT id, slug, plan, status, chatNotificationsEnabled, chatWebhookUrl, serverCallbackUrl, timeZone,
       milestonesJson, votePartyEvery, votePartyProviderId, remindersEnabled, chatMilestoneTemplate, chatVotePartyTemplate, bedrockPrefix, votePageJson
     FROM "Organization" WHERE slug = ?`,
  );
  const providerByKey = db.prepare(
    `SELECT id, key, authMethod, authField, authValueEnc, authTimestampField, signatureFormat, payloadSource, voteePath, eventPath, voteEventsJson, testEventsJson, enabled,
       bodyTimestampPath, bodyTimestampMaxAgeS, voteCooldownJson, voterKind, discordIdPath, voterAddressPath
     FROM "Provider" WHERE organizationId = ? AND key = ?`,
  );
  const toOrg = (row: Record<string, unknown> | undefined): HookOrg | null =>
    row
      ? ({
          ...row,
          chatNotificationsEnabled: row.chatNotificationsEnabled === 1,
          remindersEnabled: row.remindersEnabled === 1,
        } as unknown as HookOrg)
      : null;
  const toProvider = (row: Record<string, unknown> | undefined): HookProvider | null =>
    row ? ({ ...row, enabled: row.enabled === 1 } as unknown as HookProvider) : null;

  return {
    async findTarget(slug, key) {
      const org = toOrg(orgBySlug.get(slug) as Record<string, unknown> | undefined);
      return org && { org, provider: toProvider(providerByKey.get(org.id, key) as Record<string, unknown> | undefined) };
    },
    write: (vote) => votes.submit(vote),
  };
}

/** The vote write run in a transaction (writes.ts), told how its transaction ended: it keeps voters between batches. */
export interface SqliteVoteWrite {
  write(batch: NewVote[]): StoredVote[];
  /** After the transaction of the latest `write`: committed, or rolled back. */
  settled(committed: boolean): void;
}

export function createSqliteVoteWrite(config: Config, db: Sqlite.Database, rules: PlanRules, insertJobs: (jobs: NewJob[]) => ClaimedJob[]): SqliteVoteWrite {
  const findDuplicate = db.prepare('SELECT publicId FROM "Vote" WHERE providerId = ? AND dedupKey = ? AND receivedAt >= ? ORDER BY receivedAt ASC LIMIT 1');
  const findIdempotent = db.prepare(
    'SELECT publicId FROM "Vote" WHERE providerId = ? AND idempotencyKey = ? AND receivedAt >= ? ORDER BY receivedAt ASC LIMIT 1',
  );
  const monthCount = db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ? AND day <= ?');
  const enabledCallbacks = db.prepare(
    'SELECT id, kind, priority, providerIdsJson, enabled, eventsJson FROM "Callback" WHERE organizationId = ? AND (enabled = 1 OR disabledReason IS NOT NULL) ORDER BY priority ASC, createdAt ASC',
  );
  const activePluginTokens = db.prepare('SELECT COUNT(*) AS n FROM "PluginToken" WHERE organizationId = ? AND revokedAt IS NULL');
  const insertVote = db.prepare(
    `INSERT INTO "Vote" (id, publicId, organizationId, providerId, voterName, voterKey, receivedAt, rawPayload, dedupKey, idempotencyKey, overLimit, chatStatus, callbackStatus, callbackAttempts, recovered, test,
       voterTotal, voterMonthTotal, voterStreakDays, voterBestStreakDays, providerVoterTotal, nextVoteAt, repairedFrom)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Voter standings (src/domain/voter-standing.ts): read as the batch begins, written once per voter at its end.
  const readStanding = db.prepare(
    'SELECT total, monthTotal, streakDays, bestStreakDays, lastDay, lastVoteAt, providerTotalsJson FROM "VoterStanding" WHERE organizationId = ? AND voterKey = ?',
  );
  const readLocalDays = db.prepare('SELECT day, count FROM "VoterDay" WHERE organizationId = ? AND voterKey = ?');
  const readUtcDays = db.prepare('SELECT day, SUM(count) AS count FROM "VoterDailyCount" WHERE organizationId = ? AND voterKey = ? GROUP BY day');
  const writeStanding = db.prepare(
    `INSERT INTO "VoterStanding" (organizationId, voterKey, total, monthTotal, streakDays, bestStreakDays, lastDay, lastVoteAt, providerTotalsJson)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organizationId, voterKey) DO UPDATE SET total = excluded.total, monthTotal = excluded.monthTotal, streakDays = excluded.streakDays,
       bestStreakDays = excluded.bestStreakDays, lastDay = excluded.lastDay, lastVoteAt = MAX(lastVoteAt, excluded.lastVoteAt),
       providerTotalsJson = excluded.providerTotalsJson`,
  );
  const bumpLocalDay = db.prepare(
    `INSERT INTO "VoterDay" (organizationId, voterKey, day, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (organizationId, voterKey, day) DO UPDATE SET count = count + excluded.count`,
  );
  // A voter's standing carries their site totals: one read per voter, whatever their history. Organizations that keep local days
  // (Organization.localDaysKept, read in the batch's own transaction: the one writer sees a time zone change before or
  // after the whole batch) are noted per batch: their voters' days are read from and written to VoterDay.
  const readKept = db.prepare('SELECT localDaysKept AS kept FROM "Organization" WHERE id = ?');
  const keepsLocalDays = new Set<string>();
  const standingSource: StandingSource = {
    standing: (organizationId: string, voterKey: string) => {
      const row = readStanding.get(organizationId, voterKey) as (Omit<StoredStanding, 'providerTotals'> & { providerTotalsJson: string }) | undefined;
      if (!row) return null;
      const { providerTotalsJson, ...standing } = row;
      return { ...standing, providerTotals: providerTotalsOf(providerTotalsJson) };
    },
    days: (organizationId: string, voterKey: string) =>
      (keepsLocalDays.has(organizationId) ? readLocalDays : readUtcDays).all(organizationId, voterKey) as { day: string; count: number }[],
  };
  // Voters (src/domain/voter-identity.ts): each vote's identities read as its turn comes (or found kept from an
  // earlier batch: voter-cache.ts), new voters, renames and links written at the batch's end.
  const findIdentity = db.prepare(
    `SELECT v.id AS voterId, v.displayName, v.nameAt FROM "VoterIdentity" AS i JOIN "Voter" AS v ON v.id = i.voterId
     WHERE i.organizationId = ? AND i.kind = ? AND i.value = ?`,
  );
  const accountsOf = db.prepare(`SELECT kind, value FROM "VoterIdentity" WHERE voterId = ? AND kind IN ('discord', 'minecraft_uuid')`);
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const cache = voterCache(() => dataVersion.get() as number);
  const findVoter = (organizationId: string, identity: Identity, key: string): FoundVoter | null => {
    const kept = cache.get(key);
    if (kept) return kept;
    const row = findIdentity.get(organizationId, identity.kind, identity.value) as { voterId: string; displayName: string; nameAt: number } | undefined;
    if (!row) return null;
    // Found by an account (a Discord id): that account is what the batch compares; else the voter's accounts, read.
    const accounts = ACCOUNT_KINDS.has(identity.kind) ? [identity] : (accountsOf.all(row.voterId) as { kind: IdentityKind; value: string }[]);
    return { ...row, accounts };
  };
  const insertVoter = db.prepare('INSERT INTO "Voter" (id, organizationId, displayName, displayKey, nameAt, createdAt) VALUES (?, ?, ?, ?, ?, ?)');
  const renameVoter = db.prepare('UPDATE "Voter" SET displayName = ?, displayKey = ?, nameAt = ? WHERE id = ? AND nameAt <= ?');
  const linkIdentity = db.prepare(
    'INSERT INTO "VoterIdentity" (organizationId, kind, value, voterId, createdAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  // Rewards events (src/domain/reward-events.ts): the party count read as the batch begins, written at its end;
  // reminders moved to each voter's next vote.
  const readParty = db.prepare('SELECT count FROM "VotePartyCounter" WHERE organizationId = ?');
  const writeParty = db.prepare(
    'INSERT INTO "VotePartyCounter" (organizationId, count) VALUES (?, ?) ON CONFLICT (organizationId) DO UPDATE SET count = count + excluded.count',
  );
  const writeReminder = db.prepare(
    `INSERT INTO "Reminder" (organizationId, providerId, voterKey, voterName, dueAt, voteId) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (providerId, voterKey) DO UPDATE SET voterName = excluded.voterName,
       voteId = CASE WHEN excluded.dueAt >= dueAt THEN excluded.voteId ELSE voteId END, dueAt = MAX(dueAt, excluded.dueAt)`,
  );
  const partySource = { partyCount: (organizationId: string) => (readParty.get(organizationId) as { count: number } | undefined)?.count ?? 0 };
  const budgets = { callback: attemptBudget(config, 'callback'), chat: attemptBudget(config, 'chat') };
  const bumpProviderDay = db.prepare(
    `INSERT INTO "ProviderDailyCount" (organizationId, providerId, day, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (providerId, day) DO UPDATE SET count = count + excluded.count`,
  );
  const bumpVoterDay = db.prepare(
    `INSERT INTO "VoterDailyCount" (organizationId, providerId, voterKey, day, voterName, count, lastVoteAt) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (providerId, voterKey, day) DO UPDATE SET count = count + excluded.count,
       voterName = ${spellingWinsSql('"VoterDailyCount"')},
       lastVoteAt = MAX(lastVoteAt, excluded.lastVoteAt)`,
  );

  /** The latest batch's voters, remembered once its transaction commits. */
  let latest: ReturnType<typeof voterBatch> | null = null;
  /**
   * Writes a batch; per-organization facts (month count, callbacks) are read once per batch, and the rollups are
   * summed per batch: one upsert per (provider, day) and (provider, voter, day) touched, not one per vote.
   */
  const write = (batch: NewVote[]): StoredVote[] => {
    cache.begin();
    const used = new Map<string, number>();
    const callbacksOf = new Map<string, PlanningCallback[]>();
    const pullOf = new Map<string, boolean>();
    const providerDays = new Map<string, { o: string; p: string; d: string; n: number }>();
    const voterDays = new Map<string, { o: string; p: string; k: string; d: string; name: string; at: number; n: number }>();
    keepsLocalDays.clear();
    for (const id of new Set(batch.map((vote) => vote.org.id))) if ((readKept.get(id) as { kept: number } | undefined)?.kept) keepsLocalDays.add(id);
    const standings = standingBatch(standingSource);
    const rewards = rewardBatch(partySource, budgets);
    const voters = voterBatch(findVoter);
    latest = voters;
    const stored = batch.map((vote): StoredVote => {
      const { org, provider, receivedAt } = vote;
      const at = receivedAt.getTime();
      const since = at - config.duplicateWindowMs;
      const dup = (findDuplicate.get(provider.id, vote.dedupKey, since) ??
        (vote.idempotencyKey ? findIdempotent.get(provider.id, vote.idempotencyKey, since) : undefined)) as { publicId: string } | undefined;
      if (dup) return { id: null, publicId: dup.publicId, duplicate: true };

      if (!used.has(org.id)) {
        const month = monthRange(receivedAt);
        used.set(org.id, (monthCount.get(org.id, month.from, month.to) as { n: number }).n);
      }
      const { overLimit, counts } = countingOf(vote, used.get(org.id)!);
      if (!overLimit && !callbacksOf.has(org.id)) callbacksOf.set(org.id, enabledCallbacks.all(org.id) as PlanningCallback[]);
      if (!overLimit && !pullOf.has(org.id)) pullOf.set(org.id, (activePluginTokens.get(org.id) as { n: number }).n > 0);
      const jobs = planJobs(
        config,
        org,
        provider.id,
        callbacksOf.get(org.id) ?? [],
        overLimit,
        pullOf.get(org.id) ?? false,
        vote.recovered,
        vote.test ?? null,
        rules,
      );

      const uuid = timeOrderedId(at);
      const voterKey = voters.resolve(org.id, vote.voter, at, vote.test !== undefined);
      const { chatStatus, callbackStatus } = initialStatuses(jobs);
      const standing: CountedStanding | null = counts
        ? standings.count({ organizationId: org.id, providerId: provider.id, voterKey, day: localDay(receivedAt, org.timeZone), at })
        : null;
      const cooldown = counts ? cooldownOf(provider.voteCooldownJson) : null;
      const next = cooldown ? nextVoteAt(cooldown, receivedAt) : null;
      const events = standing
        ? rewards.count(
            { org, provider, voteId: uuid, voterKey, voterName: vote.voterName, recovered: vote.recovered === true },
            standing,
            next,
            callbacksOf.get(org.id) ?? [],
            overLimit,
          )
        : [];
      insertVote.run(
        uuid,
        `vt_${uuid}`,
        org.id,
        provider.id,
        vote.voterName,
        voterKey,
        at,
        vote.rawPayload,
        vote.dedupKey,
        vote.idempotencyKey,
        overLimit ? 1 : 0,
        chatStatus,
        callbackStatus,
        vote.recovered ? 1 : 0,
        vote.test ? 1 : 0,
        standing?.voterTotal ?? null,
        standing?.voterMonthTotal ?? null,
        standing?.voterStreakDays ?? null,
        standing?.voterBestStreakDays ?? null,
        standing?.providerVoterTotal ?? null,
        next ? next.getTime() : null,
        vote.repairedFrom ?? null,
      );
      const leased = insertJobs(
        [...jobs, ...events].map((job) => ({
          ...job,
          organizationId: org.id,
          voteId: uuid,
          runAt: receivedAt,
          ...(vote.lease && sentAtOnce(job.kind) ? { lease: vote.lease } : {}),
        })),
      );
      const written: StoredVote = { id: uuid, publicId: `vt_${uuid}`, duplicate: false, ...(vote.lease ? { jobs: leased } : {}) };
      if (!counts) return written;
      const day = utcDay(receivedAt);
      const providerDay = providerDays.get(`${provider.id}\u0000${day}`);
      if (providerDay) providerDay.n++;
      else providerDays.set(`${provider.id}\u0000${day}`, { o: org.id, p: provider.id, d: day, n: 1 });
      const voterDay = voterDays.get(`${provider.id}\u0000${voterKey}\u0000${day}`);
      if (!voterDay)
        voterDays.set(`${provider.id}\u0000${voterKey}\u0000${day}`, { o: org.id, p: provider.id, k: voterKey, d: day, name: vote.voterName, at, n: 1 });
      else {
        voterDay.n++;
        if (spellingWins(vote.voterName, at, voterDay.name, voterDay.at)) Object.assign(voterDay, { name: vote.voterName, at });
      }
      used.set(org.id, used.get(org.id)! + 1);
      return written;
    });
    const voterRows = voters.rows();
    const now = Date.now();
    for (const v of voterRows.created) insertVoter.run(v.id, v.organizationId, v.displayName, v.displayKey, v.nameAt, now);
    for (const v of voterRows.renamed) renameVoter.run(v.displayName, v.displayKey, v.nameAt, v.id, v.nameAt);
    for (const l of voterRows.linked) linkIdentity.run(l.organizationId, l.kind, l.value, l.voterId, now);
    for (const r of providerDays.values()) bumpProviderDay.run(r.o, r.p, r.d, r.n);
    for (const r of voterDays.values()) bumpVoterDay.run(r.o, r.p, r.k, r.d, r.name, r.n, r.at);
    const rows = standings.rows();
    for (const r of rows.standings)
      writeStanding.run(
        r.organizationId,
        r.voterKey,
        r.total,
        r.monthTotal,
        r.streakDays,
        r.bestStreakDays,
        r.lastDay,
        r.lastVoteAt,
        JSON.stringify(r.providerTotals),
      );
    for (const r of rows.days) if (keepsLocalDays.has(r.organizationId)) bumpLocalDay.run(r.organizationId, r.voterKey, r.day, r.count);
    const rewardRows = rewards.rows();
    for (const r of rewardRows.parties) writeParty.run(r.organizationId, r.added);
    for (const r of rewardRows.reminders) writeReminder.run(r.organizationId, r.providerId, r.voterKey, r.voterName, r.dueAt, r.voteId);
    return stored;
  };
  return {
    write,
    settled(committed) {
      if (committed && latest) cache.committed(latest.seen());
      else cache.abandoned();
      latest = null;
    },
  };
}
