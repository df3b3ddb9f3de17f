// Baseline for bench/read.ts: the database work of each measured endpoint alone, as plain SQL through
// better-sqlite3 on the same file, in the benchmark process: no HTTP, no authentication, no GraphQL, no ORM,
// no JSON. Ours ÷ this is what the service adds on top of the queries the answer needs at the least. The
// leaderboard's baseline ranks the window on every call (the service keeps a ranked list between requests), the vote
// page's reads what the page shows (the organization, its sites; for a player their voter by name, standing, their
// last vote per site from the last 8 days' day rows, and receipt: the last 30 days of votes with their deliveries to game servers) without rendering it, and
// the export's reads every row and formats it as CSV (csv-stringify) without sending it anywhere.
// On PostgreSQL (openRawReadsPostgres): the same queries translated, on one node-postgres connection to the same
// database (named, i.e. server-side prepared, statements; rows as arrays), the export read through a cursor.
import Database from 'better-sqlite3';
import { stringify } from 'csv-stringify/sync';
import pg from 'pg';

const DAY_MS = 86_400_000;
const COLUMNS = ['voter_name', 'provider', 'received_at', 'chat_status', 'callback_status'];
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The vote page's receipt (src/modules/vote-page/vote-page.service.ts): the last 30 days, at most 50 votes. */
const RECEIPT_DAYS = 30;
const RECEIPT_MAX = 50;
/** The page's per-site state reads the voter's day rows of the last 8 days only (RECENT_DAYS there). */
const RECENT_DAYS = 8;

/** The identity kinds a typed name may be (src/storage/voter-lookup.ts; a Discord id only for digits, which the seeded names never are). */
const NAME_KINDS = ['minecraft_uuid', 'minecraft', 'bedrock', 'hytale', 'name'];
const TO_SERVERS = ['callback', 'legacy_callback', 'pull'];

export interface RawReads {
  dashboard(): unknown;
  trend(fromDay: string, toDay: string): unknown;
  byProvider(): unknown;
  leaderboard(days: number, limit: number): unknown;
  votesPage(providerId: string | null, limit: number, offset: number): unknown;
  /** The public vote page of the organization `slug`, for `player` (a name as typed) or none. */
  votePage(slug: string, player: string | null): unknown;
  /** Reads and formats every vote of the organization; returns rows and seconds. */
  exportAll(): { rows: number; bytes: number; seconds: number };
  close(): void;
}

