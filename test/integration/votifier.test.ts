import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait.js';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startVotifierReceiver, type VotifierReceiver } from '../kit/votifier-receiver.js';

describe.skipIf(databaseUnavailable)('Votifier forwarding (NuVotifier protocols v1 and v2)', () => {
  let app: TestApp;
  let server: VotifierReceiver;

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms', DELIVERY_POLL_MS: '50' });
    server = await startVotifierReceiver({ tokens: { VoteRelay: 'right-token-123' } });
  });
  afterAll(async () => {
    await app?.stop();
    await server?.close();
  });

  async function setup(callback: Record<string, unknown>) {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const cb = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Minecraft', kind: 'votifier', host: server.host, port: server.port, ...callback },
    });
    expect(cb.status, JSON.stringify(cb.body)).toBe(201);
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'mc', name: 'MC List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const vote = async (user: string, extra: Record<string, unknown> = {}) =>
      (await app.request('POST', new URL(made.webhook_url).pathname, { body: { user, ...extra } })).body.data.vote_id as string;
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    const log = (id: string) => app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key }).then((r) => r.body.data);
    return { org, cb: cb.body.data, vote, read, log };
  }
  const settled = (v: { callback_status: string; received_at: string }) => !['pending', 'retrying'].includes(v.callback_status);

  it('v2: a token-signed vote arrives with the right username, service and timestamp', async () => {
    const s = await setup({ token: 'right-token-123', service_name: 'VoteRelay' });
    expect(s.cb).toMatchObject({ kind: 'votifier', host: server.host, port: server.port, service_name: 'VoteRelay', has_token: true });
    expect(JSON.stringify(s.cb)).not.toContain('right-token-123');
    const id = await s.vote('Notch', { ip: '203.0.113.9' });
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
    const got = server.votes.find((v) => v.username === 'Notch')!;
    expect(got).toEqual({ protocol: 2, serviceName: 'VoteRelay', username: 'Notch', address: '203.0.113.9', timestamp: String(Date.parse(vote.received_at)) });
  });

  it('v1: an RSA-encrypted block arrives and decrypts with the server key', async () => {
    const s = await setup({ public_key: server.publicKey, service_name: 'OldList' });
    const id = await s.vote('jeb_');
    const vote = await until(() => s.read(id), settled);
    expect(vote.callback_status).toBe('sent');
    expect(server.votes.find((v) => v.username === 'jeb_')).toEqual({
      protocol: 1,
      serviceName: 'OldList',
      username: 'jeb_',
      address: '127.0.0.1',
      timestamp: String(Date.parse(vote.received_at)),
    });
  });

  it('a wrong token is a failed attempt whose reason is the server’s error, failed at once (no retry can change it)', async () => {
    const s = await setup({ token: 'wrong-token', service_name: 'VoteRelay' });
    const id = await s.vote('Herobrine');
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'failed', callback_attempts: 1 });
    const log = await s.log(id);
    expect(log.attempts[0]).toMatchObject({
      success: false,
      target: `votifier://${server.host}:${server.port}`,
      error: expect.stringContaining('Signature is not valid (invalid token?)'),
    });
    expect(server.votes.some((v) => v.username === 'Herobrine')).toBe(false);
  });

  it("a name over 16 characters (a bot list's) fails at once with NuVotifier's reason, and is never sent", async () => {
    const s = await setup({ token: 'right-token-123', service_name: 'VoteRelay' });
    const long = 'a_discord_user_with_a_long_name';
    const id = await s.vote(long);
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'failed', callback_attempts: 1 });
    const log = await s.log(id);
    expect(log.attempts).toHaveLength(1);
    expect(log.attempts[0].error).toMatch(/^Username too long: .* has 31 characters; Votifier servers accept at most 16$/);
    expect(log.jobs[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(server.votes.some((v) => v.username === long)).toBe(false);
    // This vote's own fault, not the server's: the callback's run of failures does not start (no auto-disable).
    expect((await app.request('GET', `/v1/callbacks/${s.cb.id}`, { key: s.org.key })).body.data.failing_since).toBeNull();
    // A 16-character name still goes through.
    const ok = await s.vote('sixteen_chars_ok');
    expect(await until(() => s.read(ok), settled)).toMatchObject({ callback_status: 'sent' });
  });

  it('a stored v1 key that no longer reads as a key fails at once and says so', async () => {
    const s = await setup({ public_key: server.publicKey });
    await app.deps.db.prisma.callback.update({ where: { id: s.cb.id }, data: { votifierPublicKey: 'not-a-key' } });
    const id = await s.vote('Alex');
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'failed', callback_attempts: 1 });
    expect((await s.log(id)).attempts[0].error).toContain('is not an RSA public key');
  });

  it('a votifier callback shows no payload template and no signing secret, and has no secret to rotate', async () => {
    const s = await setup({ token: 'right-token-123' });
    expect(s.cb).not.toHaveProperty('payload_template');
    expect(s.cb).not.toHaveProperty('signing_secret');
    const read = await app.request('GET', `/v1/callbacks/${s.cb.id}`, { key: s.org.key });
    expect(read.body.data).not.toHaveProperty('payload_template');
    expect(read.body.data).toMatchObject({ kind: 'votifier', providers: [], max_per_second: null });
    const rotate = await app.request('POST', `/v1/callbacks/${s.cb.id}/rotate-secret`, { key: s.org.key });
    expect(rotate.status).toBe(400);
    expect(rotate.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a server that is down is retried by the schedule', async () => {
    const down = await startVotifierReceiver({ tokens: { default: 't0ken' } });
    const port = down.port;
    await down.close();
    const s = await setup({ token: 't0ken', port });
    const id = await s.vote('Offline');
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'failed', callback_attempts: 3 });
    expect((await s.log(id)).attempts.map((a: { error: string }) => a.error)).toEqual([
      expect.stringMatching(/ECONNREFUSED/),
      expect.stringMatching(/ECONNREFUSED/),
      expect.stringMatching(/ECONNREFUSED/),
    ]);
  });

  it('test returns the frame it would send and sends nothing', async () => {
    const s = await setup({ token: 'right-token-123' });
    const before = server.votes.length;
    const res = await app.request('POST', `/v1/callbacks/${s.cb.id}/test`, { key: s.org.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: `votifier://${server.host}:${server.port}`,
      method: 'VOTIFIER',
      sent: false,
      payload: { protocol: 2, magic: '0x733A' },
    });
    const frame = Buffer.from(res.body.data.payload.frame_base64, 'base64');
    expect(frame.readUInt16BE(0)).toBe(0x733a);
    expect(frame.readUInt16BE(2)).toBe(frame.length - 4);
    expect(JSON.parse(JSON.parse(frame.subarray(4).toString()).payload)).toMatchObject({ serviceName: 'VoteRelay', username: 'TestVoter' });
    const v1 = await setup({ public_key: server.publicKey });
    const r1 = await app.request('POST', `/v1/callbacks/${v1.cb.id}/test`, { key: v1.org.key });
    expect(r1.body.data.payload).toMatchObject({
      protocol: 1,
      plaintext: expect.stringMatching(/^VOTE\nVoteRelay\nTestVoter\n127\.0\.0\.1\n\d+\n$/),
      encrypted_bytes: 256,
    });
    expect(server.votes.length).toBe(before);
  });

  it('validates votifier callbacks', async () => {
    const org = await app.createOrg({ plan: 'business' });
    for (const [body, field] of [
      [{ name: 'x', kind: 'votifier', port: 8192, token: 't' }, 'host'],
      [{ name: 'x', kind: 'votifier', host: '127.0.0.1' }, 'token'],
      [{ name: 'x', kind: 'votifier', host: '127.0.0.1', token: 't', public_key: server.publicKey }, 'token'],
      [{ name: 'x', kind: 'votifier', host: '127.0.0.1', public_key: 'not a key' }, 'public_key'],
      [{ name: 'x', kind: 'votifier', host: '127.0.0.1', token: 't', port: 70000 }, 'port'],
      [{ name: 'x', kind: 'gopher', url: 'http://127.0.0.1/' }, 'kind'],
    ] as const) {
      const res = await app.request('POST', '/v1/callbacks', { key: org.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('an update may switch protocols (a new token replaces the key, a key the token) but never name both', async () => {
    const s = await setup({ token: 'right-token-123', service_name: 'VoteRelay' });
    const patch = (body: Record<string, unknown>) => app.request('PATCH', `/v1/callbacks/${s.cb.id}`, { key: s.org.key, body });
    const both = await patch({ token: 'other', public_key: server.publicKey });
    expect(both.status).toBe(400);
    expect(both.body.error.details.map((d: { field: string }) => d.field)).toContain('token');
    expect((await app.request('GET', `/v1/callbacks/${s.cb.id}`, { key: s.org.key })).body.data).toMatchObject({ has_token: true, public_key: null });
    const toV1 = await patch({ public_key: server.publicKey, service_name: 'OldList' });
    expect(toV1.status, JSON.stringify(toV1.body)).toBe(200);
    expect(toV1.body.data).toMatchObject({ has_token: false, public_key: server.publicKey, service_name: 'OldList' });
    const id = await s.vote('Dinnerbone');
    expect((await until(() => s.read(id), settled)).callback_status).toBe('sent');
    expect(server.votes.find((v) => v.username === 'Dinnerbone')).toMatchObject({ protocol: 1, serviceName: 'OldList' });
  });
});
