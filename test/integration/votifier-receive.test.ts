// Receiving Votifier (v1 RSA, v2 token) over TCP on 127.0.0.1 and over HTTP on the provider's hook URL, with a
// sender written from NuVotifier's client code (test/kit/votifier-sender.ts), on both databases.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { freePort, v1Block, v2Frame, votifierSession, type SentVote } from '../kit/votifier-sender.js';
import { mulberry32 } from '../kit/prng.js';
import { startReceiver } from '../kit/receiver.js';
import { createHmac } from 'node:crypto';

describe.skipIf(databaseUnavailable)('receiving Votifier votes', () => {
  let app: TestApp;
  let port: number;
  let org: TestOrg;
  let other: TestOrg;
  type Setup = { host: string; port: number; public_key: string; token: string };
  let mine: { key: string; path: string; votifier: Setup };
  let theirs: { key: string; votifier: Setup };

  const name = () => `p${randomBytes(4).toString('hex')}`.slice(0, 16);
  const vote = (username = name(), timestamp: string | number = Date.now()): SentVote => ({
    serviceName: 'MinecraftServers.org',
    username,
    address: '203.0.113.7',
    timestamp,
  });
  const votesOf = (username: string) => app.deps.db.prisma.vote.findMany({ where: { voterName: username } });

  async function votifierProvider(owner: TestOrg, key: string) {
    const res = await app.request('POST', '/v1/providers', { key: owner.key, body: { key, name: 'Minecraft lists', auth_method: 'votifier' } });
    expect(res.status).toBe(201);
    return { key, path: new URL(res.body.data.webhook_url).pathname, votifier: res.body.data.votifier as Setup, authValue: res.body.data.auth_value as string };
  }

  let ownPort: number;

  beforeAll(async () => {
    port = await freePort();
    ownPort = await freePort();
    app = await startTestApp({
      VOTIFIER_PORT: String(port),
      VOTIFIER_DEDICATED_PORTS: `${ownPort}-${ownPort}`,
      VOTIFIER_HOST: 'votes.example.net',
      VOTIFIER_TIMEOUT_MS: '1000',
      VOTIFIER_MAX_CONNECTIONS_PER_IP: '30',
      IP_RATE_LIMIT_PER_MINUTE: '100000',
      HOOK_FAILURE_LIMIT_PER_MINUTE: '100000',
    });
    org = await app.createOrg({ plan: 'business' });
    other = await app.createOrg({ plan: 'business' });
    mine = await votifierProvider(org, 'mc');
    theirs = await votifierProvider(other, 'mc');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('creates a votifier provider with a key pair and token; GET shows host, port and public key, never the token', async () => {
    expect(app.votifierPort).toBe(port);
    const created = await votifierProvider(org, 'mc2');
    expect(created.votifier).toMatchObject({ host: 'votes.example.net', port });
    expect(Buffer.from(created.votifier.public_key, 'base64').length).toBeGreaterThan(290); // RSA-2048 SPKI DER
    expect(created.votifier.token).toMatch(/^[0-9a-v]{20,27}$/);
    expect(created.authValue).toBe(created.votifier.token);
    const got = await app.request('GET', '/v1/providers/mc2', { key: org.key });
    expect(got.body.data.votifier).toEqual({ host: 'votes.example.net', port, public_key: created.votifier.public_key });
    expect(got.text).not.toContain(created.votifier.token);
    expect(got.text).not.toMatch(/PRIVATE|privateKey/);
    // Other providers' answers keep their shape.
    await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'plain', name: 'Plain', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' },
    });
    expect((await app.request('GET', '/v1/providers/plain', { key: org.key })).body.data).not.toHaveProperty('votifier');
    // A list that issues its own token (HytaleTop100): the pasted token is the provider's; the key pair is made here.
    const pasted = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { template: 'hytaletop100', key: 'mc3', auth_value: 'site-issued-token-0123456789' },
    });
    expect(pasted.status, pasted.text).toBe(201);
    expect(pasted.body.data.votifier).toMatchObject({ token: 'site-issued-token-0123456789', port });
    // Without it the template asks for it, and nothing is created.
    const missing = await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'hytaletop100', key: 'mc4' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'auth_value' })]);
  });

  it('v2 over TCP: greeted with a challenge, answered ok only once the vote is stored; the username and service are kept', async () => {
    const v = vote();
    let storedAtAnswer = -1;
    const result = await votifierSession(port, (challenge) => v2Frame(v, mine.votifier.token, challenge));
    storedAtAnswer = (await votesOf(v.username)).length;
    expect(result.greeting).toMatch(/^VOTIFIER 2 [0-9a-v]+$/);
    expect(JSON.parse(result.answer)).toEqual({ status: 'ok' });
    expect(storedAtAnswer).toBe(1);
    const [row] = await votesOf(v.username);
    expect(row.organizationId).toBe(org.id);
    expect(JSON.parse(row.rawPayload)).toEqual({
      serviceName: 'MinecraftServers.org',
      username: v.username,
      address: '203.0.113.7',
      timestamp: String(v.timestamp),
    });
  });

  it('v1 over TCP: the block for this provider’s public key is recorded for this provider only', async () => {
    const v = vote(name(), String(Date.now()));
    const result = await votifierSession(port, () => v1Block(v, mine.votifier.public_key));
    expect(result.closed).toBe(true);
    expect(result.answer).toBe('');
    await expect.poll(async () => (await votesOf(v.username)).map((r) => r.organizationId)).toEqual([org.id]);
    const w = vote();
    await votifierSession(port, () => v1Block(w, theirs.votifier.public_key));
    await expect.poll(async () => (await votesOf(w.username)).map((r) => r.organizationId)).toEqual([other.id]);
  });

  it('refuses a wrong token (v2 error answer), a wrong challenge, and a v1 block for a key nobody has: nothing recorded', async () => {
    const v = vote();
    const wrong = await votifierSession(port, (challenge) => v2Frame(v, 'not-the-token', challenge));
    expect(JSON.parse(wrong.answer)).toMatchObject({ status: 'error', cause: 'RuntimeException', error: 'Signature is not valid (invalid token?)' });
    const replayed = await votifierSession(port, () => v2Frame(v, mine.votifier.token, 'another-sessions-challenge'));
    expect(JSON.parse(replayed.answer)).toMatchObject({ status: 'error', cause: 'AUTH_FAILED' });
    const { generateKeyPairSync } = await import('node:crypto');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const unknown = await votifierSession(port, () => v1Block(v, stranger));
    expect(unknown).toMatchObject({ closed: true, answer: '' });
    expect(await votesOf(v.username)).toEqual([]);
  });

  it('over HTTP on the hook URL: the v2 JSON (no challenge) and a base64 v1 block; stale or foreign deliveries are refused', async () => {
    const post = (body: string, type = 'application/json') => app.request('POST', mine.path, { rawBody: body, headers: { 'content-type': type } });
    const message = (v: SentVote, token: string) => {
      const frame = v2Frame(v, token, '');
      return JSON.stringify({ ...JSON.parse(frame.subarray(4).toString('utf8')) });
    };
    const a = vote();
    const ok2 = await post(message(a, mine.votifier.token));
    expect(ok2.status).toBe(200);
    expect(ok2.body.data).toMatchObject({ received: true, duplicate: false });
    // The same delivery again is the same vote; so is the same service, username and timestamp from another address
    // (v1 has no id), over either protocol.
    expect((await post(message(a, mine.votifier.token))).body.data.duplicate).toBe(true);
    expect((await post(message({ ...a, address: '198.51.100.1' }, mine.votifier.token))).body.data.duplicate).toBe(true);
    expect((await post(v1Block(a, mine.votifier.public_key).toString('base64'), 'text/plain')).body.data.duplicate).toBe(true);
    const b = vote();
    const ok1 = await post(v1Block(b, mine.votifier.public_key).toString('base64'), 'text/plain');
    expect(ok1.status).toBe(200);
    expect((await votesOf(a.username)).length + (await votesOf(b.username)).length).toBe(2);

    // At most 9 minutes old and 1 minute ahead: a resend then always falls in the first delivery's duplicate window.
    expect((await post(message(vote(name(), Date.now() - 8 * 60_000), mine.votifier.token))).status).toBe(200);
    expect((await post(message(vote(name(), Date.now() + 2 * 60_000), mine.votifier.token))).status).toBe(401);
    const stale = vote(name(), Date.now() - 9.5 * 60_000);
    const refusedStale = await post(message(stale, mine.votifier.token));
    expect(refusedStale.status).toBe(401);
    expect(refusedStale.body.error.code).toBe('AUTH_FAILED');
    const foreign = await post(message(vote(), theirs.votifier.token));
    expect(foreign.status).toBe(401);
    // A v1 block made for another provider's key, posted to this provider's URL, is not this provider's vote.
    const theirsBlock = vote();
    const foreignV1 = await post(v1Block(theirsBlock, theirs.votifier.public_key).toString('base64'), 'text/plain');
    expect(foreignV1.status).toBe(401);
    expect(await votesOf(theirsBlock.username)).toEqual([]);
    const garbage = await post('not a vote at all', 'text/plain');
    expect(garbage.status).toBe(400);
    expect(await votesOf(stale.username)).toEqual([]);
  });

  it('over HTTP, 400 seeded malformed Votifier deliveries: never a 5xx, always the error envelope, nothing recorded', async () => {
    const random = mulberry32(0x70_71_f1_e5);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
    const sign = (payload: string, token = mine.votifier.token) => createHmac('sha256', token).update(payload).digest('base64');
    const good = () => JSON.stringify({ serviceName: 'Fuzz', username: `fz${Math.floor(random() * 1e6)}`, address: '203.0.113.2', timestamp: Date.now() });
    const makers: (() => [string, Buffer])[] = [
      () => ['application/octet-stream', bytes(Math.floor(random() * 600))],
      () => ['text/plain', Buffer.from(bytes(Math.floor(random() * 400)).toString('base64'))],
      () => ['text/plain', Buffer.from(bytes(256).toString('base64'))], // the right size, no key made it
      () => ['application/json', Buffer.from(JSON.stringify({ payload: good() }))],
      () => ['application/json', Buffer.from(JSON.stringify({ payload: 42, signature: 'x' }))],
      () => ['application/json', Buffer.from(`{"payload":${JSON.stringify(good())},"signature":`)],
      () => {
        const p = good();
        return ['application/json', Buffer.from(JSON.stringify({ payload: p, signature: `${sign(p).slice(0, -4)}AAA=` }))];
      },
      () => {
        const p = JSON.stringify({ username: 'x', timestamp: Date.now() });
        return ['application/json', Buffer.from(JSON.stringify({ payload: p, signature: sign(p) }))];
      },
      () => {
        const p = JSON.stringify({ serviceName: 's', username: 'x'.repeat(40), address: 'a', timestamp: Date.now() });
        return ['application/json', Buffer.from(JSON.stringify({ payload: p, signature: sign(p) }))];
      },
      () => {
        const p = JSON.stringify({ serviceName: 's', username: 'u', address: 'a', timestamp: 'yesterday' });
        return ['application/json', Buffer.from(JSON.stringify({ payload: p, signature: sign(p) }))];
      },
      () => {
        const p = '[1,2,3]';
        return ['application/json', Buffer.from(JSON.stringify({ payload: p, signature: sign(p) }))];
      },
      () => ['application/json', Buffer.from('{'.repeat(300))],
    ];
    const before = await app.deps.db.prisma.vote.count();
    const answers = [];
    for (let i = 0; i < 400; i += 20) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, () => {
            const [type, body] = pick(makers)();
            return app.request('POST', mine.path, { rawBody: body, headers: { 'content-type': type } });
          }),
        )),
      );
    }
    expect(answers.filter((a) => a.status >= 500).map((a) => a.text)).toEqual([]);
    expect(answers.filter((a) => a.status < 400).map((a) => a.text)).toEqual([]);
    expect(answers.every((a) => typeof a.body?.error?.code === 'string' && typeof a.body.error.message === 'string')).toBe(true);
    expect(await app.deps.db.prisma.vote.count()).toBe(before);
    const p = good();
    expect(
      (await app.request('POST', mine.path, { rawBody: JSON.stringify({ payload: p, signature: sign(p) }), headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(200);
  });

  it('a Votifier vote is a vote: a callback receives it, with the list’s service name and the voter’s address in its template', async () => {
    const receiver = await startReceiver({ status: 200 });
    try {
      const owner = await app.createOrg({ plan: 'business' });
      const provider = await votifierProvider(owner, 'mc');
      const callback = await app.request('POST', '/v1/callbacks', {
        key: owner.key,
        body: {
          name: 'Game server',
          url: `${receiver.url}/votes`,
          payload_template: { player: '{voter_name}', list: '{payload.serviceName}', ip: '{payload.address}', provider: '{provider_key}' },
        },
      });
      expect(callback.status, callback.text).toBe(201);
      const v = vote();
      await votifierSession(port, () => v1Block(v, provider.votifier.public_key));
      const [delivered] = await receiver.waitFor(1, 10_000);
      expect(delivered.json).toEqual({ player: v.username, list: 'MinecraftServers.org', ip: '203.0.113.7', provider: 'mc' });
    } finally {
      await receiver.close();
    }
  });

  it('regenerating rotates the token and the key pair together', async () => {
    const created = await votifierProvider(org, 'mc-rot');
    const res = await app.request('POST', '/v1/providers/mc-rot/regenerate-secret', { key: org.key });
    expect(res.status).toBe(200);
    const next = res.body.data.votifier as Setup;
    expect(next.token).not.toBe(created.votifier.token);
    expect(next.public_key).not.toBe(created.votifier.public_key);
    const old = vote();
    // The routing table is reused for up to 5 s; a token nobody has any more re-reads it, so this is refused now.
    const refusedOld = await votifierSession(port, (challenge) => v2Frame(old, created.votifier.token, challenge));
    expect(JSON.parse(refusedOld.answer).status).toBe('error');
    const fresh = vote();
    const accepted = await votifierSession(port, (challenge) => v2Frame(fresh, next.token, challenge));
    expect(JSON.parse(accepted.answer)).toEqual({ status: 'ok' });
    expect(await votesOf(old.username)).toEqual([]);
  });

  it('a provider with a port of its own (VOTIFIER_DEDICATED_PORTS) takes v1 there without trying anyone else’s key', async () => {
    const outside = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'mc-out', name: 'x', auth_method: 'votifier', votifier_port: ownPort + 1 },
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.details).toEqual([{ field: 'votifier_port', message: `must be within ${ownPort}-${ownPort}` }]);
    const notVotifier = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'hdr', name: 'x', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user', votifier_port: ownPort },
    });
    expect(notVotifier.body.error.details).toEqual([{ field: 'votifier_port', message: 'applies only to votifier providers' }]);
    const res = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'mc-own', name: 'Own port', auth_method: 'votifier', votifier_port: ownPort },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.votifier.port).toBe(ownPort);
    const taken = await app.request('POST', '/v1/providers', {
      key: other.key,
      body: { key: 'mc-own', name: 'x', auth_method: 'votifier', votifier_port: ownPort },
    });
    expect(taken.body.error.details).toEqual([{ field: 'votifier_port', message: 'is already used by another provider' }]);
    expect((await app.request('GET', '/v1/providers/mc-own', { key: org.key })).body.data.votifier.port).toBe(ownPort);

    // The port opens when the routing table is read again (within 6 s).
    const v = vote();
    const publicKey = res.body.data.votifier.public_key;
    await expect
      .poll(async () => (await votifierSession(ownPort, () => v1Block(v, publicKey), 2_000)).greeting, { timeout: 10_000, interval: 300 })
      .toMatch(/^VOTIFIER 2 /);
    await expect.poll(async () => (await votesOf(v.username)).map((r) => r.providerId)).toHaveLength(1);
    // Another provider's block is not routed from here, even though its key is known to the shared port.
    const w = vote();
    await votifierSession(ownPort, () => v1Block(w, mine.votifier.public_key));
    await new Promise((r) => setTimeout(r, 300));
    expect(await votesOf(w.username)).toEqual([]);
    // Given back, the port closes.
    expect((await app.request('PATCH', '/v1/providers/mc-own', { key: org.key, body: { votifier_port: null } })).status).toBe(200);
    await expect.poll(async () => (await votifierSession(ownPort, () => null, 1_000)).greeting, { timeout: 10_000, interval: 300 }).toBe('');
  });

  it('a provider whose keys cannot be read is left out of routing; everyone else is served and nothing crashes', async () => {
    await app.deps.db.prisma.provider.create({
      data: {
        organizationId: other.id,
        key: 'broken',
        name: 'Broken',
        authMethod: 'votifier',
        authField: 'votifier',
        authValueEnc: 'not-a-sealed-secret',
        voteePath: 'username',
      },
    });
    // A token nobody has makes the listener read its table again, broken row included.
    const miss = await votifierSession(port, (challenge) => v2Frame(vote(), 'nobody-has-this-token', challenge));
    expect(JSON.parse(miss.answer).status).toBe('error');
    const v = vote();
    expect(JSON.parse((await votifierSession(port, (challenge) => v2Frame(v, mine.votifier.token, challenge))).answer)).toEqual({ status: 'ok' });
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    await app.deps.db.prisma.provider.deleteMany({ where: { organizationId: other.id, key: 'broken' } });
  });

  // Refused before any database work (nothing is recorded): run once, on SQLite, where the database does not matter.
  it.skipIf(dialect !== 'sqlite')('closes 500 garbage, oversized, truncated and silent sessions with nothing recorded, and keeps serving', async () => {
    const before = await app.deps.db.prisma.vote.count();
    const kinds = [
      () => randomBytes(256), // a v1-sized block of noise
      () => Buffer.from([0x73, 0x3a, 0xff, 0xff]), // a v2 frame claiming 65 KiB
      () => Buffer.concat([Buffer.from([0x73, 0x3a, 0x00, 0x20]), Buffer.from('{"payload":"{}","signature":"x"}')]),
      () => Buffer.concat([Buffer.from([0x73, 0x3a, 0x00, 0x05]), Buffer.from('{nope')]),
      () => Buffer.from([0x73]), // one byte, then silence
      () => null, // nothing at all
    ];
    const results = [];
    for (let i = 0; i < 500; i += 25) {
      results.push(...(await Promise.all(Array.from({ length: 25 }, (_, j) => votifierSession(port, () => kinds[(i + j) % kinds.length](), 3_000)))));
    }
    expect(results.every((r) => r.closed)).toBe(true);
    expect(results.filter((r) => r.answer.includes('"status":"ok"'))).toEqual([]);
    expect(await app.deps.db.prisma.vote.count()).toBe(before);
    const v = vote();
    expect(JSON.parse((await votifierSession(port, (challenge) => v2Frame(v, mine.votifier.token, challenge))).answer)).toEqual({ status: 'ok' });
  });

  it('bounds connections per address', async () => {
    const held = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const s = connect({ host: '127.0.0.1', port });
            s.once('data', () => resolve(s));
          }),
      ),
    );
    const oneMore = await votifierSession(port, () => null, 2_000);
    expect(oneMore).toMatchObject({ closed: true, greeting: '' });
    held.forEach((s) => s.destroy());
  });
});

describe.skipIf(databaseUnavailable)('the Votifier listener under refused sessions', () => {
  it('stops greeting an address past its refused-session budget (HOOK_FAILURE_LIMIT_PER_MINUTE)', async () => {
    const port = await freePort();
    const app = await startTestApp({ VOTIFIER_PORT: String(port), HOOK_FAILURE_LIMIT_PER_MINUTE: '3', VOTIFIER_TIMEOUT_MS: '1000' });
    try {
      const noise = () => randomBytes(256);
      for (let i = 0; i < 3; i++) expect((await votifierSession(port, noise)).greeting).toMatch(/^VOTIFIER 2 /);
      // The budget is spent: the next session is closed before any work (no greeting, nothing decrypted).
      expect(await votifierSession(port, noise, 2_000)).toMatchObject({ greeting: '', closed: true });
    } finally {
      await app.stop();
    }
  });
});
