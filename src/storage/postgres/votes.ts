// The PostgreSQL hook path: plain SQL on the pool Prisma also uses (named, prepared statements) and group commit.
// Votes that arrive while earlier batches are being written join the next batch; a batch is one transaction of four
// round trips whatever its size (BEGIN with the batch's locks and its read of duplicates, as one simple query; one
// prepared read of organization facts and voter standings; one statement writing votes, jobs, standings, rewards and
// both rollups; COMMIT), and each caller's promise resolves only after its batch committed. Several instances may
// write at once:
//   - two identical deliveries racing (even on two instances) serialize on a transaction-scoped advisory lock per
//     (provider, dedup key) and (provider, idempotency key), so the second one finds the first;
//   - every batch takes its locks in one global order (advisory locks by key hash, then voter rows, then provider
//     rows, each sorted), so batches never deadlock each other; a deadlock with other work is retried.
import { hash } from 'node:crypto';
import { timeOrderedId } from '../../base/time-ordered-id.js';
import DataLoader from 'dataloader';
import type pg from 'pg';
import type { Config } from '../../config/config.js';
import { inlineParameters, sqlLiteral, type PgNamedWrite, type Query } from './transaction.js';
import { inKeyOrder } from '../../domain/key-order.js';
import { jobInsert } from './jobs.js';
import { sentAtOnce, type NewJob } from '../../domain/jobs.js';
import { spellingWins, spellingWinsSql } from '../../domain/voter-name.js';
import { identityKey, voterBatch, type FoundVoter, type IdentityKind, type VoterRows } from '../../domain/voter-identity.js';
import { attemptBudget, initialStatuses, planJobs, type PlanningCallback, type PlanRules } from '../../domain/job-plan.js';
import { rewardBatch } from '../../domain/reward-events.js';
import { utcDay } from '../../base/time.js';
import { countingOf, monthRange, type HookOrg, type HookProvider, type HookTarget, type NewVote, type StoredVote } from '../../domain/votes.js';
import { localDay, providerTotalsOf, standingBatch, type CountedStanding, type StoredStanding } from '../../domain/voter-standing.js';
import { cooldownOf, nextVoteAt } from '../../domain/vote-cooldown.js';
import type { BatchWriter, VoteStore } from '../ports.js';

/**
 * A voter's lock id in SQL, from a text expression holding its id: the first 8 bytes of sha256('voter:<id>') as a
 * signed 64-bit integer (what lockId computes). A merge takes the same locks (voters.service.ts).
 */
export const voterLockSql = (voterIdSql: string) => `hashtextextended('voter:' || ${voterIdSql}, 0)`;

/**
 * The voters a batch's probes find (src/domain/voter-identity.ts), as the CTE `found` (q: the probe's number; o, k: its
 * organization and kind), from probeValues at parameter `$n` on: the organizations; per group of votes sharing their
 * first probe (their own identity), its organization's place among them, kind and value; then the other probes, each
 * with its group's number, kind and value, numbered after the groups. Those are looked up only for a group whose own
 * identity is unknown: a vote found by it is that identity's voter, whatever else it names (a returning voter costs
 * one probe, not three).
 */
function foundVoters(n: number): string {
  const [orgs, groupOrg, groupKind, groupValue, otherGroup, otherKind, otherValue] = [0, 1, 2, 3, 4, 5, 6].map((i) => `$${n + i}`);
  return `first AS MATERIALIZED (
             SELECT u.n::int AS q, i."organizationId" AS o, u.k, i."voterId"
             FROM unnest(${groupOrg}::int[], ${groupKind}::text[], ${groupValue}::text[]) WITH ORDINALITY AS u(oi, k, v, n)
             JOIN "VoterIdentity" AS i ON i."organizationId" = (${orgs}::text[])[u.oi] AND i.kind = u.k AND i.value = u.v
           ),
           found AS (
             SELECT q, o, k, "voterId" FROM first
             UNION ALL
             SELECT cardinality(${groupOrg}::int[]) + f.m::int, i."organizationId", f.k, i."voterId"
             FROM unnest(${otherGroup}::int[], ${otherKind}::text[], ${otherValue}::text[]) WITH ORDINALITY AS f(n, k, v, m)
             JOIN "VoterIdentity" AS i ON i."organizationId" = (${orgs}::text[])[(${groupOrg}::int[])[f.n]] AND i.kind = f.k AND i.value = f.v
             WHERE NOT EXISTS (SELECT 1 FROM first WHERE first.q = f.n)
           )`;
}

