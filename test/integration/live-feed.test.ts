import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sseReader } from '../kit/sse.js';
import { until } from '../kit/wait.js';
import { createClient } from 'graphql-sse';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

async function eventually(check: () => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(databaseUnavailable)('live vote feed over Server-Sent Events', () => {
  let app: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  const paths: Record<string, string> = {};

  async function provider(o: TestOrg, key: string) {
    const made = (
      await app.request('POST', '/v1/providers', {
        key: o.key,
        body: { key, name: key.toUpperCase(), auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    paths[`${o.slug}/${key}`] = new URL(made.webhook_url).pathname;
  }
  const vote = (o: TestOrg, key: string, user: string) => app.request('POST', paths[`${o.slug}/${key}`], { body: { user, n: Math.random() } });

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'growth' });
    other = await app.createOrg({ plan: 'growth' });
    await provider(org, 'alpha');
    await provider(org, 'beta');
    await provider(other, 'alpha');
  });
  afterAll(() => app?.stop());
  /** The live hub counts a subscription once it is registered: a vote sent then reaches it. */
  const untilSubscribers = (n: number) =>
    until(
      async () => app.liveSubscribers(),
      (count) => count === n,
      5_000,
    );

  it('a plain fetch reader gets each new vote, only its own organization, filtered by provider', async () => {
    const all = await sseReader(`${app.url}/graphql`, org.readKey, 'subscription { voteReceived { publicId voterName providerKey providerName } }');
    const betaOnly = await sseReader(`${app.url}/graphql`, org.readKey, 'subscription { voteReceived(provider: "beta") { publicId voterName providerKey } }');
    expect(all.status).toBe(200);
    expect(all.contentType).toContain('text/event-stream');
    await untilSubscribers(2);
    // How soon a vote reaches the feed is measured by bench/live.ts (BENCHMARKS.md), not asserted here.
    const a = await vote(org, 'alpha', 'Alice');
    await eventually(() => all.events.length >= 1);
    expect(all.events[0].data.voteReceived).toEqual({ publicId: a.body.data.vote_id, voterName: 'Alice', providerKey: 'alpha', providerName: 'ALPHA' });
    await vote(other, 'alpha', 'Intruder');
    const b = await vote(org, 'beta', 'Bob');
    // A last vote, after which nothing else may have come: each reader gets its events in order.
    await vote(org, 'alpha', 'Last');
    await eventually(() => all.events.length >= 3 && betaOnly.events.length >= 1);
    expect(all.events.map((e) => e.data.voteReceived.voterName)).toEqual(['Alice', 'Bob', 'Last']);
    expect(betaOnly.events.map((e) => e.data.voteReceived.publicId)).toEqual([b.body.data.vote_id]);
    all.close();
    betaOnly.close();
    await untilSubscribers(0);
  });

  it('the graphql-sse client works in distinct-connections mode (/graphql) and single-connection mode (/graphql/stream)', async () => {
    for (const [url, singleConnection] of [
      [`${app.url}/graphql`, false],
      [`${app.url}/graphql/stream`, true],
    ] as const) {
      const client = createClient({ url, singleConnection, headers: { authorization: `Bearer ${org.key}` }, retryAttempts: 0 });
      const received: any[] = [];
      const unsubscribe = client.subscribe(
        { query: 'subscription { voteReceived { publicId voterName } }' },
        {
          next: (value) => {
            received.push(value);
          },
          error: () => {},
          complete: () => {},
        },
      );
      const name = singleConnection ? 'Single' : 'Distinct';
      if (!singleConnection) {
        // Served by the live hub, which counts it once it is registered.
        await untilSubscribers(1);
        const v = await vote(org, 'alpha', name);
        await eventually(() => received.length >= 1);
        expect(received[0].data.voteReceived).toEqual({ publicId: v.body.data.vote_id, voterName: name });
      } else {
        // Served by yoga, which tells nothing when the operation is registered: votes are sent until one arrives;
        // every vote after it arrives too.
        const sent: { id: string; name: string }[] = [];
        while (received.length === 0) {
          if (sent.length === 50) throw new Error('the single-connection subscription received none of 50 votes');
          const v = await vote(org, 'alpha', `${name}${sent.length}`);
          sent.push({ id: v.body.data.vote_id, name: `${name}${sent.length}` });
          await eventually(() => received.length >= 1, 200).catch(() => {});
        }
        const first = sent.find((s) => s.id === received[0].data.voteReceived.publicId);
        expect(first, 'the first vote received is one of those sent').toBeDefined();
        expect(received[0].data.voteReceived).toEqual({ publicId: first!.id, voterName: first!.name });
        await eventually(() => received.length >= sent.length - sent.indexOf(first!));
      }
      unsubscribe();
      client.dispose();
      await untilSubscribers(0);
    }
  });

  it('needs a valid key, and a key revoked while connected stops receiving', async () => {
    const anon = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { voteReceived { publicId } }' }),
    });
    const text = await anon.text();
    expect(text).toContain('AUTH_REQUIRED');

    const temp = (await app.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'watcher', scope: 'read' } })).body.data;
    const reader = await sseReader(`${app.url}/graphql`, temp.key, 'subscription { voteReceived { voterName } }');
    await untilSubscribers(1);
    await vote(org, 'alpha', 'BeforeRevoke');
    await eventually(() => reader.events.length === 1);
    expect((await app.request('DELETE', `/v1/api-keys/${temp.id}`, { key: org.key })).status).toBe(200);
    await eventually(() => reader.isEnded(), 2_000);
    // The revocation took the subscriber out of the hub (this side never closed it): nothing sent now can reach it.
    await untilSubscribers(0);
    await vote(org, 'alpha', 'AfterRevoke');
    await reader.reading;
    expect(reader.events.map((e) => e.data.voteReceived.voterName)).toEqual(['BeforeRevoke']);
    reader.close();
  });

  it('many subscribers with different selections, filters and variables each get exactly their votes, in order', async () => {
    const queries: [string, Record<string, unknown> | undefined, (provider: string) => boolean][] = [
      ['subscription { voteReceived { voterName } }', undefined, () => true],
      ['subscription { voteReceived { voterName providerKey } }', undefined, () => true],
      ['subscription { voteReceived(provider: "beta") { voterName } }', undefined, (p) => p === 'beta'],
      ['subscription ($p: String) { voteReceived(provider: $p) { voterName } }', { p: 'alpha' }, (p) => p === 'alpha'],
      ['subscription ($p: String) { voteReceived(provider: $p) { voterName } }', { p: 'beta' }, (p) => p === 'beta'],
      ['subscription Named { v: voteReceived { voterName } }', undefined, () => true],
    ];
    const readers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => queries[i % queries.length]).map(async ([query, variables, wants]) => ({
        reader: await sseReader(`${app.url}/graphql`, org.readKey, query, variables),
        wants,
        alias: query.includes('v: voteReceived') ? 'v' : 'voteReceived',
      })),
    );
    const elsewhere = await sseReader(`${app.url}/graphql`, other.key, 'subscription { voteReceived { voterName } }');
    await untilSubscribers(readers.length + 1);
    const sent: [string, string][] = [];
    for (let i = 0; i < 12; i++) {
      const p = i % 3 === 0 ? 'beta' : 'alpha';
      const user = `Fan${i}`;
      expect((await vote(org, p, user)).status).toBe(200);
      sent.push([p, user]);
    }
    for (const { reader, wants, alias } of readers) {
      const expected = sent.filter(([p]) => wants(p)).map(([, u]) => u);
      await eventually(() => reader.events.length >= expected.length);
      expect(reader.events.map((e) => e.data[alias].voterName)).toEqual(expected);
      expect(reader.events.every((e) => !e.errors)).toBe(true);
    }
    expect(elsewhere.events).toEqual([]);
    for (const { reader } of readers) reader.close();
    elsewhere.close();
  });

  it('a subscription that is not valid gets a GraphQL error, not a stream', async () => {
    for (const query of ['subscription { voteReceived { nope } }', 'subscription { voteReceived(provider: 5) { voterName } }', 'subscription {']) {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query }),
      });
      const text = await res.text();
      expect(text, query).toContain('"errors"');
      expect(text, query).not.toContain('"data":{"voteReceived"');
    }
  });
});
