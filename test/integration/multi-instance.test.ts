// Several real server processes (src/main.ts) on the run's PostgreSQL database with Redis: the live feed crosses
// instances, scheduled alerts are sent once however many instances check, and an instance survives Redis going
// away and coming back (votes keep being accepted, /readyz says degraded, the feed resumes).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sseReader, type SseReader } from '../kit/sse.js';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug, createOwnPostgresDatabase } from '../kit/app.js';
import { runCli, startServerProcess, type ServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';

const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';
const SUBSCRIPTION = 'subscription { voteReceived { publicId voterName } }';

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function json(method: string, url: string, key?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/** Organization through the CLI (the way operators do), a provider through the API of `server`. */
async function setUpOrg(env: Record<string, string>, server: ServerProcess, prefix: string) {
  const slug = uniqueSlug(prefix);
  const created = await runCli(['org', 'create', '--slug', slug, '--name', 'Multi Instance', '--plan', 'growth', '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  const org = { id: created.json.organization.id as string, slug, key: created.json.api_key.key as string };
  const provider = await json('POST', `${server.url}/v1/providers`, org.key, {
    key: 'alpha',
    name: 'Alpha',
    auth_method: 'url_path',
    auth_field: 's',
    votee_path: 'user',
  });
  expect(provider.status, JSON.stringify(provider.body)).toBe(201);
  return { ...org, hookPath: new URL(provider.body.data.webhook_url).pathname };
}

const vote = (server: ServerProcess, hookPath: string, user: string) => json('POST', `${server.url}${hookPath}`, undefined, { user, n: Math.random() });

/** How many Redis connections (instances) listen on the live-feed channel (one channel for every organization). */
async function feedListeners(redis: Redis, _organizationId: string): Promise<number> {
  const reply = (await redis.pubsub('NUMSUB', 'vote-relay:live-feed')) as [string, number];
  return Number(reply[1]);
}

/** The live-feed subscribers an instance counts now (its /metrics gauge, SSE and WebSocket alike). */
async function liveSubscribers(instance: ServerProcess): Promise<number> {
  const text = await (await fetch(`${instance.url}/metrics`)).text();
  return Number(/^vote_relay_live_subscribers (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function kill(child: ChildProcess | undefined | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when something on the port answers PING with +PONG. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/** A throw-away redis-server (no persistence) on `port`; resolves once it answers PING. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
        return redisAnswers(port);
      },
      10_000,
      `redis-server on port ${port} answering`,
    );
    return child;
  } catch (err) {
    await kill(child);
    throw err;
  }
}

const yesterdayUtc = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe.skipIf(databaseUnavailable || dialect !== 'postgresql')('several instances with Redis (server processes)', () => {
  // A database of its own: these instances check alerts for every organization they see, on the real clock.
  let own: Awaited<ReturnType<typeof createOwnPostgresDatabase>> | undefined;
  const env: Record<string, string> = {
    DATABASE_URL: '',
    SECRET_KEY: TEST_SECRET_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    REDIS_URL: SHARED_REDIS_URL,
    ALERTS_INTERVAL_MS: '200',
    DELIVERY_POLL_MS: '100',
  };
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  let org: Awaited<ReturnType<typeof setUpOrg>>;
  let redis: Redis;
  let admin: Receiver | undefined;
  const readers: SseReader[] = [];

  beforeAll(async () => {
    redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
    own = await createOwnPostgresDatabase();
    env.DATABASE_URL = own.url;
    // The CLI applies the migrations first, so the two processes do not race to do it.
    const bootstrap = await runCli(['migrate', '--json'], env);
    expect(bootstrap.code, bootstrap.stderr).toBe(0);
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    [a, b] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    org = await setUpOrg(env, a!, 'multi');
  }, 60_000);

  afterAll(async () => {
    for (const reader of readers) reader.close();
    await Promise.all([kill(a?.child), kill(b?.child)]);
    await admin?.close();
    redis?.disconnect();
    await own?.drop();
  });

  it('a subscriber on one instance receives, within 1 s, the votes posted to the other (both ways)', async () => {
    const onA = await sseReader(`${a!.url}/graphql`, org.key, SUBSCRIPTION);
    const onB = await sseReader(`${b!.url}/graphql`, org.key, SUBSCRIPTION);
    readers.push(onA, onB);
    expect([onA.status, onB.status]).toEqual([200, 200]);
    expect(onA.contentType).toContain('text/event-stream');
    // Both instances have subscribed to the organization's channel in Redis.
    await eventually(async () => (await feedListeners(redis, org.id)) >= 2, 5_000, 'both instances listening in redis');

    let sentAt = Date.now();
    const viaB = await vote(b!, org.hookPath, 'ViaB');
    expect(viaB.status, JSON.stringify(viaB.body)).toBe(200);
    await eventually(() => onA.events.length >= 1, 1_000, 'vote posted to B seen on A');
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    expect(onA.events[0].data.voteReceived).toEqual({ publicId: viaB.body.data.vote_id, voterName: 'ViaB' });

    sentAt = Date.now();
    const viaA = await vote(a!, org.hookPath, 'ViaA');
    expect(viaA.status, JSON.stringify(viaA.body)).toBe(200);
    await eventually(() => onB.events.some((e) => e.data?.voteReceived?.voterName === 'ViaA'), 1_000, 'vote posted to A seen on B');
    expect(Date.now() - sentAt).toBeLessThan(1_000);

    // Each subscriber sees each vote exactly once, in order (no local copy on top of the Redis one).
    await new Promise((r) => setTimeout(r, 300));
    for (const reader of [onA, onB]) {
      expect(reader.events.map((e) => e.data.voteReceived)).toEqual([
        { publicId: viaB.body.data.vote_id, voterName: 'ViaB' },
        { publicId: viaA.body.data.vote_id, voterName: 'ViaA' },
      ]);
    }
    onA.close();
    onB.close();
  }, 60_000);

  it('a graphql-ws subscriber on one instance receives the votes posted to the other', async () => {
    const client = createWsClient({
      url: `${a!.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${org.key}` },
      retryAttempts: 0,
    });
    const seen: { publicId: string; voterName: string }[] = [];
    const before = await liveSubscribers(a!);
    const stop = client.subscribe({ query: SUBSCRIPTION }, { next: (v: any) => void seen.push(v.data.voteReceived), error: () => {}, complete: () => {} });
    try {
      await eventually(async () => (await feedListeners(redis, org.id)) >= 2, 5_000, 'both instances listening in redis');
      await eventually(async () => (await liveSubscribers(a!)) > before, 5_000, 'the WebSocket subscriber counted on A');
      const viaB = await vote(b!, org.hookPath, 'WsViaB');
      expect(viaB.status, JSON.stringify(viaB.body)).toBe(200);
      await eventually(() => seen.length >= 1, 2_000, 'vote posted to B seen over WebSocket on A');
      expect(seen).toEqual([{ publicId: viaB.body.data.vote_id, voterName: 'WsViaB' }]);
    } finally {
      stop();
      await client.dispose();
    }
  }, 60_000);

  it('the daily summary is sent exactly once although both instances check every 200 ms', async () => {
    admin = await startReceiver({ status: 204 });
    const path = `/admin/${org.slug}`;
    const patched = await json('PATCH', `${b!.url}/v1/organization`, org.key, {
      settings: { chat_admin_webhook_url: `${admin.url}${path}`, admin_daily_summary: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const received = () => admin!.requests.filter((r) => r.path === path);

    await eventually(() => received().length >= 1, 20_000, 'the daily summary arriving');
    await new Promise((r) => setTimeout(r, 3_000)); // ~15 more checks by each instance
    expect(received(), JSON.stringify(received().map((r) => r.json))).toHaveLength(1);
    const embed = received()[0].json.embeds[0];
    expect([`Daily summary · ${yesterdayUtc()}`, `Daily summary · ${new Date(received()[0].at - 86_400_000).toISOString().slice(0, 10)}`]).toContain(
      embed.title,
    );
    expect(embed.description).toMatch(/^\*\*0\*\* votes on \d{4}-\d{2}-\d{2} \(UTC\)\.$/); // the organization is new today
    // Both instances were checking all along, and losing the race for the claim is not an error.
    for (const instance of [a!, b!]) {
      expect(instance.child.exitCode).toBeNull();
      const errors = instance.logs.filter((line) => /"level":(5|6)\d/.test(line) || /^[A-Za-z]*Error/m.test(line));
      expect(errors).toEqual([]);
    }
  }, 60_000);
});

describe.skipIf(databaseUnavailable || dialect !== 'postgresql')('an instance while Redis goes down and comes back', () => {
  it('keeps accepting votes, reports degraded, and resumes the live feed once Redis is back', async () => {
    const port = await freePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      SECRET_KEY: TEST_SECRET_KEY,
      ALLOW_PRIVATE_TARGETS: 'true',
      REDIS_URL: redisUrl,
      ALERTS_INTERVAL_MS: '0',
    };
    let redisServer: ChildProcess | undefined;
    let server: ServerProcess | undefined;
    let probe: Redis | undefined;
    let reader: SseReader | undefined;
    try {
      redisServer = await startRedis(port);
      server = await startServerProcess(env);
      const org = await setUpOrg(env, server, 'redisdown');
      const readyz = () => json('GET', `${server!.url}/readyz`);
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ok', redis: 'ok' } });

      // Redis goes away.
      await kill(redisServer);
      redisServer = undefined;
      await eventually(async () => (await readyz()).body?.status === 'degraded', 5_000, '/readyz reporting degraded');

      // Subscribers come and go during the outage: the instance stays up and still feeds its own subscribers.
      const leaving = await sseReader(`${server.url}/graphql`, org.key, SUBSCRIPTION);
      const staying = await sseReader(`${server.url}/graphql`, org.key, SUBSCRIPTION);
      leaving.close();
      await new Promise((r) => setTimeout(r, 1_500));
      expect(server.child.exitCode).toBeNull();

      const started = Date.now();
      const during = await vote(server, org.hookPath, 'DuringOutage');
      expect(during.status, JSON.stringify(during.body)).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000); // publishing fails fast, it does not wait for Redis
      const stored = await json('GET', `${server.url}/v1/votes/${during.body.data.vote_id}`, org.key);
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(stored.body.data).toMatchObject({ public_id: during.body.data.vote_id, voter_name: 'DuringOutage', provider_key: 'alpha' });
      expect(await readyz()).toEqual({ status: 200, body: { status: 'degraded', redis: 'unavailable' } });
      await eventually(() => staying.events.length >= 1, 2_000, 'the local subscriber getting the vote during the outage');
      expect(staying.events[0].data.voteReceived).toEqual({ publicId: during.body.data.vote_id, voterName: 'DuringOutage' });
      staying.close();

      // Redis comes back on the same port.
      redisServer = await startRedis(port);
      await eventually(async () => (await readyz()).body?.status === 'ok', 10_000, '/readyz back to ok');
      expect(await readyz()).toEqual({ status: 200, body: { status: 'ok', redis: 'ok' } });

      reader = await sseReader(`${server.url}/graphql`, org.key, SUBSCRIPTION);
      expect(reader.status).toBe(200);
      probe = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
      await eventually(async () => (await feedListeners(probe!, org.id)) >= 1, 5_000, 'the instance listening in redis again');
      const sentAt = Date.now();
      const after = await vote(server, org.hookPath, 'AfterRecovery');
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      await eventually(() => reader!.events.length >= 1, 1_000, 'vote after recovery reaching the subscriber');
      expect(Date.now() - sentAt).toBeLessThan(1_000);
      expect(reader.events.map((e) => e.data.voteReceived)).toEqual([{ publicId: after.body.data.vote_id, voterName: 'AfterRecovery' }]);
      expect(server.child.exitCode).toBeNull();
    } finally {
      reader?.close();
      probe?.disconnect();
      await kill(server?.child);
      await kill(redisServer);
    }
  }, 60_000);
});
