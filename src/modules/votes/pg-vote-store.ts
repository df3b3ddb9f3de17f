// The PostgreSQL hook path: plain SQL on the pool Prisma also uses (named, prepared statements) and group commit.
// Votes that arrive while earlier batches are being written join the next batch; a batch is one transaction of a
// fixed number of statements whatever its size (locks, duplicates, organization facts, votes, jobs, two rollups),
// and each caller's promise resolves only after its batch committed. Several instances may write at once:
//   - two identical deliveries racing (even on two instances) serialize on a transaction-scoped advisory lock per
//     (provider, dedup key) and (provider, idempotency key), so the second one finds the first;
//   - every batch takes its locks in one global order (advisory locks by hash, then voter rows, then provider rows,
//     each sorted), so batches never deadlock each other; a deadlock with other work is retried.
import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import type pg from 'pg';
import type { AppDeps } from '../../app-deps.js';
import { createPostgresBatchWriter, type Query } from '../../db/batch-writer/postgres.js';
import type { NewJob } from '../../delivery/job-queue/job-queue.js';
import { spellingWins, spellingWinsSql, voterKeyOf } from './voter-name.js';
import { initialStatuses, planJobs } from '../../delivery/job-plan.js';
import type { PostgresJobQueue } from '../../delivery/job-queue/postgres.js';
import { utcDay } from '../../time.js';
import {
  DUPLICATE_WINDOW_MS,
  monthRange,
  monthlyLimit,
  type HookOrg,
  type HookProvider,
  type HookTarget,
  type NewVote,
  type StoredVote,
  type VoteStore,
} from './vote-store.js';

/**
 * Batches written at once per instance. One: the batches of one instance then never queue on each other's rollup
 * row locks, and the next batch gathers everything that arrived meanwhile (measured with bench/ingest.ts on
 * PostgreSQL: about 1,500 votes/s with one, 1,100 with two, 900 with three).
 */
const MAX_IN_FLIGHT = 1;

const SQL = {
  // Every hook request's organization and provider, for all requests that arrived in one tick.
  targets: {
    name: 'vr_hook_targets',
    text: `SELECT k.i::int AS i,
             json_build_object('id', o.id, 'slug', o.slug, 'plan', o.plan, 'status', o.status,
               'chatNotificationsEnabled', o."chatNotificationsEnabled", 'chatWebhookUrl', o."chatWebhookUrl",
               'serverCallbackUrl', o."serverCallbackUrl") AS org,
             CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'key', p.key, 'authMethod', p."authMethod",
               'authField', p."authField", 'authValueEnc', p."authValueEnc", 'authTimestampField', p."authTimestampField",
               'signatureFormat', p."signatureFormat", 'payloadSource', p."payloadSource",
               'voteePath', p."voteePath", 'eventPath', p."eventPath", 'voteEventsJson', p."voteEventsJson",
               'testEventsJson', p."testEventsJson", 'enabled', p.enabled) END AS provider
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(slug, key, i)
           JOIN "Organization" AS o ON o.slug = k.slug
           LEFT JOIN "Provider" AS p ON p."organizationId" = o.id AND p.key = k.key`,
  },
  // Sorted by lock id: every batch (on every instance) takes its advisory locks in the same order.
  lock: {
    name: 'vr_vote_lock',
    text: `SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS s`,
  },
  // For each vote (by position), the earlier votes of the same provider and delivery within its window (usually
  // none); the earliest is picked in code. Written so that only the index made for this check fits: equality on
  // both of its leading columns, and a time bound no index can take. Young statistics (autovacuum analyzed the
  // table while it was small) otherwise make ("providerId", "receivedAt") look as cheap, and prepared statements
  // keep that plan, which filters the whole window for every vote once the table has grown.
  // The idempotency half looks the same up in its own index ($4: the vote's idempotency key, or null).
  duplicates: {
    text: `SELECT k.i::int AS i, v."publicId", (extract(epoch FROM v."receivedAt") * 1000)::float8 AS at
           FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[]) WITH ORDINALITY AS k(p, d, since, idem, i)
           JOIN "Vote" AS v ON v."providerId" = k.p AND v."dedupKey" = k.d
           WHERE v."receivedAt" + interval '0' >= k.since
           UNION ALL
           SELECT k.i::int AS i, v."publicId", (extract(epoch FROM v."receivedAt") * 1000)::float8 AS at
           FROM unnest($1::text[], $2::text[], $3::timestamp(3)[], $4::text[]) WITH ORDINALITY AS k(p, d, since, idem, i)
           JOIN "Vote" AS v ON v."providerId" = k.p AND v."idempotencyKey" = k.idem
           WHERE k.idem IS NOT NULL AND v."receivedAt" + interval '0' >= k.since`,
  },
  // Per (organization, month): votes counted so far this month, the enabled callbacks, whether plugins poll.
  orgFacts: {
    name: 'vr_vote_org_facts',
    text: `SELECT k.o AS "organizationId", k.f AS "from",
             (SELECT COALESCE(SUM(count), 0)::int FROM "ProviderDailyCount" WHERE "organizationId" = k.o AND day >= k.f AND day <= k.t) AS used,
             COALESCE((SELECT json_agg(json_build_object('id', c.id, 'priority', c.priority) ORDER BY c.priority, c."createdAt")
                       FROM "Callback" AS c WHERE c."organizationId" = k.o AND c.enabled), '[]'::json) AS callbacks,
             EXISTS (SELECT 1 FROM "PluginToken" WHERE "organizationId" = k.o AND "revokedAt" IS NULL) AS pull
           FROM unnest($1::text[], $2::text[], $3::text[]) AS k(o, f, t)`,
  },
  insertVotes: {
    name: 'vr_vote_insert',
    text: `INSERT INTO "Vote" (id, "publicId", "organizationId", "providerId", "voterName", "voterKey", "receivedAt", "rawPayload", "dedupKey",
             "overLimit", "chatStatus", "callbackStatus", "callbackAttempts", "idempotencyKey")
           SELECT id, 'vt_' || id, o, p, n, k, r, raw, d, ol, cs, cbs, 0, idem
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[], $7::text[], $8::text[], $9::boolean[],
                       $10::text[], $11::text[], $12::text[]) AS v(id, o, p, n, k, r, raw, d, ol, cs, cbs, idem)`,
  },
  // One row per (provider, voter, day) of the batch, in key order; the later vote decides lastVoteAt and the spelling.
  bumpVoterDays: {
    name: 'vr_vote_voter_days',
    text: `INSERT INTO "VoterDailyCount" AS t ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
           SELECT o, p, k, d, n, c, l FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamp(3)[])
             AS u(o, p, k, d, n, c, l)
           ORDER BY p, k, d
           ON CONFLICT ("providerId", "voterKey", day) DO UPDATE SET count = t.count + excluded.count,
             "voterName" = ${spellingWinsSql('t')},
             "lastVoteAt" = GREATEST(t."lastVoteAt", excluded."lastVoteAt")`,
  },
  // Last: every vote of a provider on a day updates this one row, so it stays locked for the shortest time.
  bumpProviderDays: {
    name: 'vr_vote_provider_days',
    text: `INSERT INTO "ProviderDailyCount" AS t ("organizationId", "providerId", day, count)
           SELECT o, p, d, c FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(o, p, d, c)
           ORDER BY p, d
           ON CONFLICT ("providerId", day) DO UPDATE SET count = t.count + excluded.count`,
  },
} as const;