export function openRawReads(file: string, organizationId: string): RawReads {
  const db = new Database(file, { readonly: true });
  const sum = db.prepare('SELECT SUM(count) AS n FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ?').pluck();
  const perDayProvider = db.prepare('SELECT day, providerId, count FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ? AND day <= ?').raw();
  const providers = db.prepare('SELECT id, key, name FROM "Provider" WHERE organizationId = ? ORDER BY createdAt, id').raw();
  const perDay = db.prepare('SELECT day, SUM(count) FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ? AND day <= ? GROUP BY day').raw();
  const perProvider = db.prepare('SELECT providerId, SUM(count) FROM "ProviderDailyCount" WHERE organizationId = ? AND day >= ? GROUP BY providerId').raw();
  const rank = db
    .prepare(
      `SELECT voterKey, SUM(count) AS votes, MAX(lastVoteAt) AS last FROM "VoterDailyCount" WHERE organizationId = ? AND day >= ?
       GROUP BY voterKey ORDER BY votes DESC, last DESC, voterKey LIMIT ?`,
    )
    .raw();
  const names = (n: number) =>
    db
      .prepare(
        `SELECT voterKey, voterName FROM "VoterDailyCount" WHERE organizationId = ? AND day >= ? AND voterKey IN (${Array(n).fill('?').join(',')}) ORDER BY lastVoteAt DESC`,
      )
      .raw();
  const page = db
    .prepare(
      'SELECT id, publicId, voterName, providerId, receivedAt, chatStatus, callbackStatus FROM "Vote" WHERE organizationId = ? ORDER BY receivedAt DESC, id DESC LIMIT ? OFFSET ?',
    )
    .raw();
  const providerPage = db
    .prepare(
      'SELECT id, publicId, voterName, providerId, receivedAt, chatStatus, callbackStatus FROM "Vote" WHERE organizationId = ? AND providerId = ? ORDER BY receivedAt DESC, id DESC LIMIT ? OFFSET ?',
    )
    .raw();
  const providerTotal = db.prepare('SELECT SUM(count) FROM "ProviderDailyCount" WHERE organizationId = ? AND providerId = ?').pluck();
  const allRows = db
    .prepare('SELECT voterName, providerId, receivedAt, chatStatus, callbackStatus FROM "Vote" WHERE organizationId = ? ORDER BY receivedAt, id')
    .raw();
  const pageOrg = db.prepare('SELECT id, slug, name, status, votePageJson, timeZone, milestonesJson, votePartyEvery FROM "Organization" WHERE slug = ?').raw();
  const pageSites = db
    .prepare(
      'SELECT id, key, name, voteUrl, voteCooldownJson FROM "Provider" WHERE organizationId = ? AND enabled = 1 AND voteUrl IS NOT NULL ORDER BY createdAt, key',
    )
    .raw();
  const identity = db
    .prepare(`SELECT kind, voterId FROM "VoterIdentity" WHERE organizationId = ? AND kind IN (${NAME_KINDS.map(() => '?').join(', ')}) AND value = ?`)
    .raw();
  const shownVoter = db.prepare('SELECT id FROM "Voter" WHERE organizationId = ? AND displayKey = ? ORDER BY nameAt DESC LIMIT 1').pluck();
  const standing = db
    .prepare('SELECT total, monthTotal, streakDays, bestStreakDays, lastDay, lastVoteAt FROM "VoterStanding" WHERE organizationId = ? AND voterKey = ?')
    .raw();
  const perSite = db
    .prepare(
      `SELECT d.providerId, MAX(d.lastVoteAt) FROM "VoterDailyCount" d
       WHERE d.organizationId = ? AND d.voterKey = ? AND d.day >= ? GROUP BY d.providerId`,
    )
    .raw();
  const receipt = db
    .prepare(
      `SELECT v.id, v.publicId, v.receivedAt, p.name FROM "Vote" v JOIN "Provider" p ON p.id = v.providerId
       WHERE v.organizationId = ? AND v.voterKey = ? AND v.receivedAt >= ? AND NOT v.test ORDER BY v.receivedAt DESC, v.id DESC LIMIT ${RECEIPT_MAX}`,
    )
    .raw();
  const deliveries = db
    .prepare(
      `SELECT j.id, j.voteId, j.kind, j.status, j.sentAt, c.name,
         (SELECT a.statusCode FROM "DeliveryAttempt" a WHERE a.jobId = j.id ORDER BY a.createdAt DESC LIMIT 1)
       FROM "DeliveryJob" j LEFT JOIN "Callback" c ON c.id = j.callbackId
       WHERE j.voteId IN (SELECT value FROM json_each(?)) AND j.kind IN (${TO_SERVERS.map(() => '?').join(', ')})`,
    )
    .raw();

  const today = () => day(Date.now());
  return {
    dashboard() {
      const now = Date.now();
      const monday = now - ((new Date(now).getUTCDay() + 6) % 7) * DAY_MS;
      return [
        sum.get(organizationId, today()),
        sum.get(organizationId, day(monday)),
        sum.get(organizationId, `${today().slice(0, 8)}01`),
        sum.get(organizationId, '0000-00-00'),
        perDayProvider.all(organizationId, day(now - 29 * DAY_MS), today()),
        providers.all(organizationId),
      ];
    },
    trend: (fromDay, toDay) => perDay.all(organizationId, fromDay, toDay),
    byProvider: () => [perProvider.all(organizationId, day(Date.now() - 29 * DAY_MS)), providers.all(organizationId)],
    leaderboard(days, limit) {
      const from = day(Date.now() - (days - 1) * DAY_MS);
      const top = rank.all(organizationId, from, limit) as [string, number, number][];
      return [top, top.length ? names(top.length).all(organizationId, from, ...top.map((t) => t[0])) : []];
    },
    votesPage(providerId, limit, offset) {
      return providerId
        ? [providerPage.all(organizationId, providerId, limit, offset), providerTotal.get(organizationId, providerId), providers.all(organizationId)]
        : [page.all(organizationId, limit, offset), sum.get(organizationId, '0000-00-00'), providers.all(organizationId)];
    },
    votePage(slug, player) {
      const org = pageOrg.get(slug) as unknown[] | undefined;
      if (!org) return null;
      const orgId = org[0] as string;
      const sites = pageSites.all(orgId);
      if (player === null) return [org, sites];
      const value = player.trim().toLowerCase();
      const held = identity.all(orgId, ...NAME_KINDS, value) as [string, string][];
      const voterId =
        held.length > 0 ? held.sort((a, b) => NAME_KINDS.indexOf(a[0]) - NAME_KINDS.indexOf(b[0]))[0][1] : (shownVoter.get(orgId, value) as string | undefined);
      if (!voterId) return [org, sites, null];
      const votes = receipt.all(orgId, voterId, Date.now() - RECEIPT_DAYS * DAY_MS) as [string, ...unknown[]][];
      return [
        org,
        sites,
        standing.get(orgId, voterId),
        perSite.all(orgId, voterId, day(Date.now() - RECENT_DAYS * DAY_MS)),
        votes,
        votes.length > 0 ? deliveries.all(JSON.stringify(votes.map((v) => v[0])), ...TO_SERVERS) : [],
      ];
    },
    exportAll() {
      const keys = new Map((providers.all(organizationId) as [string, string, string][]).map(([id, key]) => [id, key]));
      const started = performance.now();
      let rows = 0;
      let batch: string[][] = [];
      let bytes = 0;
      for (const r of allRows.iterate(organizationId) as Iterable<[string, string, number, string, string]>) {
        batch.push([r[0], keys.get(r[1]) ?? '', new Date(r[2]).toISOString(), r[3], r[4]]);
        if (batch.length === 5_000) {
          bytes += stringify(batch, { header: rows === 0, columns: COLUMNS }).length;
          rows += batch.length;
          batch = [];
        }
      }
      bytes += stringify(batch).length;
      rows += batch.length;
      return { rows, bytes, seconds: (performance.now() - started) / 1000 };
    },
    close: () => db.close(),
  };
}

