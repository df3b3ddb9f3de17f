// The hook request log's one write (the named write `hookLog`: sqlite/hook-log.ts, postgres/hook-log.ts): a batch of entries the recorder
// has already resolved and redacted, inserted in one transaction with the bounds applied (README "Hook request log"):
//   - refused entries: at most `refusedPerAddress` per (scope, sender) and `refusedPerScope` per scope, newest kept,
//     except that rate-limited ones (429s, which say only "too many") go before those that say what is wrong; each
//     entry taken out is counted in HookRequestDrop for its sender, in at most MAX_DROP_ROWS rows per scope and one
//     row for every other sender;
//   - the other outcomes: at most `perProvider` per provider, oldest taken out first (not counted: rotation).
// A scope is a provider, or an organization's own log (no provider had the key); a sender is a client address, an
// IPv6 one by its /64 (address-group.ts). Counts are kept in memory per writer (a tally: a count read once, then
// moved by what this writer inserts and deletes, read again after TALLY_TTL_MS), so a batch costs a few statements
// per group it touches, not a count per entry. The result names the scopes and senders left full, so the recorder
// counts their next refusals at once, unredacted and unqueued. The logic is written once, as a generator of
// statements; each database runs them its own way (SQLite synchronously inside the write thread's transaction,
// PostgreSQL with a round trip each inside the batch writer's).
import { addressGroup } from '../domain/address-group.js';

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
  repairedFrom: string | null;
  voteId: string | null;
  durationMs: number;
  headersJson: string;
  body: string;
  bodyBytes: number;
}

/** Refused requests not kept, per scope and sender. */
export interface HookLogDrop {
  organizationId: string;
  providerId: string | null;
  /** The sender (addressGroup: an IPv6 address's /64), or OTHER_SENDERS. */
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

/**
 * batch: the ids still stored once the bounds were applied, and what is full: scope keys (a provider id, or
 * `org:<organizationId>`) and `<scope key>|<sender>` (fullKey); retain: the entries deleted.
 */
export type HookLogResult = { kept: string[]; full: string[] } | { deleted: number };

/** The drop-count row of every sender past a scope's MAX_DROP_ROWS ("1,204 more from other senders"). */
export const OTHER_SENDERS = 'other senders';
/** Drop-count rows per scope, one per sender (the first senders dropped); the rest share the OTHER_SENDERS row. */
export const MAX_DROP_ROWS = 100;

/** The scope key of an entry: its provider, or its organization's own log. */
export const scopeKey = (s: { organizationId: string; providerId: string | null }) => s.providerId ?? `org:${s.organizationId}`;
/** How a full sender is named in a result. */
export const fullKey = (scope: string, sender: string) => `${scope}|${sender}`;

export interface Scope {
  organizationId: string;
  providerId: string | null;
}

/** clientIps: the addresses of one sender (null: the whole scope). */
export type Statement =
  | { op: 'insert'; rows: HookLogRow[] }
  | { op: 'addDrops'; drops: HookLogDrop[] }
  | { op: 'countRefused'; scope: Scope }
  /** Deletes the refused entries of the scope (and sender) past the newest `keep`; answers who they were from. */
  | { op: 'trimRefused'; scope: Scope; clientIps: string[] | null; keep: number }
  /** The scope's refused entries counted per address (one statement for every sender of a batch). */
  | { op: 'countByAddress'; scope: Scope }
  /** The scope's drop-count rows of single senders. */
  | { op: 'countDropRows'; scope: Scope }
  /** Which of these senders have a drop-count row in the scope. */
  | { op: 'dropRowsOf'; scope: Scope; senders: string[] }
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
 * Once a sender (or a scope) holds all the refused entries it may, at most FULL_REFRESH_ROWS new ones per scope
 * replace old ones every FULL_REFRESH_MS, whatever senders they come from (one from an address never seen is treated
 * as full too); the rest are counted at once. Without it a flood would insert and delete the bound's worth every
 * batch: a constant churn that PostgreSQL keeps as dead rows until vacuum, for entries that all say the same
 * (test/integration/hook-request-flood.test.ts measures the tables' growth under floods from one address and from
 * many).
 */
export const FULL_REFRESH_MS = 10_000;
const FULL_REFRESH_ROWS = 10;

/**
 * Which refused entries stay: the newest, rate-limited ones last (a flood's 429s must not push out the refusals
 * that say what the sender gets wrong). At most the bound plus one batch are sorted.
 */
export const KEEP_ORDER = `(CASE WHEN errorCode = 'RATE_LIMITED' THEN 1 ELSE 0 END) ASC, receivedAt DESC, id DESC`;
export const KEEP_ORDER_PG = `(CASE WHEN "errorCode" = 'RATE_LIMITED' THEN 1 ELSE 0 END) ASC, "receivedAt" DESC, id DESC`;

export function createTallies(now: () => number = Date.now) {
  const tallies = new Map<string, { n: number; at: number }>();
  const refreshed = new Map<string, { since: number; used: number }>();
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
    /**
     * A scope's tallies ('org:' alone: every organization-level scope's); `sendersOnly`: only its senders' (after a
     * trim of the whole scope took some of their entries out).
     */
    forgetScope(scope: string, sendersOnly = false) {
      const all = scope === 'org:';
      for (const key of tallies.keys()) {
        if (sendersOnly && !key.startsWith('a|')) continue;
        const inScope = all ? key.includes('|org:') : key.includes(`|${scope}|`) || key.endsWith(`|${scope}`);
        if (inScope) tallies.delete(key);
      }
    },
    /** Every scope's count of drop-count rows (after retention deleted some). */
    forgetDropRows() {
      for (const key of tallies.keys()) if (key.startsWith('d|')) tallies.delete(key);
    },
    /** After a failed transaction the tallies may have moved for nothing: all are read again. */
    clear() {
      tallies.clear();
      refreshed.clear();
    },
    /** How many refused entries a full scope may still take in now (FULL_REFRESH_ROWS every FULL_REFRESH_MS). */
    refreshLeft(scope: string): number {
      const r = refreshed.get(scope);
      return r && now() - r.since < FULL_REFRESH_MS ? FULL_REFRESH_ROWS - r.used : FULL_REFRESH_ROWS;
    },
    refreshUsed(scope: string, n: number) {
      if (n === 0) return;
      const r = refreshed.get(scope);
      if (r && now() - r.since < FULL_REFRESH_MS) r.used += n;
      else {
        refreshed.delete(scope);
        if (refreshed.size >= MAX_TALLIES) refreshed.delete(refreshed.keys().next().value!);
        refreshed.set(scope, { since: now(), used: n });
      }
    },
  };
}

