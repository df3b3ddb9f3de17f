// The overview's failing-callbacks panel (GraphQL failingCallbacks) counts callbacks that are retrying or failed
// recently, not only deliveries given up: a receiver answering 500, a callback to a host that does not resolve
// (.invalid, RFC 6761), one that failed once and recovered, one given up (410) and a healthy one, through real
// deliveries on both databases; then, a day later by the service's clock, only what still retries is listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const QUERY = `{ failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt } }`;

type Failing = {
  callback: { id: string; name: string };
  state: string;
  failedAttemptsLast24h: number;
  retryingDeliveries: number;
  failedLast24h: number;
  lastError: string | null;
  lastFailedAt: string;
};

describe.skipIf(databaseUnavailable)('failing callbacks: retrying and recently failed, with their failed attempts', () => {
  let app: TestApp;
  let org: TestOrg;
  let failing: Receiver;
  let flaky: Receiver;
  let gone: Receiver;
  let healthy: Receiver;
  let hook: string;
  /** The service's clock runs this far ahead of the real one (a day later, in the last test). */
  let ahead = 0;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Three attempts 100 ms apart, then hours' waits: a failing delivery sits in `retrying` after three failures.
    app = await startTestApp(
      { RETRY_SCHEDULE: '100ms,100ms,1h,1h', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50' },
      { clock: { now: () => new Date(Date.now() + ahead) } },
    );
    org = await app.createOrg({ plan: 'pro' });
    failing = await startReceiver({ status: 500 });
    flaky = await startReceiver({ status: 200 });
    flaky.script({ status: 503 });
    gone = await startReceiver({ status: 410 });
    healthy = await startReceiver({ status: 200 });
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(made.status).toBe(201);
    hook = new URL(made.body.data.webhook_url).pathname;
    for (const [name, url] of [
      ['Answers 500', `${failing.url}/votes`],
      ['Nowhere', 'http://game-server.callback-target.invalid/votes'],
      ['Flaky', `${flaky.url}/votes`],
      ['Gone', `${gone.url}/votes`],
      ['Healthy', `${healthy.url}/votes`],
    ]) {
      const res = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name, url } });
      expect(res.status, res.text).toBe(201);
      ids[name] = res.body.data.id;
    }
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([failing, flaky, gone, healthy].map((r) => r?.close()));
  });

  const panel = async (key = org.key): Promise<Failing[]> => {
    const res = await app.request('POST', '/graphql', { key, body: { query: QUERY } });
    expect(res.body.errors, res.text).toBeUndefined();
    return res.body.data.failingCallbacks;
  };
  const named = (list: Failing[], name: string) => list.find((f) => f.callback.name === name);

  it('nothing failed yet: the panel is empty', async () => {
    expect(await panel()).toEqual([]);
  });

  it('counts failed attempts of deliveries still retrying, given up, or since recovered, and leaves the healthy one out', async () => {
    const voted = await app.request('POST', hook, { body: { user: 'Steve' } });
    expect(voted.status).toBe(200);
    // Three failed attempts each for the two broken ones (then an hour's wait), one for 410, one then success for the flaky one.
    const list = await until(
      () => panel(),
      (got) =>
        named(got, 'Answers 500')?.failedAttemptsLast24h === 3 &&
        named(got, 'Nowhere')?.failedAttemptsLast24h === 3 &&
        named(got, 'Flaky')?.state === 'recovered' &&
        !!named(got, 'Gone'),
      15_000,
    );
    expect(healthy.requests).toHaveLength(1);
    expect(named(list, 'Healthy')).toBeUndefined();
    expect(named(list, 'Answers 500')).toMatchObject({
      state: 'retrying',
      failedAttemptsLast24h: 3,
      retryingDeliveries: 1,
      failedLast24h: 0,
      lastError: 'HTTP 500',
    });
    const nowhere = named(list, 'Nowhere')!;
    expect(nowhere).toMatchObject({ state: 'retrying', failedAttemptsLast24h: 3, retryingDeliveries: 1, failedLast24h: 0 });
    expect(nowhere.lastError).toMatch(/ENOTFOUND/);
    expect(named(list, 'Flaky')).toMatchObject({
      state: 'recovered',
      failedAttemptsLast24h: 1,
      retryingDeliveries: 0,
      failedLast24h: 0,
      lastError: 'HTTP 503',
    });
    expect(named(list, 'Gone')).toMatchObject({ state: 'failing', failedAttemptsLast24h: 1, retryingDeliveries: 0, failedLast24h: 1, lastError: 'HTTP 410' });
    // Most failed attempts first; each says when its newest failure was.
    expect(list.map((f) => f.failedAttemptsLast24h)).toEqual([...list.map((f) => f.failedAttemptsLast24h)].sort((a, b) => b - a));
    for (const f of list) expect(Math.abs(Date.parse(f.lastFailedAt) - Date.now())).toBeLessThan(60_000);
    expect(failing.requests).toHaveLength(3);

    // A read key sees the same panel; another organization sees none of it.
    expect(await panel(org.readKey)).toEqual(list);
    const other = await app.createOrg({ plan: 'pro' });
    expect(await panel(other.key)).toEqual([]);
  });

  it('a second vote adds its failed attempts to the same callbacks', async () => {
    expect((await app.request('POST', hook, { body: { user: 'Alex' } })).status).toBe(200);
    const list = await until(
      () => panel(),
      (got) => named(got, 'Answers 500')?.failedAttemptsLast24h === 6 && named(got, 'Gone')?.failedLast24h === 2,
      15_000,
    );
    expect(named(list, 'Answers 500')).toMatchObject({ state: 'retrying', retryingDeliveries: 2 });
    expect(named(list, 'Flaky')).toMatchObject({ state: 'recovered', failedAttemptsLast24h: 1 });
  });

  it('a day later, what recovered or was given up has left the panel; what still retries stays', async () => {
    await until(
      () => panel(),
      (got) => (named(got, 'Nowhere')?.failedAttemptsLast24h ?? 0) >= 6,
      15_000,
    );
    ahead = 25 * 3_600_000; // past the hour's wait, too: the retrying deliveries are attempted once more
    const list = await until(
      () => panel(),
      (got) => named(got, 'Answers 500')?.failedAttemptsLast24h === 2 && named(got, 'Nowhere')?.failedAttemptsLast24h === 2,
      15_000,
    );
    expect(list.map((f) => f.callback.name).sort()).toEqual(['Answers 500', 'Nowhere']);
    for (const f of list) expect(f).toMatchObject({ state: 'retrying', retryingDeliveries: 2, failedLast24h: 0 });
  });
});
