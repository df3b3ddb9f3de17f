// DELIVERY_THREAD=true: the worker on its own thread with its own connections still delivers every vote, signed,
// records the attempt in the vote's log, retries, and stops with the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

describe.skipIf(databaseUnavailable)('delivery on its own thread', () => {
  let app: TestApp;
  let game: Receiver;
  let flaky: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ DELIVERY_THREAD: 'true', RETRY_SCHEDULE: '100ms,100ms', DELIVERY_POLL_MS: '100' });
    game = await startReceiver({ status: 200, body: { ok: true } });
    flaky = await startReceiver({ status: 500 });
  });
  afterAll(async () => {
    await app?.stop();
    await game?.close();
    await flaky?.close();
  });

  it('delivers each vote once, signed, and logs the attempts; a failing receiver is retried by the schedule', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const cb = (await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Game', url: `${game.url}/votes` } })).body.data;
    await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Down', url: `${flaky.url}/down`, priority: 5 } });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: `T${i}` } })).body.data.vote_id);
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    for (const id of ids)
      expect(
        (
          await until(
            () => read(id),
            (v) => v.callback_status === 'failed',
            15_000,
          )
        ).callback_attempts,
      ).toBe(1 + 3);
    const got = game.requests.filter((r) => r.path === '/votes');
    expect(got.map((r) => r.json.vote_id).sort()).toEqual([...ids].sort());
    for (const r of got) {
      expect(
        new Webhook(cb.signing_secret).verify(r.body, {
          'webhook-id': r.headers['webhook-id'] as string,
          'webhook-timestamp': r.headers['webhook-timestamp'] as string,
          'webhook-signature': r.headers['webhook-signature'] as string,
        }),
      ).toEqual(r.json);
    }
    expect(flaky.requests.filter((r) => r.path === '/down')).toHaveLength(20 * 3);
    const log = (await app.request('GET', `/v1/votes/${ids[0]}/deliveries`, { key: org.key })).body.data;
    expect(log.attempts.map((a: { target: string; success: boolean }) => [a.target.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''), a.success])).toEqual([
      ['/votes', true],
      ['/down', false],
      ['/down', false],
      ['/down', false],
    ]);
  });
});
