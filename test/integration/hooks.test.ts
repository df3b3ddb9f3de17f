import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { hmacHex } from '../kit/signing.js';
import type { VoteEvent } from '../../src/live/vote-events.js';

interface Made {
  key: string;
  secret: string;
  path: string;
}

describe.skipIf(databaseUnavailable)('inbound vote hooks', () => {
  let app: TestApp;
  let org: TestOrg;
  const providers: Record<string, Made> = {};

  const votes = () => app.deps.db.prisma.vote.findMany({ where: { organizationId: org.id }, orderBy: { receivedAt: 'asc' } });
  const count = () => app.deps.db.prisma.vote.count({ where: { organizationId: org.id } });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    app.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  async function provider(body: Record<string, unknown>): Promise<Made> {
    const res = await app.request('POST', '/v1/providers', { key: org.key, body: { name: body.key, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const url = new URL(res.body.data.webhook_url);
    return (providers[body.key as string] = { key: body.key as string, secret: res.body.data.auth_value, path: url.pathname + url.search });
  }

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'business' });
    await provider({ key: 'hdr', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user.name' });
    await provider({ key: 'qry', auth_method: 'query', auth_field: 'secret', votee_path: 'p_resp' });
    await provider({ key: 'pth', auth_method: 'url_path', auth_field: 'secret', votee_path: '$.data.votes[0].user' });
    await provider({ key: 'mac', auth_method: 'hmac', auth_field: 'X-Signature', votee_path: 'username' });
    await provider({ key: 'mts', auth_method: 'hmac', auth_field: 'X-Sig', auth_timestamp_field: 'X-Sig-Timestamp', votee_path: 'username' });
    await provider({ key: 'tgg', template: 'topgg', auth_value: 'whs_secret_0123456789abcdef' });
    providers.tgg.secret = 'whs_secret_0123456789abcdef';
    await provider({
      key: 'evt',
      auth_method: 'header',
      auth_field: 'Authorization',
      votee_path: 'user',
      event_path: 'type',
      vote_events: ['upvote'],
      test_events: ['test'],
    });
  });
  afterAll(() => app?.stop());

  it('header: accepts the secret (with or without Bearer), records the voter, answers the documented receipt', async () => {
    const p = providers.hdr;
    const res = await post(p.path, JSON.stringify({ user: { name: 'Alice' } }), { authorization: p.secret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { received: true, vote_id: expect.stringMatching(/^vt_[0-9a-f-]{36}$/), duplicate: false } });
    const bearer = await post(p.path, JSON.stringify({ user: { name: 'Bob' } }), { authorization: `Bearer ${p.secret}` });
    expect(bearer.status).toBe(200);
    const stored = await app.deps.db.prisma.vote.findUniqueOrThrow({ where: { publicId: res.body.data.vote_id } });
    // Counted under the voter the name resolved to (README "Voters").
    expect(stored).toMatchObject({ voterName: 'Alice', voterKey: expect.stringMatching(/^vtr_/), organizationId: org.id });
  });

  it('query, url_path: the secret in the query or the last path segment', async () => {
    const q = await app.request('GET', `${providers.qry.path}&p_resp=Steve&ip=1.2.3.4`);
    expect(q.status).toBe(200);
    const path = await post(providers.pth.path, JSON.stringify({ data: { votes: [{ user: 12345 }] } }));
    expect(path.status).toBe(200);
    const all = await votes();
    expect(all.map((v) => v.voterName)).toEqual(expect.arrayContaining(['Steve', '12345']));
    const steve = all.find((v) => v.voterName === 'Steve')!;
    // The parameter that carried the secret is not part of the vote, so it is never stored.
    expect(JSON.parse(steve.rawPayload)).toEqual({ p_resp: 'Steve', ip: '1.2.3.4' });
  });

  it('form bodies are read as a flat object by a provider whose payload_source is form', async () => {
    await provider({ key: 'frm', auth_method: 'query', auth_field: 'secret', votee_path: 'p_resp', payload_source: 'form' });
    const res = await app.request('POST', providers.frm.path, {
      rawBody: 'p_resp=FormUser&other=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect((await votes()).some((v) => v.voterName === 'FormUser')).toBe(true);
  });

  it('hmac: hex, sha256=hex and base64 signatures of the raw body', async () => {
    const p = providers.mac;
    const body = (name: string) => JSON.stringify({ username: name });
    for (const [name, sign] of [
      ['HexUser', (b: string) => hmacHex(p.secret, b)],
      ['PrefixUser', (b: string) => `sha256=${hmacHex(p.secret, b)}`],
      ['B64User', (b: string) => Buffer.from(hmacHex(p.secret, b), 'hex').toString('base64')],
    ] as const) {
      const res = await post(p.path, body(name), { 'x-signature': sign(body(name)) });
      expect(res.status, name).toBe(200);
    }
  });

  it('hmac with a timestamp header signs `<ts>.<body>` and refuses stale timestamps', async () => {
    const p = providers.mts;
    const body = JSON.stringify({ username: 'Stamped' });
    const now = Math.floor(Date.now() / 1000);
    const ok = await post(p.path, body, { 'x-sig': `sha256=${hmacHex(p.secret, `${now}.${body}`)}`, 'x-sig-timestamp': String(now) });
    expect(ok.status).toBe(200);
    const before = await count();
    const stale = now - 301;
    const old = await post(p.path, JSON.stringify({ username: 'Old' }), {
      'x-sig': `sha256=${hmacHex(p.secret, `${stale}.${JSON.stringify({ username: 'Old' })}`)}`,
      'x-sig-timestamp': String(stale),
    });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('AUTH_FAILED');
    const unsignedTs = await post(p.path, body, { 'x-sig': `sha256=${hmacHex(p.secret, body)}`, 'x-sig-timestamp': String(now) });
    expect(unsignedTs.status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('top.gg signed webhooks (t=…,v1=…), with test pings answered and not recorded', async () => {
    const p = providers.tgg;
    const vote = JSON.stringify({ type: 'vote.create', data: { id: '1', user: { id: '9', platform_id: '42', name: 'TopUser' } } });
    const t = Math.floor(Date.now() / 1000);
    const res = await post(p.path, vote, { 'x-topgg-signature': `t=${t},v1=${hmacHex(p.secret, `${t}.${vote}`)}` });
    expect(res.status).toBe(200);
    const before = await count();
    const ping = JSON.stringify({ type: 'webhook.test', data: { user: { name: 'TopUser' } } });
    const test = await post(p.path, ping, { 'x-topgg-signature': `t=${t},v1=${hmacHex(p.secret, `${t}.${ping}`)}` });
    expect(test.body).toEqual({ data: { received: true, test: true } });
    const replay = await post(p.path, vote, { 'x-topgg-signature': `t=${t - 400},v1=${hmacHex(p.secret, `${t - 400}.${vote}`)}` });
    expect(replay.status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('event filtering: test events answered as tests, other events ignored, nothing recorded', async () => {
    const p = providers.evt;
    const before = await count();
    const test = await post(p.path, JSON.stringify({ type: 'test', user: 'x' }), { authorization: p.secret });
    expect(test.body).toEqual({ data: { received: true, test: true } });
    const other = await post(p.path, JSON.stringify({ type: 'review', user: 'x' }), { authorization: p.secret });
    expect(other.body).toEqual({ data: { received: true, ignored: true } });
    expect(await count()).toBe(before);
    const vote = await post(p.path, JSON.stringify({ type: 'upvote', user: 'x' }), { authorization: p.secret });
    expect(vote.body.data.duplicate).toBe(false);
  });

  it('duplicates within 10 minutes return the first vote and record nothing new', async () => {
    const p = providers.hdr;
    const body = JSON.stringify({ user: { name: 'Dupe' }, n: Math.random() });
    const first = await post(p.path, body, { authorization: p.secret });
    const before = await count();
    const again = await post(p.path, body, { authorization: p.secret });
    expect(again.body).toEqual({ data: { received: true, vote_id: first.body.data.vote_id, duplicate: true } });
    const idem1 = await post(p.path, JSON.stringify({ user: { name: 'Idem' }, a: 1 }), { authorization: p.secret, 'idempotency-key': 'delivery-77' });
    const idem2 = await post(p.path, JSON.stringify({ user: { name: 'Idem' }, a: 2 }), { authorization: p.secret, 'idempotency-key': 'delivery-77' });
    expect(idem2.body.data).toEqual({ received: true, vote_id: idem1.body.data.vote_id, duplicate: true });
    expect(await count()).toBe(before + 1);
    // Racing identical deliveries still make one vote.
    const racing = JSON.stringify({ user: { name: 'Racer' }, n: Math.random() });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(p.path, racing, { authorization: p.secret })));
    expect(new Set(answers.map((a) => a.body.data.vote_id)).size).toBe(1);
    expect(answers.filter((a) => a.body.data.duplicate === false)).toHaveLength(1);
  });

  it('every refusal answers its code and records nothing', async () => {
    const p = providers.hdr;
    const good = JSON.stringify({ user: { name: 'Nobody' } });
    const before = await count();
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [post(p.path, good, { authorization: 'wrong-secret' }), 401, 'AUTH_FAILED'],
      [post(p.path, good), 401, 'AUTH_FAILED'],
      [post(`/hooks/no-such-org/${p.key}`, good, { authorization: p.secret }), 404, 'NOT_FOUND'],
      [post(`/hooks/${org.slug}/no-such-provider`, good, { authorization: p.secret }), 404, 'NOT_FOUND'],
      [post(p.path, JSON.stringify({ user: {} }), { authorization: p.secret }), 400, 'VALIDATION_ERROR'],
      [post(p.path, JSON.stringify({ user: { name: '   ' } }), { authorization: p.secret }), 400, 'VALIDATION_ERROR'],
      [post(p.path, JSON.stringify({ user: { name: { nested: true } } }), { authorization: p.secret }), 400, 'VALIDATION_ERROR'],
      [post(p.path, '{"user": ', { authorization: p.secret }), 400, 'VALIDATION_ERROR'],
      [post(p.path, JSON.stringify({ user: { name: 'x'.repeat(70_000) } }), { authorization: p.secret }), 413, 'PAYLOAD_TOO_LARGE'],
      [post(providers.mac.path, good, { 'x-signature': `sha256=${'0'.repeat(64)}` }), 401, 'AUTH_FAILED'],
      [post(providers.mac.path, good, { 'x-signature': 'not a signature' }), 401, 'AUTH_FAILED'],
      [post(providers.pth.path.replace(providers.pth.secret, 'wrong'), good), 401, 'AUTH_FAILED'],
      [app.request('GET', `/hooks/${org.slug}/qry?p_resp=x`), 401, 'AUTH_FAILED'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.meta.request_id).toBeTruthy();
    }
    expect(await count()).toBe(before);
  });

  it('disabled providers and suspended organizations record nothing', async () => {
    const p = providers.hdr;
    const body = JSON.stringify({ user: { name: 'Blocked' }, n: Math.random() });
    const before = await count();
    await app.request('PATCH', `/v1/providers/${p.key}`, { key: org.key, body: { enabled: false } });
    const disabled = await post(p.path, body, { authorization: p.secret });
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('PROVIDER_DISABLED');
    await app.request('PATCH', `/v1/providers/${p.key}`, { key: org.key, body: { enabled: true } });
    await app.services.organizations.setStatus(org.slug, 'suspended');
    const suspended = await post(p.path, body, { authorization: p.secret });
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.code).toBe('ORG_SUSPENDED');
    await app.services.organizations.setStatus(org.slug, 'active');
    expect(await count()).toBe(before);
    expect((await post(p.path, body, { authorization: p.secret })).status).toBe(200);
  });

  it('writes the vote, its delivery jobs and its rollups together, and publishes it after commit', async () => {
    const other = await app.createOrg({ plan: 'growth' });
    await app.request('PATCH', '/v1/organization', {
      key: other.key,
      body: { settings: { chat_webhook_url: 'https://discord.com/api/webhooks/1/x', server_callback_url: 'https://game.example.com/vote' } },
    });
    const made = (
      await app.request('POST', '/v1/providers', {
        key: other.key,
        body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const events: VoteEvent[] = [];
    const iterator = app.deps.feed.pubsub.subscribe('voteReceived', other.id)[Symbol.asyncIterator]();
    const next = iterator.next();
    const res = await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'Jobful' } });
    expect(res.status).toBe(200);
    events.push((await next).value as VoteEvent);
    await iterator.return?.();
    expect(events[0]).toMatchObject({ organizationId: other.id, publicId: res.body.data.vote_id, providerKey: 'p' });
    const vote = await app.deps.db.prisma.vote.findUniqueOrThrow({ where: { publicId: res.body.data.vote_id }, include: { jobs: true } });
    // Written with the vote as pending; the worker sends at once, and these hosts cannot be reached from a test
    // machine, so a first failed attempt may already have been recorded.
    expect(['pending', 'retrying']).toContain(vote.chatStatus);
    expect(['pending', 'retrying']).toContain(vote.callbackStatus);
    expect(vote.jobs.map((j) => j.kind).sort()).toEqual(['chat', 'legacy_callback']);
    const usage = (await app.request('GET', '/v1/organization', { key: other.key })).body.data.usage;
    expect(usage.votes_this_month).toBe(1);
    const voterDay = await app.deps.db.prisma.voterDailyCount.findFirstOrThrow({ where: { organizationId: other.id } });
    expect(voterDay).toMatchObject({ voterKey: expect.stringMatching(/^vtr_/), voterName: 'Jobful', count: 1 });
  });

  it('past the monthly vote limit, votes are kept but nothing is sent', async () => {
    const full = await app.createOrg({ plan: 'starter' });
    await app.request('PATCH', '/v1/organization', { key: full.key, body: { settings: { chat_webhook_url: 'https://discord.com/api/webhooks/1/x' } } });
    const made = (
      await app.request('POST', '/v1/providers', { key: full.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    const day = new Date().toISOString().slice(0, 10);
    // The month's count comes from the rollups; stand in for 1,000 earlier votes there.
    await app.deps.db.prisma.providerDailyCount.create({ data: { organizationId: full.id, providerId: made.id, day, count: 1000 } });
    const res = await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'Late' } });
    expect(res.status).toBe(200);
    const vote = await app.deps.db.prisma.vote.findUniqueOrThrow({ where: { publicId: res.body.data.vote_id }, include: { jobs: true } });
    expect(vote).toMatchObject({ overLimit: true, chatStatus: 'skipped', callbackStatus: 'skipped' });
    expect(vote.jobs).toHaveLength(0);
  });

  it('a burst written in shared transactions keeps the monthly limit, the rollups and duplicates exact', async () => {
    const busy = await app.createOrg({ plan: 'starter' });
    await app.request('PATCH', '/v1/organization', { key: busy.key, body: { settings: { chat_webhook_url: 'https://discord.com/api/webhooks/1/x' } } });
    const made = (
      await app.request('POST', '/v1/providers', { key: busy.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    const path = new URL(made.webhook_url).pathname;
    const day = new Date().toISOString().slice(0, 10);
    // 990 of the starter plan's 1,000 votes this month are used: of the burst's new votes, 10 are within it.
    await app.deps.db.prisma.providerDailyCount.create({ data: { organizationId: busy.id, providerId: made.id, day, count: 990 } });

    // 40 posts at once: 25 distinct deliveries from 5 voters (in mixed case), 15 of them sent twice in a row (so
    // both copies usually share a transaction; the group commit must still make one vote).
    const bodies = Array.from({ length: 25 }, (_, i) => JSON.stringify({ user: i % 2 ? `Voter${i % 5}` : `VOTER${i % 5}`, n: i }));
    const sent = bodies.flatMap((body, i) => (i < 15 ? [body, body] : [body]));
    const answers = await Promise.all(sent.map((body) => app.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json' } })));
    expect(answers.map((a) => a.status)).toEqual(sent.map(() => 200));

    // One vote per delivery: every repeat answers the vote id its first copy got.
    const idOf = new Map<string, Set<string>>();
    sent.forEach((body, i) => idOf.set(body, (idOf.get(body) ?? new Set()).add(answers[i].body.data.vote_id)));
    expect([...idOf.values()].map((ids) => ids.size)).toEqual(bodies.map(() => 1));
    expect(answers.filter((a) => a.body.data.duplicate === false)).toHaveLength(25);

    const stored = await app.deps.db.prisma.vote.findMany({ where: { organizationId: busy.id }, include: { jobs: true } });
    expect(stored).toHaveLength(25);
    const within = stored.filter((v) => !v.overLimit);
    expect(within).toHaveLength(10);
    // (The delivery worker may already be trying them: pending or retrying, never skipped.)
    expect(within.map((v) => [v.chatStatus === 'skipped', v.jobs.map((j) => j.kind)])).toEqual(within.map(() => [false, ['chat']]));
    expect(stored.filter((v) => v.overLimit).every((v) => v.chatStatus === 'skipped' && v.jobs.length === 0)).toBe(true);

    const providerDay = await app.deps.db.prisma.providerDailyCount.findUniqueOrThrow({ where: { providerId_day: { providerId: made.id, day } } });
    expect(providerDay.count).toBe(990 + 25);
    const voterDays = await app.deps.db.prisma.voterDailyCount.findMany({ where: { organizationId: busy.id }, orderBy: { voterKey: 'asc' } });
    const expected = new Map<string, number>();
    for (const vote of stored) expected.set(vote.voterKey, (expected.get(vote.voterKey) ?? 0) + 1);
    expect(voterDays.map((d) => [d.voterKey, d.count])).toEqual([...expected].sort(([a], [b]) => a.localeCompare(b)));
    // The spelling kept is the latest vote's.
    for (const row of voterDays) {
      const latest = stored
        .filter((v) => v.voterKey === row.voterKey)
        .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
        .at(-1)!;
      expect(row.lastVoteAt.getTime()).toBe(latest.receivedAt.getTime());
    }
  });
});

describe.skipIf(databaseUnavailable)('hook rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HOOK_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => app?.stop());

  it('answers 429 past the per-organization budget, leaving other organizations alone', async () => {
    const [a, b] = [await app.createOrg(), await app.createOrg()];
    const path = async (org: TestOrg) =>
      new URL(
        (
          await app.request('POST', '/v1/providers', {
            key: org.key,
            body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
          })
        ).body.data.webhook_url,
      ).pathname;
    const [pa, pb] = [await path(a), await path(b)];
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.request('POST', pa, { body: { user: `u${i}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await app.request('POST', pa, { body: { user: 'again' } });
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: a.id } })).toBe(3);
    expect((await app.request('POST', pb, { body: { user: 'fine' } })).status).toBe(200);
  });
});
