// GET /metrics (README: Metrics): Prometheus text from prom-client; counters move by the right amounts after
// votes, duplicates, refusals, deliveries and failures; gauges show open jobs, the backlog and live subscribers;
// no organization or voter appears in a label; METRICS_TOKEN guards it; the delivery thread's counts arrive in the
// main registry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { sseReader } from '../kit/sse.js';
import { until } from '../kit/wait.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The sum of the series of `name` whose labels include `labels` (in any order; none: 0). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

describe.skipIf(databaseUnavailable)('GET /metrics', () => {
  let app: TestApp;
  let game: Receiver;
  const dropped: (() => Promise<void>)[] = [];
  /** Each service its own database on PostgreSQL: another instance's worker would send (and count) its jobs. */
  const start = async (env: Record<string, string>) => {
    const own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    if (own) dropped.push(own.drop);
    return startTestApp(env, own ? { databaseUrl: own.url } : {});
  };

  beforeAll(async () => {
    app = await start({ METRICS_TOKEN: TOKEN, RETRY_SCHEDULE: '100ms,100ms', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50' });
    game = await startReceiver({ status: 200 });
  });
  afterAll(async () => {
    await app?.stop();
    await game?.close();
    for (const drop of dropped) await drop();
  });

  const scrape = async (target: TestApp = app) => {
    const res = await fetch(`${target.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  async function org(target: TestApp = app) {
    const o: TestOrg = await target.createOrg({ plan: 'business' });
    const made = (
      await target.request('POST', '/v1/providers', {
        key: o.key,
        body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'Authorization', auth_value: 'metrics-secret-123', votee_path: 'user' },
      })
    ).body.data;
    const path = new URL(made.webhook_url).pathname;
    const vote = (user: string, secret = 'metrics-secret-123') => target.request('POST', path, { body: { user }, headers: { authorization: secret } });
    return { o, vote };
  }

  it('needs the token when METRICS_TOKEN is set, and shows the process defaults', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
    const text = await scrape();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text, name).toContain(`\n${name}`);
    }
  });

  it("counts a body refused before it was read (too large, or not its Content-Encoding) under its provider; a stranger's key is no label", async () => {
    const s = await org();
    const path = new URL((await app.request('GET', '/v1/providers/site', { key: s.o.key })).body.data.webhook_url).pathname;
    const before = await scrape();
    const big = await app.request('POST', path, { rawBody: JSON.stringify({ user: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    const garbled = await app.request('POST', path, {
      rawBody: JSON.stringify({ user: 'plain' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: 'metrics-secret-123' },
    });
    expect(garbled.status).toBe(400);
    const stranger = await app.request('POST', `/hooks/${s.o.slug}/no-such-key-${Date.now()}`, {
      rawBody: JSON.stringify({ user: 'x'.repeat(70_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(stranger.status).toBe(413);
    const after = await until(
      () => scrape(),
      (text) =>
        value(text, 'vote_relay_hook_deliveries_total', { code: 'PAYLOAD_TOO_LARGE' }) -
          value(before, 'vote_relay_hook_deliveries_total', { code: 'PAYLOAD_TOO_LARGE' }) >=
        2,
    );
    const delta = (labels: Record<string, string>) =>
      value(after, 'vote_relay_hook_deliveries_total', labels) - value(before, 'vote_relay_hook_deliveries_total', labels);
    expect(delta({ outcome: 'refused', code: 'PAYLOAD_TOO_LARGE', provider: 'site' })).toBe(1);
    expect(delta({ outcome: 'refused', code: 'PAYLOAD_TOO_LARGE', provider: '' })).toBe(1);
    expect(delta({ outcome: 'refused', code: 'VALIDATION_ERROR', provider: 'site' })).toBe(1);
    expect(after).not.toContain('no-such-key-');
  });

  it('counts hook outcomes, stored votes, attempts and requests by route pattern; no organization or voter in a label', async () => {
    const s = await org();
    const callback = (await app.request('POST', '/v1/callbacks', { key: s.o.key, body: { name: 'Game', url: `${game.url}/m-${s.o.slug}` } })).body.data;
    const before = await scrape();
    game.script({ status: 503 });
    const first = await s.vote('metric-voter-alpha');
    expect(first.body.data.duplicate).toBe(false);
    expect((await s.vote('metric-voter-alpha')).body.data.duplicate).toBe(true);
    expect((await s.vote('metric-voter-beta')).status).toBe(200);
    expect((await s.vote('metric-voter-gamma', 'wrong-secret')).status).toBe(401);
    await until(
      async () => game.requests.filter((r) => r.path === `/m-${s.o.slug}`).length,
      (n) => n >= 3,
    );
    await until(
      () => app.request('GET', `/v1/votes/${first.body.data.vote_id}`, { key: s.o.key }).then((r) => r.body.data.callback_status),
      (st) => st === 'sent',
    );
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);

    expect(delta('vote_relay_hook_deliveries_total', { outcome: 'stored', code: '' })).toBe(2);
    expect(delta('vote_relay_hook_deliveries_total', { outcome: 'duplicate', code: '' })).toBe(1);
    expect(delta('vote_relay_hook_deliveries_total', { outcome: 'refused', code: 'AUTH_FAILED' })).toBe(1);
    expect(delta('vote_relay_votes_stored_total')).toBe(2);
    // Under the provider they reached, real ones apart from test votes.
    expect(delta('vote_relay_hook_deliveries_total', { outcome: 'stored', provider: 'site', test: 'false' })).toBe(2);
    expect(delta('vote_relay_hook_deliveries_total', { outcome: 'refused', code: 'AUTH_FAILED', provider: 'site', test: 'false' })).toBe(1);
    // Two votes to one callback: one attempt refused (503) and retried, then both sent.
    expect(delta('vote_relay_delivery_attempts_total', { kind: 'callback', outcome: 'retrying' })).toBe(1);
    expect(delta('vote_relay_delivery_attempts_total', { kind: 'callback', outcome: 'sent' })).toBe(2);
    expect(delta('vote_relay_delivery_jobs_finished_total', { kind: 'callback', status: 'sent' })).toBe(2);
    const hookRoutes = after.split('\n').filter((l) => l.startsWith('vote_relay_http_request_duration_seconds_count') && l.includes('route="/hooks/'));
    expect(hookRoutes.length).toBeGreaterThan(0);
    // A pattern, or /hooks/unmatched for a request refused before any route (a body too large).
    expect(hookRoutes.map((l) => /route="([^"]+)"/.exec(l)![1]).every((r) => r.includes(':') || r === '/hooks/unmatched')).toBe(true);
    // Patterns only: no slug, key, voter name or callback id anywhere.
    for (const secret of [s.o.slug, 'metric-voter-alpha', 'metric-voter-gamma', callback.id, s.o.key]) expect(after).not.toContain(secret);
  });

  it('shows open jobs, the backlog of due jobs, and live subscribers', async () => {
    const paused = await start({ METRICS_TOKEN: TOKEN, DELIVERY_ENABLED: 'false' });
    try {
      const s = await org(paused);
      await paused.request('POST', '/v1/callbacks', { key: s.o.key, body: { name: 'Game', url: `${game.url}/paused` } });
      expect((await s.vote('waiting-voter')).status).toBe(200);
      // The backlog is the waiting job's age (the job was made before the vote was answered): the first scrape, which
      // the gauges then keep for 5 s, comes once it is over a second old.
      const votedAt = Date.now();
      await until(
        async () => Date.now() - votedAt,
        (age) => age > 1_100,
        5_000,
      );
      const text = await scrape(paused);
      expect(value(text, 'vote_relay_delivery_jobs', { kind: 'callback', status: 'pending' })).toBeGreaterThanOrEqual(1);
      expect(value(text, 'vote_relay_delivery_backlog_seconds')).toBeGreaterThanOrEqual(1);

      const stream = await sseReader(`${paused.url}/graphql`, s.o.key, 'subscription { voteReceived { publicId } }');
      try {
        const scraped = await until(
          () => scrape(paused),
          (t) => value(t, 'vote_relay_live_subscribers') === 1,
          5_000,
        );
        expect(value(scraped, 'vote_relay_live_subscribers')).toBe(1);
      } finally {
        stream.close();
      }
    } finally {
      await paused.stop();
    }
  });

  it("counts the delivery thread's attempts in the main registry (DELIVERY_THREAD=true)", async () => {
    const threaded = await start({ METRICS_TOKEN: TOKEN, DELIVERY_THREAD: 'true', DELIVERY_POLL_MS: '50' });
    try {
      const s = await org(threaded);
      await threaded.request('POST', '/v1/callbacks', { key: s.o.key, body: { name: 'Game', url: `${game.url}/threaded` } });
      const before = value(await scrape(threaded), 'vote_relay_delivery_attempts_total', { kind: 'callback', outcome: 'sent' });
      expect((await s.vote('threaded-voter-1')).status).toBe(200);
      expect((await s.vote('threaded-voter-2')).status).toBe(200);
      await until(
        async () => value(await scrape(threaded), 'vote_relay_delivery_attempts_total', { kind: 'callback', outcome: 'sent' }) - before,
        (n) => n >= 2,
      );
    } finally {
      await threaded.stop();
    }
  });
});
