// Test votes (README "Test votes"): POST /v1/providers/:key/test-vote and GraphQL sendTestVote send the site's
// delivery through the provider's real hook path, store it marked `test`, deliver it marked as a test (chat, HTTP
// callbacks, server_callback_url), to game servers (Votifier callbacks, the pull queue) only when asked, and count
// it nowhere (statistics, usage, rollups, export). Through HTTP on both databases, with local receivers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait.js';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { startVotifierReceiver, type VotifierReceiver } from '../kit/votifier-receiver.js';
import { sseReader } from '../kit/sse.js';
import { verifyRollups } from '../kit/rollups.js';

const settled = (v: { callback_status: string; chat_status: string }) =>
  !['pending', 'retrying'].includes(v.callback_status) && !['pending', 'retrying'].includes(v.chat_status);

describe.skipIf(databaseUnavailable)('test votes', () => {
  let app: TestApp;
  let chat: Receiver;
  let game: Receiver;
  let votifier: VotifierReceiver;

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms', DELIVERY_POLL_MS: '50' });
    chat = await startReceiver({ status: 204 });
    game = await startReceiver({ status: 200 });
    votifier = await startVotifierReceiver({ tokens: { VoteRelay: 'game-token-123' } });
  });
  afterAll(async () => {
    await app?.stop();
    await chat?.close();
    await game?.close();
    await votifier?.close();
  });

  const post = (org: TestOrg, path: string, body?: unknown) => app.request('POST', path, { key: org.key, body: body ?? {} });
  const get = (org: TestOrg, path: string) => app.request('GET', path, { key: org.key });

  async function provider(org: TestOrg, body: Record<string, unknown>) {
    const made = await post(org, '/v1/providers', body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.data;
  }

  /** An organization with chat, an HTTP callback, a Votifier callback, a legacy callback and a polling plugin. */
  async function setup() {
    const org = await app.createOrg({ plan: 'business' });
    const settings = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: { settings: { chat_webhook_url: `${chat.url}/chat/${org.slug}`, server_callback_url: `${game.url}/legacy/${org.slug}` } },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const http = await post(org, '/v1/callbacks', { name: 'Web', url: `${game.url}/cb/${org.slug}` });
    expect(http.status, JSON.stringify(http.body)).toBe(201);
    const mc = await post(org, '/v1/callbacks', {
      name: 'Survival',
      kind: 'votifier',
      host: votifier.host,
      port: votifier.port,
      service_name: 'VoteRelay',
      token: 'game-token-123',
    });
    expect(mc.status, JSON.stringify(mc.body)).toBe(201);
    const plugin = await post(org, '/v1/plugin-tokens', { name: 'Lobby' });
    expect(plugin.status).toBe(201);
    const site = await provider(org, { key: 'site', name: 'Best List', auth_method: 'url_path', auth_field: 's', votee_path: 'user.name' });
    const poll = () => app.request('GET', '/v1/plugin/votes?wait=0', { key: plugin.body.data.token });
    const claim = (id: string) => app.request('POST', `/v1/plugin/votes/${id}/claim`, { key: plugin.body.data.token });
    const read = (id: string) => get(org, `/v1/votes/${id}`).then((r) => r.body.data);
    return { org, site, poll, claim, read, callbackId: http.body.data.id as string };
  }

  /** What a test vote must leave unchanged: statistics, provider counts, voter stats, usage and the default export. */
  async function counters(org: TestOrg) {
    const reads = [
      '/v1/stats/dashboard',
      '/v1/stats/leaderboard',
      '/v1/stats/voter/VoteRelayTest',
      '/v1/stats/voter/Notch',
      '/v1/providers',
      '/v1/organization',
    ];
    const [dashboard, leaderboard, testVoter, notch, providers, organization] = await Promise.all(reads.map((path) => get(org, path).then((r) => r.body.data)));
    const exported = await get(org, '/v1/votes/export');
    return { dashboard, leaderboard, testVoter, notch, providers, usage: organization.usage, export: exported.text };
  }

  it('stores a test vote marked in every read, delivers it marked, and counts it nowhere', async () => {
    const s = await setup();
    // One real vote first, so the counters are not trivially empty.
    const real = (await app.request('POST', new URL(s.site.webhook_url).pathname, { body: { user: { name: 'RealSteve' } } })).body.data.vote_id as string;
    const pulledReal = (await s.poll()).body.data.votes;
    expect(pulledReal.map((v: { id: string }) => v.id)).toEqual([real]);
    expect(pulledReal[0].test).toBe(false);
    expect((await s.claim(real)).status).toBe(200);
    await until(() => s.read(real), settled);
    await until(
      async () => votifier.votes,
      (votes) => votes.some((v) => v.username === 'RealSteve'),
    );
    const votesBefore = votifier.votes.length;
    const before = await counters(s.org);
    expect(before.dashboard.summary.all_time).toBe(1);
    expect(before.usage.votes_this_month).toBe(1);
    expect(before.providers.providers[0]).toMatchObject({ key: 'site', votes_total: 1, votes_today: 1 });
    expect(before.leaderboard.voters).toMatchObject([{ name: 'RealSteve', votes: 1 }]);
    expect(before.testVoter.summary.total).toBe(0);

    const feed = await sseReader(`${app.url}/graphql`, s.org.readKey, 'subscription { voteReceived { publicId voterName test } }');
    await until(
      async () => app.liveSubscribers(),
      (n) => n === 1,
      5_000,
    );

    const sent = await post(s.org, '/v1/providers/site/test-vote', {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toEqual({
      received: true,
      vote_id: expect.stringMatching(/^vt_/),
      duplicate: false,
      test_vote: true,
      voter_name: 'VoteRelayTest',
      deliver_to_game_servers: false,
    });
    const id = sent.body.data.vote_id as string;

    // The live feed carries it, marked.
    await until(
      async () => feed.events,
      (events) => events.some((e) => e.data?.voteReceived?.publicId === id),
    );
    expect(feed.events.find((e) => e.data.voteReceived.publicId === id).data.voteReceived).toEqual({ publicId: id, voterName: 'VoteRelayTest', test: true });
    feed.close();

    // Every read says test: true; the real vote test: false; the list's total counts both.
    const list = await get(s.org, '/v1/votes');
    expect(list.body.meta.total).toBe(2);
    const listed = list.body.data.votes.find((v: { public_id: string }) => v.public_id === id);
    expect(listed).toMatchObject({ voter_name: 'VoteRelayTest', provider_key: 'site', test: true });
    expect(list.body.data.votes.find((v: { public_id: string }) => v.public_id === real).test).toBe(false);
    const vote: Record<string, unknown> = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ public_id: id, test: true, chat_status: 'sent', callback_status: 'sent' });
    // GET /v1/votes/:id takes the list's `id` as well as the public_id.
    const byId = await get(s.org, `/v1/votes/${listed.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(vote);
    const deliveries = (await get(s.org, `/v1/votes/${listed.id}/deliveries`)).body.data;
    expect(deliveries).toMatchObject({ vote_id: id, test: true });
    // Chat, the HTTP callback and server_callback_url; no Votifier callback and no pull job unless asked.
    expect(deliveries.jobs.map((j: { kind: string }) => j.kind).sort()).toEqual(['callback', 'chat', 'legacy_callback']);
    expect(deliveries.jobs.find((j: { kind: string }) => j.kind === 'callback').callback_id).toBe(s.callbackId);

    const chatMessage = chat.requests.find((r) => r.path === `/chat/${s.org.slug}` && r.json?.content?.includes('VoteRelayTest'))!;
    expect(chatMessage.json.content.startsWith('[TEST] ')).toBe(true);
    const callback = game.requests.find((r) => r.path === `/cb/${s.org.slug}` && r.json?.vote_id === id)!;
    expect(callback.json).toEqual({ event: 'vote', vote_id: id, voter_name: 'VoteRelayTest', provider: 'site', received_at: vote.received_at, test: true });
    expect(callback.headers['x-vote-relay-test']).toBe('true');
    const legacy = game.requests.find((r) => r.path === `/legacy/${s.org.slug}` && r.json?.vote_id === id)!;
    expect(legacy.json.test).toBe(true);
    expect(legacy.headers['x-vote-relay-test']).toBe('true');
    // The real vote's callback said test: false, with no test header.
    const realCallback = game.requests.find((r) => r.path === `/cb/${s.org.slug}` && r.json?.vote_id === real)!;
    expect(realCallback.json.test).toBe(false);
    expect(realCallback.headers['x-vote-relay-test']).toBeUndefined();
    expect(votifier.votes.slice(votesBefore).map((v) => v.username)).not.toContain('VoteRelayTest');
    expect((await s.poll()).body.data.votes.map((v: { id: string }) => v.id)).not.toContain(id);

    // Statistics, usage and the export are unchanged; the rollups still match the raw votes.
    expect(await counters(s.org)).toEqual(before);
    expect(await verifyRollups(app.deps.db, s.org.id)).toEqual([]);
    const withTests = await get(s.org, '/v1/votes/export?include_tests=true');
    expect(withTests.status).toBe(200);
    const lines = withTests.text.trim().split('\n');
    expect(lines[0]).toBe('voter_name,provider,received_at,chat_status,callback_status,test');
    expect(lines.slice(1).map((l) => [l.split(',')[0], l.split(',').at(-1)])).toEqual([
      ['RealSteve', 'false'],
      ['VoteRelayTest', 'true'],
    ]);
    expect(before.export.trim().split('\n')[0]).toBe('voter_name,provider,received_at,chat_status,callback_status');
    const badFlag = await get(s.org, '/v1/votes/export?include_tests=yes');
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error.details).toEqual([{ field: 'include_tests', message: 'must be a boolean' }]);

    // The same test vote again is the same delivery: a duplicate of the first, nothing new stored.
    const again = await post(s.org, '/v1/providers/site/test-vote', {});
    expect(again.body.data).toMatchObject({ vote_id: id, duplicate: true, test_vote: true });
    expect((await get(s.org, '/v1/votes')).body.meta.total).toBe(2);
  });

  it('reaches Votifier callbacks and the pull queue only when asked, and stays out of counts', async () => {
    const s = await setup();
    const before = await counters(s.org);
    const sent = await post(s.org, '/v1/providers/site/test-vote', { voter_name: 'Notch', deliver_to_game_servers: true });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ duplicate: false, test_vote: true, voter_name: 'Notch', deliver_to_game_servers: true });
    const id = sent.body.data.vote_id as string;
    // The pull job waits for the plugin, so the vote's callback status stays pending until it is claimed.
    const vote = await until(
      () => s.read(id),
      (v) => v.chat_status === 'sent',
    );
    expect(vote).toMatchObject({ voter_name: 'Notch', test: true, callback_status: 'pending' });
    const deliveries = (await get(s.org, `/v1/votes/${id}/deliveries`)).body.data;
    expect(deliveries.jobs.map((j: { kind: string }) => j.kind).sort()).toEqual(['callback', 'callback', 'chat', 'legacy_callback', 'pull']);
    await until(
      async () => votifier.votes,
      (votes) => votes.some((v) => v.username === 'Notch'),
    );
    expect((await s.poll()).body.data.votes).toMatchObject([{ id, voter_name: 'Notch', test: true }]);
    expect((await s.claim(id)).status).toBe(200);
    await until(() => s.read(id), settled);
    expect(await counters(s.org)).toEqual(before);
    expect(await verifyRollups(app.deps.db, s.org.id)).toEqual([]);
  });

  it('refuses bad input with a clear error and stores nothing', async () => {
    const s = await setup();
    const cases: [string, unknown, string][] = [
      ['site', { voter_name: 'line\nbreak' }, 'voter_name'],
      ['site', { voter_name: '   ' }, 'voter_name'],
      ['site', { voter_name: 'x'.repeat(257) }, 'voter_name'],
      ['site', { deliver_to_game_servers: 'yes' }, 'deliver_to_game_servers'],
      // Over 16 characters: the organization's Votifier callback (NuVotifier) would refuse it.
      ['site', { voter_name: 'AVeryLongDiscordName', deliver_to_game_servers: true }, 'voter_name'],
    ];
    for (const [key, body, field] of cases) {
      const res = await post(s.org, `/v1/providers/${key}/test-vote`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const long = await post(s.org, '/v1/providers/site/test-vote', { voter_name: 'AVeryLongDiscordName', deliver_to_game_servers: true });
    expect(long.body.error.details[0].message).toContain('16 characters');
    expect((await post(s.org, '/v1/providers/nope/test-vote')).body.error.code).toBe('NOT_FOUND');
    const readOnly = await app.request('POST', '/v1/providers/site/test-vote', { key: s.org.readKey, body: {} });
    expect([readOnly.status, readOnly.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    await app.request('PATCH', '/v1/providers/site', { key: s.org.key, body: { enabled: false } });
    const disabled = await post(s.org, '/v1/providers/site/test-vote');
    expect([disabled.status, disabled.body.error.code]).toEqual([403, 'PROVIDER_DISABLED']);
    expect((await get(s.org, '/v1/votes')).body.meta.total).toBe(0);
    // A long name without game servers asked for is fine for an HTTP-only test.
    await app.request('PATCH', '/v1/providers/site', { key: s.org.key, body: { enabled: true } });
    expect((await post(s.org, '/v1/providers/site/test-vote', { voter_name: 'AVeryLongDiscordName' })).status).toBe(200);
  });

  it('every kind of provider accepts its own test vote: custom header/form, hmac with a timestamp, GET query, Votifier, templates', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const providers: Record<string, unknown>[] = [
      {
        key: 'hdr',
        name: 'Header form list',
        auth_method: 'header',
        auth_field: 'X-List-Secret',
        payload_source: 'form',
        votee_path: 'player',
        event_path: 'kind',
        vote_events: ['vote'],
        test_events: ['ping'],
      },
      {
        key: 'sig',
        name: 'Signed list',
        auth_method: 'hmac',
        auth_field: 'X-Signature',
        signature_format: 'plain',
        auth_timestamp_field: 'X-Timestamp',
        auth_value: 'custom-hmac-secret-0123456789',
        votee_path: '$.data.players[0].name',
      },
      {
        key: 'stamped',
        name: 'Stamped list',
        auth_method: 'hmac',
        auth_field: 'X-Signature',
        signature_format: 'plain',
        auth_value: 'custom-hmac-secret-9876543210',
        votee_path: 'user',
        body_timestamp_path: 'sent_at',
        body_timestamp_max_age: 120,
      },
      { key: 'getlist', name: 'GET list', auth_method: 'query', auth_field: 'token', votee_path: 'p_resp' },
      { key: 'mc', name: 'Minecraft lists', auth_method: 'votifier' },
      { template: 'topgg', auth_value: 'whs_test_secret_for_topgg_0123456789' },
      { template: 'hytale-servers-pro', auth_value: 'hsp_secret_for_tests_0123456789' },
    ];
    for (const body of providers) {
      const made = await provider(org, body);
      const key = made.key as string;
      // A body timestamp is floored to half its allowed age (test-vote.ts), so the two test votes below are the same
      // body unless a step boundary falls between them: start well inside a step.
      if (made.body_timestamp_path) {
        const step = Math.floor((made.body_timestamp_max_age as number) / 2) * 1000;
        if (Date.now() % step > step - 5_000) await new Promise((resolve) => setTimeout(resolve, step - (Date.now() % step) + 100));
      }
      const res = await post(org, `/v1/providers/${key}/test-vote`, { voter_name: 'Tester_1' });
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data, key).toMatchObject({ received: true, duplicate: false, test_vote: true, voter_name: 'Tester_1' });
      const vote = (await get(org, `/v1/votes/${res.body.data.vote_id}`)).body.data;
      expect(vote, key).toMatchObject({ voter_name: 'Tester_1', provider_key: key, test: true });
      const again = await post(org, `/v1/providers/${key}/test-vote`, { voter_name: 'Tester_1' });
      expect(again.body.data, `${key} again`).toMatchObject({ vote_id: res.body.data.vote_id, duplicate: true });
    }
    // Votifier usernames are at most 16 characters: said before anything is sent.
    const long = await post(org, '/v1/providers/mc/test-vote', { voter_name: 'SeventeenCharName' });
    expect(long.status).toBe(400);
    expect(long.body.error.details[0]).toMatchObject({ field: 'voter_name', message: expect.stringContaining('16 characters') });
    expect((await get(org, '/v1/stats/dashboard')).body.data.summary.all_time).toBe(0);
    expect(await verifyRollups(app.deps.db, org.id)).toEqual([]);
  });

  it('past the monthly limit a test vote is still delivered, and it never counts toward the limit', async () => {
    const org = await app.createOrg({ plan: 'starter' });
    await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { chat_webhook_url: `${chat.url}/limit/${org.slug}` } } });
    const made = await provider(org, { key: 'lim', name: 'Limit List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' });
    // The month's count as the vote writers read it (the rollups): the starter plan's 1,000 votes already used.
    await app.deps.db.prisma.providerDailyCount.create({
      data: { organizationId: org.id, providerId: made.id, day: new Date().toISOString().slice(0, 10), count: 1_000 },
    });
    const real = (await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'OverLimit' } })).body.data.vote_id;
    const test = (await post(org, '/v1/providers/lim/test-vote', {})).body.data.vote_id;
    const read = (id: string) => app.deps.db.prisma.vote.findUniqueOrThrow({ where: { publicId: id } });
    expect(await read(real)).toMatchObject({ overLimit: true, chatStatus: 'skipped', test: false });
    await until(
      () => read(test),
      (v) => v.chatStatus === 'sent',
    );
    expect(await read(test)).toMatchObject({ overLimit: false, test: true });
    expect(chat.requests.find((r) => r.path === `/limit/${org.slug}`)!.json.content.startsWith('[TEST] ')).toBe(true);
    expect((await app.request('GET', '/v1/organization', { key: org.key })).body.data.usage.votes_this_month).toBe(1_001);
  });

  it('erasing a voter removes their test votes too and keeps the statistics consistent', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = await provider(org, { key: 'er', name: 'Erase List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' });
    await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'EraseMe' } });
    await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'KeepMe' } });
    expect((await post(org, '/v1/providers/er/test-vote', { voter_name: 'EraseMe' })).status).toBe(200);
    const erased = await app.request('DELETE', '/v1/voters/EraseMe', { key: org.key });
    expect(erased.body.data).toMatchObject({ voter_name: 'EraseMe', votes_deleted: 2 });
    expect(await verifyRollups(app.deps.db, org.id)).toEqual([]);
    expect((await get(org, '/v1/stats/dashboard')).body.data.summary.all_time).toBe(1);
    expect((await get(org, '/v1/votes')).body.data.votes.map((v: { voter_name: string }) => v.voter_name)).toEqual(['KeepMe']);
  });

  it("the vote list's total counts test votes by provider and date range", async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = {
      a: await provider(org, { key: 'la', name: 'List A', auth_method: 'url_path', auth_field: 's', votee_path: 'user' }),
      b: await provider(org, { key: 'lb', name: 'List B', auth_method: 'url_path', auth_field: 's', votee_path: 'user' }),
    };
    await app.request('POST', new URL(made.a.webhook_url).pathname, { body: { user: 'RealA' } });
    for (const name of ['TestA1', 'TestA2']) expect((await post(org, '/v1/providers/la/test-vote', { voter_name: name })).status).toBe(200);
    expect((await post(org, '/v1/providers/lb/test-vote', { voter_name: 'TestB' })).status).toBe(200);
    const total = async (query: string) => {
      const res = await get(org, `/v1/votes?${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.votes).toHaveLength(res.body.meta.total);
      return res.body.meta.total;
    };
    const today = ((await get(org, '/v1/votes')).body.data.votes[0].received_at as string).slice(0, 10);
    expect(await total('')).toBe(4);
    expect(await total('provider=la')).toBe(3);
    expect(await total('provider=lb')).toBe(1);
    expect(await total(`provider=lb&from=${today}&to=${today}`)).toBe(1);
    expect(await total(`from=${today}&to=${today}`)).toBe(4);
    expect(await total('from=2020-01-01&to=2020-01-31')).toBe(0);
  });

  it('vote_relay_votes_stored_total counts real votes only (a test vote is a hook delivery, not a stored vote)', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = await provider(org, { key: 'met', name: 'Metric List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' });
    const series = async (name: string, labels = '') => {
      const text = await (await fetch(`${app.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const stored = () => series('vote_relay_votes_stored_total');
    // A provider key of this test alone: its series are this test's.
    const hookStored = (test: boolean) => series('vote_relay_hook_deliveries_total', `{outcome="stored",code="",provider="met",test="${test}"}`);
    const before = { stored: await stored(), hook: await hookStored(true), real: await hookStored(false) };
    const test = await post(org, '/v1/providers/met/test-vote', { voter_name: 'MetricTest' });
    expect(test.body.data).toMatchObject({ test_vote: true, duplicate: false });
    expect(await stored()).toBe(before.stored);
    // A test vote is counted apart from real ones.
    expect(await hookStored(true)).toBe(before.hook + 1);
    expect(await hookStored(false)).toBe(before.real);
    const real = await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'MetricReal' } });
    expect(real.body.data.duplicate).toBe(false);
    expect(await stored()).toBe(before.stored + 1);
    expect(await hookStored(false)).toBe(before.real + 1);
  });

  it('keeps the old GraphQL call working and no site delivery can make itself a test vote', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const made = await provider(org, { key: 'gql', name: 'GQL List', auth_method: 'header', auth_field: 'x-secret', votee_path: 'user' });
    const gql = (query: string, variables?: Record<string, unknown>) => post(org, '/graphql', { query, variables });
    const old = await gql('mutation { sendTestVote(key: "gql") { received voteId duplicate testVote } }');
    expect(old.body.data.sendTestVote).toMatchObject({ received: true, duplicate: false, testVote: true });
    const named = await gql(
      'mutation ($v: String) { sendTestVote(key: "gql", voterName: $v, deliverToGameServers: false) { voteId voterName deliverToGameServers } }',
      { v: 'Alex' },
    );
    expect(named.body.data.sendTestVote).toMatchObject({ voterName: 'Alex', deliverToGameServers: false });
    const read = await gql('query ($id: String!) { vote(publicId: $id) { test voterName } }', { id: named.body.data.sendTestVote.voteId });
    expect(read.body.data.vote).toEqual({ test: true, voterName: 'Alex' });
    // A site's own delivery, with anything it likes in headers and body, is a real vote.
    const hook = await app.request('POST', new URL(made.webhook_url).pathname, {
      body: { user: 'Sneaky', test: true, testVote: { deliverToGameServers: true } },
      headers: { 'x-secret': made.auth_value, 'x-vote-relay-test': 'true' },
    });
    expect(hook.body.data).toEqual({ received: true, vote_id: expect.any(String), duplicate: false });
    expect((await get(org, `/v1/votes/${hook.body.data.vote_id}`)).body.data.test).toBe(false);
    const viaGraphql = await gql('mutation ($input: HookDeliveryInput!) { receiveVote(input: $input) { voteId testVote } }', {
      input: {
        orgSlug: org.slug,
        providerKey: 'gql',
        method: 'POST',
        headers: { 'x-secret': made.auth_value },
        query: {},
        rawBodyBase64: Buffer.from('{"user":"Other"}').toString('base64'),
      },
    });
    expect(viaGraphql.body.data.receiveVote.testVote).toBeNull();
    expect((await get(org, `/v1/votes/${viaGraphql.body.data.receiveVote.voteId}`)).body.data.test).toBe(false);
    const dashboard = (await get(org, '/v1/stats/dashboard')).body.data;
    expect(dashboard.summary.all_time).toBe(2);
  });
});
