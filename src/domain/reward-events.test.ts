// The rules of milestones, parties and event planning (README "Rewards"), on their own.
import { describe, expect, it } from 'vitest';
import { milestonesReached, partyCompleted, planEventJobs, rewardBatch, type RewardOrg } from './reward-events.js';
import { standingBatch } from './voter-standing.js';

const change = (over: Partial<Parameters<typeof milestonesReached>[1]> = {}) => ({
  total: 1,
  streakDays: 1,
  streakBefore: 0,
  providerTotal: 1,
  providerKey: 'topgg',
  ...over,
});
const values = (events: ReturnType<typeof milestonesReached>) => events.map((e) => (e.event === 'milestone' ? [e.milestone.rule, e.milestone.value] : []));

describe('milestonesReached', () => {
  it('a total rule at its multiples and listed values, once per vote', () => {
    const rules = [
      { type: 'total' as const, every: 10 },
      { type: 'total' as const, at: [25, 100] },
    ];
    expect(values(milestonesReached(rules, change({ total: 10 })))).toEqual([[0, 10]]);
    expect(values(milestonesReached(rules, change({ total: 25 })))).toEqual([[1, 25]]);
    expect(values(milestonesReached(rules, change({ total: 100 })))).toEqual([
      [0, 100],
      [1, 100],
    ]);
    expect(milestonesReached(rules, change({ total: 11 }))).toEqual([]);
  });

  it("a total rule with a provider counts that site's total, and only that site's votes", () => {
    const rules = [{ type: 'total' as const, every: 5, provider: 'topgg' }];
    expect(values(milestonesReached(rules, change({ total: 7, providerTotal: 5 })))).toEqual([[0, 5]]);
    expect(milestonesReached(rules, change({ total: 5, providerTotal: 5, providerKey: 'other' }))).toEqual([]);
  });

  it('a streak rule on the vote that moves the streak onto it, never again the same day; a joined streak passes several', () => {
    const rules = [
      { type: 'streak' as const, at: [3] },
      { type: 'streak' as const, every: 7 },
    ];
    expect(values(milestonesReached(rules, change({ streakDays: 3, streakBefore: 2 })))).toEqual([[0, 3]]);
    expect(milestonesReached(rules, change({ streakDays: 3, streakBefore: 3 }))).toEqual([]);
    // A late vote fills the gap between a 2-day and a 5-day run: 8 days, passing 3 and 7.
    expect(values(milestonesReached(rules, change({ streakDays: 8, streakBefore: 5 })))).toEqual([[1, 7]]);
    expect(values(milestonesReached(rules, change({ streakDays: 8, streakBefore: 2 })))).toEqual([
      [0, 3],
      [1, 7],
    ]);
  });
});

describe('partyCompleted', () => {
  it('the vote that makes the count a multiple of every', () => {
    expect(partyCompleted(100, 100, null)).toEqual({ event: 'vote_party', party: { count: 100, every: 100, number: 1, provider: null } });
    expect(partyCompleted(300, 100, 'topgg')).toMatchObject({ party: { number: 3, provider: 'topgg' } });
    expect(partyCompleted(99, 100, null)).toBeNull();
    expect(partyCompleted(100, null, null)).toBeNull();
  });
});

