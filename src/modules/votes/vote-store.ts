// Where the hook path reads its target and writes a vote. One contract, two implementations, both plain SQL with
// group commit (many votes per transaction, each acknowledged after its own commit): embedded SQLite on a dedicated
// better-sqlite3 connection (sqlite-vote-store.ts) and PostgreSQL on the shared pool (pg-vote-store.ts). Prisma's
// per-query cost dominated this hot path (about 80 votes/s on PostgreSQL with one Prisma transaction per vote).
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
  signatureFormat: string | null;
  payloadSource: string;
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
  /** The delivery's content hash: the same content within the window is the same vote. */
  dedupKey: string;
  /** Hash of an unsigned delivery's Idempotency-Key / webhook-id: the same key within the window is the same vote too. */
  idempotencyKey: string | null;
  receivedAt: Date;
}

export interface StoredVote {
  /** null when the delivery was a duplicate (nothing new stored). */
  id: string | null;
  publicId: string;
  duplicate: boolean;
}

export interface HookTarget {
  org: HookOrg;
  /** null when the organization has no provider with that key. */
  provider: HookProvider | null;
}

export interface VoteStore {
  /** The organization by slug and its provider by key, read together; null when there is no such organization. */
  findTarget(slug: string, providerKey: string): Promise<HookTarget | null>;
  write(vote: NewVote): Promise<StoredVote>;
  close(): void;
}

/** Same provider, same delivery (raw body or idempotency header), within this window → the first vote. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Chat platforms throttle and fail transiently; 5 attempts is the bound for chat (the README's Connect a game server). */
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

/** What a vote triggers (the README's Connect a game server); past the monthly limit it is kept but nothing is sent. */
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

/** A new vote's chat and callback statuses: pending when it has such a job to send, skipped otherwise. */
export function initialStatuses(planned: PlannedJob[]): { chatStatus: 'pending' | 'skipped'; callbackStatus: 'pending' | 'skipped' } {
  return {
    chatStatus: planned.some((j) => j.kind === 'chat') ? 'pending' : 'skipped',
    callbackStatus: planned.some((j) => j.kind !== 'chat') ? 'pending' : 'skipped',
  };
}

export function monthlyLimit(org: HookOrg): number {
  return PLAN_LIMITS[planOf(org)].votesPerMonth;
}

export function monthRange(now: Date): { from: string; to: string } {
  return { from: utcDay(utcMonthStart(now)), to: utcDay(now) };
}
