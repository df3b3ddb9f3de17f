// Delivery that owners of several servers can trust (README: Delivery guarantees): routing per callback, pacing,
// auto-disable with held votes (an injected clock moves days ahead), and replay of a window of votes. Through HTTP,
// with local receivers standing in for game servers and the admin chat channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { until } from '../kit/wait.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

/** Real time moved by an offset the test sets (retries and leases keep running; days can pass at once). */
const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

describe.skipIf(databaseUnavailable)('delivery that several servers can trust', () => {
  let app: TestApp;
  const receivers: Receiver[] = [];
  const receiver = async (status = 200) => {
    const r = await startReceiver({ status, body: { ok: status < 300 } });
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50' }, { clock });
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function org(plan: 'growth' | 'business' = 'business') {
    const o: TestOrg = await app.createOrg({ plan });
    const provider = async (key: string) => {
      const res = await app.request('POST', '/v1/providers', {
        key: o.key,
        body: { key, name: key, auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      expect(res.status, res.text).toBe(201);
      const path = new URL(res.body.data.webhook_url).pathname;
      return async (user: string) => {
        const vote = await app.request('POST', path, { body: { user } });
        expect(vote.status, vote.text).toBe(200);
        return vote.body.data.vote_id as string;
      };
    };
    const callback = async (body: Record<string, unknown>) => {
      const res = await app.request('POST', '/v1/callbacks', { key: o.key, body: { name: 'Server', ...body } });
      expect(res.status, res.text).toBe(201);
      return res.body.data as Record<string, any>;
    };
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: o.key }).then((r) => r.body.data);
    const log = (id: string) => app.request('GET', `/v1/votes/${id}/deliveries`, { key: o.key }).then((r) => r.body.data);
    return { o, provider, callback, read, log };
  }
  const settled = (v: { callback_status: string }) => !['pending', 'retrying'].includes(v.callback_status);
  const voters = (r: Receiver) => r.requests.map((q) => q.json.voter_name).sort();

  it('routing: each callback receives only the votes of the providers it names', async () => {
    const s = await org();
    const alpha = await s.provider('alpha');
    const beta = await s.provider('beta');
    const [survival, creative, everything] = [await receiver(), await receiver(), await receiver()];
    const a = await s.callback({ url: `${survival.url}/vote`, providers: ['alpha'] });
    const b = await s.callback({ url: `${creative.url}/vote`, providers: ['beta'] });
    await s.callback({ url: `${everything.url}/vote` });
    expect(a.providers).toEqual(['alpha']);
    expect(b.providers).toEqual(['beta']);

    const ids = [await alpha('a1'), await beta('b1'), await alpha('a2'), await beta('b2'), await alpha('a3')];
    for (const id of ids) await until(() => s.read(id), settled);
    expect(voters(survival)).toEqual(['a1', 'a2', 'a3']);
    expect(voters(creative)).toEqual(['b1', 'b2']);
    expect(voters(everything)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    // A vote of beta has no job at all for the alpha-only callback.
    expect((await s.log(ids[1])).jobs.map((j: { callback_id: string }) => j.callback_id)).not.toContain(a.id);

    // Routes follow a renamed provider (they hold its id), and an empty list takes every provider again.
    expect((await app.request('PATCH', '/v1/providers/alpha', { key: s.o.key, body: { key: 'alpha2' } })).status).toBe(200);
    expect((await app.request('GET', `/v1/callbacks/${a.id}`, { key: s.o.key })).body.data.providers).toEqual(['alpha2']);
    const all = await app.request('PATCH', `/v1/callbacks/${a.id}`, { key: s.o.key, body: { providers: [] } });
    expect(all.body.data.providers).toEqual([]);
    await until(() => s.read(ids[1]), settled);
    const b3 = await beta('b3');
    await until(() => s.read(b3), settled);
    expect(voters(survival)).toContain('b3');
  });

  it('routing: unknown providers are refused and change nothing; a callback left without providers is disabled, not opened to all', async () => {
    const s = await org();
    await s.provider('only');
    const other = await org();
    await other.provider('theirs');
    const r = await receiver();
    const refused = await app.request('POST', '/v1/callbacks', { key: s.o.key, body: { name: 'x', url: `${r.url}/v`, providers: ['only', 'theirs'] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'providers', message: 'no provider with key theirs' }] });
    expect((await app.request('GET', '/v1/callbacks?include_disabled=true', { key: s.o.key })).body.data.count).toBe(0);
    const wrongType = await app.request('POST', '/v1/callbacks', { key: s.o.key, body: { name: 'x', url: `${r.url}/v`, providers: 'only' } });
    expect(wrongType.status).toBe(400);

    const cb = await s.callback({ url: `${r.url}/v`, providers: ['only'] });
    expect((await app.request('DELETE', '/v1/providers/only', { key: s.o.key })).status).toBe(200);
    const after = (await app.request('GET', `/v1/callbacks/${cb.id}`, { key: s.o.key })).body.data;
    expect(after).toMatchObject({ enabled: false, providers: [], disabled_reason: expect.stringContaining('(only) was deleted') });
    const next = await s.provider('next');
    const id = await next('someone');
    await until(() => s.read(id), settled);
    expect(r.requests).toHaveLength(0);
    // Enabling it asks which providers it takes.
    const enable = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { enabled: true } });
    expect(enable.status).toBe(400);
    expect(enable.body.error.details[0].field).toBe('providers');
    const fixed = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { enabled: true, providers: ['next'] } });
    expect(fixed.body.data).toMatchObject({ enabled: true, providers: ['next'], disabled_reason: null });
  });

  it('pacing: a burst reaches a paced callback at its rate, nothing lost, and the log shows the wait', async () => {
    const s = await org();
    const vote = await s.provider('site');
    const slow = await receiver();
    const cb = await s.callback({ url: `${slow.url}/vote`, max_per_second: 5 });
    expect(cb.max_per_second).toBe(5);
    const names = Array.from({ length: 15 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const ids = await Promise.all(names.map((n) => vote(n)));
    await slow.waitFor(15, 30_000);
    for (const id of ids) await until(() => s.read(id), settled);
    expect(voters(slow)).toEqual(names);
    expect(slow.requests).toHaveLength(15);
    // Slots are 200 ms apart: no second holds more than the rate (one more for a slot sent a little late).
    const at = slow.requests.map((q) => q.at).sort((x, y) => x - y);
    for (let i = 0; i < at.length; i++) expect(at.filter((t) => t >= at[i] && t < at[i] + 1_000).length).toBeLessThanOrEqual(6);
    const waits = await Promise.all(ids.map(async (id) => (await s.log(id)).attempts[0].paced_ms as number));
    expect(waits.filter((w) => w > 0).length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(2_000);

    const bad = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { max_per_second: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: 'max_per_second' });
    const off = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { max_per_second: null } });
    expect(off.body.data.max_per_second).toBeNull();
  });

  it.runIf(dialect === 'postgresql')("pacing across instances: two services sharing PostgreSQL share the callback's slots", async () => {
    const twin = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50' }, { clock });
    try {
      const s = await org();
      const made = await app.request('POST', '/v1/providers', {
        key: s.o.key,
        body: { key: 'shared', name: 'shared', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      const path = new URL(made.body.data.webhook_url).pathname;
      const slow = await receiver();
      await s.callback({ url: `${slow.url}/vote`, max_per_second: 4 });
      const names = Array.from({ length: 12 }, (_, i) => `m${String(i).padStart(2, '0')}`);
      // Half the votes arrive at each instance, so both workers send.
      await Promise.all(names.map((user, i) => (i % 2 ? twin : app).request('POST', path, { body: { user } })));
      await slow.waitFor(12, 30_000);
      expect(voters(slow)).toEqual(names);
      const at = slow.requests.map((q) => q.at).sort((x, y) => x - y);
      for (let i = 0; i < at.length; i++) expect(at.filter((t) => t >= at[i] && t < at[i] + 1_000).length).toBeLessThanOrEqual(5);
    } finally {
      await twin.stop();
    }
  });

  it('auto-disable: failing past CALLBACK_DISABLE_AFTER disables it, alerts once, holds its votes, and re-enabling delivers them', async () => {
    const s = await org('business');
    const admin = await receiver(204);
    const settings = await app.request('PATCH', '/v1/organization', {
      key: s.o.key,
      body: { settings: { chat_admin_webhook_url: `${admin.url}/admin`, admin_permanent_fail_alerts: true } },
    });
    expect(settings.status, settings.text).toBe(200);
    const vote = await s.provider('site');
    const dead = await receiver(500);
    const cb = await s.callback({ url: `${dead.url}/vote` });

    const first = await vote('before');
    expect(await until(() => s.read(first), settled)).toMatchObject({ callback_status: 'failed' });
    const failing = (await app.request('GET', `/v1/callbacks/${cb.id}`, { key: s.o.key })).body.data;
    expect(failing).toMatchObject({ enabled: true, failing_since: expect.any(String), disabled_reason: null });

    // Four days on: still failing, still enabled.
    clock.offset += 4 * 86_400_000;
    const second = await vote('day4');
    expect(await until(() => s.read(second), settled)).toMatchObject({ callback_status: 'failed' });
    expect((await app.request('GET', `/v1/callbacks/${cb.id}`, { key: s.o.key })).body.data.enabled).toBe(true);

    // Past five days: the next failed attempt disables it; its votes are held from then on.
    clock.offset += 1 * 86_400_000 + 3_600_000;
    const third = await vote('day5');
    const disabled = await until(
      () => app.request('GET', `/v1/callbacks/${cb.id}`, { key: s.o.key }).then((r) => r.body.data),
      (c) => c.enabled === false,
    );
    expect(disabled.disabled_reason).toMatch(/^Every delivery attempt failed since .* \(5 days\)/);
    expect(disabled.failing_since).toBe(failing.failing_since);
    // The dashboard's "needs attention" lists it with its reason.
    const attention = await app.request('POST', '/graphql', {
      key: s.o.key,
      body: { query: '{ failingCallbacks { callback { id enabled disabledReason } lastError } }' },
    });
    expect(attention.body.data.failingCallbacks).toContainEqual({
      callback: { id: cb.id, enabled: false, disabledReason: disabled.disabled_reason },
      lastError: expect.any(String),
    });
    const fourth = await vote('while-disabled');
    const held = await until(
      () => s.log(fourth),
      (l) => l.jobs.length === 1,
    );
    expect(held.jobs[0]).toMatchObject({ status: 'held', callback_id: cb.id });
    expect(
      await until(
        () => s.log(third),
        (l) => l.jobs[0].status === 'held',
      ),
    ).toBeTruthy();
    expect((await s.read(fourth)).callback_status).toBe('pending');
    const attemptsBefore = dead.requests.length;

    const alerts = () => admin.requests.filter((q) => q.json?.embeds?.[0]?.title === 'Callback disabled');
    await until(
      async () => alerts().length,
      (n) => n >= 1,
    );
    expect(alerts()[0].json.embeds[0].description).toContain('Server');

    // The server is fixed; enabling the callback sends what was held, with a fresh schedule.
    dead.fallback = { status: 200, body: { ok: true } };
    const enabled = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
    for (const id of [third, fourth]) expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent' });
    const resent = dead.requests
      .slice(attemptsBefore)
      .map((q) => q.json.voter_name)
      .sort();
    expect(resent).toEqual(['day5', 'while-disabled']);
    // Failed for good before the disabling: not held, not resent (a replay or redeliver does that).
    expect((await s.read(first)).callback_status).toBe('failed');
    expect(alerts()).toHaveLength(1);
  });

  it('a callback disabled by hand holds what waits and takes no new votes; enabling it sends what was held', async () => {
    const s = await org();
    const vote = await s.provider('site');
    const r = await receiver(503);
    const cb = await s.callback({ url: `${r.url}/vote` });
    r.fallback = { status: 503, delayMs: 300 };
    const waiting = await vote('waiting');
    await until(
      () => s.log(waiting),
      (l) => l.attempts.length >= 1,
    );
    expect((await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { enabled: false } })).body.data.disabled_reason).toBeNull();
    await until(
      () => s.log(waiting),
      (l) => l.jobs[0].status === 'held',
    );
    const ignored = await vote('ignored');
    expect((await s.log(ignored)).jobs).toHaveLength(0);
    r.fallback = { status: 200 };
    await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: s.o.key, body: { enabled: true } });
    expect(await until(() => s.read(waiting), settled)).toMatchObject({ callback_status: 'sent' });
    expect(r.requests.some((q) => q.json?.voter_name === 'ignored')).toBe(false);
  });

  it('replay: re-sends exactly the votes of the window (only the failed ones with only_failed), each as a new delivery', async () => {
    const s = await org();
    const vote = await s.provider('site');
    const other = await s.provider('other');
    const game = await receiver();
    const cb = await s.callback({ url: `${game.url}/vote`, providers: ['site'] });

    const before = await vote('before');
    await until(() => s.read(before), settled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = clock.now().toISOString();
    game.fallback = { status: 500 };
    const failedA = await vote('failed-a');
    const failedB = await vote('failed-b');
    for (const id of [failedA, failedB]) expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'failed' });
    game.fallback = { status: 200, body: { ok: true } };
    const sent = await vote('sent');
    await other('not-routed');
    await until(() => s.read(sent), settled);
    const until_ = new Date(clock.now().getTime() + 1).toISOString();
    const seen = game.requests.length;

    const onlyFailed = await app.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: s.o.key, body: { since, until: until_, only_failed: true } });
    expect(onlyFailed.status, onlyFailed.text).toBe(200);
    expect(onlyFailed.body.data).toEqual({ callback_id: cb.id, queued: 2, since, until: expect.any(String), only_failed: true });
    for (const id of [failedA, failedB]) expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent' });
    const firstRound = game.requests.slice(seen);
    expect(firstRound.map((q) => q.json.voter_name).sort()).toEqual(['failed-a', 'failed-b']);
    const replayLog = await s.log(failedA);
    expect(replayLog.jobs.map((j: { origin: string; status: string }) => [j.origin, j.status])).toEqual([
      ['vote', 'failed'],
      ['replay', 'sent'],
    ]);
    // A new delivery: its own webhook-id, not the failed one's.
    const ids = new Set(game.requests.filter((q) => q.json.voter_name === 'failed-a').map((q) => q.headers['webhook-id']));
    expect(ids.size).toBe(2);

    // Only failed again: nothing left to send.
    const none = await app.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: s.o.key, body: { since, only_failed: true } });
    expect(none.body.data.queued).toBe(0);

    const everything = await app.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: s.o.key, body: { since } });
    expect(everything.body.data).toMatchObject({ queued: 3, only_failed: false });
    await game.waitFor(seen + 5, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      game.requests
        .slice(seen + 2)
        .map((q) => q.json.voter_name)
        .sort(),
    ).toEqual(['failed-a', 'failed-b', 'sent']);
  });

  it('replay: bad windows, read keys and other organizations are refused and queue nothing', async () => {
    const s = await org();
    await s.provider('site');
    const r = await receiver();
    const cb = await s.callback({ url: `${r.url}/vote` });
    const replay = (body: unknown, key = s.o.key, id = cb.id) => app.request('POST', `/v1/callbacks/${id}/replay`, { key, body });
    const missing = await replay({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    const garbage = await replay({ since: 'yesterday' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.details[0].field).toBe('since');
    const backwards = await replay({ since: '2026-05-02', until: '2026-05-01' });
    expect(backwards.status).toBe(400);
    expect((await replay({ since: '2026-05-01' }, s.o.readKey)).status).toBe(403);
    const stranger = await org();
    expect((await replay({ since: '2026-05-01' }, stranger.o.key)).status).toBe(404);
    expect((await replay({ since: '2026-05-01' }, s.o.key, 'no-such-callback')).status).toBe(404);
    expect(await app.deps.db.prisma.deliveryJob.count({ where: { organizationId: s.o.id, origin: 'replay' } })).toBe(0);
  });

  it('replay: a window over REPLAY_MAX_VOTES is refused, and so is another replay while too many replayed deliveries wait', async () => {
    const small = await startTestApp({ RETRY_SCHEDULE: '100ms', DELIVERY_POLL_MS: '50', REPLAY_MAX_VOTES: '3' }, { clock });
    try {
      const o: TestOrg = await small.createOrg({ plan: 'business' });
      const made = await small.request('POST', '/v1/providers', {
        key: o.key,
        body: { key: 'site', name: 'site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      const path = new URL(made.body.data.webhook_url).pathname;
      const slow = await receiver();
      slow.fallback = { status: 200, delayMs: 1_500 };
      const cb = (await small.request('POST', '/v1/callbacks', { key: o.key, body: { name: 'slow', url: `${slow.url}/v`, max_per_second: 1 } })).body.data;
      const since = clock.now().toISOString();
      for (const user of ['r1', 'r2', 'r3', 'r4']) await small.request('POST', path, { body: { user } });
      const tooMany = await small.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: o.key, body: { since } });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.details[0].message).toContain('replay at most 3');
      const votes = await small.deps.db.prisma.vote.findMany({ where: { organizationId: o.id }, orderBy: { receivedAt: 'asc' } });
      // until is the first instant left out: the third vote's time leaves the first two.
      const firstTwo = { since, until: votes[2].receivedAt.toISOString() };
      const two = await small.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: o.key, body: firstTwo });
      expect(two.status, two.text).toBe(200);
      expect(two.body.data.queued).toBe(2);
      // Those two still wait (a slow receiver, one a second): two more would make four waiting.
      const again = await small.request('POST', `/v1/callbacks/${cb.id}/replay`, { key: o.key, body: firstTwo });
      expect(again.status).toBe(429);
      expect(again.body.error.code).toBe('RATE_LIMITED');
      expect(await small.deps.db.prisma.deliveryJob.count({ where: { callbackId: cb.id, origin: 'replay' } })).toBe(2);
    } finally {
      await small.stop();
    }
  });
});
