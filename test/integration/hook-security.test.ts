// What an attacker tried against a running instance (SECURITY.md, "Hook authentication" and "Abuse limits"):
// replaying a captured signed delivery with another voter, method or idempotency key; stripping top.gg's signed
// timestamp; spending an organization's hook budget without its secret; going around the hook's limits through
// /graphql; deep JSON; spreadsheet formulas in the export; and the smaller input holes. Each case answers in the
// documented envelope and records nothing it should not.
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { hmacHex } from '../kit/signing.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

interface Made {
  key: string;
  secret: string;
  path: string;
}

/** `[[[…1…]]]` or `{"a":{"a":…}}` nested `depth` levels. */
const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A raw HTTP request from a chosen local address (127.0.0.0/8 is all loopback): a stranger's own client address. */
function fromAddress(
  localAddress: string,
  port: number,
  method: string,
  path: string,
  body: string | undefined,
  headers: Record<string, string>,
  agent: Agent,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method,
        path,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(databaseUnavailable)('hook security: what is authenticated is what is read', () => {
  let app: TestApp;
  let org: TestOrg;
  const providers: Record<string, Made> = {};
  const votesOf = (voterName: string) => app.deps.db.prisma.vote.count({ where: { organizationId: org.id, voterName } });
  const total = () => app.deps.db.prisma.vote.count({ where: { organizationId: org.id } });

  async function provider(body: Record<string, unknown>, secret?: string): Promise<Made> {
    const res = await app.request('POST', '/v1/providers', { key: org.key, body: { name: body.key, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const url = new URL(res.body.data.webhook_url);
    return (providers[body.key as string] = { key: body.key as string, secret: secret ?? res.body.data.auth_value, path: url.pathname + url.search });
  }

  beforeAll(async () => {
    app = await startTestApp({ HOOK_RATE_LIMIT_PER_MINUTE: '100000' });
    org = await app.createOrg({ plan: 'business' });
    await provider({ key: 'mac', auth_method: 'hmac', auth_field: 'X-Signature', votee_path: 'user' });
    await provider({ key: 'mts', auth_method: 'hmac', auth_field: 'X-Sig', auth_timestamp_field: 'X-Sig-Timestamp', votee_path: 'user' });
    await provider({ key: 'tgg', template: 'topgg', auth_value: 'whs_secret_0123456789abcdef' }, 'whs_secret_0123456789abcdef');
  });
  afterAll(() => app?.stop());

  it('finding 1: a captured hmac delivery cannot name another voter through the query string, nor count twice', async () => {
    const p = providers.mac;
    const body = JSON.stringify({ user: 'Alice', id: 'real-1' });
    const signature = hmacHex(p.secret, body);
    const real = await app.request('POST', p.path, { rawBody: body, headers: { 'content-type': 'application/json', 'x-signature': signature } });
    expect(real.status).toBe(200);
    expect(real.body.data.duplicate).toBe(false);

    // The same signed body on a GET with the voter in the query: refused, nothing recorded.
    const get = await app.request('GET', `${p.path}?user=Mallory`, { rawBody: undefined, headers: { 'x-signature': signature } });
    expect(get.status).toBeGreaterThanOrEqual(400);
    expect(get.status).toBeLessThan(500);
    expect(get.body.error.code).toMatch(/^(VALIDATION_ERROR|AUTH_FAILED)$/);
    // A POST with the signed body and the voter in the query still reads the voter from the signed body.
    const post = await app.request('POST', `${p.path}?user=Mallory`, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-signature': signature },
    });
    expect(post.status).toBe(200);
    expect(post.body.data).toMatchObject({ vote_id: real.body.data.vote_id, duplicate: true });
    // New idempotency keys do not make the same signed delivery a new vote.
    for (const header of ['idempotency-key', 'webhook-id']) {
      const again = await app.request('POST', p.path, {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'x-signature': signature, [header]: `fresh-${header}` },
      });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ vote_id: real.body.data.vote_id, duplicate: true });
    }
    // The signed JSON re-labelled as a form body is still read as JSON (the content type is not signed).
    const form = await app.request('POST', p.path, {
      rawBody: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': signature },
    });
    expect(form.body.data?.duplicate ?? false).toBe(true);
    expect(await votesOf('Mallory')).toBe(0);
    expect(await votesOf('Alice')).toBe(1);
  });

  it('finding 1 (timestamped): a replay inside the window with a fresh Idempotency-Key is a duplicate', async () => {
    const p = providers.mts;
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ user: 'Stamped' });
    const headers = { 'content-type': 'application/json', 'x-sig': `sha256=${hmacHex(p.secret, `${now}.${body}`)}`, 'x-sig-timestamp': String(now) };
    const first = await app.request('POST', p.path, { rawBody: body, headers });
    expect(first.status).toBe(200);
    const replay = await app.request('POST', p.path, { rawBody: body, headers: { ...headers, 'idempotency-key': 'another' } });
    expect(replay.body.data).toMatchObject({ vote_id: first.body.data.vote_id, duplicate: true });
    const viaGet = await app.request('GET', `${p.path}?user=Mallory2`, { headers });
    expect(viaGet.status).toBeGreaterThanOrEqual(400);
    // Without its timestamp header the delivery is refused (the timestamp is mandatory).
    const bare = await app.request('POST', p.path, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-sig': `sha256=${hmacHex(p.secret, body)}` },
    });
    expect(bare.status).toBe(401);
    expect(await votesOf('Stamped')).toBe(1);
    expect(await votesOf('Mallory2')).toBe(0);
  });

  it("finding 2: top.gg's signed timestamp cannot be stripped to a bare signature", async () => {
    const p = providers.tgg;
    const old = Math.floor(Date.now() / 1000) - 3600;
    const body = JSON.stringify({ type: 'vote.create', data: { id: 'v-old', user: { name: 'Replayed', platform_id: '7' } } });
    const hex = hmacHex(p.secret, `${old}.${body}`);
    const stamped = await app.request('POST', p.path, {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-topgg-signature': `t=${old},v1=${hex}` },
    });
    expect(stamped.status).toBe(401);
    const before = await total();
    // The bare hex over the body "<t>.<body>": as a GET (voter in the query) and as a form POST.
    const viaGet = await app.request('GET', `${p.path}?data.user.name=Replayed`, { rawBody: undefined, headers: { 'x-topgg-signature': hex } });
    expect(viaGet.status).toBeGreaterThanOrEqual(400);
    const formBody = `${old}.${body}`;
    for (const contentType of ['application/x-www-form-urlencoded', 'application/json', 'text/plain']) {
      const res = await app.request('POST', p.path, { rawBody: formBody, headers: { 'content-type': contentType, 'x-topgg-signature': hex } });
      expect(res.status, res.text).toBe(401);
    }
    // Any other spelling of the same digest is refused too: this provider's format is t=…,v1=… only.
    for (const value of [`sha256=${hex}`, Buffer.from(hex, 'hex').toString('base64'), `v1=${hex}`]) {
      const res = await app.request('POST', p.path, { rawBody: formBody, headers: { 'content-type': 'application/json', 'x-topgg-signature': value } });
      expect(res.status).toBe(401);
    }
    expect(await total()).toBe(before);
    expect(await votesOf('Replayed')).toBe(0);
  });

  it('finding 2: a provider cannot be switched to a weaker signature format, and the format is shown', async () => {
    const read = await app.request('GET', '/v1/providers/tgg', { key: org.key });
    expect(read.body.data).toMatchObject({ signature_format: 'topgg', payload_source: 'json' });
    const custom = await app.request('GET', '/v1/providers/mts', { key: org.key });
    expect(custom.body.data).toMatchObject({ signature_format: 'plain', auth_timestamp_field: 'X-Sig-Timestamp' });
    // top.gg signs its own timestamp; a timestamp header makes no sense beside it, and a query source can't be signed.
    const bad = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'badsig', name: 'x', auth_method: 'hmac', auth_field: 'X-S', votee_path: 'u', signature_format: 'topgg', auth_timestamp_field: 'X-T' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'auth_timestamp_field' })]));
    const query = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'badsrc', name: 'x', auth_method: 'hmac', auth_field: 'X-S', votee_path: 'u', payload_source: 'query' },
    });
    expect(query.status).toBe(400);
    expect(query.body.error.details).toEqual([expect.objectContaining({ field: 'payload_source' })]);
  });

  it('finding 7: a NUL in a voter name is refused and nothing is stored', async () => {
    const p = providers.mac;
    const body = JSON.stringify({ user: 'Nul\u0000Name' });
    const res = await app.request('POST', p.path, { rawBody: body, headers: { 'content-type': 'application/json', 'x-signature': hmacHex(p.secret, body) } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id, voterName: { startsWith: 'Nul' } } })).toBe(0);
  });

  it('finding 7: a secret of spaces (or with control characters) is refused', async () => {
    for (const authValue of ['        ', ' padded-secret ', 'tab\tsecret1']) {
      const res = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'spaces', name: 'x', auth_method: 'header', auth_field: 'Authorization', votee_path: 'u', auth_value: authValue },
      });
      expect(res.status, authValue).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'auth_value' })]);
    }
  });
});

