// The hook request log's recorder (README "Hook request log"): a watcher of deps.hookObservers that keeps every hook
// request and Votifier session of a known organization, off the hook's path. `record` only queues, within bounds
// that cost a few map operations and no database read: refused requests have their own share of the queue (so
// they can never crowd out accepted, duplicate, test or ignored ones), at most the per-address bound of them per
// sender and flush, and none for a scope or sender the last write found full (those are counted at once, never
// redacted). Every FLUSH_MS the queue is resolved per batch (organizations by slug, their providers and secrets: one
// read each), redacted (redaction.ts, with the organization's full rules), written as one `hookLog` hot write
// (src/storage/hook-log.ts, which applies the bounds in the database), and the entries written are published to
// `hookRequestReceived`, one event per organization per flush. Requests whose slug names no organization are not
// kept (the operator's log has them); nor are Votifier sessions on the shared port that no provider's token or key
// fits (they name no organization). A sender is a client address, an IPv6 one by its /64 (address-group.ts).
import { timeOrderedId } from '../../base/time-ordered-id.js';
import { mayHaveListeners } from './hook-request-feed.js';
import type { AppDeps } from '../../app/deps.js';
import { SLUG_PATTERN } from '../organization/organization.service.js';
import { parseVotifierKeys } from '../../votifier/protocol.js';
import type { HookObservation, HookObservers } from './observation.js';
import { BODY_HELD_BYTES, redactBody, redactHeaders, redactPath, redactQuery, scrubSecrets, utf8Prefix, type RedactionRules } from './redaction.js';
import {
  FULL_REFRESH_MS,
  MAX_DROP_ROWS,
  OTHER_SENDERS,
  fullKey,
  scopeKey,
  type HookLogDrop,
  type HookLogLimits,
  type HookLogRow,
} from '../../storage/hook-log.js';
import { entryOf, type HintProvider, type HookRequestEntry } from './entry.js';
import { addressGroup } from '../../domain/address-group.js';
import { backgroundLoop } from '../../base/background-loop.js';

/** How often the queue is written: often enough for a live view, rarely enough to batch a flood. */
export const FLUSH_MS = 300;
/** Entries waiting at most; past it new ones are dropped (refused ones counted). */
export const MAX_QUEUED = 10_000;
/** Of MAX_QUEUED, the most refused entries: the rest is always room for accepted, duplicate, test and ignored ones. */
export const MAX_QUEUED_REFUSED = 2_500;
/** Entries redacted between two turns of the event loop (a flush of hundreds never holds the hooks up for long). */
const REDACT_SLICE = 64;
/** Entries redacted and written per flush; more wait for the next one (started at once). */
const MAX_PER_FLUSH = 2_000;
/** Refused entries a flush takes at least when there are some (accepted ones waiting do not starve them). */
const MIN_REFUSED_PER_FLUSH = 500;
/** Refused entries kept per scope (provider, or organization-level log): 20 senders' worth of the per-address bound. */
export const REFUSED_ADDRESSES_PER_SCOPE = 20;
/** Live events per (scope, sender) per flush for refused entries: a flood does not become a flood of events. */
const LIVE_REFUSED_PER_ADDRESS = 10;
/** A slug that named no organization is not looked up again for this long. */
const UNKNOWN_SLUG_TTL_MS = 30_000;
/** How long a slug's organization and its providers' keys, as the last batch read them, name scopes in `record`. */
const KNOWN_SLUG_TTL_MS = 10_000;
const MAX_SLUGS = 10_000;
/** Scopes (and senders) with counts waiting for the next write; past it refusals are only said in the warning. */
const MAX_PENDING_DROPS = 10_000;
/** Decrypted secrets by sealed value (a provider's secret is opened once, not once per batch). */
const MAX_OPENED_SECRETS = 10_000;
/** A failing write is reported at most this often. */
const WARN_EVERY_MS = 60_000;

/** One queued request: the observation as told, and the part of its body kept until it is written. */
interface Held {
  obs: HookObservation;
  body: Buffer;
  bodyBytes: number;
}

/**
 * Refused requests counted, not queued, per (scope, sender). `resolved`: organizationId/providerId are the scope (a
 * provider, or the organization's own log when providerId is null); otherwise orgSlug/providerKey are looked up.
 */
