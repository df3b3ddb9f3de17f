// The hook request log's recorder (README "Hook request log"): a watcher of deps.hookObservers that keeps every hook
// request and Votifier session of a known organization, off the hook's path. `record` only queues (bounded; refused
// requests past the per-address and per-scope bounds within one flush are only counted, so a flood costs a few map
// operations per request and no database read); every FLUSH_MS the queue is resolved per batch (organizations by
// slug, their providers and secrets: one read each), redacted (redaction.ts), written as one `hookLog` hot write
// (hook-log-write.ts, which applies the bounds), and the entries written are published to `hookRequestReceived`.
// Requests whose slug names no organization are not kept (the operator's log has them); nor are Votifier sessions
// on the shared port that no provider's token or key fits (they name no organization).
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import { SLUG_PATTERN } from '../organization/organization.service.js';
import { parseVotifierKeys } from '../../votifier/wire.js';
import type { HookObservation, HookObservers } from './observation.js';
import { BODY_HELD_BYTES, redactBody, redactHeaders, redactPath, redactQuery, scrubSecrets, type RedactionRules } from './redaction.js';
import type { HookLogDrop, HookLogLimits, HookLogRow } from './hook-log-write.js';
import { entryOf, type HintProvider } from './entry.js';

/** How often the queue is written: often enough for a live view, rarely enough to batch a flood. */
export const FLUSH_MS = 300;
/** Entries waiting at most; past it new ones are dropped (refused ones counted per address). */
export const MAX_QUEUED = 10_000;
/** Entries redacted and written per flush; more wait for the next one (started at once). */
const MAX_PER_FLUSH = 2_000;
/** Refused entries kept per scope (provider, or organization-level log): 20 addresses' worth of the per-address bound. */
export const REFUSED_ADDRESSES_PER_SCOPE = 20;
/** Live events per (scope, address) per flush for refused entries: a flood does not become a flood of events. */
const LIVE_REFUSED_PER_ADDRESS = 10;
/** A slug that named no organization is not looked up again for this long. */
const UNKNOWN_SLUG_TTL_MS = 30_000;
const MAX_UNKNOWN_SLUGS = 10_000;
/** Decrypted secrets by sealed value (a provider's secret is opened once, not once per batch). */
const MAX_OPENED_SECRETS = 10_000;
/** A failing write is reported at most this often. */
const WARN_EVERY_MS = 60_000;

interface Held extends Omit<HookObservation, 'body'> {
  body: Buffer;
  bodyBytes: number;
}

interface PendingDrop {
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
  let queue: Held[] = [];
  /** Refused entries queued in this flush per (pre-scope, address) and per pre-scope. */
  let refusedQueued = new Map<string, number>();
  let pendingDrops = new Map<string, PendingDrop>();
  const unknownSlugs = new Map<string, number>();
  const opened = new Map<string, string[]>();
  let lost = 0;
  let lastWarnAt = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let unwatch: (() => void) | null = null;
  let flushing: Promise<void> | null = null;

  /** Before resolution the scope is what the request named; ingest already named the provider when it found it. */
  const preScope = (obs: HookObservation) => obs.provider?.id ?? (obs.organizationId ? `org:${obs.organizationId}/${obs.providerKey}` : `slug:${obs.orgSlug}/${obs.providerKey}`);

  function countDrop(obs: HookObservation) {
    const key = `${preScope(obs)}|${obs.clientIp}`;
    const at = obs.receivedAt.getTime();
    const d = pendingDrops.get(key);
    if (d) {
      d.count++;
      d.firstAt = Math.min(d.firstAt, at);
      d.lastAt = Math.max(d.lastAt, at);
      return;
    }
    // Bounded like the queue: a flood from more addresses than this is counted only in the operator's log.
    if (pendingDrops.size >= MAX_QUEUED) return void lost++;
    pendingDrops.set(key, {
      orgSlug: obs.orgSlug,
      providerKey: obs.providerKey,
      organizationId: obs.organizationId,
      providerId: obs.provider?.id ?? null,
      clientIp: obs.clientIp,
      count: 1,
      firstAt: at,
      lastAt: at,
    });
  }

