// The hook request log's one write (the hot write `hookLog`, src/db/hot-writes.ts): a batch of entries the recorder
// has already resolved and redacted, inserted in one transaction with the bounds applied (README "Hook request log"):
//   - refused entries: at most `refusedPerAddress` per (scope, client address) and `refusedPerScope` per scope, newest
//     kept, except that rate-limited ones (429s, which say only "too many") go before those that say what is wrong;
//     each entry taken out is counted in HookRequestDrop for its address;
//   - the other outcomes: at most `perProvider` per provider, oldest taken out first (not counted: rotation).
// A scope is a provider, or an organization's own log (no provider had the key). Counts are kept in memory per
// writer (a tally: a count read once, then moved by what this writer inserts and deletes, read again after
// TALLY_TTL_MS), so a batch costs a few statements per group it touches, not a count per entry. The logic is written
// once, as a generator of statements; each database runs them its own way (SQLite synchronously inside the write
// thread's transaction, PostgreSQL with a round trip each inside the batch writer's).
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { BatchWriter } from '../../db/batch-writer/batch-writer.js';
import { createPostgresBatchWriter, type Query } from '../../db/batch-writer/postgres.js';

/** One stored entry, ready to insert (times in epoch milliseconds: they cross between threads). */
export interface HookLogRow {
  id: string;
  organizationId: string;
  providerId: string | null;
  providerKey: string;
  receivedAt: number;
  clientIp: string;
  method: string;
  path: string;
  protocol: string;
  outcome: string;
  status: number;
  errorCode: string | null;
  reason: string | null;
  voterName: string | null;
  voteId: string | null;
  durationMs: number;
  headersJson: string;
  body: string;
  bodyBytes: number;
}

/** Refused requests not kept, per scope and address. */
export interface HookLogDrop {
  organizationId: string;
  providerId: string | null;
  clientIp: string;
  count: number;
  firstAt: number;
  lastAt: number;
}

export interface HookLogLimits {
  perProvider: number;
  refusedPerAddress: number;
  refusedPerScope: number;
}

export type HookLogItem =
  | { kind: 'batch'; rows: HookLogRow[]; drops: HookLogDrop[]; limits: HookLogLimits }
  /**
   * Retention: a provider's entries received before `before` (at most `limit`); providerId null: the
   * organization-level entries of every organization, and the drop counts last seen before it.
   */
  | { kind: 'retain'; providerId: string | null; before: number; limit: number };

/** batch: the ids still stored once the bounds were applied; retain: the entries deleted. */
export type HookLogResult = { kept: string[] } | { deleted: number };

interface Scope {
  organizationId: string;
  providerId: string | null;
}

type Statement =
  | { op: 'insert'; rows: HookLogRow[] }
  | { op: 'addDrops'; drops: HookLogDrop[] }
  | { op: 'countRefused'; scope: Scope; clientIp: string | null }
  /** Deletes the refused entries of the scope (and address) past the newest `keep`; answers who they were from. */
  | { op: 'trimRefused'; scope: Scope; clientIp: string | null; keep: number }
  | { op: 'countKept'; providerId: string }
  | { op: 'deleteOldestKept'; providerId: string; count: number }
  | { op: 'retainEntries'; providerId: string | null; before: number; limit: number }
  | { op: 'retainDrops'; before: number };

type Deleted = { clientIp: string; receivedAt: number }[];

/** A count read from the database is trusted this long, moved meanwhile by what this writer itself does. */
const TALLY_TTL_MS = 60_000;
/** Beyond this many tallies the oldest are forgotten (read again when needed): memory stays bounded under a flood of addresses. */
const MAX_TALLIES = 50_000;
/**
 * Once an address (or a scope) holds all the refused entries it may, new ones replace old ones only this often, and
 * at most FULL_REFRESH_ROWS at a time; the rest are counted at once. Without it a flood would insert and delete the
 * bound's worth every batch: a constant churn that PostgreSQL keeps as dead rows until vacuum (measured: 70 MB for
 * 100,000 refused requests), for entries that all say the same.
 */