const SQL = {
  // Every hook request's organization and provider, for all requests that arrived in one tick.
  targets: {
    name: 'vr_hook_targets',
    text: `SELECT k.i::int AS i,
             json_build_object('id', o.id, 'slug', o.slug, 'plan', o.plan, 'status', o.status,
               'chatNotificationsEnabled', o."chatNotificationsEnabled", 'chatWebhookUrl', o."chatWebhookUrl",
               'serverCallbackUrl', o."serverCallbackUrl", 'timeZone', o."timeZone",
               'milestonesJson', o."milestonesJson", 'votePartyEvery', o."votePartyEvery", 'votePartyProviderId', o."votePartyProviderId",
               'remindersEnabled', o."remindersEnabled", 'chatMilestoneTemplate', o."chatMilestoneTemplate",
               'chatVotePartyTemplate', o."chatVotePartyTemplate", 'bedrockPrefix', o."bedrockPrefix", 'votePageJson', o."votePageJson") AS org,
             CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'key', p.key, 'authMethod', p."authMethod",
               'authField', p."authField", 'authValueEnc', p."authValueEnc", 'authTimestampField', p."authTimestampField",
               'signatureFormat', p."signatureFormat", 'payloadSource', p."payloadSource",
               'voteePath', p."voteePath", 'eventPath', p."eventPath", 'voteEventsJson', p."voteEventsJson",
               'testEventsJson', p."testEventsJson", 'enabled', p.enabled,
               'bodyTimestampPath', p."bodyTimestampPath", 'bodyTimestampMaxAgeS', p."bodyTimestampMaxAgeS",
               'voteCooldownJson', p."voteCooldownJson", 'voterKind', p."voterKind", 'discordIdPath', p."discordIdPath", 'voterAddressPath', p."voterAddressPath") END AS provider
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(slug, key, i)
           JOIN "Organization" AS o ON o.slug = k.slug
           LEFT JOIN "Provider" AS p ON p."organizationId" = o.id AND p.key = k.key`,
  },
  // The batch's reads after the locks (so what they read stays true until the batch commits), in three statements.
  // First, sent with BEGIN and the locks: for each vote (by position, kind 'd'), the earlier votes of the same provider
  // and delivery within its window (usually none; the earliest is picked in code). Its two halves are written so that
  // only the index made for each fits: equality on both of its leading columns, and a time bound no index can take.
  // Young statistics (autovacuum analyzed the table while it was small) otherwise make ("providerId", "receivedAt")
  // look as cheap, and a prepared statement would keep that plan, which filters the whole window for every vote once
  // the table has grown: so this statement is not prepared (its values are written in as literals:
  // duplicateStatement). The idempotency half is left out of a batch where no vote carries an idempotency key (most
  // sites send none): planning it cost as much as the half that finds something.
  duplicates: (idempotent: boolean) => ({
    text: `SELECT 'd' AS t, k.i::int AS i, v."publicId", (extract(epoch FROM v."receivedAt") * 1000)::float8 AS at,
             NULL::text AS "organizationId", NULL::text AS "from", NULL::int AS used, NULL::json AS callbacks, NULL::boolean AS pull,
             NULL::int AS party, NULL::boolean AS kept
           FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[]) WITH ORDINALITY AS k(p, d, since, idem, i)
           JOIN "Vote" AS v ON v."providerId" = k.p AND v."dedupKey" = k.d
           WHERE v."receivedAt" + interval '0' >= k.since
           ${
             idempotent
               ? `UNION ALL
           SELECT 'd', k.i::int, v."publicId", (extract(epoch FROM v."receivedAt") * 1000)::float8, NULL, NULL, NULL, NULL, NULL, NULL, NULL
           FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[]) WITH ORDINALITY AS k(p, d, since, idem, i)
           JOIN "Vote" AS v ON v."providerId" = k.p AND v."idempotencyKey" = k.idem
           WHERE k.idem IS NOT NULL AND v."receivedAt" + interval '0' >= k.since`
               : ''
           }`,
  }),
  // Then, prepared, the voters the batch's fresh votes name, locked (after the identities' locks, in the order of their
  // lock ids), so that two batches reaching one voter by two of their identities (a Minecraft name before and after a
  // rename) keep their standing in turn. Its values are probeValues'.
  voterLocks: {
    name: 'vr_vote_voter_locks',
    text: `WITH ${foundVoters(1)}
           SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT ${voterLockSql('"voterId"')} AS h FROM found ORDER BY h) AS s`,
  },
  // Last, prepared (planning it with its values written in cost 0.5–1 ms a batch, more than running it): per
  // (organization, month) of the batch (kind 'f') the votes counted so far this month, the enabled callbacks, whether
  // plugins poll and the party count; the voters the probes find, read again now that they are locked (kind 'v': the
  // probe's number, the voter, their name and when it was set, and their accounts, which a voter found by an account
  // is known to hold); and those voters' standings (kind 's', src/domain/voter-standing.ts) with their site totals,
  // a superset of those that will count: one probe of the primary key each (LATERAL … LIMIT 1: joined to the keys,
  // the planner hashed them against every standing row while the table was small, 1.7 ms against 0.4 ms for 41
  // voters among 1,000). Every part is a lookup by primary key or organization: one plan fits all.
  facts: {
    name: 'vr_vote_facts',
    text: `WITH ${foundVoters(4)}
           SELECT 'f' AS t, NULL::int AS i, NULL::text AS "publicId", NULL::float8 AS at, k.o AS "organizationId", k.f AS "from",
             (SELECT COALESCE(SUM(count), 0)::int FROM "ProviderDailyCount" WHERE "organizationId" = k.o AND day >= k.f AND day <= k.t) AS used,
             COALESCE((SELECT json_agg(json_build_object('id', c.id, 'kind', c.kind, 'priority', c.priority, 'providerIdsJson', c."providerIdsJson", 'enabled', c.enabled, 'eventsJson', c."eventsJson") ORDER BY c.priority, c."createdAt")
                       FROM "Callback" AS c WHERE c."organizationId" = k.o AND (c.enabled OR c."disabledReason" IS NOT NULL)), '[]'::json) AS callbacks,
             EXISTS (SELECT 1 FROM "PluginToken" WHERE "organizationId" = k.o AND "revokedAt" IS NULL) AS pull,
             (SELECT count FROM "VotePartyCounter" WHERE "organizationId" = k.o) AS party,
             (SELECT "localDaysKept" FROM "Organization" WHERE id = k.o) AS kept
           FROM unnest($1::text[], $2::text[], $3::text[]) AS k(o, f, t)
           UNION ALL
           SELECT 's', NULL, NULL, NULL, s."organizationId", NULL, NULL,
             json_build_object('k', s."voterKey", 'total', s.total, 'monthTotal', s."monthTotal", 'streakDays', s."streakDays",
               'bestStreakDays', s."bestStreakDays", 'lastDay', s."lastDay", 'lastVoteAt', (extract(epoch FROM s."lastVoteAt") * 1000)::float8,
               'providerTotalsJson', s."providerTotalsJson"),
             NULL, NULL, NULL
           FROM (SELECT DISTINCT o, "voterId" FROM found) AS u
           CROSS JOIN LATERAL (SELECT * FROM "VoterStanding" WHERE "organizationId" = u.o AND "voterKey" = u."voterId" LIMIT 1) AS s
           UNION ALL
           SELECT 'v', f.q, v.id, (extract(epoch FROM v."nameAt") * 1000)::float8, f.o, v."displayName", NULL,
             CASE WHEN f.k IN ('discord', 'minecraft_uuid') THEN NULL
               ELSE (SELECT COALESCE(json_agg(json_build_object('kind', a.kind, 'value', a.value)), '[]'::json) FROM "VoterIdentity" AS a
                     WHERE a."voterId" = v.id AND a.kind IN ('discord', 'minecraft_uuid')) END,
             NULL, NULL, NULL
           FROM found AS f JOIN "Voter" AS v ON v.id = f."voterId"`,
  },
  // A voter's days, for a vote older than their latest (a vote recovered after an outage): rare. Local days where the
  // organization keeps them, else their per-provider UTC days summed per day.
  localDays: {
    name: 'vr_vote_standing_local_days',
    text: `SELECT day, count FROM "VoterDay" WHERE "organizationId" = $1 AND "voterKey" = $2`,
  },
  utcDays: {
    name: 'vr_vote_standing_utc_days',
    text: `SELECT day, SUM(count)::int AS count FROM "VoterDailyCount" WHERE "organizationId" = $1 AND "voterKey" = $2 GROUP BY day`,
  },
  // One statement writes the batch: its votes (their repaired names $66), their jobs (the job queue's part,
  // parameters from $67), its new voters, their renames and identities ($53 to $65), the voters' standings, one row per
  // (provider, voter, day) in key order (the later vote decides lastVoteAt and the spelling), and last one row per
  // (provider, day), which every vote of a provider on a day updates.
  write: (jobs: string) => ({
    name: 'vr_vote_write',
    text: `WITH votes AS (
             INSERT INTO "Vote" (id, "publicId", "organizationId", "providerId", "voterName", "voterKey", "receivedAt", "rawPayload", "dedupKey",
               "overLimit", "chatStatus", "callbackStatus", "callbackAttempts", "idempotencyKey", recovered, test,
               "voterTotal", "voterMonthTotal", "voterStreakDays", "voterBestStreakDays", "providerVoterTotal", "nextVoteAt", "repairedFrom")
             SELECT id, 'vt_' || id, o, p, n, k, r, raw, d, ol, cs, cbs, 0, idem, rec, tst, vt, vm, vs, vb, pt, nv, rf
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[], $7::text[], $8::text[], $9::boolean[],
                         $10::text[], $11::text[], $12::text[], $24::boolean[], $25::boolean[],
                         $26::int[], $27::int[], $28::int[], $29::int[], $30::int[], $31::timestamp(3)[], $66::text[])
               AS v(id, o, p, n, k, r, raw, d, ol, cs, cbs, idem, rec, tst, vt, vm, vs, vb, pt, nv, rf)
           ),
           jobs AS (${jobs}),
           new_voters AS (
             INSERT INTO "Voter" (id, "organizationId", "displayName", "displayKey", "nameAt", "createdAt")
             SELECT id, o, n, k, a, (now() AT TIME ZONE 'UTC')::timestamp(3)
             FROM unnest($53::text[], $54::text[], $55::text[], $56::text[], $57::timestamp(3)[]) AS u(id, o, n, k, a)
           ),
           renamed_voters AS (
             UPDATE "Voter" AS t SET "displayName" = u.n, "displayKey" = u.k, "nameAt" = u.a
             FROM unnest($58::text[], $59::text[], $60::text[], $61::timestamp(3)[]) AS u(id, n, k, a)
             WHERE t.id = u.id AND t."nameAt" <= u.a
           ),
           linked_identities AS (
             INSERT INTO "VoterIdentity" ("organizationId", kind, value, "voterId", "createdAt")
             SELECT o, k, v, id, (now() AT TIME ZONE 'UTC')::timestamp(3)
             FROM unnest($62::text[], $63::text[], $64::text[], $65::text[]) AS u(o, k, v, id)
             ON CONFLICT DO NOTHING
           ),
           -- The standings the batch made (src/domain/voter-standing.ts): absolute values per voter, their site
           -- totals with them, local days as increments.
           standings AS (
             INSERT INTO "VoterStanding" AS t ("organizationId", "voterKey", total, "monthTotal", "streakDays", "bestStreakDays", "lastDay", "lastVoteAt",
               "providerTotalsJson")
             SELECT * FROM unnest($32::text[], $33::text[], $34::int[], $35::int[], $36::int[], $37::int[], $38::text[], $39::timestamp(3)[], $52::text[])
             ON CONFLICT ("organizationId", "voterKey") DO UPDATE SET total = excluded.total, "monthTotal" = excluded."monthTotal",
               "streakDays" = excluded."streakDays", "bestStreakDays" = excluded."bestStreakDays", "lastDay" = excluded."lastDay",
               "lastVoteAt" = GREATEST(t."lastVoteAt", excluded."lastVoteAt"), "providerTotalsJson" = excluded."providerTotalsJson"
           ),
           standing_days AS (
             INSERT INTO "VoterDay" AS t ("organizationId", "voterKey", day, count)
             SELECT * FROM unnest($40::text[], $41::text[], $42::text[], $43::int[])
             ON CONFLICT ("organizationId", "voterKey", day) DO UPDATE SET count = t.count + excluded.count
           ),
           -- The batch's rewards (src/domain/reward-events.ts): what the party counts gained (under the party lock),
           -- and reminders moved to each voter's next vote (the later due time wins). Empty without a party or reminders.
           parties AS (
             INSERT INTO "VotePartyCounter" AS t ("organizationId", count) SELECT * FROM unnest($44::text[], $45::int[])
             ON CONFLICT ("organizationId") DO UPDATE SET count = t.count + excluded.count
           ),
           reminders AS (
             INSERT INTO "Reminder" AS t ("organizationId", "providerId", "voterKey", "voterName", "dueAt", "voteId")
             SELECT * FROM unnest($46::text[], $47::text[], $48::text[], $49::text[], $50::timestamp(3)[], $51::text[])
             ON CONFLICT ("providerId", "voterKey") DO UPDATE SET "voterName" = excluded."voterName",
               "voteId" = CASE WHEN excluded."dueAt" >= t."dueAt" THEN excluded."voteId" ELSE t."voteId" END,
               "dueAt" = GREATEST(t."dueAt", excluded."dueAt")
           ),
           voter_days AS (
             INSERT INTO "VoterDailyCount" AS t ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
             SELECT o, p, k, d, n, c, l FROM unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::int[], $19::timestamp(3)[])
               AS u(o, p, k, d, n, c, l)
             ORDER BY p, k, d
             ON CONFLICT ("providerId", "voterKey", day) DO UPDATE SET count = t.count + excluded.count,
               "voterName" = ${spellingWinsSql('t')},
               "lastVoteAt" = GREATEST(t."lastVoteAt", excluded."lastVoteAt")
           )
           INSERT INTO "ProviderDailyCount" AS t ("organizationId", "providerId", day, count)
           SELECT o, p, d, c FROM unnest($20::text[], $21::text[], $22::text[], $23::int[]) AS u(o, p, d, c)
           ORDER BY p, d
           ON CONFLICT ("providerId", day) DO UPDATE SET count = t.count + excluded.count`,
  }),
} as const;