type Tallies = ReturnType<typeof createTallies>;

/** Counts `deleted` (refused entries taken out) per sender. */
function dropsOf(scope: Scope, deleted: Deleted): HookLogDrop[] {
  const bySender = new Map<string, HookLogDrop>();
  for (const { clientIp, receivedAt } of deleted) {
    const sender = addressGroup(clientIp);
    const d = bySender.get(sender);
    if (d) {
      d.count++;
      d.firstAt = Math.min(d.firstAt, receivedAt);
      d.lastAt = Math.max(d.lastAt, receivedAt);
    } else bySender.set(sender, { ...scope, clientIp: sender, count: 1, firstAt: receivedAt, lastAt: receivedAt });
  }
  return [...bySender.values()];
}

const rateLimitedLast = (a: HookLogRow, b: HookLogRow) =>
  Number(a.errorCode === 'RATE_LIMITED') - Number(b.errorCode === 'RATE_LIMITED') || b.receivedAt - a.receivedAt;

/** A scope's refused entries per sender: how many, and from which addresses (an IPv6 sender has many). */
function census(counts: { clientIp: string; n: number }[]): Map<string, { n: number; addresses: string[] }> {
  const bySender = new Map<string, { n: number; addresses: string[] }>();
  for (const { clientIp, n } of counts) {
    const sender = addressGroup(clientIp);
    const c = bySender.get(sender);
    if (c) {
      c.n += n;
      c.addresses.push(clientIp);
    } else bySender.set(sender, { n, addresses: [clientIp] });
  }
  return bySender;
}

interface RefusedScope {
  scope: Scope;
  /** Rows per sender. */
  senders: Map<string, HookLogRow[]>;
}