const FULL_REFRESH_MS = 10_000;
const FULL_REFRESH_ROWS = 10;

/**
 * Which refused entries stay: the newest, rate-limited ones last (a flood's 429s must not push out the refusals
 * that say what the sender gets wrong). At most the bound plus one batch are sorted.
 */
const KEEP_ORDER = `(CASE WHEN errorCode = 'RATE_LIMITED' THEN 1 ELSE 0 END) ASC, receivedAt DESC, id DESC`;
const KEEP_ORDER_PG = `(CASE WHEN "errorCode" = 'RATE_LIMITED' THEN 1 ELSE 0 END) ASC, "receivedAt" DESC, id DESC`;

const scopeKey = (s: Scope) => s.providerId ?? `org:${s.organizationId}`;

function createTallies(now: () => number = Date.now) {
  const tallies = new Map<string, { n: number; at: number }>();
  const refreshed = new Map<string, number>();
  return {
    get(key: string): number | undefined {
      const t = tallies.get(key);
      return t && now() - t.at < TALLY_TTL_MS ? t.n : undefined;
    },
    /** A count just read from the database. */
    read(key: string, n: number) {
      tallies.delete(key);
      if (tallies.size >= MAX_TALLIES) tallies.delete(tallies.keys().next().value!);
      tallies.set(key, { n, at: now() });
    },
    /** Moved by this writer's own inserts or deletes (the read time stays). */
    set(key: string, n: number) {
      const t = tallies.get(key);
      if (t) t.n = n;
    },
    /** A scope's tallies ('org:' alone: every organization-level scope's). */
    forgetScope(scope: string) {
      const prefix = scope === 'org:';
      for (const key of tallies.keys()) {
        const inScope = prefix ? key.includes('|org:') : key.includes(`|${scope}|`) || key.endsWith(`|${scope}`);
        if (inScope) tallies.delete(key);
      }
    },
    /** After a failed transaction the tallies may have moved for nothing: all are read again. */
    clear() {
      tallies.clear();
      refreshed.clear();
    },
    /** Whether a full address or scope may have its refused entries refreshed now (and notes that it was). */
    mayRefresh(key: string): boolean {
      const last = refreshed.get(key);
      if (last !== undefined && now() - last < FULL_REFRESH_MS) return false;
      if (refreshed.size >= MAX_TALLIES) refreshed.delete(refreshed.keys().next().value!);
      refreshed.set(key, now());
      return true;
    },
  };
}

type Tallies = ReturnType<typeof createTallies>;

/** Adds `deleted` (refused entries taken out) to the drop counts of their addresses. */
function dropsOf(scope: Scope, deleted: Deleted): HookLogDrop[] {
  const byIp = new Map<string, HookLogDrop>();
  for (const { clientIp, receivedAt } of deleted) {
    const d = byIp.get(clientIp);
    if (d) {
      d.count++;
      d.firstAt = Math.min(d.firstAt, receivedAt);
      d.lastAt = Math.max(d.lastAt, receivedAt);
    } else byIp.set(clientIp, { ...scope, clientIp, count: 1, firstAt: receivedAt, lastAt: receivedAt });
  }
  return [...byIp.values()];
}

const rateLimitedLast = (a: HookLogRow, b: HookLogRow) =>
  Number(a.errorCode === 'RATE_LIMITED') - Number(b.errorCode === 'RATE_LIMITED') || b.receivedAt - a.receivedAt;

/**
 * The rows to insert: everything, except refused rows of an address or scope already holding its bound, which are
 * counted at once (`drops`) but for FULL_REFRESH_ROWS of them every FULL_REFRESH_MS (the newest that say what is
 * wrong), so what is shown stays recent without rewriting the bound's worth of rows each batch.
 */