describe.skipIf(databaseUnavailable)('hook security: strangers cannot spend an organization budget', () => {
  let app: TestApp;
  let org: TestOrg;
  let made: Made;
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });

  beforeAll(async () => {
    // The documented default hook budget: 500 authenticated deliveries per minute per organization.
    app = await startTestApp();
    org = await app.createOrg({ plan: 'business' });
    const res = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'real', name: 'Real', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' },
    });
    made = { key: 'real', secret: res.body.data.auth_value, path: new URL(res.body.data.webhook_url).pathname };
  });
  afterAll(async () => {
    agent.destroy();
    await app?.stop();
  });

  it('1,000 unauthenticated requests from another address leave the real deliveries answered 200', async () => {
    const slug = org.slug;
    const encoded = [...slug].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const targets = [`/hooks/${slug}/nope`, `/hooks/${encoded}/nope`, `/hooks/${slug.toUpperCase()}/real`, `/hooks/${slug}/real`, `/hooks/${encoded}/real`];
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 1000) {
          const i = next++;
          const target = targets[i % targets.length];
          const res = await fromAddress(
            '127.0.0.2',
            app.port,
            'POST',
            target,
            JSON.stringify({ user: `Mallory${i}` }),
            { 'content-type': 'application/json', authorization: `wrong-${i}` },
            agent,
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    // Each was refused (404, 401 or, once the address is over its failure budget, 429); never a 5xx.
    expect(
      [...statuses.keys()].every((s) => [401, 404, 429].includes(s)),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
    // The real site, from its own address, is still answered 200, within the organization's budget.
    for (let i = 0; i < 20; i++) {
      const res = await fromAddress(
        '127.0.0.1',
        app.port,
        'POST',
        made.path,
        JSON.stringify({ user: `Real${i}` }),
        { 'content-type': 'application/json', authorization: made.secret },
        agent,
      );
      expect(res.status, res.text).toBe(200);
    }
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(20);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id, voterName: { startsWith: 'Mallory' } } })).toBe(0);
  });

  it('the percent-encoded and upper-case slug reach the same organization as the plain one', async () => {
    const encoded = [...org.slug].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const slug of [encoded, org.slug.toUpperCase()]) {
      const res = await app.request('POST', `/hooks/${slug}/REAL`, { body: { user: `Case-${slug.length}` }, headers: { authorization: made.secret } });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe.skipIf(databaseUnavailable)('hook security: receiveVote on /graphql has the hook limits', () => {
  let app: TestApp;
  let org: TestOrg;
  let secret: string;
  const mutation = `mutation ($input: HookDeliveryInput!) { receiveVote(input: $input) { received voteId duplicate } }`;
  const gql = (rawBody: string) =>
    app.request('POST', '/graphql', {
      headers: { accept: 'application/json' },
      body: {
        query: mutation,
        variables: {
          input: {
            orgSlug: org.slug,
            providerKey: 'gq',
            method: 'POST',
            headers: { authorization: secret, 'content-type': 'application/json' },
            query: {},
            rawBodyBase64: Buffer.from(rawBody).toString('base64'),
          },
        },
      },
    });

  beforeAll(async () => {
    app = await startTestApp({ HOOK_RATE_LIMIT_PER_MINUTE: '5' });
    org = await app.createOrg({ plan: 'business' });
    const res = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'gq', name: 'G', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' },
    });
    secret = res.body.data.auth_value;
  });
  afterAll(() => app?.stop());

  it('a body over 64 KiB is PAYLOAD_TOO_LARGE, as on the hook', async () => {
    const big = JSON.stringify({ user: 'Big', pad: 'x'.repeat(70 * 1024) });
    const res = await gql(big);
    expect(res.body.data?.receiveVote ?? null).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('on /graphql the request is required in the input: without its body, headers or query, nothing is read or stored', async () => {
    for (const left of ['rawBodyBase64', 'headers', 'query']) {
      const input: Record<string, unknown> = {
        orgSlug: org.slug,
        providerKey: 'gq',
        method: 'POST',
        headers: { authorization: secret },
        query: {},
        rawBodyBase64: Buffer.from('{"user":"NoBody"}').toString('base64'),
      };
      delete input[left];
      const res = await app.request('POST', '/graphql', { headers: { accept: 'application/json' }, body: { query: mutation, variables: { input } } });
      expect(res.body.data?.receiveVote ?? null, left).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: `input.${left}`, message: 'is required' }] });
    }
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id, voterName: 'NoBody' } })).toBe(0);
  });

  it('the per-organization hook budget is shared with the hook route', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await gql(JSON.stringify({ user: `G${i}` }));
      codes.push(res.body.errors?.[0]?.extensions?.code ?? 'ok');
    }
    const hook = await app.request('POST', `/hooks/${org.slug}/gq`, { body: { user: 'H1' }, headers: { authorization: secret } });
    codes.push(hook.status === 200 ? 'ok' : hook.body.error.code);
    const over = await gql(JSON.stringify({ user: 'G-over' }));
    codes.push(over.body.errors?.[0]?.extensions?.code ?? 'ok');
    expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED']);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(5);
  });
});

