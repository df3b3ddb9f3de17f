// Where the hook path reads its target and writes a vote. One contract, two implementations:
// PostgreSQL through Prisma (one transaction per vote; concurrent commits share WAL flushes), and embedded
// SQLite through a dedicated better-sqlite3 connection with group commit (sqlite-vote-store.ts), because
// SQLite syncs once per transaction and Prisma's per-query cost dominates the hot path.
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import { PLAN_LIMITS } from '../../auth/plans.js';
import { utcDay, utcMonthStart } from '../../time.js';
import { planOf } from '../organization/organization.service.js';

export interface HookOrg {
  id: string;
  slug: string;
  plan: string;
  status: string;
  chatNotificationsEnabled: boolean;
  chatWebhookUrl: string | null;
  serverCallbackUrl: string | null;
}

export interface HookProvider {
  id: string;
  key: string;
  authMethod: string;
  authField: string;
  authValueEnc: string;
  authTimestampField: string | null;
  voteePath: string;
  eventPath: string | null;
  voteEventsJson: string | null;
  testEventsJson: string | null;
  enabled: boolean;
}

export interface NewVote {
  org: HookOrg;
  provider: HookProvider;
  voterName: string;
  rawPayload: string;
  dedupKey: string;
  receivedAt: Date;
}

export interface StoredVote {
  /** null when the delivery was a duplicate (nothing new stored). */
  id: string | null;
  publicId: string;
  duplicate: boolean;
}

export interface VoteStore {
  findOrg(slug: string): Promise<HookOrg | null>;
  findProvider(organizationId: string, key: string): Promise<HookProvider | null>;
  write(vote: NewVote): Promise<StoredVote>;
  close(): void;
}

/** Same provider, same delivery (raw body or idempotency header), within this window → the first vote. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Chat platforms throttle and fail transiently; 5 attempts is decisions.md §5's bound for chat. */
export const CHAT_MAX_ATTEMPTS = 5;
/** The deprecated server_callback_url runs after every configured callback. */
export const LEGACY_CALLBACK_PRIORITY = 2_000_000_000;
/** A pulled vote comes back after each failure (with back-off); it is given up only after this many. */
export const PULL_MAX_ATTEMPTS = 100;

export interface PlannedJob {
  kind: 'chat' | 'callback' | 'legacy_callback' | 'pull';
  priority: number;
  maxAttempts: number;
  callbackId: string | null;
}

/** What a vote triggers (decisions.md §5); past the monthly limit it is kept but nothing is sent. */
export function planJobs(
  org: HookOrg,
  callbacks: { id: string; priority: number }[],
  overLimit: boolean,
  retryScheduleLength: number,
  pull = false,
): PlannedJob[] {
  if (overLimit) return [];
  const callbackAttempts = retryScheduleLength + 1;
  return [
    ...(org.chatNotificationsEnabled && org.chatWebhookUrl ? [{ kind: 'chat' as const, priority: 0, maxAttempts: CHAT_MAX_ATTEMPTS, callbackId: null }] : []),
    ...callbacks.map((cb) => ({ kind: 'callback' as const, priority: cb.priority, maxAttempts: callbackAttempts, callbackId: cb.id })),
    ...(org.serverCallbackUrl ? [{ kind: 'legacy_callback' as const, priority: LEGACY_CALLBACK_PRIORITY, maxAttempts: callbackAttempts, callbackId: null }] : []),
    // Game-server plugins that poll (behind NAT) take the vote from the pull queue.
    ...(pull ? [{ kind: 'pull' as const, priority: 0, maxAttempts: PULL_MAX_ATTEMPTS, callbackId: null }] : []),
  ];
}

export function monthlyLimit(org: HookOrg): number {
  return PLAN_LIMITS[planOf(org)].votesPerMonth;
}

export function monthRange(now: Date): { from: string; to: string } {
  return { from: utcDay(utcMonthStart(now)), to: utcDay(now) };
}

const orgSelect = { id: true, slug: true, plan: true, status: true, chatNotificationsEnabled: true, chatWebhookUrl: true, serverCallbackUrl: true } as const;
const providerSelect = {
  id: true, key: true, authMethod: true, authField: true, authValueEnc: true, authTimestampField: true,
  voteePath: true, eventPath: true, voteEventsJson: true, testEventsJson: true, enabled: true,
} as const;