/** `timestamp(3)` columns hold UTC; an ISO string's offset is ignored on the cast, so this stores the UTC time. */
const ts = (at: Date) => at.toISOString();

/** The keys that make another delivery the same vote. */
const keysOf = (vote: NewVote) => (vote.idempotencyKey ? [vote.dedupKey, vote.idempotencyKey] : [vote.dedupKey]);

/**
 * The batch's advisory locks, one per (provider, delivery key) and one per counted voter, taken in ascending order (every batch, on every
 * instance, in the same order); sent with BEGIN. The lock ids are 64-bit integers from a hash, written as literals.
 */
function lockStatement(batch: NewVote[]): string {
  const ids = new Set<bigint>();
  const shared = new Set<bigint>();
  const orgs = new Set<string>();
  for (const vote of batch) {
    for (const key of keysOf(vote)) ids.add(lockId(`${vote.provider.id}:${key}`));
    // The voter's standing rows (read, advanced and written by this batch), and the organization's party count; and,
    // shared with every other batch, its local-days setting (a time zone change takes it alone: lockRewards).
    if (!vote.test) {
      // The identities the vote may link (voter-identity.ts): two batches never make two voters of one identity. Its
      // other probes (the name of a voter from before, a Bedrock guess) are only read: votes never make those.
      for (const own of vote.voter.identities) ids.add(lockId(`identity:${identityKey(vote.org.id, own)}`));
      if (!orgs.has(vote.org.id)) {
        orgs.add(vote.org.id);
        if (vote.org.votePartyEvery) ids.add(lockId(`party:${vote.org.id}`));
        shared.add(lockId(`localdays:${vote.org.id}`));
      }
    }
  }
  // Each set as one array literal (one constant for the server to read, not a VALUES row per lock), in ascending order.
  const sorted = (set: Set<bigint>) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const take = (lock: string, set: Set<bigint>) =>
    `SELECT count(${lock}(h)) FROM (SELECT h FROM unnest(${sqlLiteral(sorted(set))}::bigint[]) AS h ORDER BY h) AS s`;
  // The shared locks first: a batch waiting for one holds no other lock.
  return `${shared.size > 0 ? `${take('pg_advisory_xact_lock_shared', shared)}; ` : ''}${take('pg_advisory_xact_lock', ids)}`;
}

