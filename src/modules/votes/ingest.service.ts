// Inbound vote hooks: find the organization and provider, authenticate the sender, read the voter, filter test
// pings, suppress duplicates, then write the vote, its delivery jobs and its rollups in ONE transaction
// (the storage's vote store, src/storage/: deps.db.votes). Answers 200 only after that commit; a 5xx only when nothing was stored (the site retries).
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app/deps.js';
import { AppError, notFound, validationError } from '../../base/errors.js';
import { readPath, readPathAsText } from '../../base/json-path.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../base/json-depth.js';
import { peekPoint, takePoint, type LimitOutcome } from '../../auth/rate-limits.js';
import { authMethodOf } from '../providers/auth-methods/registry.js';
import { findTemplate } from '../providers/templates/catalogue.js';
import { CALLBACK_KINDS, callbackKindOf } from '../../delivery/callback-kinds/registry.js';
import { buildTestDelivery, DEFAULT_TEST_VOTER, testVoterProblem } from './test-vote.js';
import type { AuthenticatedContent, HookRequest } from '../providers/auth-methods/auth-method.js';
import { SLUG_PATTERN } from '../organization/organization.service.js';
import { PROVIDER_KEY_PATTERN } from '../providers/providers.service.js';
import { TEST_KEY_PREFIX, type HookOrg, type HookProvider, type StoredVote } from '../../domain/votes.js';
import { VOTER_KINDS, voterOfVote, type VoterKind, type VoterOfVote } from '../../domain/voter-identity.js';
import { DISCORD_ID } from '../../domain/discord-id.js';
import { addressHash, namesClose, REPAIR_WINDOW_MS, votePageOf } from '../../domain/vote-page.js';
import { resolveSecretKey } from '../../crypto/secret-box.js';
import type { VoteStore } from '../../storage/index.js';
import type { HookObservation, HookOutcome, HookProtocol, ObservedProvider } from '../hook-requests/observation.js';

/** Hook bodies larger than this are refused (413) on the hook route and in /graphql's receiveVote alike. */
export const HOOK_BODY_LIMIT_BYTES = 64 * 1024;

/** Only from sendTestVote (never from a request): the delivery is the owner's test vote. */
export interface TestVoteOptions {
  /** Votifier callbacks and the plugin pull queue get it too (Votifier has no test flag). */
  deliverToGameServers: boolean;
}

export interface HookDelivery extends HookRequest {
  orgSlug: string;
  providerKey: string;
  testVote?: TestVoteOptions;
}

export interface HookCaller {
  /** The sending client's address: refused deliveries are limited per address. */
  clientIp: string;
}

export type HookReceipt =
  | { received: true; voteId: string; duplicate: boolean; testVote?: { voterName: string; deliverToGameServers: boolean } }
  | { received: true; test: true }
  | { received: true; ignored: true };

export const MAX_VOTER_NAME_LENGTH = 256;

const unreadable = (what: string) => validationError([{ field: 'body', message: `is not valid ${what}` }], 'The vote body could not be read');

