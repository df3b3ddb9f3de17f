// Inbound vote hooks: find the organization and provider, authenticate the sender, read the voter, filter test
// pings, suppress duplicates, then write the vote, its delivery jobs and its rollups in ONE transaction.
// Answers 200 only after that commit; a 5xx only when nothing was stored (the site will retry).
import { createHash, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/client.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { PLAN_LIMITS } from '../../auth/plans.js';
import { readPath, readPathAsText } from '../../json-path.js';
import { utcDay, utcMonthStart } from '../../time.js';
import type { Organization, Provider } from '../../generated/sqlite/client.js';
import { planOf } from '../organization/organization.service.js';
import { verifyHookAuth } from './hook-auth.js';
import type { VotePubSub } from '../../live/vote-events.js';

export interface HookDelivery {
  orgSlug: string;
  providerKey: string;
  pathSecret?: string | null;
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

export type HookReceipt =
  | { received: true; voteId: string; duplicate: boolean }
  | { received: true; test: true }
  | { received: true; ignored: true };

/** Same provider, same delivery (raw body or idempotency header), within this window → the first vote. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
export const MAX_VOTER_NAME_LENGTH = 256;
/** Chat platforms throttle and fail transiently; 5 attempts is decisions.md §5's bound for chat. */
export const CHAT_MAX_ATTEMPTS = 5;

function parsePayload(delivery: HookDelivery): unknown {
  const contentType = (delivery.headers['content-type'] ?? '').toLowerCase();
  const text = delivery.rawBody.toString('utf8');
  const queryPayload = () => ({ ...delivery.query });
  if (delivery.method === 'GET' || text.trim() === '') return queryPayload();
  if (contentType.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ field: 'body', message: 'is not valid JSON (or application/x-www-form-urlencoded)' }], 'The vote body could not be read');
  }
}

function eventList(json: string | null): string[] | null {
  if (!json) return null;
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? parsed.map(String) : null;
}

function dedupKeyOf(delivery: HookDelivery, provider: Provider): string {
  const idem = delivery.headers['idempotency-key'] ?? delivery.headers['webhook-id'];
  const hash = createHash('sha256');
  if (idem) return hash.update(`idem:${idem}`).digest('hex');
  if (delivery.rawBody.length > 0) return hash.update(delivery.rawBody).digest('hex');
  // GET-style lists: the query without its secret is the delivery.
  const query = Object.entries(delivery.query)
    .filter(([k]) => k !== provider.authField)
    .sort(([a], [b]) => a.localeCompare(b));
  return hash.update(`query:${JSON.stringify(query)}`).digest('hex');
}

function voterFrom(payload: unknown, voteePath: string): string {
  const raw = readPath(payload, voteePath);
  const name = typeof raw === 'string' || typeof raw === 'number' ? readPathAsText(payload, voteePath)?.trim() : undefined;
  if (!name) {
    throw validationError([{ field: voteePath, message: 'voter name is missing or empty at the provider\'s votee_path' }], 'No voter name in the delivery');
  }
  if (name.length > MAX_VOTER_NAME_LENGTH) {
    throw validationError([{ field: voteePath, message: `voter name is longer than ${MAX_VOTER_NAME_LENGTH} characters` }]);
  }
  return name;
}