/** The locks an organization's rewards settings change takes alone: its local days and its party (see lockStatement). */
export function rewardLockIds(organizationId: string): bigint[] {
  return [lockId(`localdays:${organizationId}`), lockId(`party:${organizationId}`)];
}

const lockId = (text: string) => hash('sha256', text, 'buffer').readBigInt64BE(0);

// The vote write's steps, each a function of its own: one function holding them all compiled (optimized by V8) in
// about half a second, and every object shape it had not seen yet (a duplicate, a milestone's job, a recovered vote)
// threw that code away and compiled it again, which the optimizing compiler's threads did continuously under load.

/**
 * One row of the batch's reads (SQL.duplicates, SQL.facts): a duplicate ('d'), an organization's month facts ('f'), a
 * standing ('s') or a voter a probe found ('v': `i` the probe's number, `from` the display name, `callbacks` the
 * accounts or null).
 */
type ReadRow = {
  t: 'd' | 'f' | 's' | 'v';
  i: number;
  publicId: string;
  at: number;
  organizationId: string;
  from: string;
  used: number;
  callbacks: PlanningCallback[];
  pull: boolean;
  party: number | null;
  kept: boolean | null;
};

/** What the batch's reads found. */
interface BatchRead {
  /** The earliest stored vote each batch position (from 1) duplicates. */
  earliest: Map<number, { publicId: string; at: number }>;
  /** Per organization and month: the votes counted so far, the callbacks that take votes, whether plugins poll. */
  facts: Map<string, { used: number; callbacks: PlanningCallback[]; pull: boolean }>;
  partyCounts: Map<string, number>;
  /**
   * Organizations that keep their voters' local days (Organization.localDaysKept), read under the batch's shared
   * lock against a time zone change (lockStatement), so a change never misses a vote being written.
   */
  keeps: Set<string>;
  /** The stored standings of the batch's voters, by organization and voter key. */
  standings: Map<string, StoredStanding>;
  /** The voters holding the batch's identities, by identityKey. */
  voters: Map<string, FoundVoter>;
}