function refusedByScope(rows: HookLogRow[]): Map<string, RefusedScope> {
  const scopes = new Map<string, RefusedScope>();
  for (const row of rows) {
    if (row.outcome !== 'refused') continue;
    const key = scopeKey(row);
    let s = scopes.get(key);
    if (!s) scopes.set(key, (s = { scope: { organizationId: row.organizationId, providerId: row.providerId }, senders: new Map() }));
    const sender = addressGroup(row.clientIp);
    const list = s.senders.get(sender);
    if (list) list.push(row);
    else s.senders.set(sender, [row]);
  }
  return scopes;
}

/**
 * The rows to insert: everything, except refused rows of a scope or sender already holding its bound, which are
 * counted at once (`drops`) but for FULL_REFRESH_ROWS of them per scope every FULL_REFRESH_MS (the newest that say
 * what is wrong), so what is shown stays recent without rewriting the bound's worth of rows each batch. A scope's
 * count is read first when this writer does not know it, so that an unknown count never lets a whole batch in.
 */
function* admitRefused(rows: HookLogRow[], limits: HookLogLimits, tallies: Tallies, drops: HookLogDrop[]): Generator<Statement, HookLogRow[], unknown> {
  const left = new Set<HookLogRow>();
  for (const [key, { scope, senders }] of refusedByScope(rows)) {
    let inScope = tallies.get(`s|${key}`);
    if (inScope === undefined) {
      inScope = (yield { op: 'countRefused', scope }) as number;
      tallies.read(`s|${key}`, inScope);
    }
    const scopeFull = inScope >= limits.refusedPerScope;
    const full: HookLogRow[] = [];
    for (const [sender, list] of senders) {
      if (scopeFull || (tallies.get(`a|${key}|${sender}`) ?? 0) >= limits.refusedPerAddress) full.push(...list);
    }
    if (full.length === 0) continue;
    const admitted = new Set(full.sort(rateLimitedLast).slice(0, Math.max(0, tallies.refreshLeft(key))));
    tallies.refreshUsed(key, admitted.size);
    const out = full.filter((r) => !admitted.has(r));
    for (const r of out) left.add(r);
    drops.push(...dropsOf(scope, out));
  }
  return left.size === 0 ? rows : rows.filter((r) => !left.has(r));
}

/**
 * The drop counts as rows: per scope, a sender with a row adds to it, a new sender takes a row while the scope has
 * fewer than MAX_DROP_ROWS, and every other one adds to the scope's OTHER_SENDERS row.
 */
function* capDrops(drops: HookLogDrop[], tallies: Tallies): Generator<Statement, HookLogDrop[], unknown> {
  const byScope = new Map<string, Map<string, HookLogDrop>>();
  for (const d of drops) {
    const key = scopeKey(d);
    let senders = byScope.get(key);
    if (!senders) byScope.set(key, (senders = new Map()));
    const m = senders.get(d.clientIp);
    if (m) Object.assign(m, { count: m.count + d.count, firstAt: Math.min(m.firstAt, d.firstAt), lastAt: Math.max(m.lastAt, d.lastAt) });
    else senders.set(d.clientIp, { ...d });
  }
  const out: HookLogDrop[] = [];
  for (const [key, senders] of byScope) {
    const scope = senders.values().next().value!;
    const tally = `d|${key}`;
    let rowsNow = tallies.get(tally);
    if (rowsNow === undefined) {
      rowsNow = (yield { op: 'countDropRows', scope }) as number;
      tallies.read(tally, rowsNow);
    }
    const named = [...senders.keys()].filter((s) => s !== OTHER_SENDERS);
    const existing = new Set(named.length === 0 ? [] : ((yield { op: 'dropRowsOf', scope, senders: named }) as string[]));
    let other: HookLogDrop | null = senders.get(OTHER_SENDERS) ?? null;
    for (const d of senders.values()) {
      if (d.clientIp === OTHER_SENDERS) continue;
      if (existing.has(d.clientIp)) out.push(d);
      else if (rowsNow < MAX_DROP_ROWS) {
        rowsNow++;
        out.push(d);
      } else if (other)
        Object.assign(other, { count: other.count + d.count, firstAt: Math.min(other.firstAt, d.firstAt), lastAt: Math.max(other.lastAt, d.lastAt) });
      else other = { ...d, clientIp: OTHER_SENDERS };
    }
    if (other) out.push(other);
    tallies.set(tally, rowsNow);
  }
  return out;
}

