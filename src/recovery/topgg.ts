// Votes recovered after an outage, for providers of a top.gg template that hold the project's API token: every
// RECOVERY_INTERVAL the vote list (docs.top.gg, API reference: GET /v1/projects/@me/votes) is read on from the last
// run, and each listed vote no stored vote matches is recorded as a vote (`recovered`, delivered like any other),
// once the site has stopped retrying its webhook, so a late hook always wins. One instance polls a provider at a
// time (a lease on its row); a listed vote is recorded at most once (matched, and a duplicate key of its own).
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import { z } from 'zod';
import type { AppDeps } from '../app/deps.js';
import type { IngestService } from '../modules/votes/ingest.service.js';
import { findTemplate } from '../modules/providers/templates/catalogue.js';
import { REAL_VOTES } from '../domain/votes.js';
import { backgroundLoop } from '../base/background-loop.js';

const MINUTE = 60_000;

/** One page of the list (a small JSON document): only a hung or stalled connection takes this long. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Pages read per provider and run; a longer backlog continues on the next run from the saved cursor. */
export const MAX_PAGES_PER_RUN = 20;
/** Beyond the template's retry horizon: the site's clock, our own answer time and a slow last retry. */
export const LATE_HOOK_MARGIN_MS = 5 * MINUTE;
/** Each run reads again this far before the cursor, for votes listed a little late or at the cursor's instant. */
export const LIST_OVERLAP_MS = 10 * MINUTE;
/** top.gg accepts a startDate at most one year back; a day less keeps clear of that edge. */
export const MAX_LOOKBACK_MS = 364 * 24 * 60 * MINUTE;
/** A legacy delivery has no timestamp: it is the listed vote when received this long before created_at … */
export const LEGACY_EARLY_MS = 10 * MINUTE;
// … up to the duplicate window after it (config.duplicateWindowMs, which covers the legacy 17-minute retries).
/** More entries than this on one page is not top.gg's list (its pages are far smaller): the run stops there. */
export const MAX_ENTRIES_PER_PAGE = 1_000;
/** The longest span of listed votes compared with stored ones in one read (a page's votes are split by this). */
const COMPARE_SPAN_MS = 24 * 60 * MINUTE;
/** A listed vote more than this ahead of our clock is not a vote yet. */
const FUTURE_SKEW_MS = MINUTE;
/** A page larger than this is not a vote list. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** When a 429 names no wait (the docs say it does), and the longest wait taken from one. */
const DEFAULT_RETRY_AFTER_S = 60;
const MAX_RETRY_AFTER_S = 3_600;

/** One vote of the list, as top.gg documents it: no vote id, no user name. */
export interface ListedVote {
  user_id: string;
  platform_id: string;
  weight: number;
  created_at: string;
  expires_at: string | null;
}

/**
 * Epoch milliseconds of an ISO 8601 instant with its offset (`Z` or `±hh:mm`), at millisecond precision: digits past
 * the third are dropped (top.gg writes six in the list and seven in webhooks). null for anything else.
 */
export function instantMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/i.exec(value.trim());
  if (!match) return null;
  const millis = (match[2] ?? '').slice(0, 3).padEnd(3, '0');
  const offset = match[3].toUpperCase() === 'Z' ? 'Z' : match[3].replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const at = Date.parse(`${match[1]}.${millis}${offset}`);
  return Number.isNaN(at) ? null : at;
}