/** The batch's (organization, month) pairs, SQL.facts' first values. */
function monthValues(batch: NewVote[]): string[][] {
  const months = new Map<string, { o: string; f: string; t: string }>();
  for (const vote of batch) {
    const month = monthRange(vote.receivedAt);
    months.set(`${vote.org.id}|${month.from}`, { o: vote.org.id, f: month.from, t: month.to });
  }
  const keys = [...months.values()];
  return [keys.map((m) => m.o), keys.map((m) => m.f), keys.map((m) => m.t)];
}

/**
 * The probes of a batch's fresh votes, as foundVoters takes them, and what each of their numbers (from 1) looks up. A
 * vote's first probe is its one identity (voterOfVote), the group's own.
 */
interface Probes {
  values: (string[] | number[])[];
  probe: (q: number) => { organizationId: string; kind: IdentityKind; value: string };
}

function probesOf(batch: NewVote[], fresh: number[]): Probes {
  const orgs = new Map<string, number>();
  const groups = new Map<string, number>();
  const others = new Set<string>();
  const groupOrg: number[] = [];
  const groupKind: string[] = [];
  const groupValue: string[] = [];
  const otherGroup: number[] = [];
  const otherKind: string[] = [];
  const otherValue: string[] = [];
  const looked: { organizationId: string; kind: IdentityKind; value: string }[] = [];
  const otherLooked: typeof looked = [];
  for (const i of fresh) {
    const { org, voter } = batch[i];
    let o = orgs.get(org.id);
    if (o === undefined) orgs.set(org.id, (o = orgs.size + 1));
    const [own, ...rest] = voter.probes;
    const ownKey = identityKey(org.id, own);
    let n = groups.get(ownKey);
    if (n === undefined) {
      groups.set(ownKey, (n = groups.size + 1));
      groupOrg.push(o);
      groupKind.push(own.kind);
      groupValue.push(own.value);
      looked.push({ organizationId: org.id, kind: own.kind, value: own.value });
    }
    for (const p of rest) {
      const key = `${n}\u0000${identityKey(org.id, p)}`;
      if (others.has(key)) continue;
      others.add(key);
      otherGroup.push(n);
      otherKind.push(p.kind);
      otherValue.push(p.value);
      otherLooked.push({ organizationId: org.id, kind: p.kind, value: p.value });
    }
  }
  return {
    values: [[...orgs.keys()], groupOrg, groupKind, groupValue, otherGroup, otherKind, otherValue],
    probe: (q) => (q <= looked.length ? looked[q - 1] : otherLooked[q - looked.length - 1]),
  };
}

function batchReadOf(rows: ReadRow[], probes?: Probes): BatchRead {
  const result: BatchRead = { earliest: new Map(), facts: new Map(), partyCounts: new Map(), keeps: new Set(), standings: new Map(), voters: new Map() };
  for (const row of rows) {
    if (row.t === 'v') {
      const probe = probes!.probe(row.i);
      // No accounts read: found by an account, which the voter holds.
      const accounts = (row.callbacks as unknown as FoundVoter['accounts'] | null) ?? [{ kind: probe.kind, value: probe.value }];
      result.voters.set(identityKey(probe.organizationId, probe), { voterId: row.publicId, accounts, displayName: row.from, nameAt: row.at });
    } else if (row.t === 's') {
      const { k, providerTotalsJson, ...standing } = row.callbacks as unknown as Omit<StoredStanding, 'providerTotals'> & {
        k: string;
        providerTotalsJson: string;
      };
      result.standings.set(`${row.organizationId}\u0000${k}`, { ...standing, providerTotals: providerTotalsOf(providerTotalsJson) });
    } else if (row.t === 'f') {
      result.facts.set(`${row.organizationId}|${row.from}`, { used: row.used, callbacks: row.callbacks, pull: row.pull });
      result.partyCounts.set(row.organizationId, row.party ?? 0);
      if (row.kept) result.keeps.add(row.organizationId);
    } else {
      const seen = result.earliest.get(row.i);
      if (!seen || row.at < seen.at) result.earliest.set(row.i, { publicId: row.publicId, at: row.at });
    }
  }
  return result;
}

/**
 * The positions of the batch's votes to write: not a duplicate of a stored vote (already in `results`), nor of an
 * earlier vote of this batch (same content or same idempotency key: the later one is the duplicate); and the
 * position of the batch's first vote of a delivery.
 */
function freshVotes(batch: NewVote[], results: (StoredVote | null)[]): { fresh: number[]; firstOf: (vote: NewVote) => number | undefined } {
  const firstInBatch = new Map<string, number>();
  const firstOf = (vote: NewVote) =>
    keysOf(vote)
      .map((key) => firstInBatch.get(`${vote.provider.id}\u0000${key}`))
      .find((i) => i !== undefined);
  const fresh: number[] = [];
  batch.forEach((vote, i) => {
    if (results[i] || firstOf(vote) !== undefined) return;
    for (const key of keysOf(vote)) firstInBatch.set(`${vote.provider.id}\u0000${key}`, i);
    fresh.push(i);
  });
  return { fresh, firstOf };
}

