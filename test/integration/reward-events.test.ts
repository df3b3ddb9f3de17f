// Events beyond votes (README "Rewards"): milestones and vote parties decided exactly once in the vote's own
// transaction, even for 50 votes at once and (on PostgreSQL) two instances; callbacks that choose their events;
// chat posts of milestones and parties; reminders that come due once when a voter's cooldown ends, not after an
// early vote or an opt-out, and once across a restart. Through HTTP with an injected clock, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createClient } from 'graphql-sse';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver, type ReceivedRequest } from '../kit/receiver.js';

const clock = {
  at: new Date('2026-05-01T12:00:00Z').getTime(),
  now() {
    return new Date(this.at);
  },
};
const HOUR = 3_600_000;

describe.skipIf(databaseUnavailable)('rewards events', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp({}, { clock });
    receiver = await startReceiver({ status: 200 });
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  const mine = (org: TestOrg, path = 'events') => receiver.requests.filter((r) => r.path === `/${org.slug}/${path}`);
  async function until<T>(read: () => T[], count: number, what: string): Promise<T[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = read();
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`${found.length} of ${count} ${what} arrived`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function setup(settings: Record<string, unknown>, events: string[], provider: Record<string, unknown> = {}) {
    const org = await app.createOrg({ plan: 'pro' });
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'list', name: 'The list', auth_method: 'url_path', auth_field: 's', votee_path: 'user', ...provider },
    });
    expect(made.status, made.text).toBe(201);
    const set = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings } });
    expect(set.status, set.text).toBe(200);
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Events', url: `${receiver.url}/${org.slug}/events`, events } });
    expect(callback.status, callback.text).toBe(201);
    expect(callback.body.data.events).toEqual(events);
    const path = new URL(made.body.data.webhook_url as string).pathname;
    const vote = (user: string, extra: Record<string, unknown> = {}, on: TestApp = app) => on.request('POST', path, { body: { user, ...extra } });
    return { org, vote, secret: callback.body.data.signing_secret as string };
  }

  /**
   * Until none of the organization's jobs is still open. The clock is injected: moving it hours ahead while a send's
   * finish is not yet committed would lapse that job's lease and send it again (at least once, as documented).
   */
  async function settled(org: TestOrg) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const open = await app.deps.db.prisma.deliveryJob.count({ where: { organizationId: org.id, status: { in: ['pending', 'running', 'retrying'] } } });
      if (open === 0) return;
      if (Date.now() > deadline) throw new Error(`${open} jobs still open`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const ofEvent = (requests: ReceivedRequest[], event: string) => requests.filter((r) => r.json?.event === event);

  it('milestones and vote parties fire exactly once each under 50 concurrent votes (two instances on PostgreSQL)', async () => {
    // Real time: standardwebhooks checks each signature's timestamp against its own clock.
    clock.at = Date.now();
    const s = await setup(
      {
        chat_webhook_url: `${receiver.url}/CHAT`,
        milestones: [{ type: 'total', every: 5 }],
        vote_party_every: 10,
        chat_milestone_template: '{{voter_name}} reached {{milestone_value}} votes',
        chat_vote_party_template: 'Vote party #{{party_number}}! {{party_count}} votes, the last by {{voter_name}}',
      },
      ['vote', 'milestone', 'vote_party'],
    );
    const second = dialect === 'postgresql' ? await startTestApp({}, { clock, databaseUrl: app.config.databaseUrl }) : null;
    try {
      // 25 votes by one voter (milestones at 5, 10, 15, 20, 25) and 25 by as many others (1 each: none).
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => s.vote(i % 2 === 0 ? 'Rush' : `Other${i}`, { n: i }, i % 4 === 1 && second ? second : app)),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const all = await until(() => mine(s.org), 50 + 5 + 5, 'callbacks');
      await settled(s.org); // every job finished: nothing more comes
      const received = mine(s.org);
      expect(ofEvent(received, 'vote')).toHaveLength(50);
      const milestones = ofEvent(received, 'milestone');
      expect(milestones.map((r) => r.json.milestone.value).sort((a: number, b: number) => a - b)).toEqual([5, 10, 15, 20, 25]);
      expect(new Set(milestones.map((r) => r.json.voter_name))).toEqual(new Set(['Rush']));
      expect(milestones[0].json).toMatchObject({ event: 'milestone', milestone: { type: 'total' }, provider: 'list' });
      const parties = ofEvent(received, 'vote_party');
      expect(parties.map((r) => r.json.party.count).sort((a: number, b: number) => a - b)).toEqual([10, 20, 30, 40, 50]);
      expect(parties.map((r) => r.json.party.number).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect(all.length).toBe(received.length);
      // Each event is its own signed delivery (standardwebhooks verifies it).
      const wh = new Webhook(s.secret);
      for (const r of [...milestones, ...parties]) expect(() => wh.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(received.length);
      // Chat posts the milestones and parties with their own templates (the votes' own messages too).
      const chat = await until(() => receiver.requests.filter((r) => r.path === '/CHAT' && /reached|party/.test(r.json?.content ?? '')), 10, 'chat posts');
      expect(chat.filter((r) => r.json.content.startsWith('Rush reached')).length).toBe(5);
      expect(chat.map((r) => r.json.content)).toContain(
        `Vote party #5! 50 votes, the last by ${parties.find((p) => p.json.party.count === 50)!.json.voter_name}`,
      );

      const party = await app.request('GET', '/v1/vote-party', { key: s.org.readKey });
      expect(party.body.data).toEqual({ enabled: true, every: 10, provider: null, count: 50, progress: 0, remaining: 10, completed: 5 });
      // The events are the votes' deliveries too: listed in their vote's delivery log, and not its callback status.
      const last = parties.find((p) => p.json.party.count === 50)!.json.vote_id as string;
      const read = await app.request('GET', `/v1/votes/${last}`, { key: s.org.key });
      expect(read.body.data.callback_status).toBe('sent');
      const log = await app.request('GET', `/v1/votes/${last}/deliveries`, { key: s.org.key });
      expect(log.status, log.text).toBe(200);
      expect(log.body.data.jobs).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'event', event: 'vote_party', target: 'Events', status: 'sent', attempts: 1 }),
          expect.objectContaining({ kind: 'event', event: 'vote_party', target: 'chat_webhook_url', status: 'sent' }),
          expect.objectContaining({ kind: 'callback', target: 'Events', status: 'sent' }),
        ]),
      );
      expect(log.body.data.jobs.find((j: { kind: string }) => j.kind === 'callback')).not.toHaveProperty('event');
    } finally {
      await second?.stop();
    }
  }, 90_000);

  it('a streak milestone fires on the day the streak reaches it, once; a callback gets only the events it takes', async () => {
    const s = await setup(
      {
        milestones: [
          { type: 'streak', at: [3] },
          { type: 'total', at: [2], provider: 'list' },
        ],
      },
      ['milestone'],
    );
    const days = ['2026-06-01T10:00:00Z', '2026-06-02T10:00:00Z', '2026-06-02T20:00:00Z', '2026-06-03T09:00:00Z', '2026-06-03T10:00:00Z'];
    for (const day of days) {
      clock.at = new Date(day).getTime();
      expect((await s.vote('Alex', { day })).status).toBe(200);
    }
    const got = await until(() => mine(s.org), 2, 'milestones');
    await settled(s.org);
    expect(mine(s.org).map((r) => r.json.event)).toEqual(['milestone', 'milestone']);
    // Both events are due by the time the worker claims them and go out side by side: their order is not promised.
    const values = mine(s.org)
      .map((r) => [r.json.milestone.type, r.json.milestone.value, r.json.voter_streak_days])
      .sort((a, b) => String(b[0]).localeCompare(String(a[0])));
    expect(values).toEqual([
      ['total', 2, 2],
      ['streak', 3, 3],
    ]);
    expect(got).toHaveLength(2);
  });

  it("an event is retried on the schedule, fails for good like a vote, and is sent again by the vote's redeliver", async () => {
    const quick = await startTestApp({ RETRY_SCHEDULE: '100ms', DELIVERY_POLL_MS: '50' });
    const down = await startReceiver({ status: 500 });
    try {
      const org = await quick.createOrg({ plan: 'pro' });
      const made = await quick.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'list', name: 'The list', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      await quick.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { milestones: [{ type: 'total', at: [1] }] } } });
      const cb = await quick.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Down', url: `${down.url}/m`, events: ['milestone'] } });
      expect(cb.status, cb.text).toBe(201);
      const voted = await quick.request('POST', new URL(made.body.data.webhook_url).pathname, { body: { user: 'Ivy' } });
      const id = voted.body.data.vote_id as string;
      const failed = async () => {
        for (let i = 0; i < 100; i++) {
          const log = await quick.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key });
          const job = log.body.data.jobs.find((j: { kind: string }) => j.kind === 'event');
          if (job?.status === 'failed') return job;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error('the milestone never failed for good');
      };
      expect(await failed()).toMatchObject({ event: 'milestone', attempts: 2, max_attempts: 2, last_error: 'HTTP 500' });
      expect(down.requests).toHaveLength(2);
      expect(new Set(down.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      down.fallback = { status: 204 };
      const again = await quick.request('POST', `/v1/votes/${id}/redeliver`, { key: org.key });
      expect(again.body.data).toMatchObject({ requeued: 1 });
      await down.waitFor(3);
      expect(down.requests[2].json).toMatchObject({ event: 'milestone', voter_name: 'Ivy', milestone: { type: 'total', value: 1 } });
      expect(down.requests[2].headers['webhook-id']).toBe(down.requests[0].headers['webhook-id']);
    } finally {
      await quick.stop();
      await down.close();
    }
  }, 30_000);

  it('the party progress streams live to a graphql-sse client: as it stands, then after each vote; another organization sees none', async () => {
    clock.at = Date.now();
    const s = await setup({ vote_party_every: 3 }, ['vote_party']);
    const stranger = await app.createOrg({ plan: 'pro' });
    type Progress = { count: number; progress: number; completed: number };
    const watch = (key: string) => {
      const client = createClient({ url: `${app.url}/graphql`, headers: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
      const seen: Progress[] = [];
      const stop = client.subscribe(
        { query: 'subscription { votePartyProgress { enabled every count progress remaining completed } }' },
        {
          next: (value) => seen.push((value.data as { votePartyProgress: Progress }).votePartyProgress),
          error: () => {},
          complete: () => {},
        },
      );
      return {
        seen,
        close: () => {
          stop();
          client.dispose();
        },
      };
    };
    const mine = watch(s.org.readKey);
    const theirs = watch(stranger.readKey);
    try {
      await until(() => mine.seen, 1, 'first progress');
      expect(mine.seen[0]).toEqual({ enabled: true, every: 3, count: 0, progress: 0, remaining: 3, completed: 0 });
      for (const user of ['A', 'B', 'C', 'D']) expect((await s.vote(user)).status).toBe(200);
      await until(() => mine.seen.filter((p) => p.count === 4), 1, 'the fourth vote');
      expect(mine.seen.at(-1)).toEqual({ enabled: true, every: 3, count: 4, progress: 1, remaining: 2, completed: 1 });
      await until(() => theirs.seen, 1, "the stranger's first progress");
      expect(theirs.seen).toEqual([{ enabled: false, every: null, count: 0, progress: 0, remaining: null, completed: 0 }]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('a renamed site carries its milestone rules along; a deleted one takes its rules and its own vote party with it', async () => {
    const s = await setup({}, ['milestone']);
    const other = await app.request('POST', '/v1/providers', {
      key: s.org.key,
      body: { key: 'other', name: 'Other', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(other.status, other.text).toBe(201);
    const set = await app.request('PATCH', '/v1/organization', {
      key: s.org.key,
      body: {
        settings: {
          milestones: [
            { type: 'total', every: 5, provider: 'list' },
            { type: 'total', every: 5, provider: 'other' },
          ],
          vote_party_every: 10,
          vote_party_provider: 'list',
        },
      },
    });
    expect(set.status, set.text).toBe(200);
    expect((await app.request('PATCH', '/v1/providers/list', { key: s.org.key, body: { key: 'renamed' } })).status).toBe(200);
    const renamed = (await app.request('GET', '/v1/organization', { key: s.org.key })).body.data.settings;
    expect(renamed.milestones.map((r: { provider: string }) => r.provider)).toEqual(['renamed', 'other']);
    expect(renamed.vote_party_provider).toBe('renamed');
    expect((await app.request('DELETE', '/v1/providers/renamed', { key: s.org.key })).status).toBe(200);
    const after = (await app.request('GET', '/v1/organization', { key: s.org.key })).body.data.settings;
    expect(after.milestones.map((r: { provider: string }) => r.provider)).toEqual(['other']);
    expect(after).toMatchObject({ vote_party_every: null, vote_party_provider: null });
    expect((await app.request('GET', '/v1/vote-party', { key: s.org.key })).body.data.enabled).toBe(false);
  });

  it("deleting a site takes its votes out of the voters' standings (verify stays clean); a callback that takes no votes has none to replay", async () => {
    clock.at = Date.now();
    const s = await setup({ reminders_enabled: true }, ['reminder'], { vote_cooldown: { hours: 12 } });
    const other = await app.request('POST', '/v1/providers', {
      key: s.org.key,
      body: { key: 'other', name: 'Other', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    for (const n of [1, 2, 3]) expect((await s.vote('Kai', { n })).status).toBe(200);
    expect((await app.request('POST', new URL(other.body.data.webhook_url).pathname, { body: { user: 'Kai' } })).status).toBe(200);
    const standing = async () => (await app.request('GET', '/v1/stats/voter/kai', { key: s.org.key })).body.data.standing;
    expect(await standing()).toMatchObject({
      total: 4,
      sites: [
        { key: 'list', total: 3 },
        { key: 'other', total: 1 },
      ],
    });
    const reminders = () => app.deps.db.prisma.reminder.findMany({ where: { organizationId: s.org.id }, select: { voterKey: true } });
    expect(await reminders()).toEqual([{ voterKey: expect.stringMatching(/^vtr_/) }]);
    expect((await app.request('DELETE', '/v1/providers/list', { key: s.org.key })).status).toBe(200);
    expect(await standing()).toMatchObject({ total: 1, sites: [{ key: 'other', total: 1 }] });
    // Its reminders go with it (the table has no foreign keys: the deletion removes them).
    expect(await reminders()).toEqual([]);
    expect(await app.deps.db.rollups.verify('2000-01-01', s.org.id)).toEqual([]);

    const callbacks = (await app.request('GET', '/v1/callbacks', { key: s.org.key })).body.data.callbacks;
    const replay = await app.request('POST', `/v1/callbacks/${callbacks[0].id}/replay`, { key: s.org.key, body: { since: '2026-01-01' } });
    expect(replay.status).toBe(400);
    expect(replay.body.error.details).toEqual([expect.objectContaining({ field: 'events' })]);
    // Another kind's field is refused by name, never dropped.
    const votifier = await app.request('POST', '/v1/callbacks', {
      key: s.org.key,
      body: { name: 'MC', kind: 'votifier', host: '127.0.0.1', port: 8192, token: 'tok' },
    });
    expect(votifier.status, votifier.text).toBe(201);
    const misplaced = await app.request('PATCH', `/v1/callbacks/${votifier.body.data.id}`, { key: s.org.key, body: { event_templates: { milestone: {} } } });
    expect(misplaced.status).toBe(400);
    expect(misplaced.text).toContain('event_templates');
  });

  it("the callback test renders an event's payload from its own template (or the default), signed; an event it does not take is refused", async () => {
    const s = await setup({}, ['vote', 'milestone']);
    const id = (await app.request('GET', '/v1/callbacks', { key: s.org.key })).body.data.callbacks[0].id as string;
    const plain = await app.request('POST', `/v1/callbacks/${id}/test`, { key: s.org.key, body: { event: 'milestone' } });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.data.payload).toMatchObject({ event: 'milestone', voter_name: 'TestVoter', milestone: { type: 'total', value: 10 } });
    expect(plain.body.data.headers).toHaveProperty('webhook-signature');
    const own = await app.request('PATCH', `/v1/callbacks/${id}`, {
      key: s.org.key,
      body: { event_templates: { milestone: { say: '{{voter_name}} hit {{milestone_value}}', n: '{{milestone_value}}' } } },
    });
    expect(own.status, own.text).toBe(200);
    const custom = await app.request('POST', `/v1/callbacks/${id}/test`, { key: s.org.key, body: { event: 'milestone' } });
    expect(custom.body.data.payload).toEqual({ say: 'TestVoter hit 10', n: 10 });
    expect((await app.request('POST', `/v1/callbacks/${id}/test`, { key: s.org.key })).body.data.payload).toMatchObject({ event: 'vote' });
    const refused = await app.request('POST', `/v1/callbacks/${id}/test`, { key: s.org.key, body: { event: 'reminder' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'event' })]);
  });

  it('refuses milestone rules and event lists that cannot work, by name', async () => {
    const org = await app.createOrg({ plan: 'pro' });
    const bad = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: { settings: { milestones: [{ type: 'streak', every: 7, provider: 'nope' }, { type: 'total' }], vote_party_every: 1 } },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.error.details as { field: string }[]).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['settings.milestones[0].provider', 'settings.milestones[1]', 'settings.vote_party_every']));
    const unknownKey = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: { settings: { milestones: [{ type: 'total', every: 5, color: 'red' }] } },
    });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.text).toContain('color');
    const votifier = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'MC', kind: 'votifier', host: '127.0.0.1', port: 8192, token: 'tok', events: ['vote', 'milestone'] },
    });
    expect(votifier.status).toBe(400);
    expect(votifier.body.error.details).toEqual([expect.objectContaining({ field: 'events' })]);
    const twice = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'X', url: `${receiver.url}/x`, events: ['vote', 'vote'] } });
    expect(twice.status).toBe(400);
    const party = await app.request('GET', '/v1/vote-party', { key: org.key });
    expect(party.body.data).toMatchObject({ enabled: false, every: null });
  });

  it('a reminder arrives once when the cooldown ends; not after an early vote or an opt-out; once across a restart', async () => {
    const start = new Date('2026-07-01T08:00:00Z').getTime();
    clock.at = start;
    const s = await setup({ reminders_enabled: true }, ['reminder'], {
      vote_cooldown: { hours: 12 },
      vote_url: 'https://vote.example/servers/{{payload.server}}/vote',
    });
    for (const user of ['Ada', 'Bea', 'Cy', 'Dee']) expect((await s.vote(user, { server: 'mythlane' })).status).toBe(200);
    clock.at = start + 6 * HOUR;
    expect((await s.vote('Bea', { server: 'mythlane', again: true })).status).toBe(200); // early: moves Bea's to +18 h
    const optOut = await app.request('POST', '/v1/voters/cy/reminders', { key: s.org.key, body: { enabled: false } });
    expect(optOut.status, optOut.text).toBe(200);
    expect(optOut.body.data).toEqual({ voter_name: 'cy', enabled: false });
    const list = await app.request('GET', '/v1/reminders/opt-outs', { key: s.org.readKey });
    expect(list.body.data.opt_outs).toEqual([expect.objectContaining({ voter_name: 'cy' })]);

    clock.at = start + 12 * HOUR - 1_000;
    expect(await app.reminders.tick()).toBe(0);
    // A restart between the vote and the end of the cooldown: the reminder is still there, sent once.
    const databaseUrl = app.config.databaseUrl;
    await app.stop();
    app = await startTestApp({}, { clock, databaseUrl });
    clock.at = start + 12 * HOUR + 1_000;
    expect(await app.reminders.tick()).toBe(2); // Ada and Dee
    expect(await app.reminders.tick()).toBe(0);
    const first = await until(() => mine(s.org), 2, 'reminders');
    expect(first.map((r) => r.json.voter_name).sort()).toEqual(['Ada', 'Dee']);
    await settled(s.org);
    expect(first[0].json).toEqual({
      event: 'reminder',
      voter_name: first[0].json.voter_name,
      provider: 'list',
      provider_name: 'The list',
      vote_url: 'https://vote.example/servers/mythlane/vote',
      next_vote_at: new Date(start + 12 * HOUR).toISOString(),
    });
    clock.at = start + 18 * HOUR + 1_000;
    expect(await app.reminders.tick()).toBe(1); // Bea, from her second vote
    await until(() => mine(s.org), 3, 'reminders');
    await settled(s.org);
    expect(
      mine(s.org)
        .map((r) => r.json.voter_name)
        .sort(),
    ).toEqual(['Ada', 'Bea', 'Dee']);
    expect(mine(s.org).find((r) => r.json.voter_name === 'Bea')!.json.next_vote_at).toBe(new Date(start + 18 * HOUR).toISOString());
    // Back on: the next vote schedules one again.
    expect((await app.request('POST', '/v1/voters/Cy/reminders', { key: s.org.key, body: { enabled: true } })).body.data.enabled).toBe(true);
    expect((await app.request('POST', '/v1/voters/Cy/reminders', { key: s.org.key, body: { enabled: 'no' } })).status).toBe(400);
  }, 60_000);
});
