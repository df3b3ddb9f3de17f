// The hook request log's recorder under bursts no HTTP client here can send within one 300 ms flush window (README
// "Hook request log", bounds): it is fed through its real input, the hook watchers (deps.hookObservers, as ingest,
// the 413 handler and the Votifier listener tell them), and writes to the real database; what it kept is read back
// through REST. Refused requests have their own share of the queue and a bound per sender, so made-up keys or
// many addresses cannot push out an accepted entry; a scope or sender the write found full is counted at once; one
// live event carries an organization's entries of a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { sseReader } from '../kit/sse.js';
import { until } from '../kit/wait.js';
import type { HookObservation, ObservedProvider } from '../../src/modules/hook-requests/observation.js';
import type { HookLogItem } from '../../src/storage/hook-log.js';

describe.skipIf(databaseUnavailable)('hook request log recorder', () => {
  let app: TestApp;
  let org: TestOrg;
  let provider: ObservedProvider;

  async function providerOf(o: TestOrg, key: string): Promise<ObservedProvider> {
    return app.deps.db.prisma.provider.findUniqueOrThrow({
      where: { organizationId_key: { organizationId: o.id, key } },
      select: { id: true, key: true, authMethod: true, authField: true, authTimestampField: true, payloadSource: true },
    });
  }

  const base = (o: TestOrg, key: string, clientIp: string) => ({
    receivedAt: new Date(),
    durationMs: 1,
    orgSlug: o.slug,
    providerKey: key,
    organizationId: o.id,
    clientIp,
    method: 'POST',
    path: `/hooks/${o.slug}/${key}`,
    protocol: 'http' as const,
    headers: { 'content-type': 'application/json' },
    query: {},
    testVote: false,
  });
  /** A request to a key no provider has (as ingest tells it: the organization found, no provider). */
  const unknownKey = (o: TestOrg, key: string, clientIp: string): HookObservation => ({
    ...base(o, key, clientIp),
    provider: null,
    outcome: 'refused',
    status: 404,
    errorCode: 'NOT_FOUND',
    reason: `Provider ${key} not found`,
    voterName: null,
    voteId: null,
    body: Buffer.from('{"user":"junk"}'),
  });
  const wrongSecret = (o: TestOrg, p: ObservedProvider, clientIp: string): HookObservation => ({
    ...base(o, p.key, clientIp),
    provider: p,
    outcome: 'refused',
    status: 401,
    errorCode: 'AUTH_FAILED',
    reason: 'Hook authentication failed: wrong secret',
    voterName: null,
    voteId: null,
    body: Buffer.from('{"user":"junk"}'),
  });
  const accepted = (o: TestOrg, p: ObservedProvider, voter: string): HookObservation => ({
    ...base(o, p.key, '198.51.100.7'),
    provider: p,
    outcome: 'accepted',
    status: 200,
    errorCode: null,
    reason: null,
    voterName: voter,
    voteId: `vt_${crypto.randomUUID()}`,
    body: Buffer.from(JSON.stringify({ user: voter })),
  });

  const acceptedVoters = async (o: TestOrg, key: string) =>
    (await app.request('GET', `/v1/providers/${key}/requests?outcome=accepted&limit=100`, { key: o.readKey })).body.data.requests.map(
      (e: { voter_name: string }) => e.voter_name,
    );
  const keptFrom = (o: TestOrg, providerId: string | null, clientIp: string | { startsWith: string }) =>
    app.deps.db.prisma.hookRequest.count({ where: { organizationId: o.id, providerId, outcome: 'refused', clientIp } });
  const dropRows = (o: TestOrg, providerId: string | null) =>
    app.deps.db.prisma.hookRequestDrop.findMany({ where: { organizationId: o.id, scope: providerId ?? `org:${o.id}` } });

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'business' });
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user' },
    });
    expect(made.status).toBe(201);
    provider = await providerOf(org, 'site');
  });
  afterAll(() => app?.stop());

  it('10,000 refused requests with made-up keys from one address, then an accepted one: the accepted one is kept, every refusal kept or counted', async () => {
    const ip = '203.0.113.20';
    for (let i = 0; i < 10_000; i++) app.deps.hookObservers.tell(unknownKey(org, `k${i}-${Math.random().toString(36).slice(2)}`, ip));
    app.deps.hookObservers.tell(accepted(org, provider, 'AfterKeys'));
    await app.hookRequestLog.flush();
    expect(await acceptedVoters(org, 'site')).toContain('AfterKeys');
    // The made-up keys are one scope (the organization-level log) and one sender: its bound kept, the rest counted.
    const kept = await keptFrom(org, null, ip);
    expect(kept).toBe(app.config.hookLogMaxRefusedPerAddress);
    const drops = await dropRows(org, null);
    expect(drops.map((d) => [d.clientIp, d.count])).toEqual([[ip, 10_000 - kept]]);
  });

  it('10,000 refused requests from 10,000 addresses, then an accepted one: the accepted one is kept and the tables stay bounded', async () => {
    const o = await app.createOrg({ plan: 'business' });
    expect(
      (
        await app.request('POST', '/v1/providers', {
          key: o.key,
          body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user' },
        })
      ).status,
    ).toBe(201);
    const p = await providerOf(o, 'site');
    for (let i = 0; i < 10_000; i++) app.deps.hookObservers.tell(wrongSecret(o, p, `10.20.${i >> 8}.${i & 255}`));
    app.deps.hookObservers.tell(accepted(o, p, 'AfterAddresses'));
    await app.hookRequestLog.flush();
    expect(await acceptedVoters(o, 'site')).toEqual(['AfterAddresses']);
    const kept = await keptFrom(o, p.id, { startsWith: '10.20.' });
    const drops = await dropRows(o, p.id);
    expect(kept).toBeLessThanOrEqual(app.config.hookLogMaxRefusedPerAddress * 20);
    expect(drops.length).toBeLessThanOrEqual(101);
    expect(kept + drops.reduce((n, d) => n + d.count, 0)).toBe(10_000);
  });

  it('a sender the write found full is counted at once: its next refusals are not redacted or sent to the write', async () => {
    const o = await app.createOrg({ plan: 'business' });
    expect(
      (
        await app.request('POST', '/v1/providers', {
          key: o.key,
          body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user' },
        })
      ).status,
    ).toBe(201);
    const p = await providerOf(o, 'site');
    const ip = '192.0.2.50';
    const writer = app.deps.db.hookLog;
    const submit = writer.submit;
    const refusedSent: number[] = [];
    writer.submit = (item: HookLogItem) => {
      if (item.kind === 'batch') refusedSent.push(item.rows.filter((r) => r.organizationId === o.id && r.outcome === 'refused').length);
      return submit.call(writer, item);
    };
    try {
      for (let i = 0; i < 300; i++) app.deps.hookObservers.tell(wrongSecret(o, p, ip));
      await app.hookRequestLog.flush();
      const first = refusedSent.reduce((a, b) => a + b, 0);
      expect(first).toBe(app.config.hookLogMaxRefusedPerAddress); // the sender's bound per flush; 200 counted at once
      refusedSent.length = 0;
      for (let i = 0; i < 300; i++) app.deps.hookObservers.tell(wrongSecret(o, p, ip));
      await app.hookRequestLog.flush();
      expect(refusedSent.reduce((a, b) => a + b, 0)).toBe(0);
    } finally {
      writer.submit = submit;
    }
    expect(await keptFrom(o, p.id, ip)).toBe(app.config.hookLogMaxRefusedPerAddress);
    expect((await dropRows(o, p.id)).map((d) => [d.clientIp, d.count])).toEqual([[ip, 600 - app.config.hookLogMaxRefusedPerAddress]]);
  });

  it('one live event carries an organization’s entries of a write; a subscriber still gets them one by one', async () => {
    const o = await app.createOrg({ plan: 'business' });
    expect(
      (
        await app.request('POST', '/v1/providers', {
          key: o.key,
          body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user' },
        })
      ).status,
    ).toBe(201);
    const p = await providerOf(o, 'site');
    const events: unknown[] = [];
    const feed = app.deps.feed.pubsub.subscribe('hookRequestReceived', o.id)[Symbol.asyncIterator]();
    const reading = (async () => {
      for (;;) {
        const next = await feed.next();
        if (next.done) return;
        events.push(next.value);
      }
    })();
    const stream = await sseReader(`${app.url}/graphql`, o.readKey, 'subscription { hookRequestReceived { outcome voterName clientIp } }');
    try {
      // The SSE subscription is listening once the feed counts it beside this test's own.
      await until(
        async () => app.deps.feed.listenerCount('hookRequestReceived', o.id),
        (n) => n >= 2,
        5_000,
      );
      for (let i = 0; i < 5; i++) app.deps.hookObservers.tell(wrongSecret(o, p, `192.0.2.${60 + i}`));
      app.deps.hookObservers.tell(accepted(o, p, 'LiveOne'));
      await app.hookRequestLog.flush();
      await until(
        async () => stream.events.length,
        (n) => n >= 6,
        5_000,
      );
      expect(events).toHaveLength(1);
      expect((events[0] as unknown[]).length).toBe(6);
      expect(stream.events.map((e) => e.data.hookRequestReceived.voterName ?? e.data.hookRequestReceived.clientIp).sort()).toEqual(
        ['192.0.2.60', '192.0.2.61', '192.0.2.62', '192.0.2.63', '192.0.2.64', 'LiveOne'].sort(),
      );
    } finally {
      stream.close();
      await feed.return?.();
      await reading;
    }
  });
});