/** The stored days of each voter with a vote older than their latest (`dayOf`: each real vote's local day). */
async function olderDays(
  query: Query,
  batch: NewVote[],
  dayOf: Map<number, string>,
  keyOf: Map<number, string>,
  read: BatchRead,
): Promise<Map<string, { day: string; count: number }[]>> {
  const storedDays = new Map<string, { day: string; count: number }[]>();
  const latest = new Map<string, string>();
  for (const [i, day] of dayOf) {
    const key = `${batch[i].org.id}\u0000${keyOf.get(i)}`;
    const last = latest.get(key) ?? read.standings.get(key)?.lastDay;
    if (last !== undefined && day < last && !storedDays.has(key)) {
      const days = await query<{ day: string; count: number }>({
        ...(read.keeps.has(batch[i].org.id) ? SQL.localDays : SQL.utcDays),
        values: [batch[i].org.id, keyOf.get(i)],
      });
      storedDays.set(key, days.rows);
    }
    latest.set(key, last !== undefined && last > day ? last : day);
  }
  return storedDays;
}

/** What one vote needs beyond itself. */
interface VoteContext {
  config: Config;
  rules: PlanRules;
  read: BatchRead;
  standings: ReturnType<typeof standingBatch>;
  rewards: ReturnType<typeof rewardBatch>;
  dayOf: Map<number, string>;
  /** Each fresh vote's voter key (its voter's id), by batch position. */
  keyOf: Map<number, string>;
}

/** The rows the batch writes, column by column (the write statement's arrays). */
class BatchRows {
  readonly votes = {
    id: [] as string[],
    o: [] as string[],
    p: [] as string[],
    n: [] as string[],
    k: [] as string[],
    r: [] as string[],
    raw: [] as string[],
    d: [] as string[],
    ol: [] as boolean[],
    cs: [] as string[],
    cbs: [] as string[],
    idem: [] as (string | null)[],
    rec: [] as boolean[],
    tst: [] as boolean[],
    vt: [] as (number | null)[],
    vm: [] as (number | null)[],
    vs: [] as (number | null)[],
    vb: [] as (number | null)[],
    pt: [] as (number | null)[],
    nv: [] as (string | null)[],
    rf: [] as (string | null)[],
  };
  readonly jobs: NewJob[] = [];
  readonly voterDays = new Map<string, { o: string; p: string; k: string; d: string; n: string; c: number; l: string; at: number }>();
  readonly providerDays = new Map<string, { o: string; p: string; d: string; c: number }>();
  /** Each written vote's position in the batch, by its id. */
  readonly indexOfVote = new Map<string, number>();
}

/** Plans one vote of the batch (its jobs, standing, events and rollups) into `rows`; returns what its caller gets. */
function addVote(rows: BatchRows, context: VoteContext, vote: NewVote, i: number): StoredVote {
  const { org, provider, voterName, receivedAt, test } = vote;
  const fact = context.read.facts.get(`${org.id}|${monthRange(receivedAt).from}`)!;
  const { overLimit, counts } = countingOf(vote, fact.used);
  const planned = planJobs(
    context.config,
    org,
    provider.id,
    overLimit ? [] : fact.callbacks,
    overLimit,
    !overLimit && fact.pull,
    vote.recovered,
    test ?? null,
    context.rules,
  );
  if (counts) fact.used += 1;

  const id = timeOrderedId(receivedAt.getTime());
  const voterKey = context.keyOf.get(i)!;
  const at = ts(receivedAt);
  const votes = rows.votes;
  votes.id.push(id);
  votes.o.push(org.id);
  votes.p.push(provider.id);
  votes.n.push(voterName);
  votes.k.push(voterKey);
  votes.r.push(at);
  votes.raw.push(vote.rawPayload);
  votes.d.push(vote.dedupKey);
  votes.idem.push(vote.idempotencyKey);
  votes.rec.push(vote.recovered === true);
  votes.tst.push(test !== undefined);
  votes.ol.push(overLimit);
  const statuses = initialStatuses(planned);
  votes.cs.push(statuses.chatStatus);
  votes.cbs.push(statuses.callbackStatus);
  const standing: CountedStanding | null = counts
    ? context.standings.count({ organizationId: org.id, providerId: provider.id, voterKey, day: context.dayOf.get(i)!, at: receivedAt.getTime() })
    : null;
  const cooldown = counts ? cooldownOf(provider.voteCooldownJson) : null;
  const next = cooldown ? nextVoteAt(cooldown, receivedAt) : null;
  const events = standing
    ? context.rewards.count(
        { org, provider, voteId: id, voterKey, voterName, recovered: vote.recovered === true },
        standing,
        next,
        overLimit ? [] : fact.callbacks,
        overLimit,
      )
    : [];
  votes.vt.push(standing?.voterTotal ?? null);
  votes.vm.push(standing?.voterMonthTotal ?? null);
  votes.vs.push(standing?.voterStreakDays ?? null);
  votes.vb.push(standing?.voterBestStreakDays ?? null);
  votes.pt.push(standing?.providerVoterTotal ?? null);
  votes.nv.push(next ? ts(next) : null);
  votes.rf.push(vote.repairedFrom ?? null);
  const lease = vote.lease;
  for (const job of [...planned, ...events])
    rows.jobs.push({ ...job, organizationId: org.id, voteId: id, runAt: receivedAt, ...(lease && sentAtOnce(job.kind) ? { lease } : {}) });
  rows.indexOfVote.set(id, i);
  if (counts) addRollups(rows, org.id, provider.id, voterKey, voterName, receivedAt, at);
  return { id, publicId: `vt_${id}`, duplicate: false, ...(lease ? { jobs: [] } : {}) };
}

