// Voter standings at vote time (README "Rewards"): totals, this month, the current and best streak in the
// organization's time zone, the total on one site, and when the voter may vote again. Through the hooks with an
// injected clock placing each vote on a chosen day; read back from the callbacks' payloads (template variables) and
// from the vote reads; test votes never count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

const clock = {
  at: new Date('2026-03-01T12:00:00Z').getTime(),
  now() {
    return new Date(this.at);
  },
};

const PAYLOAD = {
  voter: '{{voter_name}}',
  total: '{{voter_total}}',
  month: '{{voter_month_total}}',
  streak: '{{voter_streak_days}}',
  best: '{{voter_best_streak_days}}',
  on_site: '{{provider_voter_total}}',
  next: '{{next_vote_at}}',
  test: '{{test}}',
  received: '{{received_at_unix}}{{payload.seq}}',
};

describe.skipIf(databaseUnavailable)('voter standings at vote time', () => {
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

  async function setup(timeZone?: string) {
    const org: TestOrg = await app.createOrg({ plan: 'pro' });
    if (timeZone) {
      const set = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { time_zone: timeZone } } });
      expect(set.status, set.text).toBe(200);
      expect(set.body.data.settings.time_zone).toBe(timeZone);
    }
    const site = async (key: string, extra: Record<string, unknown> = {}) => {
      const made = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key, name: `${key} list`, auth_method: 'url_path', auth_field: 's', votee_path: 'user', ...extra },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.data as { key: string; webhook_url: string };
    };
    const callback = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Rewards', url: `${receiver.url}/${org.slug}`, payload_template: PAYLOAD },
    });
    expect(callback.status, callback.text).toBe(201);
    /** The callback payloads of this organization's votes, in the order of the votes (`at`), once `count` arrived. */
    const payloads = async (count: number) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mine = receiver.requests
          .filter((r) => r.path === `/${org.slug}`)
          .map((r) => r.json as Record<string, unknown>)
          .sort((a, b) => Number(a.received) - Number(b.received));
        if (mine.length >= count) return mine;
        if (Date.now() > deadline) throw new Error(`${mine.length} of ${count} callbacks arrived`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    let seq = 100;
    let sent = 0;
    // Each vote's callback arrives before the clock moves on to the next vote's day: the injected clock jumps days,
    // and a delivery in flight across such a jump would find its lease ended (in real time it never is).
    const vote = async (provider: { webhook_url: string }, user: string, at: string) => {
      clock.at = new Date(at).getTime();
      const res = await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user, at, seq: seq++ } });
      expect(res.status, res.text).toBe(200);
      await payloads(++sent);
      return res.body.data.vote_id as string;
    };
    return { org, site, vote, payloads, sentOne: () => sent++ };
  }

  it('three votes on consecutive days give a 3-day streak in the third callback; a day missed starts it over', async () => {
    const s = await setup();
    const list = await s.site('mc-list');
    await s.vote(list, 'Alex', '2026-03-01T10:00:00Z');
    await s.vote(list, 'alex', '2026-03-02T23:59:00Z'); // the same voter in another spelling
    await s.vote(list, 'Alex', '2026-03-03T00:01:00Z');
    const third = (await s.payloads(3)).find((p) => p.total === 3);
    expect(third).toMatchObject({ voter: 'Alex', total: 3, month: 3, streak: 3, best: 3, on_site: 3, next: '', test: false });

    await s.vote(list, 'Alex', '2026-03-03T18:00:00Z'); // the same day again: the streak stays
    await s.vote(list, 'Alex', '2026-03-05T08:00:00Z'); // a day missed
    const all = await s.payloads(5);
    expect(all.map((p) => [p.total, p.streak, p.best])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 3],
      [4, 3, 3],
      [5, 1, 3],
    ]);
  });

  it('counts every site of the organization for the voter, each site on its own, and never a test vote', async () => {
    const s = await setup();
    const one = await s.site('one');
    const two = await s.site('two');
    await s.vote(one, 'Sam', '2026-03-10T10:00:00Z');
    await s.vote(two, 'Sam', '2026-03-10T11:00:00Z');
    const test = await app.request('POST', '/v1/providers/one/test-vote', { key: s.org.key, body: { voter_name: 'Sam' } });
    expect(test.status, test.text).toBe(200);
    await s.payloads(s.sentOne() + 1);
    const last = await s.vote(one, 'Sam', '2026-03-10T12:00:00Z');
    const payloads = await s.payloads(4);
    const testPayload = payloads.find((p) => p.test === true);
    expect(testPayload).toMatchObject({ total: null, streak: null, on_site: null });
    expect(payloads.filter((p) => p.test === false).map((p) => [p.total, p.on_site])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
    ]);
    const read = await app.request('GET', `/v1/votes/${last}`, { key: s.org.key });
    expect(read.body.data).toMatchObject({ voter_total: 3, voter_month_total: 3, voter_streak_days: 1, voter_best_streak_days: 1, provider_voter_total: 2 });
    expect(read.body.data).not.toHaveProperty('next_vote_at');
    const testRead = await app.request('GET', `/v1/votes/${test.body.data.vote_id}`, { key: s.org.key });
    expect(testRead.body.data).not.toHaveProperty('voter_total');
    const graphql = await app.request('POST', '/graphql', {
      key: s.org.key,
      body: { query: `{ vote(publicId: "${last}") { voterTotal voterMonthTotal voterStreakDays voterBestStreakDays providerVoterTotal nextVoteAt } }` },
    });
    expect(graphql.body.data.vote).toEqual({
      voterTotal: 3,
      voterMonthTotal: 3,
      voterStreakDays: 1,
      voterBestStreakDays: 1,
      providerVoterTotal: 2,
      nextVoteAt: null,
    });
  });

  for (const timeZone of ['UTC', 'Asia/Tokyo']) {
    it(`a late vote (older than the voter's latest) counts on its own day and joins the streaks (${timeZone})`, async () => {
      const s = await setup(timeZone === 'UTC' ? undefined : timeZone);
      const list = await s.site('late');
      await s.vote(list, 'Lou', '2026-05-01T05:00:00Z');
      await s.vote(list, 'Lou', '2026-05-03T05:00:00Z');
      // Arrives after the 3rd's vote but belongs to the 2nd (a recovered vote, or a clock behind): days 1, 2, 3.
      const late = await s.vote(list, 'Lou', '2026-05-02T05:00:00Z');
      expect((await app.request('GET', `/v1/votes/${late}`, { key: s.org.key })).body.data).toMatchObject({
        voter_total: 3,
        voter_streak_days: 3,
        voter_best_streak_days: 3,
        provider_voter_total: 3,
      });
      const verify = await app.deps.db.rollups.verify('2000-01-01', s.org.id);
      expect(verify).toEqual([]);
    });
  }

  it("counts days and months in the organization's time zone", async () => {
    const s = await setup('America/New_York');
    const list = await s.site('ny');
    await s.vote(list, 'Kim', '2026-03-01T02:30:00Z'); // 2026-02-28 21:30 in New York
    await s.vote(list, 'Kim', '2026-03-01T15:00:00Z'); // 2026-03-01 10:00: the next local day, a new month
    const payloads = await s.payloads(2);
    expect(payloads.map((p) => [p.total, p.month, p.streak])).toEqual([
      [1, 1, 1],
      [2, 1, 2],
    ]);
    const bad = await app.request('PATCH', '/v1/organization', { key: s.org.key, body: { settings: { time_zone: 'Mars/Olympus' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'settings.time_zone' })]);
  });

  it('50 votes of one voter at once, on two instances on PostgreSQL: each vote gets its own total, 1 to 50', async () => {
    const s = await setup();
    const list = await s.site('rush');
    clock.at = new Date('2026-04-01T12:00:00Z').getTime();
    // PostgreSQL: a second instance on the same database takes half of them (SQLite has one writer per file).
    const second = dialect === 'postgresql' ? await startTestApp({}, { clock, databaseUrl: app.config.databaseUrl }) : null;
    try {
      const path = new URL(list.webhook_url).pathname;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 1 && second ? second : app).request('POST', path, { body: { user: 'Rush', n: i } })),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const totals = await Promise.all(
        answers.map(async (a) => (await app.request('GET', `/v1/votes/${a.body.data.vote_id}`, { key: s.org.key })).body.data.voter_total as number),
      );
      expect([...totals].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const now = await app.request('GET', '/v1/stats/voter/rush', { key: s.org.key });
      expect(now.body.data.standing).toMatchObject({ total: 50, month_total: 50, streak_days: 1, sites: [{ key: 'rush', total: 50 }] });
    } finally {
      await second?.stop();
    }
  }, 60_000);

  it("gives next_vote_at from the site's cooldown: the top.gg template's 12 hours, or a daily reset the owner sets", async () => {
    const s = await setup();
    await s.site('plain');
    const daily = await s.site('daily', { vote_cooldown: { daily_reset: '00:00', time_zone: 'UTC' } });
    expect((await app.request('GET', '/v1/providers/daily', { key: s.org.key })).body.data.vote_cooldown).toEqual({ daily_reset: '00:00', time_zone: 'UTC' });
    expect((await app.request('GET', '/v1/providers/daily', { key: s.org.key })).body.data).toHaveProperty('vote_cooldown');
    await s.vote(daily, 'Lee', '2026-03-20T18:45:00Z');
    expect((await s.payloads(1))[0].next).toBe('2026-03-21T00:00:00.000Z');

    const topgg = await app.request('POST', '/v1/providers', { key: s.org.key, body: { template: 'topgg', auth_value: 'a-secret-of-top-gg-0123456789' } });
    expect(topgg.status, topgg.text).toBe(201);
    expect((await app.request('GET', '/v1/providers/topgg', { key: s.org.key })).body.data.vote_cooldown).toEqual({ hours: 12 });
    // A provider whose site's rule is unknown has none, and its answer keeps the documented shape.
    expect((await app.request('GET', '/v1/providers/plain', { key: s.org.key })).body.data).not.toHaveProperty('vote_cooldown');
    const wrong = await app.request('PATCH', '/v1/providers/daily', { key: s.org.key, body: { vote_cooldown: { hours: -1 } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'vote_cooldown' })]);
  });

  it('takes a cooldown in minutes (a list that allows a vote every 90 minutes), and never refuses a vote sent before it ends', async () => {
    const s = await setup();
    const quick = await s.site('quick', { vote_cooldown: { minutes: 90 } });
    expect((await app.request('GET', '/v1/providers/quick', { key: s.org.key })).body.data.vote_cooldown).toEqual({ minutes: 90 });
    await s.vote(quick, 'Mia', '2026-03-22T10:00:00Z');
    expect((await s.payloads(1))[0].next).toBe('2026-03-22T11:30:00.000Z');
    // 20 minutes later, inside the cooldown: stored and delivered all the same (the site enforces its rule).
    await s.vote(quick, 'Mia', '2026-03-22T10:20:00Z');
    expect((await s.payloads(2))[1]).toMatchObject({ total: 2, next: '2026-03-22T11:50:00.000Z' });
    const mixed = await app.request('PATCH', '/v1/providers/quick', { key: s.org.key, body: { vote_cooldown: { hours: 1, minutes: 30 } } });
    expect(mixed.status, mixed.text).toBe(200);
    const zero = await app.request('PATCH', '/v1/providers/quick', { key: s.org.key, body: { vote_cooldown: { minutes: 0 } } });
    expect(zero.body.error.details).toEqual([{ field: 'vote_cooldown', message: expect.stringContaining('more than 0') }]);
  });
});
