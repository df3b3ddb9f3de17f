// Events beyond votes (README "Rewards"): milestones a voter reaches, vote parties an organization completes and
// reminders that a voter may vote again. Both vote writers decide milestones and parties in the vote's own
// transaction (over the standing the vote made and the party count they hold locked), so each is decided once
// whatever the concurrency; the reminder scheduler plans reminders. Rules only: no database here.
import { entriesInKeyOrder, inKeyOrder } from './key-order.js';
import { eventsOf, routes, type PlanningCallback } from './job-plan.js';
import type { CountedStanding } from './voter-standing.js';

export const EVENT_TYPES = ['vote', 'milestone', 'vote_party', 'reminder'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** The job kind of every event other than a vote (src/delivery/job-kinds/event.ts). */
export const EVENT_JOB_KIND = 'event';

/** A milestone rule (settings.milestones): reached when the value is a multiple of `every` or one of `at`. */
export interface MilestoneRule {
  type: 'total' | 'streak';
  every?: number;
  at?: number[];
  /** A provider key: the voter's total on that site only (total rules only). */
  provider?: string;
}

/** What an event job carries (its payloadJson); the vote's own values come from the vote at send time. */
export type EventData =
  | { event: 'milestone'; milestone: MilestoneRule & { value: number; rule: number } }
  | { event: 'vote_party'; party: { count: number; every: number; number: number; provider: string | null } }
  | {
      event: 'reminder';
      reminder: { voterName: string; voterId?: string; providerKey: string; providerName: string; voteUrl: string | null; nextVoteAt: string };
    };

/** The milestone rules read for every counted vote: parsed once per stored text. */
const parsedRules = new Map<string, MilestoneRule[]>();
const RULES_KEPT = 1_000;

export function milestoneRulesOf(json: string | null | undefined): MilestoneRule[] {
  if (!json) return [];
  let rules = parsedRules.get(json);
  if (!rules) {
    if (parsedRules.size >= RULES_KEPT) parsedRules.clear();
    try {
      const value = JSON.parse(json) as unknown;
      rules = Array.isArray(value) ? (value as MilestoneRule[]) : [];
    } catch {
      rules = [];
    }
    parsedRules.set(json, rules);
  }
  return rules;
}

/** Whether the callback takes this event, for a vote of `providerId` (routing applies to events as to votes). */
export function takesEvent(callback: PlanningCallback, event: EventType, providerId: string): boolean {
  return eventsOf(callback.eventsJson).has(event) && routes(callback, providerId);
}

const matches = (rule: MilestoneRule, value: number) =>
  value > 0 && ((rule.every !== undefined && rule.every > 0 && value % rule.every === 0) || (rule.at ?? []).includes(value));

/** What a counted vote changed of its voter's standing, for the milestone rules. */
export interface StandingChange {
  total: number;
  streakDays: number;
  /** The current streak before this vote (0 when it had lapsed): a streak milestone is reached once per streak. */
  streakBefore: number;
  providerTotal: number;
  providerKey: string;
}

/**
 * The milestones a counted vote reaches: a total rule at the voter's new total (one vote adds one), a streak rule
 * at each value the streak passed (a vote recovered into a gap may join two streaks), in rule order.
 */
export function milestonesReached(rules: MilestoneRule[], change: StandingChange): EventData[] {
  const reached: EventData[] = [];
  rules.forEach((rule, index) => {
    if (rule.type === 'total') {
      if (rule.provider !== undefined && rule.provider !== change.providerKey) return;
      const value = rule.provider !== undefined ? change.providerTotal : change.total;
      if (matches(rule, value)) reached.push({ event: 'milestone', milestone: { ...rule, value, rule: index } });
      return;
    }
    for (let value = change.streakBefore + 1; value <= change.streakDays; value++) {
      if (matches(rule, value)) reached.push({ event: 'milestone', milestone: { ...rule, value, rule: index } });
    }
  });
  return reached;
}

/** The vote party this vote completes, if its number (the party count after it) is a multiple of `every`. */
export function partyCompleted(count: number, every: number | null, provider: string | null): EventData | null {
  if (!every || every <= 0 || count <= 0 || count % every !== 0) return null;
  return { event: 'vote_party', party: { count, every, number: count / every, provider } };
}

/** What planning reads of an organization for events. */
export interface EventOrg {
  chatNotificationsEnabled: boolean;
  chatWebhookUrl: string | null;
  chatMilestoneTemplate?: string | null;
  chatVotePartyTemplate?: string | null;
}

/** One event job to insert (the writer adds the organization, the vote and its due time). */
export interface PlannedEventJob {
  kind: typeof EVENT_JOB_KIND;
  priority: number;
  maxAttempts: number;
  callbackId: string | null;
  payloadJson: string;
  held?: boolean;
}

/**
 * The jobs of one event: one per callback that takes it (routed by the vote's provider), and a chat message when
 * the organization set one for this event (chat never posts reminders: they are meant for the voter).
 */
export function planEventJobs(
  budgets: { callback: number; chat: number },
  org: EventOrg,
  providerId: string,
  callbacks: PlanningCallback[],
  data: EventData,
): PlannedEventJob[] {
  const payloadJson = JSON.stringify(data);
  const jobs: PlannedEventJob[] = callbacks
    // A callback's events were checked against its kind's when it was saved (src/delivery/callback-kinds/).
    .filter((cb) => takesEvent(cb, data.event, providerId))
    .map((cb) => ({ kind: EVENT_JOB_KIND, priority: cb.priority, maxAttempts: budgets.callback, callbackId: cb.id, payloadJson, held: !cb.enabled }));
  const chatTemplate = data.event === 'milestone' ? org.chatMilestoneTemplate : data.event === 'vote_party' ? org.chatVotePartyTemplate : null;
  // Its own switch (a message set): chat_notifications_enabled is about the message for every vote.
  if (chatTemplate && org.chatWebhookUrl) {
    // Says where it goes in the job itself: a callback's event job keeps going to that callback alone (skipped once
    // the callback is deleted and its callbackId cleared), never to chat.
    jobs.unshift({ kind: EVENT_JOB_KIND, priority: 0, maxAttempts: budgets.chat, callbackId: null, payloadJson: JSON.stringify({ ...data, chat: true }) });
  }
  return jobs;
}

/** What the vote writers read of an organization for events (HookOrg carries it). */
export interface RewardOrg extends EventOrg {
  id: string;
  milestonesJson: string | null;
  votePartyEvery: number | null;
  votePartyProviderId: string | null;
  remindersEnabled: boolean;
}

/** A reminder row to write (the voter's next vote on a site): the later due time wins. */
export interface ReminderRow {
  organizationId: string;
  providerId: string;
  voterKey: string;
  voterName: string;
  dueAt: number;
  voteId: string;
}

/**
 * The events of one batch of votes: each counted vote's milestones and vote party (the party count advanced in
 * batch order from what the database held when the batch began, under the writer's lock), and its reminder.
 */
export function rewardBatch(source: { partyCount(organizationId: string): number }, budgets: { callback: number; chat: number }) {
  const parties = new Map<string, { read: number; count: number }>();
  const reminders = new Map<string, ReminderRow>();
  return {
    /** Whether votes of this provider count toward the organization's party. */
    partyCounts: (org: RewardOrg, providerId: string) => !!org.votePartyEvery && (!org.votePartyProviderId || org.votePartyProviderId === providerId),
    /**
     * The event jobs of one counted vote; none past the monthly limit (nothing is sent then), though it still counts.
     */
    count(
      vote: { org: RewardOrg; provider: { id: string; key: string }; voteId: string; voterKey: string; voterName: string; recovered: boolean },
      standing: CountedStanding,
      nextVoteAt: Date | null,
      callbacks: PlanningCallback[],
      overLimit: boolean,
    ): PlannedEventJob[] {
      const { org, provider } = vote;
      const events = milestonesReached(milestoneRulesOf(org.milestonesJson), {
        total: standing.voterTotal,
        streakDays: standing.voterStreakDays,
        streakBefore: standing.streakBefore,
        providerTotal: standing.providerVoterTotal,
        providerKey: provider.key,
      });
      if (this.partyCounts(org, provider.id)) {
        let tally = parties.get(org.id);
        if (!tally) {
          const read = source.partyCount(org.id);
          tally = { read, count: read };
          parties.set(org.id, tally);
        }
        const count = ++tally.count;
        const party = partyCompleted(count, org.votePartyEvery, org.votePartyProviderId ? provider.key : null);
        if (party) events.push(party);
      }
      // A vote read from the site's list after an outage is old news (its cooldown has likely ended already), and past
      // the monthly limit nothing is sent.
      if (org.remindersEnabled && nextVoteAt && !vote.recovered && !overLimit) {
        const key = `${provider.id}\u0000${vote.voterKey}`;
        const seen = reminders.get(key);
        if (!seen || seen.dueAt <= nextVoteAt.getTime())
          reminders.set(key, {
            organizationId: org.id,
            providerId: provider.id,
            voterKey: vote.voterKey,
            voterName: vote.voterName,
            dueAt: nextVoteAt.getTime(),
            voteId: vote.voteId,
          });
      }
      if (overLimit) return [];
      return events.flatMap((event) => planEventJobs(budgets, org, provider.id, callbacks, event));
    },
    /**
     * The votes each party count gains (added to what is stored, so a reset by a settings change meanwhile is kept),
     * and the reminders to write, in key order (the writers lock alike).
     */
    rows() {
      return {
        parties: entriesInKeyOrder(parties).map(([organizationId, p]) => ({ organizationId, added: p.count - p.read })),
        reminders: inKeyOrder(reminders),
      };
    },
  };
}