export interface RawReadsPostgres {
  dashboard(): Promise<unknown>;
  trend(fromDay: string, toDay: string): Promise<unknown>;
  byProvider(): Promise<unknown>;
  leaderboard(days: number, limit: number): Promise<unknown>;
  votesPage(providerId: string | null, limit: number, offset: number): Promise<unknown>;
  /** The public vote page of the organization `slug`, for `player` (a name as typed) or none. */
  votePage(slug: string, player: string | null): Promise<unknown>;
  /** Reads and formats every vote of the organization; returns rows and seconds. */
  exportAll(): Promise<{ rows: number; bytes: number; seconds: number }>;
  close(): Promise<void>;
}

const TIMESTAMP_OID = 1114;
/** `timestamp(3)` columns hold UTC (as the service writes them); node-postgres would read them as local time. */
const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

/** The same reads as openRawReads, translated to PostgreSQL, on one connection to the database at `url`. */
export async function openRawReadsPostgres(url: string, organizationId: string): Promise<RawReadsPostgres> {
  const db = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === TIMESTAMP_OID && format !== 'binary' ? utcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  await db.connect();
  const statement =
    (name: string, text: string) =>
    (...values: unknown[]) =>
      db.query<unknown[]>({ name: `raw_reads_${name}`, text, values, rowMode: 'array' }).then((r) => r.rows);
  const sum = statement('sum', 'SELECT SUM(count) AS n FROM "ProviderDailyCount" WHERE "organizationId" = $1 AND day >= $2');
  const perDayProvider = statement(
    'per_day_provider',
    'SELECT day, "providerId", count FROM "ProviderDailyCount" WHERE "organizationId" = $1 AND day >= $2 AND day <= $3',
  );
  const providers = statement('providers', 'SELECT id, key, name FROM "Provider" WHERE "organizationId" = $1 ORDER BY "createdAt", id');
  const perDay = statement('per_day', 'SELECT day, SUM(count) FROM "ProviderDailyCount" WHERE "organizationId" = $1 AND day >= $2 AND day <= $3 GROUP BY day');
  const perProvider = statement(
    'per_provider',
    'SELECT "providerId", SUM(count) FROM "ProviderDailyCount" WHERE "organizationId" = $1 AND day >= $2 GROUP BY "providerId"',
  );
  const rank = statement(
    'rank',
    `SELECT "voterKey", SUM(count) AS votes, MAX("lastVoteAt") AS last FROM "VoterDailyCount" WHERE "organizationId" = $1 AND day >= $2
     GROUP BY "voterKey" ORDER BY votes DESC, last DESC, "voterKey" LIMIT $3`,
  );
  // The IN list becomes one array parameter: one prepared statement whatever its length.
  const names = statement(
    'names',
    'SELECT "voterKey", "voterName" FROM "VoterDailyCount" WHERE "organizationId" = $1 AND day >= $2 AND "voterKey" = ANY($3::text[]) ORDER BY "lastVoteAt" DESC',
  );
  const page = statement(
    'page',
    'SELECT id, "publicId", "voterName", "providerId", "receivedAt", "chatStatus", "callbackStatus" FROM "Vote" WHERE "organizationId" = $1 ORDER BY "receivedAt" DESC, id DESC LIMIT $2 OFFSET $3',
  );
  const providerPage = statement(
    'provider_page',
    'SELECT id, "publicId", "voterName", "providerId", "receivedAt", "chatStatus", "callbackStatus" FROM "Vote" WHERE "organizationId" = $1 AND "providerId" = $2 ORDER BY "receivedAt" DESC, id DESC LIMIT $3 OFFSET $4',
  );
  const providerTotal = statement('provider_total', 'SELECT SUM(count) FROM "ProviderDailyCount" WHERE "organizationId" = $1 AND "providerId" = $2');
  const pluck = (rows: unknown[][]) => rows[0]?.[0];
  const pageOrg = statement(
    'page_org',
    'SELECT id, slug, name, status, "votePageJson", "timeZone", "milestonesJson", "votePartyEvery" FROM "Organization" WHERE slug = $1',
  );
  const pageSites = statement(
    'page_sites',
    'SELECT id, key, name, "voteUrl", "voteCooldownJson" FROM "Provider" WHERE "organizationId" = $1 AND enabled AND "voteUrl" IS NOT NULL ORDER BY "createdAt", key',
  );
  const identity = statement('identity', 'SELECT kind, "voterId" FROM "VoterIdentity" WHERE "organizationId" = $1 AND kind = ANY($2::text[]) AND value = $3');
  const shownVoter = statement('shown_voter', 'SELECT id FROM "Voter" WHERE "organizationId" = $1 AND "displayKey" = $2 ORDER BY "nameAt" DESC LIMIT 1');
  const standing = statement(
    'standing',
    'SELECT total, "monthTotal", "streakDays", "bestStreakDays", "lastDay", "lastVoteAt" FROM "VoterStanding" WHERE "organizationId" = $1 AND "voterKey" = $2',
  );
  const perSite = statement(
    'per_site',
    `SELECT d."providerId", MAX(d."lastVoteAt") FROM "VoterDailyCount" d
     WHERE d."organizationId" = $1 AND d."voterKey" = $2 AND d.day >= $3 GROUP BY d."providerId"`,
  );
  const receipt = statement(
    'receipt',
    `SELECT v.id, v."publicId", v."receivedAt", p.name FROM "Vote" v JOIN "Provider" p ON p.id = v."providerId"
     WHERE v."organizationId" = $1 AND v."voterKey" = $2 AND v."receivedAt" >= $3::timestamp(3) AND NOT v.test
     ORDER BY v."receivedAt" DESC, v.id DESC LIMIT ${RECEIPT_MAX}`,
  );
  const deliveries = statement(
    'deliveries',
    `SELECT j.id, j."voteId", j.kind, j.status, j."sentAt", c.name,
       (SELECT a."statusCode" FROM "DeliveryAttempt" a WHERE a."jobId" = j.id ORDER BY a."createdAt" DESC LIMIT 1)
     FROM "DeliveryJob" j LEFT JOIN "Callback" c ON c.id = j."callbackId"
     WHERE j."voteId" = ANY($1::text[]) AND j.kind = ANY($2::text[])`,
  );

  const today = () => day(Date.now());
  return {
    async dashboard() {
      const now = Date.now();
      const monday = now - ((new Date(now).getUTCDay() + 6) % 7) * DAY_MS;
      return [
        pluck(await sum(organizationId, today())),
        pluck(await sum(organizationId, day(monday))),
        pluck(await sum(organizationId, `${today().slice(0, 8)}01`)),
        pluck(await sum(organizationId, '0000-00-00')),
        await perDayProvider(organizationId, day(now - 29 * DAY_MS), today()),
        await providers(organizationId),
      ];
    },
    trend: (fromDay, toDay) => perDay(organizationId, fromDay, toDay),
    byProvider: async () => [await perProvider(organizationId, day(Date.now() - 29 * DAY_MS)), await providers(organizationId)],
    async leaderboard(days, limit) {
      const from = day(Date.now() - (days - 1) * DAY_MS);
      const top = (await rank(organizationId, from, limit)) as [string, string, Date][];
      return [
        top,
        top.length
          ? await names(
              organizationId,
              from,
              top.map((t) => t[0]),
            )
          : [],
      ];
    },
    async votesPage(providerId, limit, offset) {
      return providerId
        ? [
            await providerPage(organizationId, providerId, limit, offset),
            pluck(await providerTotal(organizationId, providerId)),
            await providers(organizationId),
          ]
        : [await page(organizationId, limit, offset), pluck(await sum(organizationId, '0000-00-00')), await providers(organizationId)];
    },
    async votePage(slug, player) {
      const org = (await pageOrg(slug))[0];
      if (!org) return null;
      const orgId = org[0] as string;
      const sites = await pageSites(orgId);
      if (player === null) return [org, sites];
      const value = player.trim().toLowerCase();
      const held = (await identity(orgId, NAME_KINDS, value)) as [string, string][];
      const voterId =
        held.length > 0
          ? held.sort((a, b) => NAME_KINDS.indexOf(a[0]) - NAME_KINDS.indexOf(b[0]))[0][1]
          : (pluck(await shownVoter(orgId, value)) as string | undefined);
      if (!voterId) return [org, sites, null];
      const votes = (await receipt(orgId, voterId, new Date(Date.now() - RECEIPT_DAYS * DAY_MS).toISOString())) as [string, ...unknown[]][];
      return [
        org,
        sites,
        await standing(orgId, voterId),
        await perSite(orgId, voterId, day(Date.now() - RECENT_DAYS * DAY_MS)),
        votes,
        votes.length > 0
          ? await deliveries(
              votes.map((v) => v[0]),
              TO_SERVERS,
            )
          : [],
      ];
    },
    async exportAll() {
      const keys = new Map(((await providers(organizationId)) as [string, string, string][]).map(([id, key]) => [id, key]));
      const started = performance.now();
      let rows = 0;
      let batch: string[][] = [];
      let bytes = 0;
      // One ordered read, streamed through a cursor in 5,000-row fetches (as the SQLite baseline iterates its statement).
      await db.query('BEGIN READ ONLY');
      try {
        await db.query(
          'DECLARE raw_export NO SCROLL CURSOR FOR SELECT "voterName", "providerId", "receivedAt", "chatStatus", "callbackStatus" FROM "Vote" WHERE "organizationId" = $1 ORDER BY "receivedAt", id',
          [organizationId],
        );
        for (;;) {
          const fetched = (await db.query<unknown[]>({ text: 'FETCH 5000 FROM raw_export', rowMode: 'array' })).rows as [
            string,
            string,
            Date,
            string,
            string,
          ][];
          for (const r of fetched) {
            batch.push([r[0], keys.get(r[1]) ?? '', r[2].toISOString(), r[3], r[4]]);
            if (batch.length === 5_000) {
              bytes += stringify(batch, { header: rows === 0, columns: COLUMNS }).length;
              rows += batch.length;
              batch = [];
            }
          }
          if (fetched.length < 5_000) break;
        }
      } finally {
        await db.query('COMMIT');
      }
      bytes += stringify(batch).length;
      rows += batch.length;
      return { rows, bytes, seconds: (performance.now() - started) / 1000 };
    },
    close: () => db.end(),
  };
}