interface PendingDrop {
  resolved: boolean;
  orgSlug: string;
  providerKey: string;
  organizationId: string | null;
  providerId: string | null;
  clientIp: string;
  count: number;
  firstAt: number;
  lastAt: number;
}

interface OrgProvider extends HintProvider {
  organizationId: string;
  authTimestampField: string | null;
  authValueEnc: string;
}

/** What the last batches read of a slug: its organization and its providers' ids by key. */
interface KnownSlug {
  organizationId: string;
  providers: Map<string, string>;
  until: number;
}

export interface HookRequestRecorder {
  start(): void;
  /** Writes everything queued so far (tests; shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function limitsOf(config: AppDeps['config']): HookLogLimits {
  return {
    perProvider: config.hookLogMaxPerProvider,
    refusedPerAddress: config.hookLogMaxRefusedPerAddress,
    refusedPerScope: config.hookLogMaxRefusedPerAddress * REFUSED_ADDRESSES_PER_SCOPE,
  };
}

export function createHookRequestRecorder(deps: AppDeps, observers: HookObservers = deps.hookObservers): HookRequestRecorder {
  const { prisma } = deps.db;
  const limits = limitsOf(deps.config);
  const queue: Held[] = [];
  const refusedQueue: Held[] = [];
  /** Refused entries queued per sender since the refused queue was last empty. */
  let refusedBySender = new Map<string, number>();
  let pendingDrops = new Map<string, PendingDrop>();
  /** Senders with a pending count per scope (past MAX_DROP_ROWS the rest count as OTHER_SENDERS, as in the database). */
  let pendingSenders = new Map<string, number>();
  /** Scopes and `scope|sender` the last write found full, until when their refusals are counted at once. */
  const full = new Map<string, number>();
  const unknownSlugs = new Map<string, number>();
  const knownSlugs = new Map<string, KnownSlug>();
  const opened = new Map<string, string[]>();
  let lost = 0;
  let lastWarnAt = -Infinity;
  let unwatch: (() => void) | null = null;
  let flushing: Promise<void> | null = null;

  /**
   * The scope a request belongs to, as far as `record` can tell without a read: its provider, or its organization's own
   * log for a key no provider has (however many keys a sender makes up, one scope); `pre:` when not known yet.
   */
  function scopeOf(obs: HookObservation): { key: string; resolved: boolean; organizationId: string | null; providerId: string | null } {
    if (obs.provider) return { key: obs.provider.id, resolved: true, organizationId: obs.organizationId, providerId: obs.provider.id };
    // Ingest found the organization and no provider with the key.
    if (obs.organizationId) return { key: `org:${obs.organizationId}`, resolved: true, organizationId: obs.organizationId, providerId: null };
    // Refused before ingest looked anything up (a rate limit, a body over the limit): named as the last batch read the slug.
    const known = knownSlugs.get(obs.orgSlug);
    if (known && known.until > Date.now()) {
      const providerId = known.providers.get(obs.providerKey) ?? null;
      return { key: providerId ?? `org:${known.organizationId}`, resolved: true, organizationId: known.organizationId, providerId };
    }
    return { key: `pre:${obs.orgSlug}/${obs.providerKey}`, resolved: false, organizationId: null, providerId: null };
  }

  const isFull = (key: string, now = Date.now()) => (full.get(key) ?? 0) > now;

  function countDrop(obs: HookObservation, scope: ReturnType<typeof scopeOf>, sender: string) {
    let key = `${scope.key}|${sender}`;
    let d = pendingDrops.get(key);
    if (!d) {
      const senders = pendingSenders.get(scope.key) ?? 0;
      if (senders >= MAX_DROP_ROWS) {
        sender = OTHER_SENDERS;
        key = `${scope.key}|${sender}`;
        d = pendingDrops.get(key);
      } else pendingSenders.set(scope.key, senders + 1);
    }
    const at = obs.receivedAt.getTime();
    if (d) {
      d.count++;
      d.firstAt = Math.min(d.firstAt, at);
      d.lastAt = Math.max(d.lastAt, at);
      return;
    }
    // Bounded like the queue: a flood over more scopes than this is counted only in the operator's log.
    if (pendingDrops.size >= MAX_PENDING_DROPS) return void lost++;
    pendingDrops.set(key, {
      resolved: scope.resolved,
      orgSlug: obs.orgSlug,
      providerKey: obs.providerKey,
      organizationId: scope.organizationId,
      providerId: scope.providerId,
      clientIp: sender,
      count: 1,
      firstAt: at,
      lastAt: at,
    });
  }

