// The live feed over WebSocket with the graphql-ws client (Apollo Client's and urql's default transport): the same
// key, filters, tenant isolation and revocation as over SSE (live-feed.test.ts), and queries over the socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { until } from '../kit/wait.js';

interface Received {
  values: any[];
  errors: unknown[];
  completed: boolean;
}

describe.skipIf(databaseUnavailable)('live vote feed over WebSocket (graphql-ws)', () => {
  let app: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  const paths: Record<string, string> = {};
  const clients: Client[] = [];

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

  function client(key: string | null, closes: { code: number; reason: string }[] = []): Client {
    const made = createClient({
      url: `${app.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: key ? { Authorization: `Bearer ${key}` } : {},
      retryAttempts: 0,
      lazy: true,
      on: { closed: (event) => void closes.push({ code: (event as { code: number }).code, reason: String((event as { reason: string }).reason) }) },
    });
    clients.push(made);
    return made;
  }

  function subscribe(c: Client, query: string): Received & { stop: () => void } {
    const received: Received = { values: [], errors: [], completed: false };
    const stop = c.subscribe(
      { query },
      { next: (v) => void received.values.push(v), error: (e) => void received.errors.push(e), complete: () => void (received.completed = true) },
    );
    return Object.assign(received, { stop });
  }

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'growth' });
    other = await app.createOrg({ plan: 'growth' });
    await provider(org, 'alpha');
    await provider(org, 'beta');
    await provider(other, 'alpha');
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.stop();
  });

  it('receives its own organization votes, filtered by provider, never another organization', async () => {
    const c = client(org.readKey);
    const all = subscribe(c, 'subscription { voteReceived { publicId voterName providerKey providerName } }');
    const betaOnly = subscribe(c, 'subscription { voteReceived(provider: "beta") { publicId voterName } }');
    // Both are served by the same fan-out hub as SSE subscribers.
    await until(
      async () => app.liveSubscribers(),
      (n) => n === 2,
      3_000,
    );
    const a = await vote(org, 'alpha', 'Alice');
    await vote(other, 'alpha', 'Intruder');
    const b = await vote(org, 'beta', 'Bob');
    // A last vote, after which nothing else may have come: each subscription gets its events in order.
    const last = await vote(org, 'alpha', 'Last');
    await until(
      async () => all.values.length + betaOnly.values.length,
      (n) => n >= 4,
      3_000,
    );
    expect(all.errors).toEqual([]);
    expect(all.values.map((v) => v.data.voteReceived)).toEqual([
      { publicId: a.body.data.vote_id, voterName: 'Alice', providerKey: 'alpha', providerName: 'ALPHA' },
      { publicId: b.body.data.vote_id, voterName: 'Bob', providerKey: 'beta', providerName: 'BETA' },
      { publicId: last.body.data.vote_id, voterName: 'Last', providerKey: 'alpha', providerName: 'ALPHA' },
    ]);
    expect(betaOnly.values.map((v) => v.data.voteReceived)).toEqual([{ publicId: b.body.data.vote_id, voterName: 'Bob' }]);
    all.stop();
    betaOnly.stop();
    await until(
      async () => app.liveSubscribers(),
      (n) => n === 0,
      3_000,
    );
  });

  it('answers queries over the socket too, with the same access rules', async () => {
    const c = client(org.readKey);
    const result = await new Promise<any>((resolve, reject) => {
      let value: unknown;
      c.subscribe(
        { query: '{ organization { slug } dashboardStats { summary { today } } }' },
        { next: (v) => (value = v), error: reject, complete: () => resolve(value) },
      );
    });
    expect(result.data.organization).toEqual({ slug: org.slug });
    const denied = await new Promise<any>((resolve, reject) => {
      let value: unknown;
      c.subscribe(
        { query: 'mutation { updateOrganization(input: {name: "x"}) { name } }' },
        { next: (v) => (value = v), error: reject, complete: () => resolve(value) },
      );
    });
    expect(denied.data).toEqual({ updateOrganization: null });
    expect(denied.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('a socket without a valid key is closed with 4403 Forbidden', async () => {
    for (const key of [null, 'vr_live_not_a_real_key_0000000000000000']) {
      const closes: { code: number; reason: string }[] = [];
      const c = client(key, closes);
      const sub = subscribe(c, 'subscription { voteReceived { publicId } }');
      await until(
        async () => sub.errors.length + closes.length,
        (n) => n > 0,
        3_000,
      );
      expect(closes[0]?.code).toBe(4403);
      expect(sub.values).toEqual([]);
    }
  });

  it('revoking the key ends its stream at once', async () => {
    const created = await app.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'ws-revoked', scope: 'read' } });
    expect(created.status).toBe(201);
    const closes: { code: number; reason: string }[] = [];
    const c = client(created.body.data.key, closes);
    const sub = subscribe(c, 'subscription { voteReceived { voterName } }');
    await until(
      async () => app.liveSubscribers(),
      (n) => n === 1,
      3_000,
    );
    await vote(org, 'alpha', 'BeforeRevoke');
    await until(
      async () => sub.values.length,
      (n) => n >= 1,
      3_000,
    );
    expect((await app.request('DELETE', `/v1/api-keys/${created.body.data.id}`, { key: org.key })).status).toBe(200);
    await until(
      async () => closes.length + (sub.completed ? 1 : 0) + sub.errors.length,
      (n) => n > 0,
      3_000,
    );
    // The subscription is gone from the hub: nothing sent now can reach it.
    await until(
      async () => app.liveSubscribers(),
      (n) => n === 0,
      3_000,
    );
    await vote(org, 'alpha', 'AfterRevoke');
    expect(sub.values.map((v) => v.data.voteReceived.voterName)).toEqual(['BeforeRevoke']);
    expect(closes[0]?.code).toBe(4403);
  });
});