// Ids are plain tokens; the Discord id (platform_id) may become a voter's name, so it must be digits (a snowflake).
const idText = z.union([z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]).transform(String);
const snowflake = z.union([z.string().regex(/^\d{1,32}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]).transform(String);
const listedVoteSchema = z.object({
  user_id: idText,
  platform_id: snowflake,
  weight: z.number().int().positive().max(100).default(1),
  created_at: z.string().refine((text) => instantMs(text) !== null, 'is not an ISO 8601 instant'),
  expires_at: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
// Entries are read one by one: a single odd entry is skipped instead of stopping recovery at its page for good.
const pageSchema = z.object({ cursor: z.string().nullish(), data: z.array(z.unknown()) });

/** How a webhook of one top.gg format carries a vote: the body it would have sent, and how to know it again. */
export interface HookFormat {
  /** The body the webhook would have sent for this listed vote, marked `recovered: true` (it is the vote's payload). */
  body(vote: ListedVote): Record<string, unknown>;
  /** Whether a stored vote (from the hook, or recovered earlier: its body has the same shape) is this listed vote. */
  isSame(stored: { payload: unknown; receivedAtMs: number }, vote: ListedVote, duplicateWindowMs: number): boolean;
}

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
const asId = (value: unknown): string | null => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);

/** The formats by template slug: current signed webhooks (`topgg`) and legacy ones (`topgg-legacy`). */
export const HOOK_FORMATS: Readonly<Record<string, HookFormat>> = {
  // {"type":"vote.create","data":{"id","weight","created_at","expires_at","project":{…},"user":{"id","platform_id","name",…}}}
  topgg: {
    body: (vote) => ({
      type: 'vote.create',
      data: {
        weight: vote.weight,
        created_at: vote.created_at,
        expires_at: vote.expires_at,
        // The list has no user names: the Discord id stands in for one.
        user: { id: vote.user_id, platform_id: vote.platform_id, name: vote.platform_id },
      },
      recovered: true,
    }),
    // The same top.gg user and the same creation instant (a user votes at most once per 12 hours); 1 ms either way
    // absorbs a list and a webhook that round the same instant differently past the millisecond.
    isSame({ payload }, vote) {
      const data = field(payload, 'data');
      if (asId(field(field(data, 'user'), 'id')) !== vote.user_id) return false;
      const hookAt = instantMs(field(data, 'created_at'));
      return hookAt !== null && Math.abs(hookAt - instantMs(vote.created_at)!) <= 1;
    },
  },
  // {"bot":"<id>","user":"<discord id>","type":"upvote","isWeekend":false,"query":""}: no timestamp, no top.gg id.
  'topgg-legacy': {
    body: (vote) => ({ user: vote.platform_id, type: 'upvote', isWeekend: vote.weight > 1, query: '', recovered: true }),
    isSame({ payload, receivedAtMs }, vote, duplicateWindowMs) {
      if (asId(field(payload, 'user')) !== vote.platform_id) return false;
      const createdAt = instantMs(vote.created_at)!;
      return receivedAtMs >= createdAt - LEGACY_EARLY_MS && receivedAtMs <= createdAt + duplicateWindowMs;
    },
  },
};

/**
 * The recovered vote's duplicate key: the same for one listed vote on every run and instance, so the vote store
 * (which treats one key within the duplicate window as one vote) keeps a single copy even when two writers race.
 */
export function recoveredDedupKey(providerId: string, vote: ListedVote): string {
  return createHash('sha256')
    .update(`recovered:topgg:${providerId}:${vote.user_id}:${instantMs(vote.created_at)}`)
    .digest('hex');
}

export type VoteListAnswer =
  /** `listed`: the page's entry count, `votes` the readable ones among them (oldest first). */
  { ok: true; cursor: string; listed: number; votes: ListedVote[] } | { ok: false; error: string; retryAfterS?: number };

export interface TopggClient {
  /** One page: from `startDate`, or onwards from a page's `cursor`. Never throws; never puts the token in `error`. */
  listVotes(token: string, from: { startDate: string } | { cursor: string }): Promise<VoteListAnswer>;
  close(): Promise<void>;
}

function retryAfterSeconds(header: string | undefined, body: unknown, nowMs: number): number {
  let seconds = Number.NaN;
  if (header !== undefined) {
    seconds = /^\s*\d+(\.\d+)?\s*$/.test(header) ? Number(header) : (Date.parse(header) - nowMs) / 1000;
  }
  if (!Number.isFinite(seconds)) seconds = Number(field(body, 'retry-after') ?? field(body, 'retry_after'));
  if (!Number.isFinite(seconds)) seconds = DEFAULT_RETRY_AFTER_S;
  return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(seconds)));
}