  /** What is held of a body: enough to redact the kept part (a v1 block whole), cut where no character is split. */
  function hold(obs: HookObservation): Held {
    const { body } = obs;
    // A body refused unread (413) is known only by its declared length.
    const bodyBytes = body.length > 0 ? body.length : Number(obs.headers['content-length']) || 0;
    if (body.length <= BODY_HELD_BYTES) return { obs, body, bodyBytes };
    const cut = obs.protocol === 'votifier_v1' ? body.subarray(0, BODY_HELD_BYTES) : utf8Prefix(body, BODY_HELD_BYTES);
    // The observation is held without its body, so a large body is not kept alive by the queue.
    return { obs: { ...obs, body: Buffer.alloc(0) }, body: Buffer.from(cut), bodyBytes };
  }

  function record(obs: HookObservation) {
    // No organization named (a Votifier session on the shared port no provider fits), or one that does not exist.
    if (!obs.organizationId) {
      if (!obs.orgSlug || !SLUG_PATTERN.test(obs.orgSlug)) return;
      const unknownUntil = unknownSlugs.get(obs.orgSlug);
      if (unknownUntil !== undefined && unknownUntil > Date.now()) return;
    }
    if (obs.outcome !== 'refused') {
      if (queue.length >= MAX_QUEUED - MAX_QUEUED_REFUSED) return void lost++;
      queue.push(hold(obs));
      return;
    }
    const scope = scopeOf(obs);
    const sender = addressGroup(obs.clientIp);
    const now = Date.now();
    if (scope.resolved && (isFull(scope.key, now) || isFull(fullKey(scope.key, sender), now))) return countDrop(obs, scope, sender);
    const queued = refusedBySender.get(sender) ?? 0;
    if (queued >= limits.refusedPerAddress || refusedQueue.length >= MAX_QUEUED_REFUSED) return countDrop(obs, scope, sender);
    refusedBySender.set(sender, queued + 1);
    refusedQueue.push(hold(obs));
  }

  function secretsOf(provider: OrgProvider): string[] {
    let secrets = opened.get(provider.authValueEnc);
    if (!secrets) {
      secrets = [];
      try {
        const secret = deps.secrets.open(provider.authValueEnc);
        const votifier = provider.authMethod === 'votifier' ? parseVotifierKeys(secret) : null;
        secrets = votifier ? [votifier.token] : [secret];
      } catch {
        // unreadable (sealed with another key): nothing to search for, the name rules still apply
      }
      if (opened.size >= MAX_OPENED_SECRETS) opened.clear();
      opened.set(provider.authValueEnc, secrets);
    }
    return secrets;
  }

  /** Every provider's auth field and secret: a request may carry any of the organization's secrets, wherever it went. */
  function rulesFor(providers: OrgProvider[]): RedactionRules {
    const names = new Set<string>();
    const secrets: string[] = [];
    for (const p of providers) {
      if (p.authField && p.authMethod !== 'votifier' && p.authMethod !== 'url_path') names.add(p.authField.toLowerCase());
      secrets.push(...secretsOf(p));
    }
    return { names, secrets };
  }

