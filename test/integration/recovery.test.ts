// Votes recovered after an outage: top.gg providers with an API token, a local fake of top.gg's vote list, and the
// reconciler driven by tick() with an injected clock. Votes the hook stored are matched, the missing ones recorded
// once each (and delivered like any vote), failures leave the cursor where it was, and one instance polls a provider.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, testDatabaseUrl, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { signatureHeaders } from '../kit/signing.js';
import { listedVote, startFakeTopgg, type FakeListedVote, type FakeTopgg } from '../kit/fake-topgg.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Time under the test's control, starting now (provider rows get the real creation time) and only moving forward. */
const clock = {
  at: new Date(Math.floor(Date.now() / 1000) * 1000),
  now() {
    return new Date(this.at);
  },
};
const setTime = (ms: number) => {
  expect(ms).toBeGreaterThanOrEqual(clock.at.getTime());
  clock.at = new Date(ms);
};
const nowMs = () => clock.at.getTime();

const random = (bytes = 6) => randomBytes(bytes).toString('hex');
const snowflake = () => String(BigInt(`0x${random(7)}`));

/** The webhook writes seven fractional digits and an offset; the list six and `Z` (fake-topgg.ts): the same instant. */
const webhookTime = (vote: FakeListedVote) => vote.created_at.replace(/(\.\d{6})Z$/, '$14+00:00');

