// A delivery to a target that cannot drop a repeat (Votifier, RCON commands, a chat message) that was leaving when
// the relay was killed (README "Delivery guarantees"): it is not sent again after the restart, or by another instance
// once the lease lapses; it ends `uncertain` (vote status, delivery log, the votes list over REST and GraphQL,
// /metrics), the operator's log says so once, one admin alert goes out, and a redeliver sends it again once.
// Real server processes, SIGKILLed while the target holds the vote without answering.
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, TEST_SECRET_KEY, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { killAll, startTrackedServer, waitUntil } from '../kit/crash.js';
import { processApi as api, runCli, type ServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { startRconServer, type RconServer } from '../kit/rcon-server.js';
import { startVotifierReceiver } from '../kit/votifier-receiver.js';

const TOKEN = 'uncertain-test-token-0123456789';
const UNCERTAIN_TEXT = 'the relay stopped while sending: the server may or may not have it';

describe.skipIf(databaseUnavailable)('deliveries left uncertain by a kill -9', () => {
  const databaseUrl = testDatabaseUrl();
  const env = (instance: string) => ({
    DATABASE_URL: databaseUrl,
    SECRET_KEY: TEST_SECRET_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_POLL_MS: '100',
    DELIVERY_LEASE_MS: '3000',
    RETRY_SCHEDULE: '200ms,200ms,500ms',
    RCON_ONLINE_POLL: '200ms',
    INSTANCE_ID: instance,
  });
  const children: ChildProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  // Each test's processes go with it: another one's worker would claim its jobs from the shared database.
  afterEach(async () => {
    await killAll(children);
    children.length = 0;
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  /** A business organization with its admin alerts to `admin`, one hook provider, and `settings` besides. */
  async function setup(server: ServerProcess, admin: Receiver, settings: Record<string, unknown> = {}) {
    const created = await runCli(['org', 'create', '--slug', uniqueSlug('unsure'), '--name', 'Unsure', '--plan', 'business', '--json'], env('cli'));
    expect(created.code, created.stderr).toBe(0);
    const key: string = created.json.api_key.key;
    const slug: string = created.json.organization.slug;
    const set = await api(server, 'PATCH', '/v1/organization', key, {
      settings: { chat_admin_webhook_url: `${admin.url}/admin/${slug}`, admin_permanent_fail_alerts: true, ...settings },
    });
    expect(set.status, set.text).toBe(200);
    const provider = await api(server, 'POST', '/v1/providers', key, {
      key: 'list',
      name: 'The list',
      auth_method: 'url_path',
      auth_field: 's',
      votee_path: 'user',
    });
    expect(provider.status, provider.text).toBe(201);
    const hook = new URL(provider.body.data.webhook_url).pathname;
    const vote = async (on: ServerProcess, user: string) => {
      const res = await fetch(`${on.url}${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user }) });
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.data.vote_id as string;
    };
    return { key, slug, vote };
  }

  const alertsOf = (admin: Receiver, slug: string) => admin.requests.filter((r) => r.path === `/admin/${slug}`);
  const settle = () => new Promise((r) => setTimeout(r, 1_000));

  /** Waits until the vote's status (chat or callback) reads `uncertain`, and checks everything that says so. */
  async function expectUncertain(server: ServerProcess, key: string, voteId: string, status: 'callback_status' | 'chat_status') {
    let read: any;
    await waitUntil(
      async () => (read = (await api(server, 'GET', `/v1/votes/${voteId}`, key)).body)?.data?.[status] === 'uncertain',
      20_000,
      () => `${status} is ${read?.data?.[status]}`,
    );
    const listed = await api(server, 'GET', `/v1/votes?${status}=uncertain`, key);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.votes.map((v: { public_id: string }) => v.public_id)).toEqual([voteId]);
    const graphql = await api(server, 'POST', '/graphql', key, {
      query: `query ($s: DeliveryStatus) { votes(${status === 'chat_status' ? 'chatStatus' : 'callbackStatus'}: $s) { total votes { publicId } } }`,
      variables: { s: 'uncertain' },
    });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.votes).toEqual({ total: 1, votes: [{ publicId: voteId }] });
    const log = await api(server, 'GET', `/v1/votes/${voteId}/deliveries`, key);
    expect(log.status, log.text).toBe(200);
    expect(log.text).toContain(UNCERTAIN_TEXT);
  }

  it('Votifier: the vote the server was holding is not sent again after the restart; one alert, metrics, and a redeliver sends it once', {
    timeout: 90_000,
  }, async () => {
    const admin = await startReceiver({ status: 204 });
    const votifier = await startVotifierReceiver({ tokens: { VoteRelay: TOKEN } });
    closers.push(
      () => admin.close(),
      () => votifier.close(),
    );
    let server = await startTrackedServer(env('unsure-votifier'), children);
    const s = await setup(server, admin);
    const callback = await api(server, 'POST', '/v1/callbacks', s.key, {
      name: 'Survival',
      kind: 'votifier',
      host: votifier.host,
      port: votifier.port,
      service_name: 'VoteRelay',
      token: TOKEN,
      timeout_ms: 20_000,
    });
    expect(callback.status, callback.text).toBe(201);
    // A vote delivered before: nothing about it changes.
    const before = await s.vote(server, 'Alex');
    await waitUntil(
      () => votifier.votes.some((v) => v.username === 'Alex'),
      10_000,
      () => 'Alex never arrived',
    );

    votifier.holdAnswers(true);
    const voteId = await s.vote(server, 'Steve');
    await waitUntil(
      () => votifier.votes.some((v) => v.username === 'Steve'),
      10_000,
      () => 'Steve never arrived',
    );
    server.child.kill('SIGKILL');
    await server.exited;
    votifier.holdAnswers(false);
    server = await startTrackedServer(env('unsure-votifier'), children);

    await expectUncertain(server, s.key, voteId, 'callback_status');
    await settle();
    expect(votifier.votes.filter((v) => v.username === 'Steve')).toHaveLength(1);
    expect((await api(server, 'GET', `/v1/votes/${before}`, s.key)).body.data.callback_status).toBe('sent');
    // The operator's log, once; one admin alert, naming the vote.
    const lines = server.logs.filter((l) => l.includes('marked uncertain and not sent again'));
    expect(lines, server.logs.join('\n')).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, organization: s.slug, uncertain: 1 });
    await waitUntil(
      () => alertsOf(admin, s.slug).length === 1,
      10_000,
      () => `${alertsOf(admin, s.slug).length} alerts`,
    );
    await settle();
    const alerts = alertsOf(admin, s.slug);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].json.embeds[0].title).toBe('1 delivery left uncertain by a restart');
    expect(alerts[0].json.embeds[0].fields[0].value).toContain(`${voteId}: Steve from The list, callback "Survival" (votifier)`);
    // Metrics: one uncertain now, and one job finished so.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    // Read from the database, which other test files may share: at least this one.
    expect(metrics).toMatch(/^vote_relay_delivery_jobs_uncertain\{kind="callback"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^vote_relay_delivery_jobs_finished_total\{kind="callback",status="uncertain"\} 1$/m);

    // Resent on purpose: once.
    const again = await api(server, 'POST', `/v1/votes/${voteId}/redeliver`, s.key);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toEqual({ vote_id: voteId, requeued: 1 });
    await waitUntil(
      async () => (await api(server, 'GET', `/v1/votes/${voteId}`, s.key)).body.data.callback_status === 'sent',
      10_000,
      () => 'not sent',
    );
    await settle();
    expect(votifier.votes.filter((v) => v.username === 'Steve')).toHaveLength(2);
    expect((await api(server, 'GET', '/v1/votes?callback_status=uncertain', s.key)).body.data.votes).toEqual([]);
  });

  it('Votifier: a vote the server took and never answered within timeout_ms is not sent again, with one warning', { timeout: 60_000 }, async () => {
    const admin = await startReceiver({ status: 204 });
    const votifier = await startVotifierReceiver({ tokens: { VoteRelay: TOKEN } });
    closers.push(
      () => admin.close(),
      () => votifier.close(),
    );
    const server = await startTrackedServer(env('unsure-timeout'), children);
    const s = await setup(server, admin);
    const made = await api(server, 'POST', '/v1/callbacks', s.key, {
      name: 'Slow',
      kind: 'votifier',
      host: votifier.host,
      port: votifier.port,
      service_name: 'VoteRelay',
      token: TOKEN,
      timeout_ms: 1_000,
    });
    expect(made.status, made.text).toBe(201);
    votifier.holdAnswers(true);
    const voteId = await s.vote(server, 'Steve');
    let read: any;
    await waitUntil(
      async () => (read = (await api(server, 'GET', `/v1/votes/${voteId}`, s.key)).body.data).callback_status === 'uncertain',
      15_000,
      () => JSON.stringify(read),
    );
    expect(read.callback_attempts).toBe(1);
    const log = await api(server, 'GET', `/v1/votes/${voteId}/deliveries`, s.key);
    expect(log.text).toMatch(/no answer within 1000 ms after the vote was sent: the server may or may not have it/);
    await settle();
    expect(votifier.votes.filter((v) => v.username === 'Steve')).toHaveLength(1);
    const lines = server.logs.filter((l) => l.includes('was sent and not answered'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, voteId, callback: 'Slow', callbackKind: 'votifier' });
  });

  it('RCON: a command left unanswered by the kill is not run again, for a parked vote sent when its player joined and for an online one; an alert per restart', {
    timeout: 120_000,
  }, async () => {
    const admin = await startReceiver({ status: 204 });
    const rcon: RconServer = await startRconServer({ password: 'hunter22', players: ['Steve'] });
    closers.push(
      () => admin.close(),
      () => rcon.stop(),
    );
    let server = await startTrackedServer(env('unsure-rcon'), children);
    const s = await setup(server, admin);
    const callback = await api(server, 'POST', '/v1/callbacks', s.key, {
      name: 'Survival',
      kind: 'rcon',
      host: rcon.host,
      port: rcon.port,
      password: 'hunter22',
      commands: ['give {{voter_name}} diamond 1'],
      require_online: true,
      timeout_ms: 20_000,
    });
    expect(callback.status, callback.text).toBe(201);
    const gives = () => rcon.commands.filter((c) => c.startsWith('give '));
    const restart = async () => {
      server.child.kill('SIGKILL');
      await server.exited;
      rcon.answer(/^give /, 'Gave 1 [Diamond] to the player');
      server = await startTrackedServer(env('unsure-rcon'), children);
    };

    // Alex is offline: parked, then sent when they join, and cut short by the kill.
    const parked = await s.vote(server, 'Alex');
    await waitUntil(
      async () => (await api(server, 'GET', `/v1/votes/${parked}/deliveries`, s.key)).text.includes('"parked"'),
      10_000,
      () => 'Alex was not parked',
    );
    rcon.answer(/^give /, null); // the server runs it and never answers
    rcon.setPlayers(['Steve', 'Alex']);
    await waitUntil(
      () => gives().includes('give Alex diamond 1'),
      10_000,
      () => rcon.commands.join(' | '),
    );
    await restart();
    await expectUncertain(server, s.key, parked, 'callback_status');
    await waitUntil(
      () => alertsOf(admin, s.slug).length === 1,
      10_000,
      () => `${alertsOf(admin, s.slug).length} alerts`,
    );

    // Steve is online: sent at once, and cut short the same way.
    rcon.answer(/^give /, null);
    const online = await s.vote(server, 'Steve');
    await waitUntil(
      () => gives().includes('give Steve diamond 1'),
      10_000,
      () => rcon.commands.join(' | '),
    );
    await restart();
    await waitUntil(
      async () => (await api(server, 'GET', '/v1/votes?callback_status=uncertain', s.key)).body.data.votes.length === 2,
      20_000,
      () => 'not both uncertain',
    );
    await waitUntil(
      () => alertsOf(admin, s.slug).length === 2,
      10_000,
      () => `${alertsOf(admin, s.slug).length} alerts`,
    );
    await settle();
    expect(gives().sort()).toEqual(['give Alex diamond 1', 'give Steve diamond 1']);
    expect(alertsOf(admin, s.slug).map((a) => a.json.embeds[0].title)).toEqual([
      '1 delivery left uncertain by a restart',
      '1 delivery left uncertain by a restart',
    ]);

    // Each resent on purpose: once.
    for (const id of [online, parked]) {
      const again = await api(server, 'POST', `/v1/votes/${id}/redeliver`, s.key);
      expect(again.status, again.text).toBe(200);
      expect(again.body.data.requeued).toBe(1);
    }
    await waitUntil(
      () => gives().length === 4,
      10_000,
      () => gives().join(' | '),
    );
    await settle();
    expect(gives().sort()).toEqual(['give Alex diamond 1', 'give Alex diamond 1', 'give Steve diamond 1', 'give Steve diamond 1']);
    for (const id of [online, parked]) expect((await api(server, 'GET', `/v1/votes/${id}`, s.key)).body.data.callback_status).toBe('sent');
  });

  it('chat: an announcement left unanswered by the kill is not posted again; chat_status reads uncertain', { timeout: 60_000 }, async () => {
    const admin = await startReceiver({ status: 204 });
    const chat = await startReceiver({ status: 204, delayMs: 30_000 });
    closers.push(
      () => admin.close(),
      () => chat.close(),
    );
    let server = await startTrackedServer(env('unsure-chat'), children);
    const s = await setup(server, admin, { chat_webhook_url: `${chat.url}/chat` });
    const voteId = await s.vote(server, 'Steve');
    await waitUntil(
      () => chat.requests.length === 1,
      10_000,
      () => 'the announcement never arrived',
    );
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startTrackedServer(env('unsure-chat'), children);
    await expectUncertain(server, s.key, voteId, 'chat_status');
    await settle();
    expect(chat.requests).toHaveLength(1);
  });

  // Two instances share the database only on PostgreSQL (embedded SQLite has one writer).
  it.skipIf(dialect !== 'postgresql')('another instance that takes over the lapsed lease does not send it again either', { timeout: 60_000 }, async () => {
    const admin = await startReceiver({ status: 204 });
    const votifier = await startVotifierReceiver({ tokens: { VoteRelay: TOKEN } });
    closers.push(
      () => admin.close(),
      () => votifier.close(),
    );
    const a = await startTrackedServer(env('unsure-a'), children);
    const b = await startTrackedServer(env('unsure-b'), children);
    const s = await setup(a, admin);
    const made = await api(a, 'POST', '/v1/callbacks', s.key, {
      name: 'Lobby',
      kind: 'votifier',
      host: votifier.host,
      port: votifier.port,
      service_name: 'VoteRelay',
      token: TOKEN,
      timeout_ms: 20_000,
    });
    expect(made.status, made.text).toBe(201);
    votifier.holdAnswers(true);
    const voteId = await s.vote(a, 'Steve'); // sent by a, which stored it
    await waitUntil(
      () => votifier.votes.length === 1,
      10_000,
      () => 'Steve never arrived',
    );
    a.child.kill('SIGKILL');
    await a.exited;
    votifier.holdAnswers(false);
    await expectUncertain(b, s.key, voteId, 'callback_status');
    await settle();
    expect(votifier.votes).toHaveLength(1);
  });
});
