// The hook request log (README "Hook request log") through the real entry points: hooks over HTTP, Votifier over
// TCP on a provider's own port, a 413, the dashboard's test vote; read back through REST and GraphQL, live over SSE
// and graphql-ws. Each refusal appears with its outcome, reason and hint, and no secret used anywhere in the test is
// in any stored field; accepted and duplicate entries carry the voter and vote id; paging, filters, drop counts and
// tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { hmacHex } from '../kit/signing.js';
import { sseReader, type SseReader } from '../kit/sse.js';
import { until } from '../kit/wait.js';
import { freePort, v2Frame, votifierSession } from '../kit/votifier-sender.js';
import { BODY_HELD_BYTES } from '../../src/modules/hook-requests/redaction.js';

const SECRETS = {
  topgg: 'topgg-secret-Qw3rty-0123456789',
  header: 'header-secret-Zx9-0123456789',
  hytale: 'hsp-secret-Hy7-0123456789',
  path: 'pathsecret0123456789abcdef',
  query: 'query-secret-Qq1-0123456789',
  wrong: 'wrong-secret-Ww0-0123456789',
  wrongToken: 'wrong-votifier-token-0123456789',
};

describe.skipIf(databaseUnavailable)('hook request log', () => {
  let app: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let ownPort: number;
  let votifierToken: string;
  const used: string[] = Object.values(SECRETS);
  const streams: SseReader[] = [];
  const clients: Client[] = [];

  const requests = async (o: TestOrg, provider: string | null, query = '') =>
    app.request('GET', provider ? `/v1/providers/${provider}/requests${query}` : `/v1/hook-requests${query}`, { key: o.readKey });

  /** Waits for the log to show an entry matching `match` (entries are written every few hundred ms). */
  async function entry(o: TestOrg, provider: string | null, match: (e: any) => boolean) {
    const res = await until(
      () => requests(o, provider, '?limit=100'),
      (r) => r.status === 200 && r.body.data.requests.some(match),
      10_000,
    );
    return res.body.data.requests.find(match);
  }

  function topggBody(user: string) {
    return JSON.stringify({
      type: 'vote.create',
      data: { id: `v-${user}-${Math.random()}`, user: { id: '1', name: user }, weight: 1, created_at: new Date().toISOString() },
    });
  }
  const topggSignature = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`;

  beforeAll(async () => {
    const port = await freePort();
    ownPort = await freePort();
    app = await startTestApp({
      VOTIFIER_PORT: String(port),
      VOTIFIER_DEDICATED_PORTS: `${ownPort}-${ownPort}`,
      HOOK_FAILURE_LIMIT_PER_MINUTE: '100000',
      IP_RATE_LIMIT_PER_MINUTE: '100000',
    });
    org = await app.createOrg({ plan: 'growth' });
    other = await app.createOrg({ plan: 'growth' });
    const create = async (o: TestOrg, body: object) => {
      const res = await app.request('POST', '/v1/providers', { key: o.key, body });
      expect(res.status).toBe(201);
      return res.body.data;
    };
    await create(org, { template: 'topgg', auth_value: SECRETS.topgg });
    await create(org, { key: 'hdr', name: 'Header', auth_method: 'header', auth_field: 'X-Vote-Secret', auth_value: SECRETS.header, votee_path: 'user' });
    await create(org, { template: 'hytale-servers-pro', auth_value: SECRETS.hytale });
    await create(org, { key: 'up', name: 'Path', auth_method: 'url_path', auth_field: 's', auth_value: SECRETS.path, votee_path: 'user' });
    await create(org, {
      key: 'q',
      name: 'Query',
      auth_method: 'query',
      auth_field: 'k',
      auth_value: SECRETS.query,
      votee_path: 'user',
      payload_source: 'query',
    });
    await create(org, { key: 'flood', name: 'Flood', auth_method: 'url_path', auth_field: 's', auth_value: `${SECRETS.path}-flood`, votee_path: 'user' });
    const mc = await create(org, { key: 'mc', name: 'Votifier', auth_method: 'votifier', votifier_port: ownPort });
    votifierToken = mc.votifier.token;
    used.push(votifierToken, `${SECRETS.path}-flood`);
    await create(other, { template: 'topgg', auth_value: 'other-topgg-secret-0123456789' });
    used.push('other-topgg-secret-0123456789');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    for (const c of clients) await c.dispose();
    await app?.stop();
  });

  it('a wrong signature is refused and logged with the reason and what to fix, its signature redacted', async () => {
    const body = topggBody('wrongsig');
    const signature = topggSignature(SECRETS.wrong, body);
    used.push(signature.split('v1=')[1]);
    const res = await app.request('POST', `/hooks/${org.slug}/topgg`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-topgg-signature': signature, 'user-agent': 'TopGG' },
    });
    expect(res.status).toBe(401);
    const e = await entry(org, 'topgg', (x) => x.outcome === 'refused' && x.body.includes('wrongsig'));
    expect(e).toMatchObject({
      method: 'POST',
      path: `/hooks/${org.slug}/topgg`,
      protocol: 'http',
      status: 401,
      error_code: 'AUTH_FAILED',
      reason: 'Hook authentication failed: bad signature',
      hint: 'the signature did not match: check the secret you pasted into the site',
      client_ip: expect.any(String),
      provider_key: 'topgg',
      voter_name: null,
      vote_id: null,
      body_bytes: Buffer.byteLength(body),
    });
    expect(e.headers['x-topgg-signature']).toBe('[redacted]');
    expect(e.headers['user-agent']).toBe('TopGG');
    expect(e.body).toBe(body);
    expect(typeof e.duration_ms).toBe('number');
  });

  it('a GET to a provider that reads a JSON body says a proxy may have rewritten it, the secret header redacted', async () => {
    const res = await app.request('GET', `/hooks/${org.slug}/hdr?user=getter`, { headers: { 'x-vote-secret': SECRETS.header } });
    expect(res.status).toBe(400);
    const e = await entry(org, 'hdr', (x) => x.method === 'GET');
    expect(e).toMatchObject({
      outcome: 'refused',
      status: 400,
      error_code: 'VALIDATION_ERROR',
      reason: 'method: this provider reads votes from a POSTed json body; a GET is not read',
      hint: 'a GET reached a provider that reads a JSON body: a proxy may have rewritten the request',
      // Refused: every query value is redacted (a refused request may carry a secret meant for somewhere else).
      path: `/hooks/${org.slug}/hdr?user=[redacted]`,
    });
    expect(e.headers['x-vote-secret']).toBe('[redacted]');
  });

  it('a stale body timestamp (Hytale-Servers.pro) says the clock is wrong or the delivery was resent', async () => {
    const body = JSON.stringify({ hytale_username: 'Stale1', timestamp: Date.now() - 10 * 60_000, server_slug: 'x', vote_id: 'stale-1' });
    const res = await app.request('POST', `/hooks/${org.slug}/hytale-servers-pro`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': hmacHex(SECRETS.hytale, body) },
    });
    expect(res.status).toBe(401);
    const e = await entry(org, 'hytale-servers-pro', (x) => x.body.includes('Stale1'));
    expect(e.outcome).toBe('refused');
    expect(e.error_code).toBe('AUTH_FAILED');
    expect(e.reason).toContain('body timestamp is not within the last 300 seconds');
    expect(e.hint).toContain("the sender's clock is wrong or the delivery was resent");
    expect(e.headers['x-webhook-signature']).toBe('[redacted]');
  });

  it('an unknown provider key goes to the organization-level log, naming the providers there are', async () => {
    const res = await app.request('POST', `/hooks/${org.slug}/topgq/${SECRETS.path}?k=${SECRETS.query}`, { body: { user: 'typo' } });
    expect(res.status).toBe(404);
    const e = await entry(org, null, (x) => x.provider_key === 'topgq');
    expect(e).toMatchObject({
      outcome: 'refused',
      status: 404,
      error_code: 'NOT_FOUND',
      path: `/hooks/${org.slug}/topgq/[redacted]?k=[redacted]`,
      matched: false,
    });
    expect((await entry(org, 'topgg', () => true)).matched).toBe(true);
    // The dashboard shows a site that makes the secret where hooks are, before the provider exists.
    const base = await app.request('POST', '/graphql', { key: org.readKey, body: { query: '{ organization { hookBaseUrl } }' } });
    expect(base.body.data.organization.hookBaseUrl).toBe(`${app.deps.config.hookBaseUrl}/${org.slug}`);
    expect(e.hint).toBe('no provider has the key topgq: check the URL you gave the site; your providers are flood, hdr, hytale-servers-pro, mc, q, topgg, up');
    // Not in any provider's log, and not in another organization's.
    expect((await requests(org, 'topgg', '?limit=100')).body.data.requests.some((x: any) => x.provider_key === 'topgq')).toBe(false);
    expect((await requests(other, null)).body.data.requests).toEqual([]);
  });

  it('a slug that names no organization is not kept anywhere', async () => {
    expect((await app.request('POST', '/hooks/no-such-org-here/topgg', { body: { a: 1 } })).status).toBe(404);
    await app.request('POST', `/hooks/${org.slug}/topgq`, { body: { marker: 'after-unknown-org' } });
    await entry(org, null, (x) => x.body.includes('after-unknown-org'));
    const rows = await app.deps.db.prisma.hookRequest.count({ where: { path: { startsWith: '/hooks/no-such-org-here' } } });
    expect(rows).toBe(0);
  });

  it('a Votifier session with a bad token on the provider’s own port is that provider’s refused entry; a good one is accepted', async () => {
    await until(
      async () => (await votifierSession(ownPort, () => null, 1_000)).greeting,
      (g) => g.startsWith('VOTIFIER 2'),
      10_000,
    );
    const vote = { serviceName: 'TestList', username: 'BadToken', address: '203.0.113.5', timestamp: Date.now() };
    const bad = await votifierSession(ownPort, (challenge) => v2Frame(vote, SECRETS.wrongToken, challenge));
    expect(JSON.parse(bad.answer)).toMatchObject({ status: 'error' });
    const e = await entry(org, 'mc', (x) => x.outcome === 'refused' && x.body.includes('BadToken'));
    expect(e).toMatchObject({
      protocol: 'votifier_v2',
      status: 401,
      error_code: 'AUTH_FAILED',
      reason: 'Signature is not valid (invalid token?)',
      hint: "the token the list has is not this provider's: paste the provider's Votifier token into the list again",
    });
    expect(e.body).toContain('"signature":"[redacted]"');

    const good = await votifierSession(ownPort, (challenge) => v2Frame({ ...vote, username: 'GoodToken' }, votifierToken, challenge));
    expect(JSON.parse(good.answer)).toEqual({ status: 'ok' });
    const ok = await entry(org, 'mc', (x) => x.outcome === 'accepted');
    expect(ok).toMatchObject({ protocol: 'votifier_v2', status: 200, voter_name: 'GoodToken', vote_id: expect.stringMatching(/^vt_/) });
  });

  it('a 413 is kept in the provider’s log', async () => {
    const res = await app.request('POST', `/hooks/${org.slug}/topgg`, { rawBody: 'x'.repeat(70 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    const e = await entry(org, 'topgg', (x) => x.status === 413);
    expect(e).toMatchObject({ outcome: 'refused', error_code: 'PAYLOAD_TOO_LARGE', body_bytes: 70 * 1024 });
    expect(e.hint).toContain('64 KiB');
  });

  it('accepted and duplicate deliveries carry the voter and the vote id; secrets in the path and query are redacted', async () => {
    const first = await app.request('POST', `/hooks/${org.slug}/up/${SECRETS.path}`, { body: { user: 'Alice', n: 1 } });
    expect(first.status).toBe(200);
    const again = await app.request('POST', `/hooks/${org.slug}/up/${SECRETS.path}`, { body: { user: 'Alice', n: 1 } });
    expect(again.body.data).toMatchObject({ duplicate: true, vote_id: first.body.data.vote_id });
    const accepted = await entry(org, 'up', (x) => x.outcome === 'accepted' && x.voter_name === 'Alice');
    const duplicate = await entry(org, 'up', (x) => x.outcome === 'duplicate');
    expect(accepted).toMatchObject({ status: 200, vote_id: first.body.data.vote_id, path: `/hooks/${org.slug}/up/[redacted]`, error_code: null, hint: null });
    expect(duplicate).toMatchObject({ voter_name: 'Alice', vote_id: first.body.data.vote_id });

    const q = await app.request('GET', `/hooks/${org.slug}/q?user=Bob&k=${SECRETS.query}`);
    expect(q.status).toBe(200);
    const byQuery = await entry(org, 'q', (x) => x.voter_name === 'Bob');
    expect(byQuery).toMatchObject({ outcome: 'accepted', path: `/hooks/${org.slug}/q?user=Bob&k=[redacted]` });
  });

  it("the owner's test vote is logged as test_vote with its outcome", async () => {
    const res = await app.request('POST', '/v1/providers/topgg/test-vote', { key: org.key, body: { voter_name: 'LogTester' } });
    expect(res.status).toBe(200);
    const e = await entry(org, 'topgg', (x) => x.protocol === 'test_vote');
    expect(['accepted', 'duplicate']).toContain(e.outcome);
    expect(e.vote_id).toBe(res.body.data.vote_id);
  });

  it('a body cut inside a UTF-8 character, or with a control byte, or not UTF-8 at all, is read as text and redacted, never kept raw', async () => {
    // The body is held up to BODY_HELD_BYTES until written: here a '€' (3 bytes) straddles that cut, 4106 bytes in all.
    const head = '{"user":"Cutter","password":"hunter2-site-secret","pad":"';
    const cut = `${head}${'x'.repeat(BODY_HELD_BYTES - Buffer.byteLength(head) - 1)}€€€"}`;
    expect(Buffer.byteLength(cut)).toBe(4106);
    const control = Buffer.concat([Buffer.from('{"user":"Ctl","token":"ctl-token-secret-1234","c":"'), Buffer.from([1]), Buffer.from('"}')]);
    const notUtf8 = Buffer.concat([Buffer.from('{"user":"Utf","api_key":"bad-utf8-secret-5678","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    used.push('hunter2-site-secret', 'ctl-token-secret-1234', 'bad-utf8-secret-5678');
    for (const body of [cut, control, notUtf8]) {
      const res = await app.request('POST', `/hooks/${org.slug}/hdr`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'x-vote-secret': SECRETS.wrong },
      });
      expect(res.status).toBe(401);
    }
    const cutEntry = await entry(org, 'hdr', (x) => x.body.includes('Cutter'));
    expect(cutEntry.body.startsWith('{"user":"Cutter","password":"[redacted]","pad":"xxx')).toBe(true);
    expect(cutEntry.body_bytes).toBe(4106);
    const controlEntry = await entry(org, 'hdr', (x) => x.body.includes('Ctl'));
    expect(controlEntry.body).toBe('{"user":"Ctl","token":"[redacted]","c":"\u0001"}');
    const utf8Entry = await entry(org, 'hdr', (x) => x.body.includes('Utf'));
    expect(utf8Entry.body).toBe('{"user":"Utf","api_key":"[redacted]","x":"\uFFFD\uFFFD"}');
    const rows = await app.deps.db.prisma.hookRequest.findMany({ where: { id: { in: [cutEntry.id, controlEntry.id, utf8Entry.id] } } });
    for (const row of rows) {
      expect(row.body.startsWith('base64:')).toBe(false);
      for (const secret of ['hunter2-site-secret', 'ctl-token-secret-1234', 'bad-utf8-secret-5678']) expect(row.body).not.toContain(secret);
    }
  });

  it("an entry is redacted with the whole organization's rules: another provider's secret in an accepted request is taken out too", async () => {
    const res = await app.request('POST', `/hooks/${org.slug}/up/${SECRETS.path}`, {
      body: { user: 'Carrier', note: SECRETS.topgg, n: 7 },
      headers: { 'x-note': SECRETS.query, 'x-plain': 'kept' },
    });
    expect(res.status).toBe(200);
    const e = await entry(org, 'up', (x) => x.voter_name === 'Carrier');
    expect(e.outcome).toBe('accepted');
    expect(e.body).toBe('{"user":"Carrier","note":"[redacted]","n":7}');
    expect(e.headers['x-note']).toBe('[redacted]');
    // An accepted request's own plain headers stay readable.
    expect(e.headers['x-plain']).toBe('kept');
  });

  it('pages newest first with meta as the vote list, and filters by outcome and time', async () => {
    for (let i = 0; i < 4; i++) await app.request('POST', `/hooks/${org.slug}/up/${SECRETS.path}`, { body: { user: `Pager${i}`, n: i + 100 } });
    await entry(org, 'up', (x) => x.voter_name === 'Pager3');
    const all = await requests(org, 'up', '?outcome=accepted');
    expect(all.status).toBe(200);
    const total = all.body.meta.total;
    expect(total).toBeGreaterThanOrEqual(5);
    const times = all.body.data.requests.map((x: any) => Date.parse(x.received_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.body.data.requests.every((x: any) => x.outcome === 'accepted')).toBe(true);
    const page2 = await requests(org, 'up', '?outcome=accepted&limit=2&page=2');
    expect(page2.body.meta).toMatchObject({ page: 2, limit: 2, total, pages: Math.ceil(total / 2) });
    expect(page2.body.data.requests.map((x: any) => x.id)).toEqual(all.body.data.requests.slice(2, 4).map((x: any) => x.id));
    expect(page2.body.meta.request_id).toEqual(expect.any(String));
    expect((await requests(org, 'up', '?from=2099-01-01')).body.data.requests).toEqual([]);
    expect((await requests(org, 'up', '?outcome=refused')).body.data.requests).toEqual([]);
    for (const bad of ['?outcome=maybe', '?limit=0', '?limit=101', '?page=0', '?from=yesterday']) {
      const res = await requests(org, 'up', bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await requests(org, 'nope')).status).toBe(404);

    // GraphQL: the connection walks the same entries by cursor.
    const gql = (after: string | null) =>
      app.request('POST', '/graphql', {
        key: org.readKey,
        body: {
          query:
            'query ($after: String) { provider(key: "up") { requests(outcome: accepted, first: 2, after: $after) { totalCount edges { cursor node { id voterName hint } } pageInfo { hasNextPage endCursor } } } }',
          variables: { after },
        },
      });
    const one = (await gql(null)).body.data.provider.requests;
    expect(one.totalCount).toBe(total);
    expect(one.edges.map((e: any) => e.node.id)).toEqual(all.body.data.requests.slice(0, 2).map((x: any) => x.id));
    const two = (await gql(one.pageInfo.endCursor)).body.data.provider.requests;
    expect(two.edges.map((e: any) => e.node.id)).toEqual(all.body.data.requests.slice(2, 4).map((x: any) => x.id));
  });

  it('refused requests past the per-address bound are counted, not kept, and never evict accepted ones', async () => {
    const cap = app.config.hookLogMaxRefusedPerAddress;
    await app.request('POST', `/hooks/${org.slug}/flood/${SECRETS.path}-flood`, { body: { user: 'Keeper', n: 1 } });
    const junk = Array.from({ length: cap + 30 }, (_, i) =>
      app.request('POST', `/hooks/${org.slug}/flood/not-the-secret`, { body: { i }, headers: { 'x-forwarded-for': '203.0.113.9' } }),
    );
    for (const res of await Promise.all(junk)) expect(res.status).toBe(401);
    const read = await until(
      () => requests(org, 'flood', '?limit=100'),
      (r) => r.body.data.dropped.some((d: any) => d.client_ip === '203.0.113.9' && d.count === 30),
      10_000,
    );
    expect(read.body.data.dropped).toEqual([{ client_ip: '203.0.113.9', count: 30, first_at: expect.any(String), last_at: expect.any(String) }]);
    const refused = await requests(org, 'flood', '?outcome=refused&limit=1');
    expect(refused.body.meta.total).toBe(cap);
    const kept = await requests(org, 'flood', '?outcome=accepted');
    expect(kept.body.data.requests.map((x: any) => x.voter_name)).toEqual(['Keeper']);
    const gql = await app.request('POST', '/graphql', { key: org.readKey, body: { query: '{ provider(key: "flood") { requestDrops { clientIp count } } }' } });
    expect(gql.body.data.provider.requestDrops).toEqual([{ clientIp: '203.0.113.9', count: 30 }]);
  });

  it('another organization sees none of it, by REST or GraphQL', async () => {
    const mine = await requests(org, 'topgg');
    expect(mine.body.data.requests.length).toBeGreaterThan(0);
    const theirs = await requests(other, 'topgg', '?limit=100');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.requests).toEqual([]);
    expect((await requests(other, 'up')).status).toBe(404);
    const gql = await app.request('POST', '/graphql', {
      key: other.readKey,
      body: { query: '{ hookRequests { total requests { id } } provider(key: "topgg") { requests { totalCount } } }' },
    });
    expect(gql.body.data).toEqual({ hookRequests: { total: 0, requests: [] }, provider: { requests: { totalCount: 0 } } });
    expect((await app.request('GET', '/v1/hook-requests')).status).toBe(401);
  });

  it('the subscription delivers a refused request live, over SSE and graphql-ws, to its own organization only', async () => {
    const query = 'subscription { hookRequestReceived { outcome providerKey errorCode hint path headers body } }';
    const mine = await sseReader(`${app.url}/graphql`, org.readKey, query);
    const theirs = await sseReader(`${app.url}/graphql`, other.readKey, query);
    streams.push(mine, theirs);
    expect(mine.status).toBe(200);
    const ws = createClient({
      url: `${app.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${org.readKey}` },
      retryAttempts: 0,
    });
    clients.push(ws);
    const overWs: any[] = [];
    ws.subscribe(
      { query: 'subscription { hookRequestReceived(provider: "hdr") { outcome providerKey reason } }' },
      { next: (v) => void overWs.push(v), error: () => {}, complete: () => {} },
    );
    // graphql-sse's single-connection mode (/graphql/stream), filtered to another provider: it must not see this one.
    const sse = createSseClient({
      url: `${app.url}/graphql/stream`,
      singleConnection: true,
      headers: { authorization: `Bearer ${org.readKey}` },
      retryAttempts: 0,
    });
    const overSse: any[] = [];
    const overSseOther: any[] = [];
    const stopSse = sse.subscribe(
      { query: 'subscription { hookRequestReceived(provider: "hdr") { outcome providerKey } }' },
      { next: (v) => void overSse.push(v), error: () => {}, complete: () => {} },
    );
    const stopOther = sse.subscribe(
      { query: 'subscription { hookRequestReceived(provider: "up") { outcome } }' },
      { next: (v) => void overSseOther.push(v), error: () => {}, complete: () => {} },
    );
    // All four of this organization's subscriptions (SSE, graphql-ws, and the two over one graphql-sse connection) listen.
    await until(
      async () => app.deps.feed.listenerCount('hookRequestReceived', org.id),
      (n) => n >= 4,
      5_000,
    );

    const body = JSON.stringify({ user: 'LiveOne' });
    const res = await app.request('POST', `/hooks/${org.slug}/hdr`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-vote-secret': SECRETS.wrong },
    });
    expect(res.status).toBe(401);
    await until(
      async () => mine.events.length,
      (n) => n > 0,
      10_000,
    );
    expect(mine.events[0].data.hookRequestReceived).toMatchObject({
      outcome: 'refused',
      providerKey: 'hdr',
      errorCode: 'AUTH_FAILED',
      body,
      headers: { 'x-vote-secret': '[redacted]' },
    });
    expect(mine.events[0].data.hookRequestReceived.hint).toContain('check the secret you pasted into the site');
    await until(
      async () => overWs.length,
      (n) => n > 0,
      5_000,
    );
    expect(overWs[0].data.hookRequestReceived).toMatchObject({ outcome: 'refused', providerKey: 'hdr' });
    await until(
      async () => overSse.length,
      (n) => n > 0,
      5_000,
    );
    expect(overSse[0].data.hookRequestReceived).toEqual({ outcome: 'refused', providerKey: 'hdr' });
    expect(overSseOther).toEqual([]);
    stopSse();
    stopOther();
    sse.dispose();
    // The other organization's stream got nothing (give it the same time).
    await new Promise((r) => setTimeout(r, 500));
    expect(theirs.events).toEqual([]);
  });

  it('retention deletes entries older than HOOK_LOG_RETENTION and keeps the rest', async () => {
    const old = Date.now() - app.config.hookLogRetentionMs - 60_000;
    const row = {
      id: crypto.randomUUID(),
      organizationId: org.id,
      providerId: null,
      providerKey: 'ancient',
      receivedAt: old,
      clientIp: '192.0.2.1',
      method: 'POST',
      path: `/hooks/${org.slug}/ancient`,
      protocol: 'http',
      outcome: 'refused',
      status: 404,
      errorCode: 'NOT_FOUND',
      reason: 'Provider ancient not found',
      voterName: null,
      repairedFrom: null,
      voteId: null,
      durationMs: 1,
      headersJson: '{}',
      body: '',
      bodyBytes: 0,
    };
    const limits = { perProvider: 10_000, refusedPerAddress: 100, refusedPerScope: 2_000 };
    await app.deps.db.hookLog.submit({ kind: 'batch', rows: [row], drops: [], limits });
    const before = await app.deps.db.prisma.hookRequest.count({ where: { organizationId: org.id } });
    expect(await app.deps.db.prisma.hookRequest.count({ where: { id: row.id } })).toBe(1);
    const run = await app.retention.tick();
    expect(run.hookRequestsDeleted).toBeGreaterThanOrEqual(1);
    expect(await app.deps.db.prisma.hookRequest.count({ where: { id: row.id } })).toBe(0);
    expect(await app.deps.db.prisma.hookRequest.count({ where: { organizationId: org.id } })).toBe(before - 1);
  });

  it("a slug mistyped into another organization's leaves none of the sender's secrets in that organization's log", async () => {
    // The sender meant this organization's providers (q: query secret k; hdr: a header secret; up: a path secret)
    // but typed the other organization's slug: its log gets the requests (org-level, or refused by its topgg).
    const to = (rest: string) => `/hooks/${other.slug}/${rest}`;
    const sent = [
      await app.request('GET', to(`q?user=Lost1&k=${SECRETS.query}`), { headers: { 'x-site-key': SECRETS.header } }),
      await app.request('POST', to(`up/${SECRETS.path}?k=${SECRETS.query}`), { body: { user: 'Lost2' } }),
      await app.request('POST', to(`topgg?k=${SECRETS.query}`), { body: { user: 'Lost3' }, headers: { 'x-site-key': SECRETS.header } }),
    ];
    expect(sent.map((r) => r.status)).toEqual([404, 404, 401]);
    const lost1 = await entry(other, null, (x) => x.provider_key === 'q');
    expect(lost1.path).toBe(`/hooks/${other.slug}/q?user=[redacted]&k=[redacted]`);
    expect(lost1.headers['x-site-key']).toBe('[redacted]');
    const lost2 = await entry(other, null, (x) => x.provider_key === 'up');
    expect(lost2.path).toBe(`/hooks/${other.slug}/up/[redacted]?k=[redacted]`);
    const lost3 = await entry(other, 'topgg', (x) => x.body.includes('Lost3'));
    expect(lost3.path).toBe(`/hooks/${other.slug}/topgg?k=[redacted]`);
    expect(lost3.headers['x-site-key']).toBe('[redacted]');
    expect(lost3.headers['content-type']).toBe('application/json');
    const text = JSON.stringify(await app.deps.db.prisma.hookRequest.findMany({ where: { organizationId: other.id } }));
    for (const secret of [SECRETS.query, SECRETS.header, SECRETS.path]) expect(text).not.toContain(secret);
  });

  it('no secret used in this test is in any stored field', async () => {
    await app.hookRequestLog.flush(); // everything queued is written
    const rows = await app.deps.db.prisma.hookRequest.findMany({ where: { organizationId: { in: [org.id, other.id] } } });
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const text = JSON.stringify(row);
      for (const secret of used) expect(text.includes(secret) || text.includes(encodeURIComponent(secret)), `${secret} in ${text.slice(0, 300)}`).toBe(false);
    }
    // And none in what the API answers (hints name providers and fields, never values).
    for (const provider of ['topgg', 'hdr', 'hytale-servers-pro', 'up', 'q', 'mc', 'flood', null]) {
      const text = (await requests(org, provider, '?limit=100')).text;
      for (const secret of used) expect(text.includes(secret), `${secret} via ${provider}`).toBe(false);
    }
  });
});

describe.skipIf(databaseUnavailable)('hook request log turned off (HOOK_LOG_MAX_PER_PROVIDER=0)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HOOK_LOG_MAX_PER_PROVIDER: '0' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('keeps nothing, while hooks are answered as ever', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const created = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'authorization', auth_value: 'off-switch-secret-0123456789', votee_path: 'user' },
    });
    expect(created.status).toBe(201);
    expect(
      (await app.request('POST', `/hooks/${org.slug}/site`, { body: { user: 'Alice' }, headers: { authorization: 'off-switch-secret-0123456789' } })).status,
    ).toBe(200);
    expect((await app.request('POST', `/hooks/${org.slug}/site`, { body: { user: 'Mallory' }, headers: { authorization: 'wrong' } })).status).toBe(401);
    await app.hookRequestLog.flush();
    expect(await app.deps.db.prisma.hookRequest.count({ where: { organizationId: org.id } })).toBe(0);
    expect((await app.request('GET', '/v1/providers/site/requests', { key: org.key })).body.data.requests).toEqual([]);
  });
});