function admitRefused(rows: HookLogRow[], limits: HookLogLimits, tallies: Tallies, drops: HookLogDrop[]): HookLogRow[] {
  const groups = new Map<string, { scope: Scope; rows: HookLogRow[]; full: boolean }>();
  for (const row of rows) {
    if (row.outcome !== 'refused') continue;
    const scope = { organizationId: row.organizationId, providerId: row.providerId };
    const key = scopeKey(scope);
    const full = (tallies.get(`a|${key}|${row.clientIp}`) ?? 0) >= limits.refusedPerAddress || (tallies.get(`s|${key}`) ?? 0) >= limits.refusedPerScope;
    const groupKey = `${key}|${row.clientIp}`;
    const group = groups.get(groupKey) ?? { scope, rows: [], full };
    group.rows.push(row);
    groups.set(groupKey, group);
  }
  const left = new Set<HookLogRow>();
  for (const [key, group] of groups) {
    if (!group.full) continue;
    const admitted = tallies.mayRefresh(key) ? group.rows.sort(rateLimitedLast).slice(0, FULL_REFRESH_ROWS) : [];
    const out = group.rows.filter((r) => !admitted.includes(r));
    for (const r of out) left.add(r);
    drops.push(...dropsOf(group.scope, out.map((r) => ({ clientIp: r.clientIp, receivedAt: r.receivedAt }))));
  }
  return left.size === 0 ? rows : rows.filter((r) => !left.has(r));
}

/** The statements of one item, in order; each yield is answered with that statement's result. */
function* writeItem(item: HookLogItem, tallies: Tallies): Generator<Statement, HookLogResult, unknown> {
  if (item.kind === 'retain') {
    const deleted = (yield { op: 'retainEntries', providerId: item.providerId, before: item.before, limit: item.limit }) as number;
    if (deleted > 0) tallies.forgetScope(item.providerId ?? 'org:');
    if (item.providerId === null) yield { op: 'retainDrops', before: item.before };
    return { deleted };
  }
  const { limits } = item;
  const drops = [...item.drops];
  const rows = admitRefused(item.rows, limits, tallies, drops);
  if (rows.length > 0) yield { op: 'insert', rows };
  const removed = new Set<string>();

  // Refused entries, per (scope, address) and then per scope: the newest kept, the rest counted.
  const refusedByAddress = new Map<string, { scope: Scope; clientIp: string; n: number }>();
  const refusedByScope = new Map<string, { scope: Scope; n: number }>();
  for (const row of rows) {
    if (row.outcome !== 'refused') continue;
    const scope = { organizationId: row.organizationId, providerId: row.providerId };
    const key = scopeKey(scope);
    const a = refusedByAddress.get(`${key}|${row.clientIp}`) ?? { scope, clientIp: row.clientIp, n: 0 };
    a.n++;
    refusedByAddress.set(`${key}|${row.clientIp}`, a);
    const s = refusedByScope.get(key) ?? { scope, n: 0 };
    s.n++;
    refusedByScope.set(key, s);
  }
  const trimRefused = function* (tally: string, scope: Scope, clientIp: string | null, inserted: number, keep: number): Generator<Statement, void, unknown> {
    const known = tallies.get(tally);
    let n: number;
    if (known === undefined) {
      n = (yield { op: 'countRefused', scope, clientIp }) as number;
      tallies.read(tally, n);
    } else n = known + inserted;
    if (n > keep) {
      const deleted = (yield { op: 'trimRefused', scope, clientIp, keep }) as Deleted & { ids?: string[] };
      for (const id of deleted.ids ?? []) removed.add(id);
      drops.push(...dropsOf(scope, deleted));
      n = keep;
    }
    tallies.set(tally, n);
  };
  for (const [key, a] of refusedByAddress) yield* trimRefused(`a|${key}`, a.scope, a.clientIp, a.n, limits.refusedPerAddress);
  for (const [key, s] of refusedByScope) {
    const before = drops.length;
    yield* trimRefused(`s|${key}`, s.scope, null, s.n, limits.refusedPerScope);
    // Entries of addresses this took out: their own tallies are read again next time.
    if (drops.length > before) tallies.forgetScope(key);
  }

  // The other outcomes, per provider: the oldest go.
  const keptByProvider = new Map<string, number>();
  for (const row of rows) if (row.outcome !== 'refused' && row.providerId) keptByProvider.set(row.providerId, (keptByProvider.get(row.providerId) ?? 0) + 1);
  for (const [providerId, inserted] of keptByProvider) {
    const tally = `p|${providerId}`;
    const known = tallies.get(tally);
    let n: number;
    if (known === undefined) {
      n = (yield { op: 'countKept', providerId }) as number;
      tallies.read(tally, n);
    } else n = known + inserted;
    if (n > limits.perProvider) {
      const ids = (yield { op: 'deleteOldestKept', providerId, count: n - limits.perProvider }) as string[];
      for (const id of ids) removed.add(id);
      n = limits.perProvider;
    }
    tallies.set(tally, n);
  }
  if (drops.length > 0) yield { op: 'addDrops', drops };
  return { kept: rows.filter((r) => !removed.has(r.id)).map((r) => r.id) };
}