describe('planEventJobs', () => {
  const cb = (id: string, over: Record<string, unknown> = {}) => ({ id, kind: 'http', priority: 0, providerIdsJson: null, enabled: true, ...over });
  const org = { chatNotificationsEnabled: true, chatWebhookUrl: 'https://chat.example/hook', chatMilestoneTemplate: 'yay', chatVotePartyTemplate: null };
  const milestone = { event: 'milestone' as const, milestone: { type: 'total' as const, every: 10, value: 10, rule: 0 } };

  // Which events a callback's kind can carry is checked when the callback is saved (callbacks.service.ts): planning
  // reads the callback's own events.
  it('one job per callback that takes the event and routes the provider, and chat when a message is set', () => {
    const jobs = planEventJobs(
      { callback: 6, chat: 5 },
      org,
      'p1',
      [
        cb('takes', { eventsJson: '["vote","milestone"]' }),
        cb('votes-only'),
        cb('other-site', { eventsJson: '["milestone"]', providerIdsJson: '["p2"]' }),
        cb('disabled', { eventsJson: '["milestone"]', enabled: false }),
      ],
      milestone,
    );
    expect(jobs.map((j) => [j.callbackId, j.maxAttempts, j.held ?? false])).toEqual([
      [null, 5, false],
      ['takes', 6, false],
      ['disabled', 6, true],
    ]);
    expect(JSON.parse(jobs[0].payloadJson)).toEqual({ ...milestone, chat: true });
    expect(JSON.parse(jobs[1].payloadJson)).toEqual(milestone);
  });

  it('no chat for an event without a message or without a chat webhook; never for reminders', () => {
    const party = { event: 'vote_party' as const, party: { count: 10, every: 10, number: 1, provider: null } };
    expect(planEventJobs({ callback: 6, chat: 5 }, org, 'p1', [], party)).toEqual([]);
    expect(planEventJobs({ callback: 6, chat: 5 }, { ...org, chatWebhookUrl: null }, 'p1', [], milestone)).toEqual([]);
    // The message for every vote may be off: an event's message is its own.
    expect(planEventJobs({ callback: 6, chat: 5 }, { ...org, chatNotificationsEnabled: false }, 'p1', [], milestone)).toHaveLength(1);
  });
});

describe('rewardBatch', () => {
  const org: RewardOrg = {
    id: 'o1',
    chatNotificationsEnabled: false,
    chatWebhookUrl: null,
    milestonesJson: JSON.stringify([{ type: 'total', every: 2 }]),
    votePartyEvery: 3,
    votePartyProviderId: null,
    remindersEnabled: true,
  };
  const callbacks = [{ id: 'c', kind: 'http', priority: 0, providerIdsJson: null, enabled: true, eventsJson: '["milestone","vote_party"]' }];

  it('counts the party from the stored count in batch order, milestones from each standing, and keeps the latest reminder', () => {
    const standings = standingBatch({ standing: () => null, days: () => [] });
    const rewards = rewardBatch({ partyCount: () => 7 }, { callback: 6, chat: 5 });
    const events = [0, 1, 2].map((i) => {
      const standing = standings.count({ organizationId: 'o1', providerId: 'p', voterKey: 'a', day: '2026-01-01', at: i });
      const next = new Date(Date.UTC(2026, 0, 1, 12 + i));
      return rewards.count(
        { org, provider: { id: 'p', key: 'k' }, voteId: `v${i}`, voterKey: 'a', voterName: 'A', recovered: false },
        standing,
        next,
        callbacks,
        false,
      );
    });
    // Votes 8, 9, 10 of the party (every 3: the second completes 9); the voter's totals 1, 2, 3 (every 2: the second).
    expect(events.map((jobs) => jobs.map((j) => JSON.parse(j.payloadJson).event))).toEqual([[], ['milestone', 'vote_party'], []]);
    const rows = rewards.rows();
    expect(rows.parties).toEqual([{ organizationId: 'o1', added: 3 }]);
    expect(rows.reminders).toEqual([expect.objectContaining({ voterKey: 'a', voteId: 'v2', dueAt: Date.UTC(2026, 0, 1, 14) })]);
  });

  it('over the monthly limit: counted, nothing sent; a recovered vote schedules no reminder', () => {
    const standings = standingBatch({ standing: () => null, days: () => [] });
    const rewards = rewardBatch({ partyCount: () => 2 }, { callback: 6, chat: 5 });
    const standing = standings.count({ organizationId: 'o1', providerId: 'p', voterKey: 'b', day: '2026-01-01', at: 1 });
    const vote = { org, provider: { id: 'p', key: 'k' }, voteId: 'v', voterKey: 'b', voterName: 'B', recovered: true };
    expect(rewards.count(vote, standing, new Date(), callbacks, true)).toEqual([]);
    expect(rewards.rows()).toEqual({ parties: [{ organizationId: 'o1', added: 1 }], reminders: [] });
  });
});