describe.skipIf(databaseUnavailable)('bounded JSON depth, formula-safe CSV, and the smaller holes', () => {
  let app: TestApp;
  let org: TestOrg;
  let chat: Receiver;
  let game: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms', DELIVERY_POLL_MS: '50' });
    org = await app.createOrg({ plan: 'business' });
    chat = await startReceiver({ status: 204 });
    game = await startReceiver({ status: 200, body: { ok: true } });
  });
  afterAll(async () => {
    await app?.stop();
    await chat?.close();
    await game?.close();
  });

  it('finding 5: deep JSON in templates, test messages and GraphQL variables is a VALIDATION_ERROR, never a 500', async () => {
    const created = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      rawBody: `{"name":"deep","url":"${game.url}/deep","payload_template":${deepObject(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status, created.text.slice(0, 300)).toBe(400);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    // 3,000 nested arrays fit in 16 KiB: refused by depth, not by size.
    const arrays = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      rawBody: `{"name":"deep","url":"${game.url}/deep","payload_template":{"x":${deepArray(3_000)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(arrays.status).toBe(400);
    expect(arrays.body.error.code).toBe('VALIDATION_ERROR');
    const embed = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      rawBody: `{"settings":{"chat_message_type":"embed","chat_embed_template":${deepObject(10_000)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(embed.status).toBe(400);
    expect(embed.body.error.code).toBe('VALIDATION_ERROR');
    const test = await app.request('POST', '/v1/organization/test-chat-webhook', {
      key: org.key,
      rawBody: `{"webhook_url":"${chat.url}/x","message_type":"embed","embed_template":${deepArray(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(test.status).toBe(400);
    expect(test.body.error.code).toBe('VALIDATION_ERROR');
    // GraphQL: the JSON scalar in variables and inline.
    const viaVariables = await app.request('POST', '/graphql', {
      key: org.key,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      rawBody: `{"query":"mutation ($t: JSON) { createCallback(input: {name: \\"d\\", url: \\"${game.url}/d\\", payloadTemplate: $t}) { id } }","variables":{"t":${deepObject(10_000)}}}`,
    });
    expect(viaVariables.status).toBe(400);
    expect(JSON.stringify(viaVariables.body)).toContain('VALIDATION_ERROR');
    const inline = await app.request('POST', '/graphql', {
      key: org.key,
      headers: { accept: 'application/json' },
      body: { query: `mutation { createCallback(input: {name: "d", url: "${game.url}/d", payloadTemplate: ${deepArray(3_000)}}) { id } }` },
    });
    expect(inline.status).toBeLessThan(500);
    expect(inline.body.errors?.length).toBeGreaterThan(0);
    // A hook body nested too deep is refused as well.
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'deep', name: 'Deep', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    const hook = await app.request('POST', new URL(made.body.data.webhook_url).pathname, {
      rawBody: `{"user":"D","x":${deepArray(5_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.status).toBe(400);
    expect(hook.body.error.code).toBe('VALIDATION_ERROR');
    const callbacks = await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key });
    expect(callbacks.body.data.count).toBe(0);
  });

  it('finding 5: a stored template that cannot be rendered fails its job for good instead of retrying forever', async () => {
    const own = await app.createOrg({ plan: 'business' });
    const cb = await app.request('POST', '/v1/callbacks', { key: own.key, body: { name: 'legacy', url: `${game.url}/legacy` } });
    expect(cb.status).toBe(201);
    // A template stored before depth was bounded (written straight into the database, as an old row would be).
    await app.deps.db.prisma.callback.update({ where: { id: cb.body.data.id }, data: { payloadTemplateJson: `{"x":${deepArray(20_000)}}` } });
    const provider = await app.request('POST', '/v1/providers', {
      key: own.key,
      body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    const hook = await app.request('POST', new URL(provider.body.data.webhook_url).pathname, { body: { user: 'Legacy' } });
    expect(hook.status).toBe(200);
    const job = await until(
      () => app.deps.db.prisma.deliveryJob.findFirst({ where: { organizationId: own.id, kind: 'callback' } }),
      (j) => j?.status === 'failed',
      10_000,
    );
    expect(job!.attempts).toBeGreaterThanOrEqual(1);
    expect(job!.lastError).toMatch(/template/i);
    const attempts = await app.deps.db.prisma.deliveryAttempt.findMany({ where: { jobId: job!.id } });
    expect(attempts.length).toBe(job!.attempts);
  });

  it('finding 6: the CSV export neutralises spreadsheet formulas', async () => {
    const own = await app.createOrg({ plan: 'business' });
    const provider = await app.request('POST', '/v1/providers', {
      key: own.key,
      body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    const path = new URL(provider.body.data.webhook_url).pathname;
    const names = ['=HYPERLINK("http://evil.example","x")', '+1+1', '@SUM(1+1)', "=cmd|' /C calc'!A0", '-2+3', '\tTabbed', 'Plain'];
    for (const name of names) expect((await app.request('POST', path, { body: { user: name } })).status).toBe(200);
    const csv = await app.request('GET', '/v1/votes/export', { key: own.key });
    expect(csv.status).toBe(200);
    const firstCells = csv.text
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    for (const cell of firstCells) {
      const unquoted = cell.startsWith('"') ? cell.slice(1) : cell;
      expect(unquoted, cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(csv.text).toContain("'=HYPERLINK");
    expect(csv.text).toContain("'+1+1");
    expect(csv.text).toContain("'@SUM(1+1)");
    expect(csv.text).toContain("'-2+3");
    expect(csv.text).toMatch(/(^|\n)Plain,/);
  });

  it('finding 7: an embed url carries the voter name percent-encoded', async () => {
    const own = await app.createOrg({ plan: 'business' });
    const patched = await app.request('PATCH', '/v1/organization', {
      key: own.key,
      body: {
        settings: {
          chat_webhook_url: `${chat.url}/api/webhooks/1/t`,
          chat_message_type: 'embed',
          chat_embed_template: {
            title: 'Vote',
            url: 'https://example.com/players/{{voter_name}}',
            author: { name: '{{voter_name}}', url: 'https://example.com/u?n={{voter_name}}' },
          },
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const provider = await app.request('POST', '/v1/providers', {
      key: own.key,
      body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    const before = chat.requests.length;
    const name = 'a b/../x?y=1&z#frag';
    expect((await app.request('POST', new URL(provider.body.data.webhook_url).pathname, { body: { user: name } })).status).toBe(200);
    const [sent] = (await chat.waitFor(before + 1)).slice(before);
    const embed = sent.json.embeds[0];
    expect(embed.url).toBe(`https://example.com/players/${encodeURIComponent(name)}`);
    expect(embed.author).toEqual({ name, url: `https://example.com/u?n=${encodeURIComponent(name)}` });
  });

  it('finding 7: a refused Votifier host is reported under host', async () => {
    const strict = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const own = await strict.createOrg({ plan: 'business' });
      const res = await strict.request('POST', '/v1/callbacks', {
        key: own.key,
        body: { name: 'mc', kind: 'votifier', host: '169.254.169.254', port: 8192, service_name: 'VoteRelay', token: 'abcdefgh12345678' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'host' })]);
    } finally {
      await strict.stop();
    }
  });
});