describe.skipIf(databaseUnavailable)('votes recovered from the top.gg vote list', () => {
  let own: { url: string; drop(): Promise<void> } | null = null;
  let app: TestApp;
  // A second instance on the same database (PostgreSQL: the scale-out set-up; SQLite is one instance).
  let twin: TestApp | null = null;
  let fake: FakeTopgg;
  let game: Receiver;
  const logs: string[] = [];

  beforeAll(async () => {
    // Other test files' services poll their own providers: this file's providers live in a database of their own.
    own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    const databaseUrl = own?.url ?? testDatabaseUrl();
    fake = await startFakeTopgg({ pageSize: 2, now: nowMs });
    game = await startReceiver({ status: 204 });
    const env = { RECOVERY_INTERVAL: '0s', TOPGG_API_URL: fake.url, DELIVERY_POLL_MS: '50' };
    const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }));
    app = await startTestApp(env, { clock, databaseUrl, logger });
    if (dialect === 'postgresql') twin = await startTestApp(env, { clock, databaseUrl, logger });
  });
  afterAll(async () => {
    await app?.stop();
    await twin?.stop();
    await fake?.close();
    await game?.close();
    await own?.drop();
  });

  interface Setup {
    org: TestOrg;
    token: string;
    key: string;
    /** Where a new provider's recovery starts: the time its token was set (it has no vote yet). */
    since0: string;
    /** Delivers the listed vote through the real hook, signed or authorized as top.gg does, at `atMs`. */
    hook(vote: FakeListedVote, atMs: number, name?: string): Promise<string>;
    votes(): Promise<{ public_id: string; voter_name: string; received_at: string }[]>;
    recovery(): Promise<{ enabled: boolean; checked_at: string | null; since: string | null; error: string | null }>;
    /** Every callback request the game server got for this organization. */
    received(): string[];
  }

  async function setup(template: 'topgg' | 'topgg-legacy', options: { knownToken?: boolean } = {}): Promise<Setup> {
    const org = await app.createOrg({ plan: 'business' });
    const token = `tgtok_${random(16)}`;
    if (options.knownToken !== false) fake.project(token);
    const secret = `whs_${random(16)}`;
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: template === 'topgg' ? { template, auth_value: secret, api_token: token } : { template, api_token: token },
    });
    expect(made.status, made.text).toBe(201);
    const key = made.body.data.key as string;
    const hookPath = new URL(made.body.data.webhook_url as string).pathname;
    const authValue = made.body.data.auth_value as string;
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Game', url: `${game.url}/game/${org.slug}` } });
    expect(callback.status, callback.text).toBe(201);
    const since0 = (await app.request('GET', `/v1/providers/${key}`, { key: org.key })).body.data.recovery.since as string;
    expect(since0).toBe(clock.now().toISOString());

    return {
      org,
      token,
      key,
      since0,
      async hook(vote, atMs, name = `name-${vote.user_id}`) {
        setTime(atMs);
        const body =
          template === 'topgg'
            ? JSON.stringify({
                type: 'vote.create',
                data: {
                  id: snowflake(),
                  weight: vote.weight,
                  created_at: webhookTime(vote),
                  expires_at: vote.expires_at.replace('Z', '+00:00'),
                  project: { id: '803190510032756736', type: 'bot', platform: 'discord', platform_id: '160105994217586689' },
                  user: { id: vote.user_id, platform_id: vote.platform_id, name, avatar_url: 'https://cdn.discordapp.com/embed/avatars/0.png' },
                },
              })
            : JSON.stringify({ bot: '160105994217586689', user: vote.platform_id, type: 'upvote', isWeekend: false, query: '' });
        const headers =
          template === 'topgg'
            ? signatureHeaders('topgg', secret, body, { header: 'x-topgg-signature', nowSeconds: Math.floor(atMs / 1000) })
            : { authorization: authValue };
        const res = await app.request('POST', hookPath, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
        expect(res.status, res.text).toBe(200);
        return res.body.data.vote_id as string;
      },
      votes: async () => {
        const res = await app.request('GET', `/v1/votes?provider=${key}&limit=100`, { key: org.key });
        expect(res.status, res.text).toBe(200);
        return res.body.data.votes;
      },
      recovery: async () => (await app.request('GET', `/v1/providers/${key}`, { key: org.key })).body.data.recovery,
      received: () => game.requests.filter((r) => r.path === `/game/${org.slug}`).map((r) => r.json.vote_id as string),
    };
  }

  /** Both instances at once on PostgreSQL (each provider is polled by one of them); twice in a row on SQLite. */
  async function tickBoth(): Promise<number> {
    const runs = twin ? await Promise.all([app.recovery.tick(), twin.recovery.tick()]) : [await app.recovery.tick(), await app.recovery.tick()];
    return runs.reduce((sum, run) => sum + run.recorded, 0);
  }

  async function waitForCallbacks(s: Setup, ids: string[]) {
    const deadline = Date.now() + 10_000;
    while (!ids.every((id) => s.received().includes(id))) {
      if (Date.now() > deadline) throw new Error(`callbacks for ${ids.join(', ')} not received; got ${s.received().join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('records exactly the votes the hook missed, once, delivered as recovered votes; a late hook still wins', async () => {
    const s = await setup('topgg');
    const t0 = nowMs() + HOUR;
    const list = fake.project(s.token).votes;
    const hooked1 = listedVote(random(), '111000000000000001', t0, '123');
    const missed1 = listedVote(random(), '111000000000000002', t0 + 3 * MINUTE, '999');
    const hooked2 = listedVote(random(), '111000000000000003', t0 + 6 * MINUTE, '500');
    const missed2 = listedVote(random(), '111000000000000004', t0 + 20 * MINUTE, '000', 2);
    const missed3 = listedVote(random(), '111000000000000005', t0 + 40 * MINUTE, '321');
    list.push(hooked1, missed1, hooked2, missed2, missed3);
    const hookIds = [await s.hook(hooked1, t0 + 900, 'Alice'), await s.hook(hooked2, t0 + 6 * MINUTE + 1_200, 'Carol')];

    // Votes within the webhook's retry horizon (30 s) plus the margin are not judged yet.
    const young = listedVote(random(), '111000000000000006', t0 + 58 * MINUTE);
    const youngMissed = listedVote(random(), '111000000000000007', t0 + 59 * MINUTE);
    list.push(young, youngMissed);

    const row = () =>
      app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: s.org.id }, select: { updatedAt: true, recoveryLeaseUntil: true } });
    const before = await row();
    setTime(t0 + HOUR);
    expect(await tickBoth()).toBe(3);
    // Polling is not an edit, and with no interval (tick() only) nothing holds the provider after a run.
    expect(await row()).toEqual({ updatedAt: before.updatedAt, recoveryLeaseUntil: null });
    const afterFirst = await s.votes();
    expect(afterFirst).toHaveLength(5);
    const recovered = afterFirst.filter((v) => !hookIds.includes(v.public_id));
    // No user names in the list: the voter is the Discord id; the time is the vote's own.
    expect(recovered.map((v) => [v.voter_name, v.received_at]).sort()).toEqual(
      [missed1, missed2, missed3].map((m) => [m.platform_id, new Date(Date.parse(m.created_at)).toISOString()]).sort(),
    );
    for (const vote of recovered) {
      const read = await app.request('GET', `/v1/votes/${vote.public_id}`, { key: s.org.key });
      expect(read.body.data.recovered).toBe(true);
      const log = await app.request('GET', `/v1/votes/${vote.public_id}/deliveries`, { key: s.org.key });
      expect(log.body.data.jobs.length).toBeGreaterThan(0);
      expect(
        log.body.data.jobs.every((job: { origin: string }) => job.origin === 'recovered'),
        log.text,
      ).toBe(true);
    }
    const hooked = await app.request('GET', `/v1/votes/${hookIds[0]}`, { key: s.org.key });
    expect(hooked.body.data).not.toHaveProperty('recovered');
    const stored = await app.deps.db.prisma.vote.findFirstOrThrow({
      where: { publicId: recovered.find((v) => v.voter_name === missed2.platform_id)!.public_id },
    });
    expect(JSON.parse(stored.rawPayload)).toEqual({
      type: 'vote.create',
      data: {
        weight: 2,
        created_at: missed2.created_at,
        expires_at: missed2.expires_at,
        user: { id: missed2.user_id, platform_id: missed2.platform_id, name: missed2.platform_id },
      },
      recovered: true,
    });
    await waitForCallbacks(s, [...hookIds, ...recovered.map((v) => v.public_id)]);

    const status = await s.recovery();
    expect(status).toMatchObject({ enabled: true, error: null, checked_at: clock.now().toISOString() });
    // Read up to the cutoff: now less the retry horizon (30 s) and the margin (5 min).
    expect(status.since).toBe(new Date(nowMs() - 30_000 - 5 * MINUTE).toISOString());
    // Paged by the cursor (pages of 2), starting from when the token was set, less the overlap.
    const first = fake.requestsOf(s.token)[0];
    expect(first.query.startDate).toBe(new Date(Date.parse(s.since0) - 10 * MINUTE).toISOString());
    expect(fake.requestsOf(s.token).filter((r) => r.query.cursor !== undefined).length).toBeGreaterThan(0);

    expect(await tickBoth()).toBe(0);

    // The webhook of `young` arrives late, before the vote is due; once both are due, only the other is recorded.
    await s.hook(young, nowMs() + 1_000, 'Late');
    setTime(t0 + 70 * MINUTE);
    expect(await tickBoth()).toBe(1);
    const all = await s.votes();
    expect(all).toHaveLength(7);
    expect(all.filter((v) => v.voter_name === youngMissed.platform_id)).toHaveLength(1);
    expect(all.filter((v) => v.voter_name === young.platform_id)).toHaveLength(0);
    expect(await tickBoth()).toBe(0);
    expect(await s.votes()).toHaveLength(7);

    // The token never appears in the logs.
    expect(logs.some((line) => line.includes(s.token))).toBe(false);
  });

  it('a hook vote and a recovered vote of one top.gg user are one voter (README "Voters"): the name stays the hook\'s', async () => {
    const s = await setup('topgg');
    const t0 = nowMs() + HOUR;
    const list = fake.project(s.token).votes;
    const hooked = listedVote(random(), '111000000000000101', t0, '123');
    // The same user 13 h later (after top.gg's 12 h cooldown): the hook missed it, the list has it.
    const missed = listedVote(random(), '111000000000000101', t0 + 13 * HOUR, '456');
    list.push(hooked, missed);
    const hookId = await s.hook(hooked, t0 + 900, 'Alice');
    setTime(t0 + 14 * HOUR);
    expect(await tickBoth()).toBe(1);
    const votes = await s.votes();
    expect(votes).toHaveLength(2);
    const reads = await Promise.all(votes.map(async (v) => (await app.request('GET', `/v1/votes/${v.public_id}`, { key: s.org.key })).body.data));
    const hookRead = reads.find((r) => r.public_id === hookId)!;
    const recoveredRead = reads.find((r) => r.public_id !== hookId)!;
    expect(recoveredRead).toMatchObject({ recovered: true, voter_name: missed.platform_id, voter_id: hookRead.voter_id, voter_total: 2 });
    // The voter keeps the hook's name (the list sends the id alone), and both names reach them.
    const voter = await app.deps.db.prisma.voter.findUniqueOrThrow({ where: { id: hookRead.voter_id } });
    expect(voter.displayName).toBe('Alice');
    for (const name of ['Alice', missed.platform_id]) {
      const stats = await app.request('GET', `/v1/stats/voter/${name}`, { key: s.org.key });
      expect(stats.body.data.summary.total, name).toBe(2);
    }
  });

  it('429, 500 and an unreadable answer record nothing and keep the cursor; the next run recovers', async () => {
    const s = await setup('topgg');
    const t0 = nowMs() + 10 * MINUTE;
    const project = fake.project(s.token);
    const missed = [
      listedVote(random(), '222000000000000001', t0),
      listedVote(random(), '222000000000000002', t0 + MINUTE),
      listedVote(random(), '222000000000000003', t0 + 2 * MINUTE),
    ];
    project.votes.push(...missed);
    setTime(t0 + HOUR);

    // One pass at a time: a second one would find the failure's script used up.
    const tick = () => app.recovery.tick();
    project.fail({ status: 429, retryAfterS: 30 });
    expect(await tick()).toMatchObject({ recorded: 0 });
    expect(await s.votes()).toHaveLength(0);
    expect(await s.recovery()).toMatchObject({ enabled: true, since: s.since0, checked_at: null, error: 'top.gg rate-limited the vote list; waiting 30 s' });
    expect(fake.requestsOf(s.token).map((r) => r.status)).toEqual([429]);

    // Nobody asks again before the wait is over.
    setTime(nowMs() + 20_000);
    await tickBoth();
    await tickBoth();
    expect(fake.requestsOf(s.token)).toHaveLength(1);

    setTime(nowMs() + 11_000);
    project.fail({ status: 500 });
    expect(await tick()).toMatchObject({ recorded: 0 });
    expect(await s.votes()).toHaveLength(0);
    expect(await s.recovery()).toMatchObject({ since: s.since0, checked_at: null, error: 'top.gg answered 500: Something went wrong' });

    project.fail({ status: 200, body: '<html>maintenance</html>' });
    expect(await tick()).toMatchObject({ recorded: 0 });
    expect(await s.votes()).toHaveLength(0);
    expect(await s.recovery()).toMatchObject({ since: s.since0, error: 'top.gg answered something that is not a vote list' });

    expect(await tickBoth()).toBe(3);
    expect((await s.votes()).map((v) => v.voter_name).sort()).toEqual(missed.map((m) => m.platform_id).sort());
    expect(await s.recovery()).toMatchObject({ error: null, checked_at: clock.now().toISOString() });
    expect((await s.recovery()).since).not.toBe(s.since0);
  });

  it('a token top.gg refuses is reported on the provider, and nothing is recorded', async () => {
    const s = await setup('topgg', { knownToken: false });
    setTime(nowMs() + MINUTE);
    await tickBoth();
    expect(await s.recovery()).toMatchObject({ enabled: true, since: s.since0, error: 'top.gg refused the API token' });
    expect(fake.requestsOf(s.token).map((r) => r.status)).toContain(401);
    expect(await s.votes()).toHaveLength(0);
    expect(logs.some((line) => line.includes(s.token))).toBe(false);
  });

  it('legacy webhooks: a vote is the Discord id received near its list time; the missing ones are recorded in the legacy shape', async () => {
    const s = await setup('topgg-legacy');
    const t0 = nowMs() + 10 * MINUTE;
    const list = fake.project(s.token).votes;
    const hooked = listedVote(random(), '333000000000000001', t0);
    const retried = listedVote(random(), '333000000000000002', t0 + 5 * MINUTE);
    const missed = listedVote(random(), '333000000000000003', t0 + 9 * MINUTE, '000', 2);
    // The first voter again, 12 hours later (top.gg's limit): a new vote, not the hooked one.
    const again = listedVote(random(), hooked.platform_id, t0 + 12 * HOUR + MINUTE);
    list.push(hooked, retried, missed, again);
    const hookIds = [await s.hook(hooked, t0 + 2_000), await s.hook(retried, t0 + 8 * MINUTE)]; // retried 3 minutes late

    setTime(t0 + 13 * HOUR);
    expect(await tickBoth()).toBe(2);
    const votes = await s.votes();
    expect(votes).toHaveLength(4);
    const recovered = votes.filter((v) => !hookIds.includes(v.public_id));
    expect(recovered.map((v) => v.voter_name).sort()).toEqual([hooked.platform_id, missed.platform_id].sort());
    const stored = await app.deps.db.prisma.vote.findFirstOrThrow({
      where: { publicId: recovered.find((v) => v.voter_name === missed.platform_id)!.public_id },
    });
    expect(stored.recovered).toBe(true);
    expect(JSON.parse(stored.rawPayload)).toEqual({ user: missed.platform_id, type: 'upvote', isWeekend: true, query: '', recovered: true });
    await waitForCallbacks(
      s,
      recovered.map((v) => v.public_id),
    );

    expect(await tickBoth()).toBe(0);
    expect(await s.votes()).toHaveLength(4);
  });

  it("a test vote sent before the first API token does not send recovery back to the provider's creation", async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'topgg', auth_value: `whs_${random(16)}` } });
    expect(made.status, made.text).toBe(201);
    const key = made.body.data.key as string;
    expect(made.body.data.recovery?.enabled ?? false).toBe(false);
    const createdAt = (
      await app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: org.id }, select: { createdAt: true } })
    ).createdAt.getTime();
    // A vote top.gg lists from before the token: the hook took it or not, nobody can tell now, so it is not recorded.
    const token = `tgtok_${random(16)}`;
    fake.project(token).votes.push(listedVote(random(), '555000000000000001', createdAt + MINUTE));
    setTime(Math.max(nowMs(), createdAt) + 2 * MINUTE);
    const test = await app.request('POST', `/v1/providers/${key}/test-vote`, { key: org.key, body: {} });
    expect(test.status, test.text).toBe(200);
    expect(test.body.data).toMatchObject({ test_vote: true, duplicate: false });

    setTime(nowMs() + HOUR);
    const changed = await app.request('PATCH', `/v1/providers/${key}`, { key: org.key, body: { api_token: token } });
    expect(changed.status, changed.text).toBe(200);
    // The provider has no real vote: recovery starts now, as for a new provider given a token.
    const since = clock.now().toISOString();
    expect(changed.body.data.recovery).toMatchObject({ enabled: true, since, error: null });
    setTime(nowMs() + HOUR);
    expect(await tickBoth()).toBe(0);
    expect(fake.requestsOf(token)[0].query.startDate).toBe(new Date(Date.parse(since) - 10 * MINUTE).toISOString());
    const listed = await app.request('GET', `/v1/votes?provider=${key}`, { key: org.key });
    expect(listed.body.data.votes.map((v: { test: boolean }) => v.test)).toEqual([true]);
  });

  it('a new API token starts over from the newest vote; votes recovered before are not recorded again', async () => {
    const s = await setup('topgg');
    const t0 = nowMs() + 10 * MINUTE;
    const missed = [listedVote(random(), '444000000000000001', t0), listedVote(random(), '444000000000000002', t0 + MINUTE)];
    fake.project(s.token).votes.push(...missed);
    setTime(t0 + HOUR);
    expect(await tickBoth()).toBe(2);

    // The same project under a new token: the cursor is reset (the provider has votes: none is set), and the list is
    // read again from the newest vote.
    const token = `tgtok_${random(16)}`;
    fake.project(token).votes.push(...missed);
    const changed = await app.request('PATCH', `/v1/providers/${s.key}`, { key: s.org.key, body: { api_token: token } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.recovery).toMatchObject({ enabled: true, since: null, error: null });
    setTime(nowMs() + MINUTE);
    expect(await tickBoth()).toBe(0);
    expect(fake.requestsOf(token).length).toBeGreaterThan(0);
    expect(await s.votes()).toHaveLength(2);
  });
});
