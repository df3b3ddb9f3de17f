import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { until } from '../kit/wait.js';

const clock = {
  offsetMs: 0,
  now() {
    return new Date(Date.now() + this.offsetMs);
  },
};

describe.skipIf(databaseUnavailable)('pull delivery for plugins behind NAT', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({}, { clock });
  });
  afterAll(() => app?.stop());

  async function setup() {
    const org: TestOrg = await app.createOrg({ plan: 'growth' });
    const made = await app.request('POST', '/v1/plugin-tokens', { key: org.key, body: { name: 'Survival server' } });
    expect(made.status).toBe(201);
    const provider = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'p', name: 'P List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const vote = async (user: string) =>
      (await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user, n: Math.random() } })).body.data.vote_id as string;
    const poll = (query = 'wait=0', token = made.body.data.token) => app.request('GET', `/v1/plugin/votes?${query}`, { key: token });
    return { org, token: made.body.data, vote, poll };
  }

  it('creates a token shown once, lists it with its connection state and the waiting count', async () => {
    const s = await setup();
    expect(s.token).toEqual({ id: expect.any(String), name: 'Survival server', token: expect.stringMatching(/^vr_plugin_/), prefix: expect.any(String) });
    await s.vote('Waiting1');
    const before = (await app.request('GET', '/v1/plugin-tokens', { key: s.org.readKey })).body.data;
    expect(before).toEqual({
      waiting: 1,
      parked: 0,
      tokens: [
        { id: s.token.id, name: 'Survival server', prefix: s.token.prefix, created_at: expect.any(String), last_poll_at: null, connection: 'never', parked: 0 },
      ],
    });
    expect(JSON.stringify(before)).not.toContain(s.token.token);
    await s.poll();
    const after = (await app.request('GET', '/v1/plugin-tokens', { key: s.org.readKey })).body.data;
    expect(after.tokens[0]).toMatchObject({ connection: 'connected', last_poll_at: expect.any(String) });
  });

  it('hands out a vote, and a claim settles it (claiming twice is one claim)', async () => {
    const s = await setup();
    const id = await s.vote('Steve');
    const polled = await s.poll();
    expect(polled.status).toBe(200);
    expect(polled.body.data.votes).toEqual([
      { id, voter_name: 'Steve', provider_key: 'p', provider_name: 'P List', received_at: expect.any(String), attempt: 1, test: false },
    ]);
    expect((await s.poll()).body.data.votes).toEqual([]); // reserved for the poller that has it
    const claim = await app.request('POST', `/v1/plugin/votes/${id}/claim`, { key: s.token.token });
    expect(claim.body.data).toEqual({ vote_id: id, status: 'claimed' });
    const again = await app.request('POST', `/v1/plugin/votes/${id}/claim`, { key: s.token.token });
    expect(again.body.data).toEqual({ vote_id: id, status: 'claimed' });
    const vote = (await app.request('GET', `/v1/votes/${id}`, { key: s.org.key })).body.data;
    expect(vote).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
    const log = (await app.request('GET', `/v1/votes/${id}/deliveries`, { key: s.org.key })).body.data;
    expect(log.jobs).toEqual([expect.objectContaining({ kind: 'pull', status: 'sent', attempts: 1 })]);
    expect(log.attempts).toEqual([expect.objectContaining({ kind: 'pull', success: true, response_excerpt: 'claimed' })]);
  });

  it('two pollers racing on one token never receive the same vote', async () => {
    const s = await setup();
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push(await s.vote(`racer${i}`));
    const seen: string[][] = [[], []];
    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all([s.poll('wait=0&limit=4'), s.poll('wait=0&limit=4')]);
      seen[0].push(...a.body.data.votes.map((v: { id: string }) => v.id));
      seen[1].push(...b.body.data.votes.map((v: { id: string }) => v.id));
    }
    expect(seen[0].filter((id) => seen[1].includes(id))).toEqual([]);
    expect([...seen[0], ...seen[1]].sort()).toEqual([...ids].sort());
  });

  it('a failed vote comes back after its back-off', async () => {
    const s = await setup();
    const id = await s.vote('Offline');
    await s.poll();
    const fail = await app.request('POST', `/v1/plugin/votes/${id}/fail`, { key: s.token.token, body: { reason: 'player offline' } });
    expect(fail.body.data).toMatchObject({ vote_id: id, status: 'retrying', retry_at: expect.any(String) });
    expect((await s.poll()).body.data.votes).toEqual([]);
    clock.offsetMs += 31_000;
    try {
      const back = await s.poll();
      expect(back.body.data.votes).toEqual([expect.objectContaining({ id, attempt: 2 })]);
    } finally {
      clock.offsetMs -= 31_000;
    }
    const log = (await app.request('GET', `/v1/votes/${id}/deliveries`, { key: s.org.key })).body.data;
    expect(log.attempts[0]).toMatchObject({ success: false, error: 'player offline' });
  });

  it("a vote parked for an offline player: never in an ordinary poll, never given up, returned by that player's poll after 200 reports and a restart", async () => {
    const s = await setup();
    const parkedId = await s.vote('Alex');
    const otherId = await s.vote('Blair');
    const first = await s.poll();
    expect(first.body.data.votes.map((v: { id: string }) => v.id)).toEqual([parkedId, otherId]);
    const fail = (reason: string) => app.request('POST', `/v1/plugin/votes/${parkedId}/fail`, { key: s.token.token, body: { reason } });
    const parked = await fail('player_offline');
    expect(parked.status, parked.text).toBe(200);
    expect(parked.body.data).toEqual({ vote_id: parkedId, status: 'parked', retry_at: null });
    // Reported again and again while the player stays away: each report parks it again, none counts an attempt.
    for (let i = 0; i < 199; i++) expect((await fail('player_offline')).body.data.status).toBe('parked');
    const log = (await app.request('GET', `/v1/votes/${parkedId}/deliveries`, { key: s.org.key })).body.data;
    expect(log.jobs).toEqual([expect.objectContaining({ kind: 'pull', status: 'parked', attempts: 0 })]);
    expect((await app.request('GET', `/v1/votes/${parkedId}`, { key: s.org.key })).body.data).toMatchObject({ callback_status: 'pending' });

    // Ordinary polls skip it, also days later (PULL_MAX_ATTEMPTS and the back-off's cap do not apply), and the
    // other player's vote, failed for another reason, still backs off and comes back.
    expect((await app.request('POST', `/v1/plugin/votes/${otherId}/fail`, { key: s.token.token, body: { reason: 'inventory full' } })).body.data).toMatchObject(
      {
        status: 'retrying',
      },
    );
    clock.offsetMs += 3 * 24 * 3_600_000;
    try {
      expect((await s.poll()).body.data.votes.map((v: { id: string }) => v.id)).toEqual([otherId]);
      expect((await app.request('POST', `/v1/plugin/votes/${otherId}/claim`, { key: s.token.token })).body.data.status).toBe('claimed');
      expect((await s.poll()).body.data.votes).toEqual([]);

      // Listed for the token with the player's name.
      const tokens = (await app.request('GET', '/v1/plugin-tokens', { key: s.org.readKey })).body.data;
      expect(tokens).toMatchObject({ parked: 1, tokens: [{ id: s.token.id, parked: 1 }] });
      const list = await app.request('GET', `/v1/plugin-tokens/${s.token.id}/parked`, { key: s.org.readKey });
      expect(list.status, list.text).toBe(200);
      expect(list.body).toEqual({
        data: {
          votes: [
            {
              id: parkedId,
              voter_name: 'Alex',
              provider_key: 'p',
              provider_name: 'P List',
              received_at: expect.any(String),
              parked_at: expect.any(String),
              test: false,
            },
          ],
        },
        meta: { page: 1, limit: 50, total: 1, pages: 1, request_id: expect.any(String) },
      });
      const stranger = await app.createOrg();
      expect((await app.request('GET', `/v1/plugin-tokens/${s.token.id}/parked`, { key: stranger.key })).status).toBe(404);

      // A restart keeps it parked.
      const databaseUrl = app.config.databaseUrl;
      await app.stop();
      app = await startTestApp({}, { clock, databaseUrl });
      expect((await s.poll()).body.data.votes).toEqual([]);
      // Another player's poll does not see it; the player's own (any case) does, at once.
      expect((await s.poll('player=Blair')).body.data.votes).toEqual([]);
      const joined = await s.poll('player=aLeX');
      expect(joined.status, joined.text).toBe(200);
      expect(joined.body.data.votes).toEqual([expect.objectContaining({ id: parkedId, voter_name: 'Alex', attempt: 1 })]);
      // Held by that poll; its lease lapsing leaves it for the player's next poll, not for any poller.
      clock.offsetMs += 6 * 60_000;
      expect((await s.poll()).body.data.votes).toEqual([]);
      expect((await s.poll('player=Alex')).body.data.votes.map((v: { id: string }) => v.id)).toEqual([parkedId]);
      const claim = await app.request('POST', `/v1/plugin/votes/${parkedId}/claim`, { key: s.token.token });
      expect(claim.body.data).toEqual({ vote_id: parkedId, status: 'claimed' });
      expect((await app.request('GET', `/v1/votes/${parkedId}`, { key: s.org.key })).body.data).toMatchObject({
        callback_status: 'sent',
        callback_attempts: 1,
      });
      expect((await app.request('GET', `/v1/plugin-tokens/${s.token.id}/parked`, { key: s.org.readKey })).body.meta.total).toBe(0);
    } finally {
      clock.offsetMs -= 3 * 24 * 3_600_000 + 6 * 60_000;
    }
  });

  it("refuses a player's poll that also asks to wait, or names no player", async () => {
    const s = await setup();
    const both = await s.poll('player=Alex&wait=5');
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([expect.objectContaining({ field: 'wait' })]);
    const empty = await s.poll('player=');
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([expect.objectContaining({ field: 'player' })]);
  });

  it('long-poll answers as soon as a vote arrives', async () => {
    const s = await setup();
    const listening = app.deps.events.listenerCount();
    const started = Date.now();
    const pending = s.poll('wait=10');
    await until(
      async () => app.deps.events.listenerCount(),
      (n) => n > listening,
      5_000,
    ); // the poll waits
    const id = await s.vote('Instant');
    const res = await pending;
    expect(res.body.data.votes.map((v: { id: string }) => v.id)).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a long poll that has already waited past its periodic look still answers a vote at once', async () => {
    const s = await setup();
    const listening = app.deps.events.listenerCount();
    const pending = s.poll('wait=10');
    await until(
      async () => app.deps.events.listenerCount(),
      (n) => n > listening,
      5_000,
    );
    // Just past the poll's first look at the database (once a second), so its wait for a vote has started again.
    await new Promise((r) => setTimeout(r, 1_050));
    const voted = Date.now();
    const id = await s.vote('Later');
    const res = await pending;
    expect(res.body.data.votes.map((v: { id: string }) => v.id)).toEqual([id]);
    // Woken by the vote, not found by the next look (about 0.9 s later).
    expect(Date.now() - voted).toBeLessThan(600);
  });

  it('keeps plugin tokens and API keys to their own endpoints; a revoked token is refused', async () => {
    const s = await setup();
    expect((await s.poll('wait=0', s.org.key)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    const other = await app.request('GET', '/v1/organization', { key: s.token.token });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await s.poll('wait=99')).body.error.details[0].field).toBe('wait');
    expect((await app.request('DELETE', `/v1/plugin-tokens/${s.token.id}`, { key: s.org.key })).body.data).toEqual({ message: 'Token revoked' });
    const revoked = await s.poll();
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('INVALID_API_KEY');
    const stranger = await app.createOrg();
    expect((await app.request('DELETE', `/v1/plugin-tokens/${s.token.id}`, { key: stranger.key })).status).toBe(404);
  });
});