/** The statements of one item, in order; each yield is answered with that statement's result. */
export function* writeItem(item: HookLogItem, tallies: Tallies): Generator<Statement, HookLogResult, unknown> {
  if (item.kind === 'retain') {
    const deleted = (yield { op: 'retainEntries', providerId: item.providerId, before: item.before, limit: item.limit }) as number;
    if (deleted > 0) tallies.forgetScope(item.providerId ?? 'org:');
    if (item.providerId === null) {
      const dropped = (yield { op: 'retainDrops', before: item.before }) as number;
      if (dropped > 0) tallies.forgetDropRows();
    }
    return { deleted };
  }
  const { limits } = item;
  const drops = [...item.drops];
  const rows = yield* admitRefused(item.rows, limits, tallies, drops);
  if (rows.length > 0) yield { op: 'insert', rows };
  const removed = new Set<string>();

  // Refused entries, per (scope, sender) and then per scope: the newest kept, the rest counted.
  const trim = function* (scope: Scope, clientIps: string[] | null, keep: number): Generator<Statement, number, unknown> {
    const deleted = (yield { op: 'trimRefused', scope, clientIps, keep }) as Deleted & { ids?: string[] };
    for (const id of deleted.ids ?? []) removed.add(id);
    drops.push(...dropsOf(scope, deleted));
    return deleted.length;
  };
  for (const [key, { scope, senders }] of refusedByScope(rows)) {
    // Senders whose count this writer does not know are counted all at once, after the insert.
    let counted: ReturnType<typeof census> | null = null;
    const countAll = function* (): Generator<Statement, ReturnType<typeof census>, unknown> {
      counted ??= census((yield { op: 'countByAddress', scope }) as { clientIp: string; n: number }[]);
      return counted;
    };
    let trimmed = 0;
    for (const [sender, list] of senders) {
      const tally = `a|${key}|${sender}`;
      const known = tallies.get(tally);
      let n: number;
      if (known === undefined) {
        n = (yield* countAll()).get(sender)?.n ?? 0;
        tallies.read(tally, n);
      } else n = known + list.length;
      if (n > limits.refusedPerAddress) {
        // An IPv6 sender's addresses are those its entries came from.
        const addresses = sender.endsWith('::/64') ? ((yield* countAll()).get(sender)?.addresses ?? []) : [sender];
        trimmed += yield* trim(scope, addresses, limits.refusedPerAddress);
        n = limits.refusedPerAddress;
      }
      tallies.set(tally, n);
    }
    const tally = `s|${key}`;
    const inserted = [...senders.values()].reduce((n, list) => n + list.length, 0);
    const known = tallies.get(tally);
    let n: number;
    if (known === undefined) {
      n = (yield { op: 'countRefused', scope }) as number;
      tallies.read(tally, n);
    } else n = known + inserted - trimmed;
    if (n > limits.refusedPerScope) {
      yield* trim(scope, null, limits.refusedPerScope);
      n = limits.refusedPerScope;
      // Entries of senders this took out: their own tallies are read again next time.
      tallies.forgetScope(key, true);
    }
    tallies.set(tally, n);
  }
  // What is full now, of the scopes and senders this batch had refused entries of (kept or counted at once).
  const full: string[] = [];
  for (const [key, { senders }] of refusedByScope(item.rows)) {
    if ((tallies.get(`s|${key}`) ?? 0) >= limits.refusedPerScope) full.push(key);
    for (const sender of senders.keys()) if ((tallies.get(`a|${key}|${sender}`) ?? 0) >= limits.refusedPerAddress) full.push(fullKey(key, sender));
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
  if (drops.length > 0) {
    const capped = yield* capDrops(drops, tallies);
    if (capped.length > 0) yield { op: 'addDrops', drops: capped };
  }
  return { kept: rows.filter((r) => !removed.has(r.id)).map((r) => r.id), full };
}