/** A counted vote's share of the per-(provider, voter, day) and per-(provider, day) rows. */
function addRollups(rows: BatchRows, organizationId: string, providerId: string, voterKey: string, voterName: string, receivedAt: Date, at: string) {
  const day = utcDay(receivedAt);
  const voterRow = rows.voterDays.get(`${providerId}\u0000${voterKey}\u0000${day}`);
  if (!voterRow) {
    rows.voterDays.set(`${providerId}\u0000${voterKey}\u0000${day}`, {
      o: organizationId,
      p: providerId,
      k: voterKey,
      d: day,
      n: voterName,
      c: 1,
      l: at,
      at: receivedAt.getTime(),
    });
  } else {
    voterRow.c += 1;
    if (spellingWins(voterName, receivedAt.getTime(), voterRow.n, voterRow.at)) Object.assign(voterRow, { n: voterName, l: at, at: receivedAt.getTime() });
  }
  const providerRow = rows.providerDays.get(`${providerId}\u0000${day}`);
  if (providerRow) providerRow.c += 1;
  else rows.providerDays.set(`${providerId}\u0000${day}`, { o: organizationId, p: providerId, d: day, c: 1 });
}

/** The write statement's values ($1 to $52, then the jobs'), every row group in a fixed order. */
function writeValues(
  rows: BatchRows,
  standingRows: ReturnType<ReturnType<typeof standingBatch>['rows']>,
  rewardRows: ReturnType<ReturnType<typeof rewardBatch>['rows']>,
  keeps: Set<string>,
  jobValues: unknown[],
): unknown[] {
  const { votes } = rows;
  // In a fixed order (as the rollups are), so two batches touching the same rows lock them alike.
  const voterRows = inKeyOrder(rows.voterDays);
  const providerRows = inKeyOrder(rows.providerDays);
  // Local days only where the organization keeps them.
  const days = standingRows.days.filter((r) => keeps.has(r.organizationId));
  const { standings } = standingRows;
  return [
    votes.id,
    votes.o,
    votes.p,
    votes.n,
    votes.k,
    votes.r,
    votes.raw,
    votes.d,
    votes.ol,
    votes.cs,
    votes.cbs,
    votes.idem,
    voterRows.map((r) => r.o),
    voterRows.map((r) => r.p),
    voterRows.map((r) => r.k),
    voterRows.map((r) => r.d),
    voterRows.map((r) => r.n),
    voterRows.map((r) => r.c),
    voterRows.map((r) => r.l),
    providerRows.map((r) => r.o),
    providerRows.map((r) => r.p),
    providerRows.map((r) => r.d),
    providerRows.map((r) => r.c),
    votes.rec,
    votes.tst,
    votes.vt,
    votes.vm,
    votes.vs,
    votes.vb,
    votes.pt,
    votes.nv,
    standings.map((r) => r.organizationId),
    standings.map((r) => r.voterKey),
    standings.map((r) => r.total),
    standings.map((r) => r.monthTotal),
    standings.map((r) => r.streakDays),
    standings.map((r) => r.bestStreakDays),
    standings.map((r) => r.lastDay),
    standings.map((r) => ts(new Date(r.lastVoteAt))),
    days.map((r) => r.organizationId),
    days.map((r) => r.voterKey),
    days.map((r) => r.day),
    days.map((r) => r.count),
    rewardRows.parties.map((r) => r.organizationId),
    rewardRows.parties.map((r) => r.added),
    rewardRows.reminders.map((r) => r.organizationId),
    rewardRows.reminders.map((r) => r.providerId),
    rewardRows.reminders.map((r) => r.voterKey),
    rewardRows.reminders.map((r) => r.voterName),
    rewardRows.reminders.map((r) => ts(new Date(r.dueAt))),
    rewardRows.reminders.map((r) => r.voteId),
    standings.map((r) => JSON.stringify(r.providerTotals)),
    ...jobValues,
  ];
}

/** The write statement's voter values ($53 to $65): new voters, renames, linked identities. */
function voterValues(voters: VoterRows): unknown[] {
  const { created, renamed, linked } = voters;
  return [
    created.map((v) => v.id),
    created.map((v) => v.organizationId),
    created.map((v) => v.displayName),
    created.map((v) => v.displayKey),
    created.map((v) => ts(new Date(v.nameAt))),
    renamed.map((v) => v.id),
    renamed.map((v) => v.displayName),
    renamed.map((v) => v.displayKey),
    renamed.map((v) => ts(new Date(v.nameAt))),
    linked.map((l) => l.organizationId),
    linked.map((l) => l.kind),
    linked.map((l) => l.value),
    linked.map((l) => l.voterId),
  ];
}