/** The vote's fields, read from what the sender's secret vouched for and from nothing else. */
function parsePayload(content: AuthenticatedContent): unknown {
  if (content.source === 'query') return content.params;
  const text = content.body.toString('utf8');
  if (content.source === 'form') {
    // A flat object: a repeated name keeps its first value, like the query string.
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(text)) fields[name] ??= value;
    return fields;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw unreadable('JSON');
  }
  if (payload === null || typeof payload !== 'object') {
    const what = payload === null ? 'null' : typeof payload === 'string' ? 'text' : typeof payload === 'number' ? 'a number' : 'true or false';
    throw validationError([{ field: 'body', message: `is ${what}, not a vote: a vote is a JSON object` }]);
  }
  if (exceedsJsonDepth(payload)) throw validationError([{ field: 'body', message: `is nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  return payload;
}

function eventList(json: string | null): string[] | null {
  if (!json) return null;
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? parsed.map(String) : null;
}

/**
 * What makes two deliveries the same vote (the README's Inbound hooks, 10-minute window): the same content (what the
 * secret vouched for: the body, or the query without its secret), or the same Idempotency-Key / webhook-id.
 * Only unsigned deliveries get the second: a header nobody signed must never make a replayed signed body new,
 * and a fresh key never makes the same content a new vote.
 */
function dedupKeysOf(content: AuthenticatedContent, headers: HookDelivery['headers']): { dedupKey: string; idempotencyKey: string | null } {
  const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
  const dedupKey =
    content.source === 'query'
      ? sha(`query:${JSON.stringify(Object.entries(content.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`)
      : sha(content.sameVoteKey !== undefined ? `same:${content.sameVoteKey}` : content.body);
  const idem = headers['idempotency-key'] ?? headers['webhook-id'];
  const signed = content.source !== 'query' && content.signed;
  return { dedupKey, idempotencyKey: idem && !signed ? sha(`idem:${idem}`) : null };
}

/** Who a vote is from (README "Voters"): its name, the Discord id its body carries where the provider says, and the name's kind. */
function voterOf(payload: unknown, voterName: string, org: HookOrg, provider: HookProvider): VoterOfVote {
  const id = provider.discordIdPath ? readPathAsText(payload, provider.discordIdPath.replace(/^\$\./, '')) : undefined;
  const kind = (VOTER_KINDS as readonly string[]).includes(provider.voterKind) ? (provider.voterKind as VoterKind) : 'name';
  return voterOfVote(voterName, id !== undefined && DISCORD_ID.test(id) ? id : null, kind, org.bedrockPrefix);
}

function voterFrom(payload: unknown, voteePath: string): string {
  const raw = readPath(payload, voteePath);
  const name = typeof raw === 'string' || typeof raw === 'number' ? readPathAsText(payload, voteePath)?.trim() : undefined;
  if (!name) {
    throw validationError([{ field: voteePath, message: "voter name is missing or empty at the provider's votee_path" }], 'No voter name in the delivery');
  }
  if (name.length > MAX_VOTER_NAME_LENGTH) {
    throw validationError([{ field: voteePath, message: `voter name is longer than ${MAX_VOTER_NAME_LENGTH} characters` }]);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw validationError([{ field: voteePath, message: 'voter name must not contain control characters (NUL, line breaks, …)' }]);
  }
  return name;
}

/** How far a sender's clock may be ahead of ours. */
const BODY_CLOCK_SKEW_MS = 60_000;

/** Epoch ms of a body timestamp: seconds or milliseconds (by size), or ISO 8601 text; null when it is neither. */
export function bodyTimestampMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string' && /^\d{9,13}$/.test(value)) return bodyTimestampMs(Number(value));
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : at;
  }
  return null;
}

/**
 * A site that signs a timestamp inside the body asks receivers to refuse an old one (Hytale-Servers.pro: 5
 * minutes): a captured delivery sent again later is refused, one sent within that time is a duplicate.
 */
function refuseStaleBody(payload: unknown, path: string, maxAgeS: number, nowMs: number): void {
  const at = bodyTimestampMs(readPath(payload, path));
  if (at === null)
    throw validationError([{ field: path, message: 'must be a timestamp (epoch seconds or milliseconds, or ISO 8601)' }], 'No timestamp in the delivery');
  if (at < nowMs - maxAgeS * 1000 || at > nowMs + BODY_CLOCK_SKEW_MS) {
    throw new AppError(
      'AUTH_FAILED',
      `Hook authentication failed: the body timestamp is not within the last ${maxAgeS} seconds (a resent delivery, or the sender's clock is wrong)`,
    );
  }
}

const rateLimited = (outcome: Extract<LimitOutcome, { allowed: false }>, message: string) =>
  new AppError('RATE_LIMITED', `${message}; retry in ${outcome.retryAfterSeconds} s`, { retry_after_seconds: outcome.retryAfterSeconds });

export function createIngestService(deps: AppDeps) {
  const voteStore = () => deps.db.votes;
  /** The lease a new vote's jobs are written with when this process's worker sends them (delivery/handoff.ts). */
  const leaseNow = () => {
    const lease = deps.handoff.lease(deps.clock.now());
    return lease ? { lease } : {};
  };

  const { limits } = deps;
  let pageSecret: Buffer | null = null;

  /**
   * Name repair (README "Vote page"): the clicker's name, when a vote's name matches no known voter and it comes
   * within 15 minutes of exactly one click on that site's button from the voter's address (the provider's
   * voter_address_path), with a name close to it; else null. Only where the organization's vote page is on.
   */
  async function repairedName(org: HookOrg, provider: HookProvider, payload: unknown, sent: string, voter: VoterOfVote): Promise<string | null> {
    if (!provider.voterAddressPath || !votePageOf(org.votePageJson)?.enabled) return null;
    const address = readPathAsText(payload, provider.voterAddressPath.replace(/^\$\./, ''))?.trim();
    if (!address) return null;
    pageSecret ??= Buffer.from(resolveSecretKey(deps.config));
    const now = deps.clock.now();
    const since = new Date(now.getTime() - REPAIR_WINDOW_MS);
    const hashes = [...new Set([now, since].map((at) => addressHash(pageSecret!, address, at)))];
    const clicks = await deps.db.prisma.voteClick.findMany({
      where: { providerId: provider.id, addressHash: { in: hashes }, at: { gte: since, lte: now } },
      select: { voterName: true },
    });
    const typed = new Map(clicks.filter((c) => c.voterName).map((c) => [c.voterName.toLowerCase(), c.voterName]));
    if (typed.size !== 1) return null;
    const [name] = typed.values();
    if (name.toLowerCase() === sent.toLowerCase() || !namesClose(sent, name, org.bedrockPrefix)) return null;
    const known = await deps.db.prisma.voterIdentity.findFirst({
      where: { organizationId: org.id, OR: voter.probes.map((p) => ({ kind: p.kind, value: p.value })) },
      select: { voterId: true },
    });
    return known ? null : name;
  }

  /**
   * Refused deliveries are a stranger's, so they spend the sending address's budgets (per organization slug, and
   * across all), never the organization's: its budget counts authenticated deliveries only.
   */
  async function refuseIfFailing(caller: HookCaller, failureKey: string): Promise<void> {
    const [perSlug, perAddress] = await Promise.all([peekPoint(limits.hookFailures, failureKey), peekPoint(limits.ip, caller.clientIp)]);
    for (const outcome of [perSlug, perAddress]) {
      if (!outcome.allowed) throw rateLimited(outcome, 'Too many refused deliveries from this address');
    }
  }

  async function countFailure(caller: HookCaller, failureKey: string): Promise<void> {
    await Promise.all([takePoint(limits.hookFailures, failureKey), takePoint(limits.ip, caller.clientIp)]);
  }

  /**
   * A vote just committed (not a duplicate): its jobs to this process's worker (sent at once), counted when real
   * (vote_relay_votes_stored_total counts real votes, like every other count; README "Metrics"), then on the live feed.
   */
  function announce(organizationId: string, providerKey: string, stored: StoredVote, real: boolean) {
    if (!stored.id) return;
    if (stored.jobs) deps.handoff.dispatch(stored.jobs);
    if (real) deps.metrics.voteStored();
    const event = { organizationId, voteId: stored.id, publicId: stored.publicId, providerKey };
    deps.events.publish('voteWritten', event);
    deps.feed.pubsub.publish('voteReceived', organizationId, event);
  }

  /** What one delivery resolved to on its way, for the watchers (the request log, the operator's log). */
  interface Trace {
    organizationId: string | null;
    provider: ObservedProvider | null;
    voterName: string | null;
    /** The name the site sent, when name repair gave the vote to the clicker (README "Vote page"). */
    repairedFrom?: string | null;
  }

  const outcomeOf = (receipt: HookReceipt): HookOutcome =>
    'test' in receipt ? 'test' : 'ignored' in receipt ? 'ignored' : receipt.duplicate ? 'duplicate' : 'accepted';

  const protocolOf = (delivery: HookDelivery): HookProtocol =>
    delivery.votifier ? (delivery.votifier.protocol === 1 ? 'votifier_v1' : 'votifier_v2') : delivery.testVote ? 'test_vote' : 'http';

  /** Every hook delivery's outcome, told to the watchers (deps.hookObservers: the logs, the request log, the metrics). */
  async function receive(delivery: HookDelivery, caller: HookCaller): Promise<HookReceipt> {
    const started = performance.now();
    const receivedAt = deps.clock.now();
    const trace: Trace = { organizationId: null, provider: null, voterName: null };
    const observe = (rest: Pick<HookObservation, 'outcome' | 'status' | 'errorCode' | 'reason' | 'voteId'>) =>
      deps.hookObservers.tell({
        receivedAt,
        durationMs: Math.round(performance.now() - started),
        orgSlug: delivery.orgSlug.toLowerCase(),
        providerKey: delivery.providerKey.toLowerCase(),
        organizationId: trace.organizationId,
        provider: trace.provider,
        clientIp: caller.clientIp,
        method: delivery.method.toUpperCase(),
        path: delivery.path ?? `/hooks/${delivery.orgSlug}/${delivery.providerKey}`,
        protocol: protocolOf(delivery),
        voterName: trace.voterName,
        repairedFrom: trace.repairedFrom ?? null,
        headers: delivery.headers,
        query: delivery.query,
        body: delivery.rawBody,
        testVote: delivery.testVote !== undefined,
        ...rest,
      });
    try {
      const receipt = await receiveOne(delivery, caller, trace);
      const outcome = outcomeOf(receipt);
      observe({ outcome, status: 200, errorCode: null, reason: null, voteId: 'voteId' in receipt ? receipt.voteId : null });
      return receipt;
    } catch (err) {
      const known = err instanceof AppError ? err : null;
      observe({
        outcome: 'refused',
        status: known ? known.status : 500,
        errorCode: known ? known.code : 'INTERNAL_ERROR',
        reason: known ? known.message : 'Internal error: nothing was stored',
        voteId: null,
      });
      throw err;
    }
  }

  async function receiveOne(delivery: HookDelivery, caller: HookCaller, trace: Trace): Promise<HookReceipt> {
    // Slugs and keys are one case and already percent-decoded (Express decodes path parameters), so every
    // spelling of an organization shares one budget and one lookup.
    const orgSlug = delivery.orgSlug.toLowerCase();
    const providerKey = delivery.providerKey.toLowerCase();
    const failureKey = `${caller.clientIp}|${SLUG_PATTERN.test(orgSlug) ? orgSlug : '*'}`;
    await refuseIfFailing(caller, failureKey);

    let authenticated = false;
    try {
      if (delivery.rawBody.length > HOOK_BODY_LIMIT_BYTES) {
        throw new AppError('PAYLOAD_TOO_LARGE', `Hook bodies are at most ${HOOK_BODY_LIMIT_BYTES} bytes`);
      }
      const votes = voteStore();
      // Anything that cannot be a slug or key cannot name one (and never reaches the database).
      if (!SLUG_PATTERN.test(orgSlug)) throw notFound(`Organization ${delivery.orgSlug}`);
      if (!PROVIDER_KEY_PATTERN.test(providerKey)) throw notFound(`Provider ${delivery.providerKey}`);
      const target = await votes.findTarget(orgSlug, providerKey);
      if (!target) throw notFound(`Organization ${orgSlug}`);
      const { org, provider } = target;
      trace.organizationId = org.id;
      if (provider) {
        const { id, key, authMethod, authField, authTimestampField, payloadSource } = provider;
        trace.provider = { id, key, authMethod, authField, authTimestampField, payloadSource };
      }
      if (org.status === 'suspended') throw new AppError('ORG_SUSPENDED', 'This organization is suspended; the vote was not recorded');
      if (!provider) throw notFound(`Provider ${providerKey}`);

      const method = authMethodOf(provider.authMethod);
      if (!method) throw new AppError('AUTH_FAILED', 'Hook authentication failed: unknown auth method');
      const verified = method.verify(
        provider,
        deps.secrets.open(provider.authValueEnc),
        {
          method: delivery.method.toUpperCase(),
          headers: delivery.headers,
          query: delivery.query,
          pathSecret: delivery.pathSecret,
          rawBody: delivery.rawBody,
          votifier: delivery.votifier,
        },
        deps.clock.now().getTime(),
      );
      if (!verified.ok) {
        if (verified.code === 'VALIDATION_ERROR') throw validationError([{ field: verified.field ?? 'request', message: verified.reason }]);
        throw new AppError('AUTH_FAILED', `Hook authentication failed: ${verified.reason}`);
      }
      authenticated = true;
      const budget = await takePoint(limits.hooks, org.id);
      if (!budget.allowed) throw rateLimited(budget, 'Too many deliveries for this organization');
      if (!provider.enabled) throw new AppError('PROVIDER_DISABLED', 'This provider is disabled; the vote was not recorded');
      return await accept(votes, org, provider, verified.content, delivery.headers, trace, delivery.testVote);
    } catch (err) {
      if (!authenticated && err instanceof AppError && err.code !== 'SERVICE_UNAVAILABLE') await countFailure(caller, failureKey);
      throw err;
    }
  }

  async function accept(
    votes: VoteStore,
    org: HookOrg,
    provider: HookProvider,
    content: AuthenticatedContent,
    headers: HookDelivery['headers'],
    trace: Trace,
    testVote: TestVoteOptions | undefined,
  ): Promise<HookReceipt> {
    const payload = parsePayload(content);
    if (provider.eventPath) {
      const value = readPath(payload, provider.eventPath);
      if (value !== undefined && value !== null) {
        // An object or array where an event name belongs matches no event name.
        const event = typeof value === 'object' ? null : String(value);
        if (event !== null && eventList(provider.testEventsJson)?.includes(event)) return { received: true, test: true };
        const accepted = eventList(provider.voteEventsJson);
        if (accepted && (event === null || !accepted.includes(event))) return { received: true, ignored: true };
      }
    }
    if (provider.bodyTimestampPath) refuseStaleBody(payload, provider.bodyTimestampPath, provider.bodyTimestampMaxAgeS ?? 300, deps.clock.now().getTime());
    const sent = voterFrom(payload, provider.voteePath);
    let voter = voterOf(payload, sent, org, provider);
    const repaired = testVote ? null : await repairedName(org, provider, payload, sent, voter);
    if (repaired) voter = voterOf(payload, repaired, org, provider);
    const voterName = repaired ?? sent;
    trace.voterName = voterName;
    trace.repairedFrom = repaired ? sent : null;
    const rawPayload = content.source === 'json' ? content.body.toString('utf8') : JSON.stringify(payload);
    const keys = dedupKeysOf(content, headers);
    // A test vote's body is the template's example with the voter and a fresh time stamped in (test-vote.ts), so the
    // same test vote is the same voter again: the time stamp moves in steps and must not make a repeat a new vote.
    if (testVote) keys.dedupKey = createHash('sha256').update(`test-voter:${voterName}`).digest('hex');
    const stored = await votes.write({
      org,
      provider,
      voterName,
      voter,
      ...(repaired ? { repairedFrom: sent } : {}),
      rawPayload,
      // A test vote is the same vote only as another test vote: a real delivery is never a duplicate of a test.
      ...(testVote
        ? { dedupKey: `${TEST_KEY_PREFIX}${keys.dedupKey}`, idempotencyKey: keys.idempotencyKey && `${TEST_KEY_PREFIX}${keys.idempotencyKey}` }
        : keys),
      receivedAt: deps.clock.now(),
      ...(testVote ? { test: testVote } : {}),
      ...leaseNow(),
    });
    announce(org.id, provider.key, stored, !testVote);
    return testVote
      ? { received: true, voteId: stored.publicId, duplicate: stored.duplicate, testVote: { voterName, deliverToGameServers: testVote.deliverToGameServers } }
      : { received: true, voteId: stored.publicId, duplicate: stored.duplicate };
  }

  /**
   * The owner's test vote (README "Test votes"): the delivery the provider's site would send for `voterName`
   * (test-vote.ts), through the provider's real hook path (its auth method, parsing, event filter, duplicate rule),
   * stored as a test vote. A second one with the same voter within the duplicate window is a duplicate.
   */
  async function sendTestVote(
    viewer: { organizationId: string; organizationSlug: string },
    key: string,
    options: { voterName?: string | null; deliverToGameServers?: boolean | null },
    caller: HookCaller,
  ): Promise<HookReceipt> {
    const { organizationId } = viewer;
    const provider = await deps.db.prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key } } });
    if (!provider) throw notFound(`Provider ${key}`);
    const method = authMethodOf(provider.authMethod);
    if (!method) throw validationError([{ field: 'key', message: `provider ${key} has an unknown auth method` }]);
    const voterName = (options.voterName ?? DEFAULT_TEST_VOTER).trim();
    const deliverToGameServers = options.deliverToGameServers ?? false;
    const problem = testVoterProblem(voterName, provider.authMethod === 'votifier', MAX_VOTER_NAME_LENGTH);
    if (problem) throw validationError([{ field: 'voter_name', message: problem }]);
    // A kind whose target refuses long names (NuVotifier: 16 characters) would fail the test vote for good.
    const strict = CALLBACK_KINDS.filter((k) => k.maxVoterName !== undefined && voterName.length > k.maxVoterName);
    if (deliverToGameServers && strict.length > 0) {
      const refusing = await deps.db.prisma.callback.findFirst({ where: { organizationId, kind: { in: strict.map((k) => k.name) }, enabled: true } });
      const kind = refusing ? callbackKindOf(refusing.kind) : undefined;
      if (refusing && kind) {
        throw validationError([
          { field: 'voter_name', message: `must be at most ${kind.maxVoterName} characters to reach your callback "${refusing.name}" (${kind.label})` },
        ]);
      }
    }
    const template = provider.templateSlug ? findTemplate(provider.templateSlug) : undefined;
    const delivery = buildTestDelivery(provider, method, deps.secrets.open(provider.authValueEnc), voterName, template, deps.clock.now().getTime());
    return receive(
      {
        orgSlug: viewer.organizationSlug,
        providerKey: provider.key,
        ...delivery,
        testVote: { deliverToGameServers },
      },
      caller,
    );
  }

  return {
    receive,
    sendTestVote,
    /**
     * A vote read from the site's vote list after an outage (src/recovery/): written through the same store as a
     * hook's (jobs with origin 'recovered', rollups, duplicate window on `dedupKey`) and published like one. The voter
     * is read at the provider's votee_path, else `fallbackVoterName`. null when the organization is suspended or the
     * provider disabled or gone (nothing stored). The provider is named by id: a slug or key renamed meanwhile (or
     * taken by someone else) never sends the vote elsewhere.
     */
    async recordRecovered(vote: {
      providerId: string;
      payload: Record<string, unknown>;
      fallbackVoterName: string;
      dedupKey: string;
      receivedAt: Date;
    }): Promise<{ id: string | null; publicId: string; duplicate: boolean } | null> {
      const votes = voteStore();
      const named = await deps.db.prisma.provider.findUnique({
        where: { id: vote.providerId },
        select: { key: true, organization: { select: { slug: true } } },
      });
      const target = named && (await votes.findTarget(named.organization.slug, named.key));
      const provider = target?.provider;
      if (!target || !provider || provider.id !== vote.providerId || !provider.enabled || target.org.status === 'suspended') return null;
      let voterName = vote.fallbackVoterName;
      try {
        voterName = voterFrom(vote.payload, provider.voteePath);
      } catch {
        // the synthesized body has no usable value at a custom votee_path: keep the fallback (digits only, recovery/topgg.ts)
      }
      const { org } = target;
      const stored = await votes.write({
        org,
        provider,
        voterName,
        voter: voterOf(vote.payload, voterName, org, provider),
        rawPayload: JSON.stringify(vote.payload),
        dedupKey: vote.dedupKey,
        idempotencyKey: null,
        receivedAt: vote.receivedAt,
        recovered: true,
        ...leaseNow(),
      });
      announce(org.id, provider.key, stored, true);
      return stored;
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