async function readBody(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_PAGE_BYTES) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A short, single-line excerpt of what a site said (an RFC 7807 problem's title or detail). */
const excerpt = (text: unknown, max = 120): string | null => (typeof text === 'string' && text.trim() ? text.replace(/\s+/g, ' ').trim().slice(0, max) : null);

/** The vote list client on undici (the operator's TOPGG_API_URL, not a user's URL: no SSRF guard needed). */
export function createTopggClient(options: { baseUrl: string; timeoutMs?: number; now?: () => number }): TopggClient {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/v1/projects/@me/votes`;

  async function listVotes(token: string, from: { startDate: string } | { cursor: string }): Promise<VoteListAnswer> {
    const url = new URL(endpoint);
    if ('cursor' in from) url.searchParams.set('cursor', from.cursor);
    else url.searchParams.set('startDate', from.startDate);
    const hide = (message: string) => (token ? message.split(token).join('…') : message);
    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    let text: string | null;
    try {
      const response = await request(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'VoteRelay/0.1 (vote recovery)' },
        dispatcher: agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.statusCode;
      headers = response.headers;
      text = await readBody(response.body as never);
    } catch (err) {
      const error = err as Error & { code?: string; cause?: Error & { code?: string } };
      if (error.name === 'TimeoutError' || error.name === 'AbortError' || /Timeout/i.test(error.code ?? '')) {
        return { ok: false, error: `top.gg did not answer within ${Math.round(timeoutMs / 1000)} s` };
      }
      const cause = error.cause?.code ?? error.code ?? error.cause?.message ?? error.message;
      return { ok: false, error: hide(`top.gg could not be reached (${excerpt(cause, 80) ?? 'network error'})`) };
    }
    let json: unknown;
    try {
      json = text === null ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (status === 429) {
      const header = headers['retry-after'];
      const retryAfterS = retryAfterSeconds(Array.isArray(header) ? header[0] : header, json, now());
      return { ok: false, error: `top.gg rate-limited the vote list; waiting ${retryAfterS} s`, retryAfterS };
    }
    if (status === 401 || status === 403) return { ok: false, error: 'top.gg refused the API token' };
    if (status < 200 || status > 299) {
      const said = excerpt(field(json, 'detail')) ?? excerpt(field(json, 'title'));
      return { ok: false, error: hide(`top.gg answered ${status}${said ? `: ${said}` : ''}`) };
    }
    const page = text === null ? null : pageSchema.safeParse(json);
    if (!page?.success) return { ok: false, error: 'top.gg answered something that is not a vote list' };
    if (page.data.data.length > MAX_ENTRIES_PER_PAGE) return { ok: false, error: `top.gg listed more than ${MAX_ENTRIES_PER_PAGE} votes on one page` };
    const votes: ListedVote[] = [];
    for (const entry of page.data.data) {
      const vote = listedVoteSchema.safeParse(entry);
      if (vote.success) votes.push(vote.data);
    }
    return { ok: true, cursor: page.data.cursor ?? '', listed: page.data.data.length, votes };
  }

  return { listVotes, close: () => agent.close() };
}

export interface RecoveryRun {
  /** Providers whose list was read (leased by this instance). */
  checked: number;
  /** Votes recorded as recovered. */
  recorded: number;
  /** Providers whose run ended in an error (kept in their recoveryError). */
  failed: number;
}

export interface RecoveryReconciler {
  start(): void;
  stop(): Promise<void>;
  /** One pass over every provider with recovery, now (the interval's work; tests call it). */
  tick(): Promise<RecoveryRun>;
}

interface RecoverableProvider {
  id: string;
  key: string;
  templateSlug: string | null;
  apiTokenEnc: string | null;
  recoveryCursor: string | null;
  createdAt: Date;
  updatedAt: Date;
  organization: { slug: string };
}

type ProviderOutcome = { recorded: number; failed: boolean };

interface RecoveryState {
  recoveryCursor: string | null;
  recoveryLeaseUntil: Date | null;
  recoveryError: string | null;
  recoveryCheckedAt?: Date;
}

export function createRecoveryReconciler(
  deps: AppDeps,
  ingest: Pick<IngestService, 'recordRecovered'>,
  options: { intervalMs: number; requestTimeoutMs?: number; maxPagesPerRun?: number },
): RecoveryReconciler {
  const { prisma } = deps.db;
  const maxPages = options.maxPagesPerRun ?? MAX_PAGES_PER_RUN;
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  /** Long enough for a whole run of one provider (every page at its timeout), so a live run is never overtaken. */
  const leaseMs = maxPages * requestTimeoutMs + 2 * MINUTE;
  const client = createTopggClient({ baseUrl: deps.config.topggApiUrl, timeoutMs: requestTimeoutMs, now: () => deps.clock.now().getTime() });

  /**
   * The provider's recovery columns, written only while it still holds the token this run read (a new token resets
   * recovery), and without moving updatedAt: polling is not an edit.
   */
  async function saveState(p: RecoverableProvider, data: RecoveryState): Promise<void> {
    const where = { id: p.id, apiTokenEnc: p.apiTokenEnc };
    const kept = await prisma.provider.updateMany({ where: { ...where, updatedAt: p.updatedAt }, data: { ...data, updatedAt: p.updatedAt } });
    if (kept.count === 0) await prisma.provider.updateMany({ where, data }); // edited meanwhile: its updatedAt moves anyway
  }

  /** Where the list is read from: the cursor, else the provider's newest vote, else its creation; less the overlap. */
  async function startDateOf(p: RecoverableProvider, nowMs: number): Promise<Date> {
    let base = instantMs(p.recoveryCursor);
    if (base === null) {
      const last = await prisma.vote.findFirst({ where: { providerId: p.id, ...REAL_VOTES }, orderBy: { receivedAt: 'desc' }, select: { receivedAt: true } });
      base = (last?.receivedAt ?? p.createdAt).getTime();
    }
    return new Date(Math.max(base - LIST_OVERLAP_MS, nowMs - MAX_LOOKBACK_MS));
  }

  /**
   * The listed votes that may be recorded: not ahead of our clock, and not older than what stored votes can still
   * be matched against (a stored body is cleared after RAW_PAYLOAD_RETENTION_DAYS and a vote deleted after
   * VOTE_RETENTION_DAYS: an older listed vote could no longer be told from one we have).
   */
  function recordable(votes: ListedVote[], nowMs: number): ListedVote[] {
    const days = [deps.config.rawPayloadRetentionDays, deps.config.voteRetentionDays].filter((d) => d > 0);
    const oldest = Math.max(nowMs - MAX_LOOKBACK_MS, ...days.map((d) => nowMs - (d - 1) * 24 * 60 * MINUTE));
    return votes.filter((v) => {
      const at = instantMs(v.created_at)!;
      return at >= oldest && at <= nowMs + FUTURE_SKEW_MS;
    });
  }

  /** Records the listed votes no stored vote of the provider matches, a day of them at a time; returns how many were recorded, or null when the provider stopped taking votes. */
  async function recordMissing(p: RecoverableProvider, format: HookFormat, listed: ListedVote[]): Promise<number | null> {
    const votes = recordable(listed, deps.clock.now().getTime()).sort((a, b) => instantMs(a.created_at)! - instantMs(b.created_at)!);
    let recorded = 0;
    for (let from = 0; from < votes.length; ) {
      const first = instantMs(votes[from].created_at)!;
      let to = from;
      while (to < votes.length && instantMs(votes[to].created_at)! - first <= COMPARE_SPAN_MS) to++;
      const done = await recordSpan(p, format, votes.slice(from, to));
      if (done === null) return null;
      recorded += done;
      from = to;
    }
    return recorded;
  }

  async function recordSpan(p: RecoverableProvider, format: HookFormat, votes: ListedVote[]): Promise<number | null> {
    if (votes.length === 0) return 0;
    const window = deps.config.duplicateWindowMs;
    const times = votes.map((v) => instantMs(v.created_at)!);
    const stored = await prisma.vote.findMany({
      where: { providerId: p.id, receivedAt: { gte: new Date(Math.min(...times) - LEGACY_EARLY_MS), lte: new Date(Math.max(...times) + window) } },
      select: { rawPayload: true, receivedAt: true },
    });
    const known = stored.map((v) => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(v.rawPayload);
      } catch {
        // not JSON: matches nothing
      }
      return { payload, receivedAtMs: v.receivedAt.getTime() };
    });
    let recorded = 0;
    for (const vote of votes) {
      if (known.some((k) => format.isSame(k, vote, window))) continue;
      const payload = format.body(vote);
      const receivedAt = new Date(instantMs(vote.created_at)!);
      const result = await ingest.recordRecovered({
        providerId: p.id,
        payload,
        fallbackVoterName: vote.platform_id,
        dedupKey: recoveredDedupKey(p.id, vote),
        receivedAt,
      });
      if (!result) return null;
      known.push({ payload, receivedAtMs: receivedAt.getTime() });
      if (!result.duplicate) recorded++;
    }
    return recorded;
  }

  async function reconcile(p: RecoverableProvider, format: HookFormat, retryHorizonS: number): Promise<ProviderOutcome | null> {
    const now = deps.clock.now();
    const nowMs = now.getTime();
    const leased = await prisma.provider.updateMany({
      where: { id: p.id, apiTokenEnc: p.apiTokenEnc, updatedAt: p.updatedAt, OR: [{ recoveryLeaseUntil: null }, { recoveryLeaseUntil: { lte: now } }] },
      data: { recoveryLeaseUntil: new Date(nowMs + leaseMs), updatedAt: p.updatedAt },
    });
    if (leased.count === 0) return null; // another instance has it, or it was edited since it was read: next run

    const cutoff = nowMs - retryHorizonS * 1000 - LATE_HOOK_MARGIN_MS;
    const previous = instantMs(p.recoveryCursor);
    /** The newest vote time this run has handled (matched or recorded); `complete`: the list was read up to the cutoff. */
    let handledUpTo: number | null = null;
    let complete = false;
    let recorded = 0;
    /** Votes read from the list and compared with the stored ones (for the log). */
    let found = 0;
    let unreadable = 0;
    let failure: { error: string; retryAfterS?: number } | null = null;
    try {
      const token = deps.secrets.open(p.apiTokenEnc!);
      let from: { startDate: string } | { cursor: string } = { startDate: (await startDateOf(p, nowMs)).toISOString() };
      for (let page = 0; page < maxPages && !complete; page++) {
        const answer = await client.listVotes(token, from);
        if (!answer.ok) {
          failure = answer;
          break;
        }
        // The list is oldest first: everything from the first vote younger than the cutoff waits for a later run.
        const firstYoung = answer.votes.findIndex((v) => instantMs(v.created_at)! > cutoff);
        const due = firstYoung === -1 ? answer.votes : answer.votes.slice(0, firstYoung);
        const added = await recordMissing(p, format, due);
        if (added === null) {
          failure = { error: 'the provider or its organization stopped taking votes' };
          break;
        }
        recorded += added;
        found += due.length;
        unreadable += answer.listed - answer.votes.length;
        for (const v of due) handledUpTo = Math.max(handledUpTo ?? 0, instantMs(v.created_at)!);
        complete = firstYoung !== -1 || answer.listed === 0 || answer.cursor === '';
        from = { cursor: answer.cursor };
      }
    } catch (err) {
      deps.logger.error(
        { err, organization: p.organization.slug, provider: p.key, providerId: p.id },
        `vote recovery for ${p.organization.slug}/${p.key} failed inside this service`,
      );
      failure = { error: 'vote recovery failed in this service (its log says why); retrying on the next run' };
    }

    // Read to the end: every vote up to the cutoff was handled. Otherwise only as far as the votes handled.
    const reached = complete && !failure ? cutoff : handledUpTo;
    const cursor = reached === null ? previous : Math.max(previous ?? reached, reached);
    // The lease is kept after the run: several instances tick at their own times, and none asks again within half
    // an interval, nor before a 429's wait is over.
    const holdMs = Math.max(options.intervalMs / 2, (failure?.retryAfterS ?? 0) * 1000);
    const state: RecoveryState = {
      recoveryCursor: cursor === null ? null : new Date(cursor).toISOString(),
      recoveryLeaseUntil: holdMs > 0 ? new Date(deps.clock.now().getTime() + holdMs) : null,
      ...(failure ? { recoveryError: failure.error } : { recoveryError: null, recoveryCheckedAt: now }),
    };
    try {
      await saveState(p, state);
    } catch (err) {
      deps.logger.error(
        { err, organization: p.organization.slug, provider: p.key, providerId: p.id },
        `vote recovery for ${p.organization.slug}/${p.key}: its progress could not be saved; the next run reads the same votes again (none is recorded twice)`,
      );
    }
    // The run's result: info when it recorded votes the hook missed, warn when it stopped, debug when all was there.
    const who = { organization: p.organization.slug, provider: p.key, providerId: p.id, found, recorded };
    const name = `${p.organization.slug}/${p.key}`;
    const missed = `${recorded} vote${recorded === 1 ? '' : 's'} the hook never received`;
    if (unreadable > 0)
      deps.logger.warn(
        { ...who, unreadable },
        `vote recovery for ${name}: top.gg listed ${unreadable} vote${unreadable === 1 ? '' : 's'} this service cannot read; skipped`,
      );
    if (failure)
      deps.logger.warn(
        { ...who, error: failure.error },
        `vote recovery for ${name} stopped: ${failure.error}${recorded > 0 ? ` (${missed} recorded before that)` : ''}; the next run tries again`,
      );
    else if (recorded > 0) deps.logger.info(who, `vote recovery for ${name}: ${missed} recorded from top.gg's vote list (${found} listed)`);
    else deps.logger.debug(who, `vote recovery for ${name}: top.gg listed ${found} vote${found === 1 ? '' : 's'}, none missed`);
    return { recorded, failed: failure !== null };
  }

  async function tick(): Promise<RecoveryRun> {
    const run: RecoveryRun = { checked: 0, recorded: 0, failed: 0 };
    const providers: RecoverableProvider[] = await prisma.provider.findMany({
      where: { enabled: true, apiTokenEnc: { not: null }, templateSlug: { not: null }, organization: { status: 'active' } },
      select: {
        id: true,
        key: true,
        templateSlug: true,
        apiTokenEnc: true,
        recoveryCursor: true,
        createdAt: true,
        updatedAt: true,
        organization: { select: { slug: true } },
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    for (const p of providers) {
      const template = findTemplate(p.templateSlug!);
      const format = template?.recovery === 'topgg' ? HOOK_FORMATS[template.slug] : undefined;
      if (!template || !format) continue;
      try {
        const outcome = await reconcile(p, format, template.retryHorizonSeconds ?? 0);
        if (!outcome) continue;
        run.checked++;
        run.recorded += outcome.recorded;
        if (outcome.failed) run.failed++;
        // A 429 holds this provider (its lease lasts until the wait is over); the others still get their turn.
      } catch (err) {
        run.failed++;
        deps.logger.error(
          { err, organization: p.organization.slug, provider: p.key, providerId: p.id },
          `vote recovery for ${p.organization.slug}/${p.key} failed; the next run tries again`,
        );
      }
    }
    return run;
  }

  const loop = backgroundLoop({
    everyMs: options.intervalMs,
    // The first pass after one interval: a hook retried after a restart is still within its horizon anyway, and
    // instances restarting together do not all ask top.gg at once.
    atStart: false,
    pass: tick,
    failed: (err) => deps.logger.error({ err }, 'vote recovery could not run (its providers could not be read); the next run tries again'),
  });
  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      await client.close().catch(() => {});
    },
    tick: loop.runNow,
  };
}