/** PostgreSQL: one transaction per vote through Prisma (plus one upsert in SQL that Prisma cannot express). */
export function createPostgresVoteStore(deps: AppDeps): VoteStore {
  const { prisma } = deps.db;
  return {
    findOrg: (slug) => prisma.organization.findUnique({ where: { slug }, select: orgSelect }),
    findProvider: (organizationId, key) => prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key } }, select: providerSelect }),
    async write({ org, provider, voterName, rawPayload, dedupKey, receivedAt }) {
      return prisma.$transaction(async (tx) => {
        if (deps.db.dialect === 'postgresql') {
          // Two identical deliveries racing: the second waits here and then finds the first.
          await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `${provider.id}:${dedupKey}`);
        }
        const duplicate = await tx.vote.findFirst({
          where: { providerId: provider.id, dedupKey, receivedAt: { gte: new Date(receivedAt.getTime() - DUPLICATE_WINDOW_MS) } },
          select: { publicId: true },
          orderBy: { receivedAt: 'asc' },
        });
        if (duplicate) return { id: null, publicId: duplicate.publicId, duplicate: true };

        const month = monthRange(receivedAt);
        const used = await tx.providerDailyCount.aggregate({ where: { organizationId: org.id, day: { gte: month.from, lte: month.to } }, _sum: { count: true } });
        const overLimit = (used._sum.count ?? 0) >= monthlyLimit(org);
        const callbacks = overLimit
          ? []
          : await tx.callback.findMany({ where: { organizationId: org.id, enabled: true }, orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }], select: { id: true, priority: true } });
        const pull = !overLimit && (await tx.pluginToken.count({ where: { organizationId: org.id, revokedAt: null } })) > 0;
        const jobs = planJobs(org, callbacks, overLimit, deps.config.retryScheduleMs.length, pull);
        const uuid = randomUUID();
        const voterKey = voterName.toLowerCase();
        await tx.vote.create({
          data: {
            id: uuid,
            publicId: `vt_${uuid}`,
            organizationId: org.id,
            providerId: provider.id,
            voterName,
            voterKey,
            receivedAt,
            rawPayload,
            dedupKey,
            overLimit,
            chatStatus: jobs.some((j) => j.kind === 'chat') ? 'pending' : 'skipped',
            callbackStatus: jobs.some((j) => j.kind !== 'chat') ? 'pending' : 'skipped',
          },
        });
        if (jobs.length > 0) {
          await tx.deliveryJob.createMany({ data: jobs.map((job) => ({ ...job, organizationId: org.id, voteId: uuid, runAt: receivedAt })) });
        }
        const day = utcDay(receivedAt);
        // The later vote decides lastVoteAt and the spelling (transactions may commit out of order).
        await tx.$executeRawUnsafe(
          `INSERT INTO "VoterDailyCount" ("organizationId", "providerId", "voterKey", day, "voterName", count, "lastVoteAt")
           VALUES ($1, $2, $3, $4, $5, 1, $6)
           ON CONFLICT ("providerId", "voterKey", day) DO UPDATE SET count = "VoterDailyCount".count + 1,
             "voterName" = CASE WHEN excluded."lastVoteAt" >= "VoterDailyCount"."lastVoteAt" THEN excluded."voterName" ELSE "VoterDailyCount"."voterName" END,
             "lastVoteAt" = GREATEST("VoterDailyCount"."lastVoteAt", excluded."lastVoteAt")`,
          org.id, provider.id, voterKey, day, voterName, receivedAt,
        );
        // Last: every vote of this provider today updates this one row, so hold its lock for the shortest time.
        await tx.providerDailyCount.upsert({
          where: { providerId_day: { providerId: provider.id, day } },
          create: { organizationId: org.id, providerId: provider.id, day, count: 1 },
          update: { count: { increment: 1 } },
        });
        return { id: uuid, publicId: `vt_${uuid}`, duplicate: false };
      }, { timeout: 15_000, maxWait: 10_000 });
    },
    close() {},
  };
}