export function createIngestService(deps: AppDeps & { events: VotePubSub }) {
  const { prisma } = deps.db;

  async function votesThisMonth(tx: Tx, organizationId: string, now: Date): Promise<number> {
    const result = await tx.providerDailyCount.aggregate({
      where: { organizationId, day: { gte: utcDay(utcMonthStart(now)), lte: utcDay(now) } },
      _sum: { count: true },
    });
    return result._sum.count ?? 0;
  }

  async function writeVote(org: Organization, provider: Provider, voterName: string, rawPayload: string, dedupKey: string) {
    const now = deps.clock.now();
    return prisma.$transaction(async (tx) => {
      if (deps.db.dialect === 'postgresql') {
        // Two identical deliveries racing: the second waits here and then finds the first.
        await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `${provider.id}:${dedupKey}`);
      }
      const duplicate = await tx.vote.findFirst({
        where: { providerId: provider.id, dedupKey, receivedAt: { gte: new Date(now.getTime() - DUPLICATE_WINDOW_MS) } },
        select: { publicId: true },
        orderBy: { receivedAt: 'asc' },
      });
      if (duplicate) return { publicId: duplicate.publicId, duplicate: true, id: null };

      // Past the monthly limit the vote is still kept; only its notifications are skipped.
      const overLimit = (await votesThisMonth(tx, org.id, now)) >= PLAN_LIMITS[planOf(org)].votesPerMonth;
      const callbacks = overLimit
        ? []
        : await tx.callback.findMany({ where: { organizationId: org.id, enabled: true }, orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }] });
      const chat = !overLimit && org.chatNotificationsEnabled && !!org.chatWebhookUrl;
      const legacy = !overLimit && !!org.serverCallbackUrl;
      const hasCallbacks = callbacks.length > 0 || legacy;

      const uuid = randomUUID();
      const vote = await tx.vote.create({
        data: {
          id: uuid,
          publicId: `vt_${uuid}`,
          organizationId: org.id,
          providerId: provider.id,
          voterName,
          voterKey: voterName.toLowerCase(),
          receivedAt: now,
          rawPayload,
          dedupKey,
          overLimit,
          chatStatus: chat ? 'pending' : 'skipped',
          callbackStatus: hasCallbacks ? 'pending' : 'skipped',
        },
      });
      const callbackAttempts = deps.config.retryScheduleMs.length + 1;
      const jobs = [
        ...(chat ? [{ kind: 'chat', priority: 0, maxAttempts: CHAT_MAX_ATTEMPTS, callbackId: null }] : []),
        ...callbacks.map((cb) => ({ kind: 'callback', priority: cb.priority, maxAttempts: callbackAttempts, callbackId: cb.id })),
        ...(legacy ? [{ kind: 'legacy_callback', priority: Number.MAX_SAFE_INTEGER >> 22, maxAttempts: callbackAttempts, callbackId: null }] : []),
      ];
      if (jobs.length > 0) {
        await tx.deliveryJob.createMany({
          data: jobs.map((job) => ({ ...job, organizationId: org.id, voteId: vote.id, runAt: now, status: 'pending' })),
        });
      }
      const day = utcDay(now);
      await tx.providerDailyCount.upsert({
        where: { providerId_day: { providerId: provider.id, day } },
        create: { organizationId: org.id, providerId: provider.id, day, count: 1 },
        update: { count: { increment: 1 } },
      });
      await tx.voterDailyCount.upsert({
        where: { providerId_voterKey_day: { providerId: provider.id, voterKey: vote.voterKey, day } },
        create: { organizationId: org.id, providerId: provider.id, voterKey: vote.voterKey, day, voterName, count: 1, lastVoteAt: now },
        update: { count: { increment: 1 }, lastVoteAt: now, voterName },
      });
      return { publicId: vote.publicId, duplicate: false, id: vote.id };
    });
  }

  async function receive(delivery: HookDelivery): Promise<HookReceipt> {
    const org = await prisma.organization.findUnique({ where: { slug: delivery.orgSlug } });
    if (!org) throw notFound(`Organization ${delivery.orgSlug}`);
    if (org.status === 'suspended') throw new AppError('ORG_SUSPENDED', 'This organization is suspended; the vote was not recorded');
    const provider = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId: org.id, key: delivery.providerKey } } });
    if (!provider) throw notFound(`Provider ${delivery.providerKey}`);

    const auth = verifyHookAuth(
      provider,
      deps.secrets.open(provider.authValueEnc),
      { headers: delivery.headers, query: delivery.query, pathSecret: delivery.pathSecret ?? undefined, rawBody: delivery.rawBody },
      deps.clock.now().getTime(),
    );
    if (!auth.ok) throw new AppError('AUTH_FAILED', `Hook authentication failed: ${auth.reason}`);
    if (!provider.enabled) throw new AppError('PROVIDER_DISABLED', 'This provider is disabled; the vote was not recorded');

    const payload = parsePayload(delivery);
    if (provider.eventPath) {
      const event = readPathAsText(payload, provider.eventPath);
      if (event !== undefined) {
        if (eventList(provider.testEventsJson)?.includes(event)) return { received: true, test: true };
        const votes = eventList(provider.voteEventsJson);
        if (votes && !votes.includes(event)) return { received: true, ignored: true };
      }
    }
    const voterName = voterFrom(payload, provider.voteePath);
    const rawPayload = delivery.rawBody.length > 0 && delivery.method !== 'GET' ? delivery.rawBody.toString('utf8') : JSON.stringify(payload);
    const result = await writeVote(org, provider, voterName, rawPayload, dedupKeyOf(delivery, provider));
    if (result.id) {
      deps.events.publish('voteReceived', org.id, { organizationId: org.id, voteId: result.id, publicId: result.publicId, providerKey: provider.key });
    }
    return { received: true, voteId: result.publicId, duplicate: result.duplicate };
  }

  return { receive };
}

export type IngestService = ReturnType<typeof createIngestService>;
