// Fault injection, the callback receiver (issue 7): the game server is down (its port refuses connections) for
// several attempts and then comes back, or stays down past the whole RETRY_SCHEDULE and is redelivered by hand.
// The vote arrives exactly once once the receiver is back, never twice at the same time, and the delivery log
// shows each failed attempt with a clear reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { overlappingDeliveries, startTimingReceiver, type TimingReceiver } from '../kit/crash.js';
import { ownDatabase } from '../kit/faults.js';
import { startTcpProxy, type TcpProxy } from '../kit/tcp-proxy.js';
import { until } from '../kit/wait.js';

// Seven attempts half a second apart: "several retries" in a few seconds.
const RETRY_SCHEDULE = '500ms,500ms,500ms,500ms,500ms,500ms';
const MAX_ATTEMPTS = 7;

interface Attempt {
  attempt: number;
  success: boolean;
  status_code: number | null;
  error: string | null;
  target: string;
}

describe.skipIf(databaseUnavailable)('a callback receiver that is down', () => {
  let app: TestApp;
  let drop: () => Promise<void> = async () => {};
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // A database of its own: this worker must not pick up other tests' jobs (their schedules are not this one).
    const own = await ownDatabase();
    drop = own.drop;
    app = await startTestApp({ RETRY_SCHEDULE, DELIVERY_POLL_MS: '50' }, { databaseUrl: own.url });
  });
  afterAll(async () => {
    await app?.stop();
    for (const close of closers) await close().catch(() => {});
    await drop();
  });

  /** An organization whose one callback goes through a proxy to a receiver; the proxy starts cut (receiver down). */
  async function setup(): Promise<{ org: TestOrg; receiver: TimingReceiver; proxy: TcpProxy; vote(user: string): Promise<string> }> {
    const org = await app.createOrg({ plan: 'business' });
    const receiver = await startTimingReceiver({ delayMs: 20 });
    const target = new URL(receiver.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    closers.push(receiver.close, proxy.close);
    await proxy.cut();
    const provider = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(provider.status, provider.text).toBe(201);
    const callback = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Game', url: `http://${proxy.host}:${proxy.port}/votes`, timeout_ms: 1000 },
    });
    expect(callback.status, callback.text).toBe(201);
    const hookPath = new URL(provider.body.data.webhook_url).pathname;
    const vote = async (user: string) => {
      const res = await app.request('POST', hookPath, { body: { user } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    };
    return { org, receiver, proxy, vote };
  }

  const log = async (org: TestOrg, id: string) => {
    const res = await app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key });
    expect(res.status, res.text).toBe(200);
    return res.body.data as {
      callback_status: string;
      callback_attempts: number;
      jobs: { status: string; attempts: number; max_attempts: number; last_error: string | null }[];
      attempts: Attempt[];
    };
  };

  /** A refused connection, said as such (not a bare "fetch failed" or an internal error). */
  const CONNECTION_REFUSED = /ECONNREFUSED|refused/i;

  it('delivers exactly once when the receiver comes back after several refused attempts', async () => {
    const { org, receiver, proxy, vote } = await setup();
    const id = await vote('Patient');
    const down = await until(
      () => log(org, id),
      (l) => l.attempts.length >= 3,
    );
    expect(down.callback_status).toBe('retrying');
    await proxy.restore();

    const sent = await until(
      () => log(org, id),
      (l) => l.callback_status === 'sent',
    );
    const attempts = [...sent.attempts].sort((a, b) => a.attempt - b.attempt);
    const failed = attempts.slice(0, -1);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(failed.length).toBeLessThan(MAX_ATTEMPTS);
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    for (const a of failed) {
      expect(a).toMatchObject({ success: false, status_code: null, target: `http://${proxy.host}:${proxy.port}/votes` });
      expect(a.error).toMatch(CONNECTION_REFUSED);
    }
    expect(attempts.at(-1)).toMatchObject({ success: true, status_code: 200, error: null });
    expect(sent.jobs).toEqual([expect.objectContaining({ status: 'sent', attempts: attempts.length, max_attempts: MAX_ATTEMPTS })]);
    expect(sent.callback_attempts).toBe(attempts.length);

    // The receiver saw the vote once: the refused attempts never reached it.
    await new Promise((r) => setTimeout(r, 1_200)); // two more retry periods: nothing else may come
    expect(receiver.requests.map((r) => r.voteId)).toEqual([id]);
    expect(overlappingDeliveries(receiver.requests)).toEqual([]);
  });

  it('fails for good after the whole schedule, then a redelivery sends it once the receiver is back', async () => {
    const { org, receiver, proxy, vote } = await setup();
    const id = await vote('Unlucky');
    const failed = await until(
      () => log(org, id),
      (l) => l.callback_status === 'failed',
      20_000,
    );
    expect(failed.attempts).toHaveLength(MAX_ATTEMPTS);
    for (const a of failed.attempts) {
      expect(a).toMatchObject({ success: false, status_code: null });
      expect(a.error).toMatch(CONNECTION_REFUSED);
    }
    expect(failed.jobs).toEqual([
      expect.objectContaining({ status: 'failed', attempts: MAX_ATTEMPTS, max_attempts: MAX_ATTEMPTS, last_error: expect.stringMatching(CONNECTION_REFUSED) }),
    ]);
    const read = await app.request('GET', `/v1/votes/${id}`, { key: org.key });
    expect(read.body.data).toMatchObject({ callback_status: 'failed', callback_attempts: MAX_ATTEMPTS });
    // Failed for good: no further attempt on its own.
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await log(org, id)).attempts).toHaveLength(MAX_ATTEMPTS);
    expect(receiver.requests).toEqual([]);

    await proxy.restore();
    const redeliver = await app.request('POST', `/v1/votes/${id}/redeliver`, { key: org.key });
    expect(redeliver.status, redeliver.text).toBe(200);
    expect(redeliver.body.data).toEqual({ vote_id: id, requeued: 1 });
    const sent = await until(
      () => log(org, id),
      (l) => l.callback_status === 'sent',
    );
    expect(sent.attempts).toHaveLength(MAX_ATTEMPTS + 1);
    expect([...sent.attempts].sort((a, b) => a.attempt - b.attempt).at(-1)).toMatchObject({ attempt: MAX_ATTEMPTS + 1, success: true, status_code: 200 });
    expect(sent.jobs).toEqual([expect.objectContaining({ status: 'sent', attempts: MAX_ATTEMPTS + 1 })]);

    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.requests.map((r) => r.voteId)).toEqual([id]);
    expect(overlappingDeliveries(receiver.requests)).toEqual([]);
    // A second redelivery of a sent vote requeues nothing.
    const again = await app.request('POST', `/v1/votes/${id}/redeliver`, { key: org.key });
    expect(again.body.data).toEqual({ vote_id: id, requeued: 0 });
  });
});