  async function resolve(slugs: string[], organizationIds: string[]) {
    const orgBySlug = new Map<string, string>();
    const now = Date.now();
    if (slugs.length > 0) {
      const orgs = await prisma.organization.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } });
      for (const o of orgs) orgBySlug.set(o.slug, o.id);
      for (const slug of slugs) {
        if (orgBySlug.has(slug)) continue;
        if (unknownSlugs.size >= MAX_SLUGS) unknownSlugs.clear();
        unknownSlugs.set(slug, now + UNKNOWN_SLUG_TTL_MS);
      }
    }
    const ids = [...new Set([...organizationIds, ...orgBySlug.values()])];
    const providers: OrgProvider[] =
      ids.length === 0
        ? []
        : await prisma.provider.findMany({
            where: { organizationId: { in: ids } },
            select: {
              id: true,
              organizationId: true,
              key: true,
              authMethod: true,
              authField: true,
              authTimestampField: true,
              payloadSource: true,
              authValueEnc: true,
            },
            orderBy: { key: 'asc' },
          });
    const byOrg = new Map<string, OrgProvider[]>();
    for (const id of ids) byOrg.set(id, []);
    for (const p of providers) byOrg.get(p.organizationId)!.push(p);
    // What record() may name scopes by until the next batch reads them again.
    if (knownSlugs.size + orgBySlug.size > MAX_SLUGS) knownSlugs.clear();
    for (const [slug, id] of orgBySlug) {
      knownSlugs.set(slug, { organizationId: id, providers: new Map(byOrg.get(id)!.map((p) => [p.key, p.id])), until: now + KNOWN_SLUG_TTL_MS });
    }
    return { orgBySlug, byOrg };
  }

  /** The next batch: accepted and other entries first, refused ones at least MIN_REFUSED_PER_FLUSH of it. */
  function take(): Held[] {
    const refused = Math.min(refusedQueue.length, Math.max(MAX_PER_FLUSH - queue.length, MIN_REFUSED_PER_FLUSH));
    const batch = [...queue.splice(0, MAX_PER_FLUSH - refused), ...refusedQueue.splice(0, refused)];
    if (refusedQueue.length === 0) refusedBySender = new Map();
    return batch;
  }

  async function writeSome(): Promise<void> {
    const batch = take();
    const drops = [...pendingDrops.values()];
    pendingDrops = new Map();
    pendingSenders = new Map();
    if (batch.length === 0 && drops.length === 0) return;

    const slugs = new Set<string>();
    const orgIds = new Set<string>();
    for (const { obs } of batch) {
      if (obs.organizationId) orgIds.add(obs.organizationId);
      else slugs.add(obs.orgSlug);
    }
    for (const d of drops) {
      if (d.organizationId) orgIds.add(d.organizationId);
      else slugs.add(d.orgSlug);
    }
    const { orgBySlug, byOrg } = await resolve([...slugs], [...orgIds]);
    const resolveScope = (organizationIdOrNull: string | null, orgSlug: string, providerKey: string, providerId: string | null, byKey: boolean) => {
      const organizationId = organizationIdOrNull ?? orgBySlug.get(orgSlug) ?? null;
      if (!organizationId) return null;
      const providers = byOrg.get(organizationId) ?? [];
      const provider = (providerId ? providers.find((p) => p.id === providerId) : byKey ? providers.find((p) => p.key === providerKey) : null) ?? null;
      return { organizationId, provider, providers };
    };

    const rows: HookLogRow[] = [];
    const rules = new Map<string, RedactionRules>();
    for (const [i, { obs, body, bodyBytes }] of batch.entries()) {
      // Redaction runs on the request thread: in slices, so hooks are answered between them, not after all of it.
      if (i > 0 && i % REDACT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const scope = resolveScope(obs.organizationId, obs.orgSlug, obs.providerKey, obs.provider?.id ?? null, true);
      if (!scope) continue;
      let r = rules.get(scope.organizationId);
      if (!r) rules.set(scope.organizationId, (r = rulesFor(scope.providers)));
      // A request no provider accepted may carry a secret meant for somewhere else: it is redacted as a stranger's.
      const trust = obs.outcome === 'refused' || !scope.provider ? 'stranger' : 'matched';
      const scrub = (text: string | null) => (text === null ? null : scrubSecrets(text, r.secrets));
      rows.push({
        id: timeOrderedId(obs.receivedAt.getTime()),
        organizationId: scope.organizationId,
        providerId: scope.provider?.id ?? null,
        providerKey: scrub(obs.providerKey)!.slice(0, 200),
        receivedAt: obs.receivedAt.getTime(),
        clientIp: obs.clientIp.slice(0, 100),
        method: obs.method.slice(0, 16),
        path: scrubSecrets(redactPath(obs.path) + redactQuery(obs.query, r, trust), r.secrets).slice(0, 2048),
        protocol: obs.protocol,
        outcome: obs.outcome,
        status: obs.status,
        errorCode: obs.errorCode,
        reason: scrub(obs.reason)?.slice(0, 1000) ?? null,
        voterName: scrub(obs.voterName),
        repairedFrom: scrub(obs.repairedFrom ?? null),
        voteId: obs.voteId,
        durationMs: Math.max(0, Math.round(obs.durationMs)),
        headersJson: JSON.stringify(redactHeaders(obs.headers, r, trust)),
        body: redactBody(body, r, obs.protocol === 'votifier_v1' ? 'binary' : 'text'),
        bodyBytes,
      });
    }
    const logDrops: HookLogDrop[] = [];
    for (const d of drops) {
      const scope = d.resolved
        ? resolveScope(d.organizationId, d.orgSlug, d.providerKey, d.providerId, false)
        : resolveScope(d.organizationId, d.orgSlug, d.providerKey, null, true);
      if (scope)
        logDrops.push({
          organizationId: scope.organizationId,
          providerId: scope.provider?.id ?? null,
          clientIp: d.clientIp,
          count: d.count,
          firstAt: d.firstAt,
          lastAt: d.lastAt,
        });
    }
    if (rows.length === 0 && logDrops.length === 0) return;

    const result = await deps.db.hookLog.submit({ kind: 'batch', rows, drops: logDrops, limits });
    if (!('kept' in result)) return;
    const until = Date.now() + FULL_REFRESH_MS;
    if (full.size + result.full.length > MAX_PENDING_DROPS) {
      const now = Date.now();
      for (const [key, at] of full) if (at <= now) full.delete(key);
      if (full.size + result.full.length > MAX_PENDING_DROPS) full.clear();
    }
    for (const key of result.full) full.set(key, until);
    const kept = new Set(result.kept);
    publish(
      rows.filter((row) => kept.has(row.id)),
      byOrg,
    );
  }

  /** One event per organization per flush (one Redis message with REDIS_URL), holding its entries. */
  function publish(rows: HookLogRow[], byOrg: Map<string, OrgProvider[]>) {
    const refusedSent = new Map<string, number>();
    const byOrgEntries = new Map<string, HookRequestEntry[]>();
    for (const row of rows) {
      // Entries nobody can be listening for are not built (hints) nor published.
      if (!mayHaveListeners(deps, row.organizationId)) continue;
      if (row.outcome === 'refused') {
        const key = fullKey(scopeKey(row), addressGroup(row.clientIp));
        const sent = refusedSent.get(key) ?? 0;
        if (sent >= LIVE_REFUSED_PER_ADDRESS) continue;
        refusedSent.set(key, sent + 1);
      }
      const entry = entryOf({ ...row, receivedAt: new Date(row.receivedAt) }, byOrg.get(row.organizationId) ?? []);
      const list = byOrgEntries.get(row.organizationId);
      if (list) list.push(entry);
      else byOrgEntries.set(row.organizationId, [entry]);
    }
    for (const [organizationId, entries] of byOrgEntries) deps.feed.pubsub.publish('hookRequestReceived', organizationId, entries);
  }

  async function flushOnce(): Promise<void> {
    try {
      await writeSome();
    } catch (err) {
      // The log is best effort: a batch that cannot be written (the database is down) is dropped, never retried
      // into an unbounded backlog, and said once a minute.
      if (Date.now() - lastWarnAt > WARN_EVERY_MS) {
        lastWarnAt = Date.now();
        deps.logger.warn({ err: (err as Error).message }, 'hook request log entries could not be written; they are dropped');
      }
    }
    if (lost > 0 && Date.now() - lastWarnAt > WARN_EVERY_MS) {
      lastWarnAt = Date.now();
      deps.logger.warn({ dropped: lost }, 'hook request log entries dropped: more arrived than the log keeps up with');
      lost = 0;
    }
  }

  /** One flush at a time; what is left after one (more than MAX_PER_FLUSH) is written right after it. */
  function flush(): Promise<void> {
    flushing ??= (async () => {
      try {
        do await flushOnce();
        while (queue.length > 0 || refusedQueue.length > 0);
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  }

  // flushOnce says what it could not write (once a minute) and drops it: a pass fails only on a bug.
  const loop = backgroundLoop({
    everyMs: FLUSH_MS,
    atStart: false,
    pass: flush,
    failed: (err) => deps.logger.error({ err }, 'the hook request log could not flush its queue; it tries again at the next interval'),
  });

  return {
    start() {
      // HOOK_LOG_MAX_PER_PROVIDER=0: the log is off in this process (nothing queued, nothing written).
      if (deps.config.hookLogMaxPerProvider === 0) return;
      unwatch = observers.watch(record);
      loop.start();
    },
    async flush() {
      await flushing;
      await flush();
    },
    async stop() {
      unwatch?.();
      unwatch = null;
      await loop.stop();
      await flushing;
      await flush();
    },
  };
}