/** `timestamp(3)` columns hold UTC; an ISO string's offset is ignored on the cast, so this stores the UTC time. */
const ts = (at: Date) => at.toISOString();

/** The keys that make another delivery the same vote. */
const keysOf = (vote: NewVote) => (vote.idempotencyKey ? [vote.dedupKey, vote.idempotencyKey] : [vote.dedupKey]);

function byKey<T>(rows: Map<string, T>): T[] {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export function createPgVoteStore(deps: AppDeps, pool: pg.Pool, queue: PostgresJobQueue): VoteStore {

  async function writeBatch(query: Query, batch: NewVote[]): Promise<StoredVote[]> {
    const results: (StoredVote | null)[] = batch.map(() => null);
    await query({ ...SQL.lock, values: [batch.flatMap((v) => keysOf(v).map((key) => `${v.provider.id}:${key}`))] });

    const dups = await query<{ i: number; publicId: string; at: number }>({
      ...SQL.duplicates,
      values: [
        batch.map((v) => v.provider.id),
        batch.map((v) => v.dedupKey),
        batch.map((v) => ts(new Date(v.receivedAt.getTime() - DUPLICATE_WINDOW_MS))),
        batch.map((v) => v.idempotencyKey),
      ],
    });
    const earliest = new Map<number, { publicId: string; at: number }>();
    for (const row of dups.rows) {
      const seen = earliest.get(row.i);
      if (!seen || row.at < seen.at) earliest.set(row.i, row);
    }
    for (const [i, row] of earliest) results[i - 1] = { id: null, publicId: row.publicId, duplicate: true };

    // The same delivery twice in this batch (same content or same idempotency key): the later one is a duplicate.
    const firstInBatch = new Map<string, number>();
    const firstOf = (vote: NewVote) => keysOf(vote).map((key) => firstInBatch.get(`${vote.provider.id}\u0000${key}`)).find((i) => i !== undefined);
    const fresh: number[] = [];
    batch.forEach((vote, i) => {
      if (results[i] || firstOf(vote) !== undefined) return;
      for (const key of keysOf(vote)) firstInBatch.set(`${vote.provider.id}\u0000${key}`, i);
      fresh.push(i);
    });

    const factKeys = new Map<string, { o: string; f: string; t: string }>();
    for (const i of fresh) {
      const month = monthRange(batch[i].receivedAt);
      factKeys.set(`${batch[i].org.id}|${month.from}`, { o: batch[i].org.id, f: month.from, t: month.to });
    }
    const facts = new Map<string, { used: number; callbacks: { id: string; priority: number }[]; pull: boolean }>();
    if (factKeys.size > 0) {
      const keys = [...factKeys.values()];
      const rows = await query<{ organizationId: string; from: string; used: number; callbacks: { id: string; priority: number }[]; pull: boolean }>({
        ...SQL.orgFacts,
        values: [keys.map((k) => k.o), keys.map((k) => k.f), keys.map((k) => k.t)],
      });
      for (const row of rows.rows) facts.set(`${row.organizationId}|${row.from}`, { used: row.used, callbacks: row.callbacks, pull: row.pull });
    }

    const votes = { id: [] as string[], o: [] as string[], p: [] as string[], n: [] as string[], k: [] as string[], r: [] as string[], raw: [] as string[], d: [] as string[], ol: [] as boolean[], cs: [] as string[], cbs: [] as string[], idem: [] as (string | null)[] };
    const jobs: NewJob[] = [];
    const voterDays = new Map<string, { o: string; p: string; k: string; d: string; n: string; c: number; l: string; at: number }>();
    const providerDays = new Map<string, { o: string; p: string; d: string; c: number }>();

    for (const i of fresh) {
      const { org, provider, voterName, receivedAt } = batch[i];
      const fact = facts.get(`${org.id}|${monthRange(receivedAt).from}`)!;
      const overLimit = fact.used >= monthlyLimit(org);
      const planned = planJobs(deps.config, org, overLimit ? [] : fact.callbacks, overLimit, !overLimit && fact.pull);
      fact.used += 1;

      const id = randomUUID();
      const voterKey = voterKeyOf(voterName);
      const at = ts(receivedAt);
      votes.id.push(id);
      votes.o.push(org.id);
      votes.p.push(provider.id);
      votes.n.push(voterName);
      votes.k.push(voterKey);
      votes.r.push(at);
      votes.raw.push(batch[i].rawPayload);
      votes.d.push(batch[i].dedupKey);
      votes.idem.push(batch[i].idempotencyKey);
      votes.ol.push(overLimit);
      const statuses = initialStatuses(planned);
      votes.cs.push(statuses.chatStatus);
      votes.cbs.push(statuses.callbackStatus);
      for (const job of planned) jobs.push({ ...job, organizationId: org.id, voteId: id, runAt: receivedAt });

      const day = utcDay(receivedAt);
      const voterRow = voterDays.get(`${provider.id}\u0000${voterKey}\u0000${day}`);
      if (!voterRow) {
        voterDays.set(`${provider.id}\u0000${voterKey}\u0000${day}`, { o: org.id, p: provider.id, k: voterKey, d: day, n: voterName, c: 1, l: at, at: receivedAt.getTime() });
      } else {
        voterRow.c += 1;
        if (spellingWins(voterName, receivedAt.getTime(), voterRow.n, voterRow.at)) Object.assign(voterRow, { n: voterName, l: at, at: receivedAt.getTime() });
      }
      const providerRow = providerDays.get(`${provider.id}\u0000${day}`);
      if (providerRow) providerRow.c += 1;
      else providerDays.set(`${provider.id}\u0000${day}`, { o: org.id, p: provider.id, d: day, c: 1 });

      results[i] = { id, publicId: `vt_${id}`, duplicate: false };
    }
    batch.forEach((vote, i) => {
      if (results[i]) return;
      const first = results[firstOf(vote)!]!;
      results[i] = { id: null, publicId: first.publicId, duplicate: true };
    });

    if (votes.id.length > 0) {
      await query({ ...SQL.insertVotes, values: [votes.id, votes.o, votes.p, votes.n, votes.k, votes.r, votes.raw, votes.d, votes.ol, votes.cs, votes.cbs, votes.idem] });
      await queue.insertInTransaction(query, jobs);
      const voterRows = byKey(voterDays);
      await query({
        ...SQL.bumpVoterDays,
        values: [voterRows.map((r) => r.o), voterRows.map((r) => r.p), voterRows.map((r) => r.k), voterRows.map((r) => r.d), voterRows.map((r) => r.n), voterRows.map((r) => r.c), voterRows.map((r) => r.l)],
      });
      const providerRows = byKey(providerDays);
      await query({ ...SQL.bumpProviderDays, values: [providerRows.map((r) => r.o), providerRows.map((r) => r.p), providerRows.map((r) => r.d), providerRows.map((r) => r.c)] });
    }
    return results as StoredVote[];
  }

  // A new table's first statistics (autovacuum analyzes it after ~50 rows) make a sequential scan look cheap, and
  // prepared statements keep such a plan while the table grows.
  const writer = createPostgresBatchWriter<NewVote, StoredVote>({ pool, write: writeBatch, maxBatch: deps.config.writeBatchMax, maxInFlight: MAX_IN_FLIGHT, begin: 'SET LOCAL enable_seqscan = off' });

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
    { cache: false, maxBatchSize: deps.config.writeBatchMax, batchScheduleFn: (load) => setImmediate(load) },
  );

  return {
    findTarget: (slug, key) => targets.load({ slug, key }),
    write: (vote) => writer.submit(vote),
    /** Refuses new votes; queued ones are still written (their requests are awaiting them). */
    close: () => writer.close(),
  };
}