// ---- SQLite: synchronous statements inside the write thread's IMMEDIATE transaction.

export function createSqliteHookLogWrite(db: Sqlite.Database): (items: HookLogItem[]) => HookLogResult[] {
  const tallies = createTallies();
  const insert = db.prepare(
    `INSERT INTO "HookRequest" (id, organizationId, providerId, providerKey, receivedAt, clientIp, method, path, protocol, outcome, status,
       errorCode, reason, voterName, voteId, durationMs, headersJson, body, bodyBytes)
     VALUES (@id, @organizationId, @providerId, @providerKey, @receivedAt, @clientIp, @method, @path, @protocol, @outcome, @status,
       @errorCode, @reason, @voterName, @voteId, @durationMs, @headersJson, @body, @bodyBytes)`,
  );
  const addDrop = db.prepare(
    `INSERT INTO "HookRequestDrop" (id, organizationId, providerId, scope, clientIp, count, firstAt, lastAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, clientIp) DO UPDATE SET count = count + excluded.count,
       firstAt = min(firstAt, excluded.firstAt), lastAt = max(lastAt, excluded.lastAt)`,
  );
  // A scope: a provider, or the organization's own log (providerId NULL).
  const where = (clientIp: boolean) => ({
    provider: `providerId = ? AND outcome = 'refused'${clientIp ? ' AND clientIp = ?' : ''}`,
    org: `providerId IS NULL AND organizationId = ? AND outcome = 'refused'${clientIp ? ' AND clientIp = ?' : ''}`,
  });
  const count = {
    byAddress: { provider: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(true).provider}`), org: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(true).org}`) },
    byScope: { provider: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(false).provider}`), org: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(false).org}`) },
  };
  const trimSql = (cond: string) =>
    db.prepare(
      `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE ${cond} ORDER BY ${KEEP_ORDER} LIMIT -1 OFFSET ?)
       RETURNING id, clientIp, receivedAt`,
    );
  const trim = {
    byAddress: { provider: trimSql(where(true).provider), org: trimSql(where(true).org) },
    byScope: { provider: trimSql(where(false).provider), org: trimSql(where(false).org) },
  };
  const countKept = db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE providerId = ? AND outcome <> 'refused'`);
  const deleteOldestKept = db.prepare(
    `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId = ? AND outcome <> 'refused' ORDER BY receivedAt ASC, id ASC LIMIT ?) RETURNING id`,
  );
  const retain = {
    provider: db.prepare(`DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId = ? AND receivedAt < ? LIMIT ?)`),
    org: db.prepare(`DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId IS NULL AND receivedAt < ? LIMIT ?)`),
  };
  const retainDrops = db.prepare(`DELETE FROM "HookRequestDrop" WHERE lastAt < ?`);
  const scopeArgs = (s: Scope) => [s.providerId ?? s.organizationId];

  function run(statement: Statement): unknown {
    switch (statement.op) {
      case 'insert':
        for (const row of statement.rows) insert.run(row);
        return null;
      case 'addDrops':
        for (const d of statement.drops) addDrop.run(randomUUID(), d.organizationId, d.providerId, scopeKey(d), d.clientIp, d.count, d.firstAt, d.lastAt);
        return null;
      case 'countRefused': {
        const kind = statement.scope.providerId ? 'provider' : 'org';
        const args = [...scopeArgs(statement.scope), ...(statement.clientIp === null ? [] : [statement.clientIp])];
        return (count[statement.clientIp === null ? 'byScope' : 'byAddress'][kind].get(...args) as { n: number }).n;
      }
      case 'trimRefused': {
        const kind = statement.scope.providerId ? 'provider' : 'org';
        const args = [...scopeArgs(statement.scope), ...(statement.clientIp === null ? [] : [statement.clientIp]), statement.keep];
        const rows = trim[statement.clientIp === null ? 'byScope' : 'byAddress'][kind].all(...args) as { id: string; clientIp: string; receivedAt: number }[];
        return Object.assign(rows.map((r) => ({ clientIp: r.clientIp, receivedAt: Number(r.receivedAt) })), { ids: rows.map((r) => r.id) });
      }
      case 'countKept':
        return (countKept.get(statement.providerId) as { n: number }).n;
      case 'deleteOldestKept':
        return (deleteOldestKept.all(statement.providerId, statement.count) as { id: string }[]).map((r) => r.id);
      case 'retainEntries':
        return statement.providerId
          ? retain.provider.run(statement.providerId, statement.before, statement.limit).changes
          : retain.org.run(statement.before, statement.limit).changes;
      case 'retainDrops':
        return retainDrops.run(statement.before).changes;
    }
  }

  return (items) => {
    try {
      return items.map((item) => {
        const steps = writeItem(item, tallies);
        let step = steps.next();
        while (!step.done) step = steps.next(run(step.value));
        return step.value;
      });
    } catch (err) {
      tallies.clear();
      throw err;
    }
  };
}

// ---- PostgreSQL: the same statements, one round trip each, inside one batch transaction.

const ts = (ms: number) => new Date(ms).toISOString();

export function createPgHookLogWrite(config: Config, pool: pg.Pool): BatchWriter<HookLogItem, HookLogResult> {
  const tallies = createTallies();
  const scopeCond = (s: Scope, first: number) =>
    s.providerId ? { cond: `"providerId" = $${first}`, values: [s.providerId] } : { cond: `"providerId" IS NULL AND "organizationId" = $${first}`, values: [s.organizationId] };
  const refusedCond = (s: Scope, clientIp: string | null) => {
    const { cond, values } = scopeCond(s, 1);
    return clientIp === null
      ? { cond: `${cond} AND outcome = 'refused'`, values }
      : { cond: `${cond} AND outcome = 'refused' AND "clientIp" = $2`, values: [...values, clientIp] };
  };

  async function run(query: Query, statement: Statement): Promise<unknown> {
    switch (statement.op) {
      case 'insert': {
        const r = statement.rows;
        const col = <K extends keyof HookLogRow>(k: K) => r.map((row) => row[k]);
        await query({
          name: 'vr_hook_log_insert',
          text: `INSERT INTO "HookRequest" (id, "organizationId", "providerId", "providerKey", "receivedAt", "clientIp", method, path, protocol, outcome, status,
                   "errorCode", reason, "voterName", "voteId", "durationMs", "headersJson", body, "bodyBytes")
                 SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamp(3)[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::int[], $17::text[], $18::text[], $19::int[])`,
          values: [
            col('id'), col('organizationId'), col('providerId'), col('providerKey'), r.map((row) => ts(row.receivedAt)), col('clientIp'), col('method'),
            col('path'), col('protocol'), col('outcome'), col('status'), col('errorCode'), col('reason'), col('voterName'), col('voteId'),
            col('durationMs'), col('headersJson'), col('body'), col('bodyBytes'),
          ],
        });
        return null;
      }
      case 'addDrops': {
        // One row per (scope, address) in this statement: ON CONFLICT may not touch a row twice.
        const merged = new Map<string, HookLogDrop>();
        for (const d of statement.drops) {
          const key = `${scopeKey(d)}|${d.clientIp}`;
          const m = merged.get(key);
          if (m) Object.assign(m, { count: m.count + d.count, firstAt: Math.min(m.firstAt, d.firstAt), lastAt: Math.max(m.lastAt, d.lastAt) });
          else merged.set(key, { ...d });
        }
        const ds = [...merged.values()].sort((a, b) => (`${scopeKey(a)}|${a.clientIp}` < `${scopeKey(b)}|${b.clientIp}` ? -1 : 1));
        await query({
          name: 'vr_hook_log_drops',
          text: `INSERT INTO "HookRequestDrop" AS t (id, "organizationId", "providerId", scope, "clientIp", count, "firstAt", "lastAt")
                 SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamp(3)[], $8::timestamp(3)[])
                 ON CONFLICT (scope, "clientIp") DO UPDATE SET count = t.count + excluded.count,
                   "firstAt" = LEAST(t."firstAt", excluded."firstAt"), "lastAt" = GREATEST(t."lastAt", excluded."lastAt")`,
          values: [
            ds.map(() => randomUUID()), ds.map((d) => d.organizationId), ds.map((d) => d.providerId), ds.map((d) => scopeKey(d)), ds.map((d) => d.clientIp),
            ds.map((d) => d.count), ds.map((d) => ts(d.firstAt)), ds.map((d) => ts(d.lastAt)),
          ],
        });
        return null;
      }
      case 'countRefused': {
        const { cond, values } = refusedCond(statement.scope, statement.clientIp);
        return Number((await query<{ n: string }>({ text: `SELECT count(*) AS n FROM "HookRequest" WHERE ${cond}`, values })).rows[0].n);
      }
      case 'trimRefused': {
        const { cond, values } = refusedCond(statement.scope, statement.clientIp);
        const rows = (
          await query<{ id: string; clientIp: string; at: number }>({
            text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE ${cond} ORDER BY ${KEEP_ORDER_PG} OFFSET $${values.length + 1})
                   RETURNING id, "clientIp", (extract(epoch FROM "receivedAt") * 1000)::float8 AS at`,
            values: [...values, statement.keep],
          })
        ).rows;
        return Object.assign(rows.map((r) => ({ clientIp: r.clientIp, receivedAt: Math.round(Number(r.at)) })), { ids: rows.map((r) => r.id) });
      }
      case 'countKept':
        return Number(
          (await query<{ n: string }>({ name: 'vr_hook_log_count_kept', text: `SELECT count(*) AS n FROM "HookRequest" WHERE "providerId" = $1 AND outcome <> 'refused'`, values: [statement.providerId] })).rows[0].n,
        );
      case 'deleteOldestKept':
        return (
          await query<{ id: string }>({
            name: 'vr_hook_log_rotate',
            text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" = $1 AND outcome <> 'refused'
                     ORDER BY "receivedAt" ASC, id ASC LIMIT $2) RETURNING id`,
            values: [statement.providerId, statement.count],
          })
        ).rows.map((r) => r.id);
      case 'retainEntries':
        return (
          await query(
            statement.providerId
              ? { text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" = $1 AND "receivedAt" < $2 LIMIT $3)`, values: [statement.providerId, ts(statement.before), statement.limit] }
              : { text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" IS NULL AND "receivedAt" < $1 LIMIT $2)`, values: [ts(statement.before), statement.limit] },
          )
        ).rowCount ?? 0;
      case 'retainDrops':
        return (await query({ text: `DELETE FROM "HookRequestDrop" WHERE "lastAt" < $1`, values: [ts(statement.before)] })).rowCount ?? 0;
    }
  }

  return createPostgresBatchWriter<HookLogItem, HookLogResult>({
    pool,
    maxBatch: config.writeBatchMax,
    // One batch at a time: the tallies follow the batches in order.
    maxInFlight: 1,
    async write(query, items) {
      const results: HookLogResult[] = [];
      try {
        for (const item of items) {
          const steps = writeItem(item, tallies);
          let step = steps.next();
          while (!step.done) step = steps.next(await run(query, step.value));
          results.push(step.value);
        }
      } catch (err) {
        tallies.clear();
        throw err;
      }
      return results;
    },
  });
}
