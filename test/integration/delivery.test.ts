import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';
import { until } from '../kit/wait.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

describe.skipIf(databaseUnavailable)('delivery: chat notifications and callbacks', () => {
  let app: TestApp;
  let chat: Receiver;
  let game: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms,100ms', DELIVERY_POLL_MS: '50' });
    chat = await startReceiver({ status: 204 });
    game = await startReceiver({ status: 200, body: { ok: true } });
  });
  afterAll(async () => {
    await app?.stop();
    await chat?.close();
    await game?.close();
  });

  /** An org with one url_path provider; returns a function that casts a vote and returns its public id. */
  async function setup(settings: Record<string, unknown> = {}, plan: 'growth' | 'pro' | 'business' = 'business') {
    const org = await app.createOrg({ plan });
    if (Object.keys(settings).length) {
      const res = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Best List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const path = new URL(made.webhook_url).pathname;
    const vote = async (user: string, extra: Record<string, unknown> = {}) => {
      const res = await app.request('POST', path, { body: { user, ...extra } });
      expect(res.status).toBe(200);
      return res.body.data.vote_id as string;
    };
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    const log = (id: string) => app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key }).then((r) => r.body.data);
    const addCallback = async (body: Record<string, unknown>) => {
      const res = await app.request('POST', '/v1/callbacks', { key: org.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    };
    return { org, vote, read, log, addCallback };
  }

  const settled = (v: { callback_status: string; chat_status: string }) =>
    !['pending', 'retrying'].includes(v.callback_status) && !['pending', 'retrying'].includes(v.chat_status);

  it('posts a Discord-compatible simple notification with the vote values', async () => {
    const s = await setup({
      chat_webhook_url: `${chat.url}/api/webhooks/1/tok`,
      chat_message_template: '{{voter_name}} voted on {provider_name} ({{vote_id}}) @everyone',
    });
    const before = chat.requests.length;
    const id = await s.vote('Steve');
    const vote = await until(
      () => s.read(id),
      (v) => v.chat_status === 'sent',
    );
    const sent = chat.requests.slice(before).find((r) => r.json?.content?.includes(id))!;
    expect(sent.json).toEqual({ content: `Steve voted on Best List (${id}) @everyone`, allowed_mentions: { parse: [] } });
    expect(vote.chat_sent_at).toMatch(/Z$/);
    expect(vote.callback_status).toBe('skipped');
  });

  it('posts embeds within Discord limits', async () => {
    const s = await setup({
      chat_webhook_url: `${chat.url}/embed`,
      chat_message_type: 'embed',
      chat_embed_template: {
        title: '{{voter_name}} '.repeat(40),
        description: 'x'.repeat(5000),
        fields: Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, value: `{provider_key}${'y'.repeat(400)}` })),
      },
    });
    const id = await s.vote('Embedder');
    await until(
      () => s.read(id),
      (v) => v.chat_status === 'sent',
    );
    const embed = chat.requests.find((r) => r.path === '/embed')!.json.embeds[0];
    expect(Array.from(embed.title as string).length).toBeLessThanOrEqual(256);
    expect(embed.title.startsWith('Embedder Embedder')).toBe(true);
    expect(Array.from(embed.description as string).length).toBeLessThanOrEqual(4096);
    expect(embed.fields.length).toBeLessThanOrEqual(25);
    expect(embed.fields[0]).toEqual({ name: 'f0', value: `site${'y'.repeat(400)}` });
    const total = [embed.title, embed.description, ...embed.fields.flatMap((f: { name: string; value: string }) => [f.name, f.value])].join('').length;
    expect(total).toBeLessThanOrEqual(6000);
  });

  it('retries chat on 429 after retry_after and stops calling a webhook that answered 404', async () => {
    const s = await setup({ chat_webhook_url: `${chat.url}/limited` });
    chat.script({ status: 429, body: { message: 'You are being rate limited.', retry_after: 0.3, global: false } });
    const id = await s.vote('Patient');
    await until(
      () => s.read(id),
      (v) => v.chat_status === 'sent',
    );
    const hits = chat.requests.filter((r) => r.path === '/limited');
    expect(hits).toHaveLength(2);
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(250);

    const gone = await setup({ chat_webhook_url: `${chat.url}/gone` });
    chat.script({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    const first = await gone.vote('One');
    expect((await until(() => gone.read(first), settled)).chat_status).toBe('failed');
    const second = await gone.vote('Two');
    expect((await until(() => gone.read(second), settled)).chat_status).toBe('failed');
    expect(chat.requests.filter((r) => r.path === '/gone')).toHaveLength(1);
    const log = await gone.log(second);
    expect(log.jobs[0].last_error).toMatch(/not called again/);
  });

  it('delivers callbacks signed (Standard Webhooks), with the bearer secret and the rendered template', async () => {
    const s = await setup();
    const cb = await s.addCallback({
      name: 'Lobby',
      url: `${game.url}/votes`,
      auth_secret: 'plugin-token-123',
      payload_template: {
        player: '{{voter_name}}',
        site: '{provider_key}',
        id: '{{vote_id}}',
        raw: '{{payload.extra.n}}',
        when: '{{received_at_unix}}',
        keep: 7,
        unknown: '{{nope}}',
      },
    });
    expect(cb.signing_secret).toMatch(/^whsec_/);
    const before = game.requests.length;
    const id = await s.vote('Alex', { extra: { n: 42 } });
    const vote = await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    const got = game.requests.slice(before).find((r) => r.path === '/votes')!;
    expect(got.json).toEqual({ player: 'Alex', site: 'site', id, raw: '42', when: expect.any(Number), keep: 7, unknown: '{{nope}}' });
    expect(got.headers.authorization).toBe('Bearer plugin-token-123');
    const verified = new Webhook(cb.signing_secret).verify(got.body, {
      'webhook-id': got.headers['webhook-id'] as string,
      'webhook-timestamp': got.headers['webhook-timestamp'] as string,
      'webhook-signature': got.headers['webhook-signature'] as string,
    });
    expect(verified).toEqual(got.json);
    expect(vote).toMatchObject({ callback_status: 'sent', callback_attempts: 1, callback_sent_at: expect.stringMatching(/Z$/) });
    const log = await s.log(id);
    expect(log.attempts).toEqual([
      expect.objectContaining({ kind: 'callback', attempt: 1, status_code: 200, success: true, target: `${game.url}/votes`, response_excerpt: '{"ok":true}' }),
    ]);
  });

  it('after rotate-secret a delivery carries both signatures: a receiver with the old or the new secret verifies it', async () => {
    const s = await setup();
    const cb = await s.addCallback({ name: 'Rotated', url: `${game.url}/rotated` });
    const rotated = await app.request('POST', `/v1/callbacks/${cb.id}/rotate-secret`, { key: s.org.key });
    const fresh = rotated.body.data.signing_secret as string;
    const before = game.requests.length;
    const id = await s.vote('Rota');
    await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    const got = game.requests.slice(before).find((r) => r.path === '/rotated')!;
    const headers = {
      'webhook-id': got.headers['webhook-id'] as string,
      'webhook-timestamp': got.headers['webhook-timestamp'] as string,
      'webhook-signature': got.headers['webhook-signature'] as string,
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(fresh).verify(got.body, headers)).toEqual(got.json);
    expect(new Webhook(cb.signing_secret).verify(got.body, headers)).toEqual(got.json);
  });

  it('retries 500 then succeeds; keeps webhook-id stable across retries', async () => {
    const s = await setup();
    await s.addCallback({ name: 'Flaky', url: `${game.url}/flaky` });
    game.script({ status: 500, body: 'boom' });
    const id = await s.vote('Retry');
    const vote = await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    expect(vote.callback_attempts).toBe(2);
    const hits = game.requests.filter((r) => r.path === '/flaky' && r.json?.vote_id === id);
    expect(hits).toHaveLength(2);
    expect(hits[0].headers['webhook-id']).toBe(hits[1].headers['webhook-id']);
    expect(hits[0].json).toEqual({ event: 'vote', vote_id: id, voter_name: 'Retry', provider: 'site', received_at: expect.stringMatching(/Z$/), test: false });
    const log = await s.log(id);
    expect(log.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
  });

  it('gives up after the schedule (400 every time), fails 410 at once, and alerts the admin', async () => {
    const admin = await startReceiver({ status: 204 });
    try {
      const s = await setup({ chat_admin_webhook_url: `${admin.url}/admin`, admin_permanent_fail_alerts: true });
      await s.addCallback({ name: 'Broken', url: `${game.url}/always400` });
      game.script(...Array.from({ length: 4 }, () => ({ status: 400, body: { error: 'bad' } })));
      const id = await s.vote('Unlucky');
      const vote = await until(() => s.read(id), settled);
      expect(vote).toMatchObject({ callback_status: 'failed', callback_attempts: 4 });
      await admin.waitFor(1);
      const alert = admin.requests[0].json;
      expect(alert.embeds[0].title).toBe('Callback failed permanently');
      expect(JSON.stringify(alert)).toContain(id);
      expect(alert.allowed_mentions).toEqual({ parse: [] });

      const g = await setup();
      await g.addCallback({ name: 'Gone', url: `${game.url}/gone410` });
      game.script({ status: 410 });
      const gid = await g.vote('Departed');
      expect(await until(() => g.read(gid), settled)).toMatchObject({ callback_status: 'failed', callback_attempts: 1 });
    } finally {
      await admin.close();
    }
  });

  it('honours Retry-After and the per-callback timeout', async () => {
    const s = await setup();
    await s.addCallback({ name: 'Busy', url: `${game.url}/busy` });
    game.script({ status: 503, headers: { 'retry-after': '1' } });
    const id = await s.vote('Later');
    await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    const hits = game.requests.filter((r) => r.path === '/busy');
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(900);

    const t = await setup();
    await t.addCallback({ name: 'Slow', url: `${game.url}/slow`, timeout_ms: 1000 });
    game.script({ status: 200, delayMs: 2500 });
    const tid = await t.vote('Slowpoke');
    const vote = await until(
      () => t.read(tid),
      (v) => v.callback_status === 'sent',
    );
    expect(vote.callback_attempts).toBe(2);
    const log = await t.log(tid);
    expect(log.attempts[0]).toMatchObject({ success: false, status_code: null, error: expect.stringMatching(/1000 ms/) });
  });

  it("sends a vote's callbacks in ascending priority order and aggregates their status", async () => {
    const s = await setup();
    for (const [name, priority] of [
      ['third', 9],
      ['first', -5],
      ['second', 3],
    ] as const) {
      await s.addCallback({ name, url: `${game.url}/order/${name}`, priority });
    }
    const id = await s.vote('Ordered');
    const vote = await until(() => s.read(id), settled);
    expect(vote).toMatchObject({ callback_status: 'sent', callback_attempts: 3 });
    const order = game.requests.filter((r) => r.path.startsWith('/order/') && r.json?.vote_id === id).map((r) => r.path.split('/')[2]);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('redelivers a failed vote by hand', async () => {
    const s = await setup();
    await s.addCallback({ name: 'Down', url: `${game.url}/down` });
    game.script(...Array.from({ length: 4 }, () => ({ status: 502 })));
    const id = await s.vote('Again');
    expect((await until(() => s.read(id), settled)).callback_status).toBe('failed');
    const res = await app.request('POST', `/v1/votes/${id}/redeliver`, { key: s.org.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ vote_id: id, requeued: 1 });
    const vote = await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    expect(vote.callback_attempts).toBe(5);
    const readOnly = await app.request('POST', `/v1/votes/${id}/redeliver`, { key: s.org.readKey });
    expect(readOnly.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('answers what a dashboard needs in one GraphQL round trip, failing callbacks included', async () => {
    const s = await setup();
    const cb = await s.addCallback({ name: 'Gone for good', url: `${game.url}/dash410` });
    game.script({ status: 410 });
    const id = await s.vote('Dash');
    await until(() => s.read(id), settled);
    const res = await app.request('POST', '/graphql', {
      key: s.org.readKey,
      body: {
        query: `{ organization { slug usage { votesThisMonth votesLimit } }
          dashboardStats { summary { today allTime } }
          votes(limit: 5) { total votes { publicId callbackStatus } }
          failingCallbacks { callback { id name } failedLast24h lastError } }`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data;
    expect(data.organization.usage).toEqual({ votesThisMonth: 1, votesLimit: 250_000 });
    expect(data.dashboardStats.summary).toEqual({ today: 1, allTime: 1 });
    expect(data.votes).toEqual({ total: 1, votes: [{ publicId: id, callbackStatus: 'failed' }] });
    expect(data.failingCallbacks).toEqual([{ callback: { id: cb.id, name: 'Gone for good' }, failedLast24h: 1, lastError: 'HTTP 410' }]);
  });

  it('keeps the deprecated server_callback_url working as an implicit callback', async () => {
    const s = await setup({ server_callback_url: `${game.url}/legacy` });
    const id = await s.vote('Legacy');
    await until(
      () => s.read(id),
      (v) => v.callback_status === 'sent',
    );
    const got = game.requests.find((r) => r.path === '/legacy' && r.json?.vote_id === id)!;
    expect(got.json).toEqual({ event: 'vote', vote_id: id, voter_name: 'Legacy', provider: 'site', received_at: expect.any(String), test: false });
  });
});