  function record(obs: HookObservation) {
    // No organization named (a Votifier session on the shared port no provider fits), or one that does not exist.
    if (!obs.organizationId) {
      if (!obs.orgSlug || !SLUG_PATTERN.test(obs.orgSlug)) return;
      const unknownUntil = unknownSlugs.get(obs.orgSlug);
      if (unknownUntil !== undefined && unknownUntil > Date.now()) return;
    }
    if (obs.outcome === 'refused') {
      const scope = preScope(obs);
      const byAddress = `${scope}|${obs.clientIp}`;
      const a = refusedQueued.get(byAddress) ?? 0;
      const s = refusedQueued.get(scope) ?? 0;
      if (a >= limits.refusedPerAddress || s >= limits.refusedPerScope) return countDrop(obs);
      if (queue.length >= MAX_QUEUED) return countDrop(obs);
      refusedQueued.set(byAddress, a + 1);
      refusedQueued.set(scope, s + 1);
    } else if (queue.length >= MAX_QUEUED) {
      lost++;
      return;
    }
    const { body, ...rest } = obs;
    // Only what may be kept is held (and enough past it to recognise a secret cut by the bound).
    // A body refused unread (413) is known only by its declared length.
    const bodyBytes = body.length > 0 ? body.length : Number(obs.headers['content-length']) || 0;
    queue.push({ ...rest, body: body.length > BODY_HELD_BYTES ? Buffer.from(body.subarray(0, BODY_HELD_BYTES)) : body, bodyBytes });
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
    if (slugs.length > 0) {
      const orgs = await prisma.organization.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } });
      for (const o of orgs) orgBySlug.set(o.slug, o.id);
      const now = Date.now();
      for (const slug of slugs) {
        if (orgBySlug.has(slug)) continue;
        if (unknownSlugs.size >= MAX_UNKNOWN_SLUGS) unknownSlugs.clear();
        unknownSlugs.set(slug, now + UNKNOWN_SLUG_TTL_MS);
      }
    }
    const ids = [...new Set([...organizationIds, ...orgBySlug.values()])];
    const providers: OrgProvider[] =
      ids.length === 0
        ? []
        : await prisma.provider.findMany({
            where: { organizationId: { in: ids } },
            select: { id: true, organizationId: true, key: true, authMethod: true, authField: true, authTimestampField: true, payloadSource: true, authValueEnc: true },
            orderBy: { key: 'asc' },
          });
    const byOrg = new Map<string, OrgProvider[]>();
    for (const p of providers) byOrg.set(p.organizationId, [...(byOrg.get(p.organizationId) ?? []), p]);
    return { orgBySlug, byOrg };
  }

  async function writeSome(): Promise<void> {
    const batch = queue.splice(0, MAX_PER_FLUSH);
    if (queue.length === 0) refusedQueued = new Map();
    const drops = [...pendingDrops.values()];
    pendingDrops = new Map();
    if (batch.length === 0 && drops.length === 0) return;

    const slugs = new Set<string>();
    const orgIds = new Set<string>();
    for (const e of [...batch, ...drops]) {
      if (e.organizationId) orgIds.add(e.organizationId);
      else slugs.add(e.orgSlug);
    }
    const { orgBySlug, byOrg } = await resolve([...slugs], [...orgIds]);
    const scopeOf = (e: { organizationId: string | null; orgSlug: string; providerKey: string; providerId?: string | null }) => {
      const organizationId = e.organizationId ?? orgBySlug.get(e.orgSlug) ?? null;
      if (!organizationId) return null;
      const providers = byOrg.get(organizationId) ?? [];
      const provider = (e.providerId ? providers.find((p) => p.id === e.providerId) : providers.find((p) => p.key === e.providerKey)) ?? null;
      return { organizationId, provider, providers };
    };

    const rows: HookLogRow[] = [];
    const rules = new Map<string, RedactionRules>();
    const rulesOf = (scopeKey: string, providers: OrgProvider[]) => {
      let r = rules.get(scopeKey);
      if (!r) rules.set(scopeKey, (r = rulesFor(providers)));
      return r;
    };
    for (const e of batch) {
      const scope = scopeOf({ ...e, providerId: e.provider?.id });
      if (!scope) continue;
      // A provider's entry is searched for its own secret; an organization-level one (a mistyped key, perhaps with
      // another provider's secret) for every secret of the organization.
      const r = scope.provider ? rulesOf(scope.provider.id, [scope.provider]) : rulesOf(`org:${scope.organizationId}`, scope.providers);
      const scrub = (text: string | null) => (text === null ? null : scrubSecrets(text, r.secrets));
      rows.push({
        id: randomUUID(),
        organizationId: scope.organizationId,
        providerId: scope.provider?.id ?? null,
        providerKey: scrub(e.providerKey)!.slice(0, 200),
        receivedAt: e.receivedAt.getTime(),
        clientIp: e.clientIp.slice(0, 100),
        method: e.method.slice(0, 16),
        path: scrubSecrets(redactPath(e.path) + redactQuery(e.query, r), r.secrets).slice(0, 2048),
        protocol: e.protocol,
        outcome: e.outcome,
        status: e.status,
        errorCode: e.errorCode,
        reason: scrub(e.reason)?.slice(0, 1000) ?? null,
        voterName: scrub(e.voterName),
        voteId: e.voteId,
        durationMs: Math.max(0, Math.round(e.durationMs)),
        headersJson: JSON.stringify(redactHeaders(e.headers, r)),
        body: redactBody(e.body, r),
        bodyBytes: e.bodyBytes,
      });
    }
    const logDrops: HookLogDrop[] = [];
    for (const d of drops) {
      const scope = scopeOf(d);
      if (scope) logDrops.push({ organizationId: scope.organizationId, providerId: scope.provider?.id ?? null, clientIp: d.clientIp, count: d.count, firstAt: d.firstAt, lastAt: d.lastAt });
    }
    if (rows.length === 0 && logDrops.length === 0) return;

    const result = await deps.db.writes.hookLog.submit({ kind: 'batch', rows, drops: logDrops, limits });
    const kept = new Set('kept' in result ? result.kept : []);
    publish(rows.filter((row) => kept.has(row.id)), byOrg);
  }

  function publish(rows: HookLogRow[], byOrg: Map<string, OrgProvider[]>) {
    const refusedSent = new Map<string, number>();
    for (const row of rows) {
      if (row.outcome === 'refused') {
        const key = `${row.providerId ?? row.organizationId}|${row.clientIp}`;
        const sent = refusedSent.get(key) ?? 0;
        if (sent >= LIVE_REFUSED_PER_ADDRESS) continue;
        refusedSent.set(key, sent + 1);
      }
      const entry = entryOf({ ...row, receivedAt: new Date(row.receivedAt) }, byOrg.get(row.organizationId) ?? []);
      deps.feed.pubsub.publish('hookRequestReceived', row.organizationId, entry);
    }
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
        while (queue.length > 0);
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  }

  return {
    start() {
      unwatch = observers.watch(record);
      timer = setInterval(() => void flush(), FLUSH_MS);
      timer.unref();
    },
    async flush() {
      await flushing;
      await flush();
    },
    async stop() {
      unwatch?.();
      unwatch = null;
      if (timer) clearInterval(timer);
      timer = null;
      await flushing;
      await flush();
    },
  };
}
