// What a vote is on the hook path: the target it is written for, the vote to store and the answer, and the rules
// both databases' vote writes apply (src/storage/sqlite/votes.ts, src/storage/postgres/votes.ts): how a vote counts
// toward the monthly limit, and which votes the counts read. Rules only: no database here.
import type { ClaimedJob, JobLease } from './jobs.js';
import type { VoterOfVote } from './voter-identity.js';
import { PLAN_LIMITS, planOf } from './plans.js';
import { utcDay, utcMonthStart } from '../base/time.js';

export interface HookOrg {
  id: string;
  slug: string;
  plan: string;
  status: string;
  chatNotificationsEnabled: boolean;
  chatWebhookUrl: string | null;
  serverCallbackUrl: string | null;
  /** IANA zone of the organization's days for voter standings (README "Rewards"). */
  timeZone: string;
  /** Rewards events (reward-events.ts): milestone rules, the vote party, reminders, chat posts of events. */
  milestonesJson: string | null;
  votePartyEvery: number | null;
  votePartyProviderId: string | null;
  remindersEnabled: boolean;
  chatMilestoneTemplate: string | null;
  chatVotePartyTemplate: string | null;
  /** The Floodgate prefix of Bedrock players' names (settings.bedrock_prefix): voters (voter-identity.ts). */
  bedrockPrefix: string | null;
  /** settings.vote_page as stored (domain/vote-page.ts): name repair looks for clicks only where the page is on. */
  votePageJson: string | null;
}

/** What a new organization's HookOrg holds besides its identity and chat settings: days in UTC, no rewards set. */
export const NEW_ORG_DEFAULTS = {
  timeZone: 'UTC',
  milestonesJson: null,
  votePartyEvery: null,
  votePartyProviderId: null,
  remindersEnabled: false,
  chatMilestoneTemplate: null,
  chatVotePartyTemplate: null,
  bedrockPrefix: null,
  votePageJson: null,
} as const satisfies Partial<HookOrg>;

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
  bodyTimestampPath: string | null;
  bodyTimestampMaxAgeS: number | null;
  /** When a voter may vote again on the site (vote-cooldown.ts), as stored. */
  voteCooldownJson: string | null;
  /** What the name at voteePath is, and where the voter's Discord id is (README "Voters", voter-identity.ts). */
  voterKind: string;
  discordIdPath: string | null;
  /** Where the voter's IP address is in the body (name repair, README "Vote page"). */
  voterAddressPath: string | null;
}

export interface NewVote {
  org: HookOrg;
  provider: HookProvider;
  voterName: string;
  /** Who the vote is from: its identities and what to look them up by (voter-identity.ts). */
  voter: VoterOfVote;
  /** The name the site sent, when name repair gave the vote to the clicker (README "Vote page"). */
  repairedFrom?: string;
  rawPayload: string;
  /** The delivery's content hash: the same content within the window is the same vote. */
  dedupKey: string;
  /** Hash of an unsigned delivery's Idempotency-Key / webhook-id: the same key within the window is the same vote too. */
  idempotencyKey: string | null;
  receivedAt: Date;
  /** Read from the site's vote list after an outage, not received by the hook (src/recovery/). */
  recovered?: boolean;
  /**
   * The owner's test vote (README "Test votes"): stored with `test`, counted nowhere (no rollups, no monthly usage,
   * never held back by the monthly limit), and delivered marked as a test; to game servers only when asked.
   */
  test?: { deliverToGameServers: boolean };
  /** Leases the vote's jobs (all but pull jobs) to this holder, to be sent at once by the instance that stored it. */
  lease?: JobLease;
}

/**
 * Prefix of a test vote's delivery keys (dedupKey, idempotencyKey): a test vote is only ever the same vote as another
 * test vote.
 */
export const TEST_KEY_PREFIX = 'test:';

/**
 * The votes every count, statistic, alert, replay and recovery reads: real votes, never the owner's test votes
 * (README "Test votes"). Spread it into a Prisma `where` on Vote.
 */
export const REAL_VOTES = { test: false } as const;
/**
 * REAL_VOTES in a read of one voter's votes (their `voterKey`): the same rows, written as `test <> true` so that SQLite
 * reads them through the (organizationId, voterKey, receivedAt) index. With `test = false` it has two indexes of the
 * same shape to choose from, and without table statistics it took (organizationId, test, receivedAt): every real vote
 * of the range, 434 ms for one rare voter's vote page at 10 million votes (BENCHMARKS.md "Reads").
 */
export const REAL_VOTES_OF_VOTER = { test: { not: true } } as const;
/** The owner's test votes only (the vote list counts them apart from the rollups). */
export const TEST_VOTES = { test: true } as const;

/** REAL_VOTES for hand-written SQL on "Vote" (both databases), with the table's alias when the statement has one. */
export function realVotesSql(alias?: string): string {
  return alias ? `NOT ${alias}."test"` : 'NOT "test"';
}

/** How a new vote counts: whether it is over the monthly limit (kept, nothing sent), and whether it counts at all. */
export interface VoteCounting {
  overLimit: boolean;
  /** Counted toward the month's usage and the per-day rollups (statistics, leaderboards, voter stats). */
  counts: boolean;
}

/**
 * The one rule both vote writers apply (src/storage/postgres/votes.ts, src/storage/sqlite/votes.ts): a real vote counts and is over the
 * limit once the month's votes reached the plan's; a test vote counts nowhere and is never over the limit, so an
 * owner can check the setup at any time (README "Test votes").
 */
export function countingOf(vote: Pick<NewVote, 'org' | 'test'>, usedThisMonth: number): VoteCounting {
  if (vote.test) return { overLimit: false, counts: false };
  return { overLimit: usedThisMonth >= monthlyLimit(vote.org), counts: true };
}

export interface StoredVote {
  /** null when the delivery was a duplicate (nothing new stored). */
  id: string | null;
  publicId: string;
  duplicate: boolean;
  /** With `lease`: the vote's jobs leased to its holder, to hand to the worker (none for a duplicate). */
  jobs?: ClaimedJob[];
}

export interface HookTarget {
  org: HookOrg;
  /** null when the organization has no provider with that key. */
  provider: HookProvider | null;
}

export function monthlyLimit(org: HookOrg): number {
  return PLAN_LIMITS[planOf(org)].votesPerMonth;
}

export function monthRange(now: Date): { from: string; to: string } {
  return { from: utcDay(utcMonthStart(now)), to: utcDay(now) };
}
