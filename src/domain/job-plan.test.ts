import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { CALLBACK_KINDS, PLAN_RULES } from '../delivery/callback-kinds/registry.js';
import { planJobs, routes } from './job-plan.js';
import { finishedRow, voteStatusFrom, type ClaimedJob } from './jobs.js';

const config = loadConfig({ DATABASE_URL: 'file:/tmp/vote-relay-job-plan-test.db' });
const org = { chatNotificationsEnabled: true, chatWebhookUrl: 'https://chat.example/hook', serverCallbackUrl: null };
const cb = (id: string, providerIds: string[] | null, enabled = true, kind = 'http') => ({
  id,
  kind,
  priority: 0,
  providerIdsJson: providerIds && JSON.stringify(providerIds),
  enabled,
});

describe('routing', () => {
  it('a callback without providers takes every provider; with a list, only those; an emptied list none', () => {
    expect(routes(cb('a', null), 'p1')).toBe(true);
    expect(routes(cb('a', ['p1', 'p2']), 'p2')).toBe(true);
    expect(routes(cb('a', ['p1']), 'p2')).toBe(false);
    expect(routes(cb('a', []), 'p1')).toBe(false);
  });

  it("plans a job only for the callbacks that take the vote's provider; a callback disabled for failing gets a held one", () => {
    const jobs = planJobs(config, org, 'p1', [cb('all', null), cb('mine', ['p1']), cb('theirs', ['p2']), cb('failing', null, false)], false);
    expect(jobs.map((j) => [j.kind, j.callbackId, j.held ?? false])).toEqual([
      ['chat', null, false],
      ['callback', 'all', false],
      ['callback', 'mine', false],
      ['callback', 'failing', true],
    ]);
    expect(jobs.every((j) => j.origin === 'vote')).toBe(true);
    expect(planJobs(config, org, 'p1', [cb('all', null)], false, false, true).every((j) => j.origin === 'recovered')).toBe(true);
    expect(planJobs(config, org, 'p1', [cb('all', null)], true)).toEqual([]);
  });

  it('a test vote reaches chat and HTTP callbacks; Votifier callbacks and the pull queue only when asked', () => {
    const callbacks = [cb('web', null), cb('game', null, true, 'votifier')];
    const kinds = (deliverToGameServers: boolean) =>
      planJobs(
        config,
        { ...org, serverCallbackUrl: 'https://legacy.example/hook' },
        'p1',
        callbacks,
        false,
        true,
        false,
        { deliverToGameServers },
        PLAN_RULES,
      ).map((j) => j.callbackId ?? j.kind);
    expect(kinds(false)).toEqual(['chat', 'web', 'legacy_callback']);
    expect(kinds(true)).toEqual(['chat', 'web', 'game', 'legacy_callback', 'pull']);
  });

  it('each registered callback kind says itself whether it gets a test vote unasked (marksTests)', () => {
    // Kinds whose request can say "test" (a payload's {{test}}) get one unasked; a game-server command, a Votifier vote,
    // a Discord role or DM would hand out the reward.
    expect(Object.fromEntries(CALLBACK_KINDS.map((k) => [k.name, k.marksTests]))).toEqual({
      http: true,
      votifier: false,
      rcon: false,
      discord_role: false,
      discord_dm: false,
      redis_stream: true,
      amqp: true,
      nats: true,
      mqtt: true,
    });
    for (const kind of CALLBACK_KINDS) {
      const planned = planJobs(config, org, 'p1', [cb('one', null, true, kind.name)], false, false, false, { deliverToGameServers: false }, PLAN_RULES);
      expect(
        planned.some((j) => j.callbackId === 'one'),
        kind.name,
      ).toBe(kind.marksTests);
    }
  });
});

describe("a vote's callback status after a replay", () => {
  const job = (callbackId: string | null, status: string, createdAt: number, attempts = 1) => ({
    kind: callbackId ? 'callback' : 'chat',
    status,
    attempts,
    sentAt: null,
    callbackId,
    createdAt,
  });

  it('the latest job of each callback counts; attempts of all of them add up', () => {
    expect(voteStatusFrom([job('a', 'failed', 1, 3), job('a', 'sent', 2)])).toMatchObject({ callbackStatus: 'sent', callbackAttempts: 4 });
    expect(voteStatusFrom([job('a', 'failed', 1, 3), job('a', 'pending', 2, 0)])).toMatchObject({ callbackStatus: 'pending' });
    expect(voteStatusFrom([job('a', 'sent', 1), job('b', 'failed', 1)]).callbackStatus).toBe('failed');
    expect(voteStatusFrom([job('a', 'held', 1, 2)]).callbackStatus).toBe('retrying');
    expect(voteStatusFrom([job('a', 'held', 1, 0)]).callbackStatus).toBe('pending');
  });
});

describe('what a finish writes', () => {
  const claimed = (attempts: number, pacedMs = 0): ClaimedJob => ({
    id: 'j',
    kind: 'callback',
    organizationId: 'o',
    voteId: 'v',
    callbackId: 'c',
    attempts,
    maxAttempts: 3,
    priority: 0,
    payloadJson: null,
    pacedMs,
  });
  const at = new Date('2026-11-24T00:00:00Z');
  const base = { workerId: 'w', now: at, errorText: null };

  it('a pacing wait puts the job back due at its slot, keeping its last error and the wait so far', () => {
    expect(finishedRow({ ...base, job: claimed(0), attempt: null, resolution: { status: 'paced', runAt: at, pacedMs: 700 } })).toEqual({
      status: 'pending',
      runAt: at,
      pacedMs: 700,
      keepError: true,
      attempts: 0,
    });
    expect(finishedRow({ ...base, job: claimed(2), attempt: null, resolution: { status: 'paced', runAt: at, pacedMs: 700 } }).status).toBe('retrying');
  });

  it('an attempt moves the wait into its record; held forgets its slot', () => {
    const attempt = { attempt: 1, target: 'x', statusCode: 200, success: true, durationMs: 3, error: null, responseExcerpt: null, pacedMs: 700 };
    expect(finishedRow({ ...base, job: claimed(0, 700), attempt, resolution: { status: 'sent' } })).toEqual({
      status: 'sent',
      runAt: null,
      pacedMs: 0,
      keepError: false,
      attempts: 1,
    });
    expect(finishedRow({ ...base, job: claimed(1, 700), attempt: null, resolution: { status: 'held' } })).toEqual({
      status: 'held',
      runAt: null,
      pacedMs: 0,
      keepError: true,
      attempts: 1,
    });
  });
});