/** The vote write, a named write (writes.ts): on the write thread's own pool in the service, the shared one in one-shot commands. */
export function createPgVoteWrite(config: Config, rules: PlanRules): PgNamedWrite<NewVote, StoredVote> {
  const budgets = { callback: attemptBudget(config, 'callback'), chat: attemptBudget(config, 'chat') };
  /** The batch's duplicate read (SQL.duplicates) with its values written in: it is sent with BEGIN and the locks (begin). */
  function duplicateStatement(batch: NewVote[]): string {
    return inlineParameters(SQL.duplicates(batch.some((v) => typeof v.idempotencyKey === 'string')).text, [
      batch.map((v) => v.provider.id),
      batch.map((v) => v.dedupKey),
      batch.map((v) => ts(new Date(v.receivedAt.getTime() - config.duplicateWindowMs))),
      batch.map((v) => v.idempotencyKey),
    ]);
  }
  /** The batch's reads in BEGIN's round trip (begin), in order: the duplicates, then the facts with the voters. */
  const probesOfBatch = new WeakMap<NewVote[], Probes>();
  const probesFor = (batch: NewVote[]): Probes => {
    let probes = probesOfBatch.get(batch);
    if (!probes)
      probesOfBatch.set(
        batch,
        (probes = probesOf(
          batch,
          batch.map((_, i) => i),
        )),
      );
    return probes;
  };

  async function writeBatch(query: Query, batch: NewVote[], begun: pg.QueryResult[] | undefined): Promise<StoredVote[]> {
    const [duplicates, facts] = (begun ?? []).slice(-2) as pg.QueryResult<ReadRow>[];
    if (!duplicates || !facts) throw new Error('the vote batch began without its reads');
    const first = batchReadOf(duplicates.rows);
    const results: (StoredVote | null)[] = batch.map(() => null);
    for (const [i, row] of first.earliest) results[i - 1] = { id: null, publicId: row.publicId, duplicate: true };
    const { fresh, firstOf } = freshVotes(batch, results);
    // The votes' voters (voter-identity.ts), read under their locks with the batch's other facts.
    const read = { ...batchReadOf(facts.rows, probesFor(batch)), earliest: first.earliest };
    const voters = voterBatch((_o, _identity, key) => read.voters.get(key) ?? null);
    const keyOf = new Map<number, string>();
    for (const i of fresh) keyOf.set(i, voters.resolve(batch[i].org.id, batch[i].voter, batch[i].receivedAt.getTime(), batch[i].test !== undefined));

    // Each voter's days when one of its votes is older than its latest (rare: recovered votes); their standings came
    // with the facts read.
    const dayOf = new Map<number, string>();
    for (const i of fresh) if (!batch[i].test) dayOf.set(i, localDay(batch[i].receivedAt, batch[i].org.timeZone));
    const storedDays = await olderDays(query, batch, dayOf, keyOf, read);
    const standings = standingBatch({
      standing: (o, k) => read.standings.get(`${o}\u0000${k}`) ?? null,
      days: (o, k) => storedDays.get(`${o}\u0000${k}`) ?? [],
    });
    const rewards = rewardBatch({ partyCount: (o) => read.partyCounts.get(o) ?? 0 }, budgets);

    const rows = new BatchRows();
    const context: VoteContext = { config, rules, read, standings, rewards, dayOf, keyOf };
    for (const i of fresh) results[i] = addVote(rows, context, batch[i], i);
    batch.forEach((vote, i) => {
      if (results[i]) return;
      const first = results[firstOf(vote)!]!;
      results[i] = { id: null, publicId: first.publicId, duplicate: true };
    });

    if (rows.votes.id.length > 0) {
      const jobPart = jobInsert(67, rows.jobs);
      for (const job of jobPart.leased) results[rows.indexOfVote.get(job.voteId!)!]!.jobs!.push(job);
      await query({
        ...SQL.write(jobPart.sql),
        values: writeValues(rows, standings.rows(), rewards.rows(), read.keeps, [...voterValues(voters.rows()), rows.votes.rf, ...jobPart.values]),
      });
    }
    return results as StoredVote[];
  }

  // A new table's first statistics (autovacuum analyzes it after ~50 rows) make a sequential scan look cheap, and
  // prepared statements keep such a plan while the table grows.
  // The batch's reads go in the same round trip as BEGIN and the locks: the voters' locks and the facts as EXECUTEs of
  // statements prepared once per connection. Each statement of a simple query reads a snapshot of its own, so each
  // read sees everything committed before the locks ahead of it were granted.
  return {
    write: writeBatch,
    prepare: `PREPARE ${SQL.voterLocks.name} AS ${SQL.voterLocks.text}; PREPARE ${SQL.facts.name} AS ${SQL.facts.text}`,
    begin: (batch) => {
      const probes = probesFor(batch).values;
      return [
        'SET LOCAL enable_seqscan = off',
        lockStatement(batch),
        execute(SQL.voterLocks.name, probes),
        duplicateStatement(batch),
        execute(SQL.facts.name, [...monthValues(batch), ...probes]),
      ].join('; ');
    },
  };
}

/** A prepared statement's EXECUTE with its values written in (sqlLiteral). */
const execute = (name: string, values: unknown[]) => `EXECUTE ${name}(${values.map(sqlLiteral).join(', ')})`;

export function createPgVoteStore(config: Config, pool: pg.Pool, votes: BatchWriter<NewVote, StoredVote>): VoteStore {
  // Not cached: a disabled provider, a rotated secret or a suspended organization applies to the very next vote,
  // on every instance. Batching the reads of one tick keeps that to one round trip under load.
  const targets = new DataLoader<{ slug: string; key: string }, HookTarget | null>(
    async (wanted) => {
      const found = await pool.query<{ i: number; org: HookOrg; provider: HookProvider | null }>({
        ...SQL.targets,
        values: [wanted.map((w) => w.slug), wanted.map((w) => w.key)],
      });
      const result: (HookTarget | null)[] = wanted.map(() => null);
      for (const row of found.rows) result[row.i - 1] = { org: row.org, provider: row.provider };
      return result;
    },
    { cache: false, maxBatchSize: config.writeBatchMax, batchScheduleFn: (load) => setImmediate(load) },
  );

  return {
    findTarget: (slug, key) => targets.load({ slug, key }),
    write: (vote) => votes.submit(vote),
  };
}
