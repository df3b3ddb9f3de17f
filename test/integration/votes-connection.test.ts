import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('votesConnection (Relay-style paging)', () => {
  let app: TestApp;
  let org: TestOrg;
  const ids: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({}, { countQueries: true });
    org = await app.createOrg({ plan: 'growth' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    for (let i = 0; i < 25; i++) ids.push((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: `v${i}` } })).body.data.vote_id);
  });
  afterAll(() => app?.stop());

  const page = (first: number, after?: string) =>
    app.request('POST', '/graphql', {
      key: org.readKey,
      body: {
        query: `query ($first: Int, $after: String) { votesConnection(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { publicId voterName providerKey } } } }`,
        variables: { first, after },
      },
    });

  it('walks every vote newest first, without gaps or repeats', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await page(10, after);
      expect(res.body.errors).toBeUndefined();
      const c = res.body.data.votesConnection;
      expect(c.totalCount).toBe(25);
      seen.push(...c.edges.map((e: { node: { publicId: string; providerKey: string } }) => e.node.publicId));
      expect(c.edges.every((e: { node: { providerKey: string } }) => e.node.providerKey === 'p')).toBe(true);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  const backward = (last: number, before?: string) =>
    app.request('POST', '/graphql', {
      key: org.readKey,
      body: {
        query: `query ($last: Int, $before: String) { votesConnection(last: $last, before: $before) { pageInfo { hasPreviousPage startCursor } edges { node { publicId } } } }`,
        variables: { last, before },
      },
    });

  it('walks back from the oldest vote with last/before, and answers an empty page with null cursors', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const res = await backward(7, before);
      expect(res.body.errors).toBeUndefined();
      const c = res.body.data.votesConnection;
      seen.unshift(...c.edges.map((e: { node: { publicId: string } }) => e.node.publicId));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor;
    }
    expect(seen).toEqual([...ids].reverse());
    // Older than the oldest vote: nothing, and no cursor to go on from (null, as before the relay plugin).
    const oldest = (await page(25)).body.data.votesConnection.pageInfo.endCursor;
    const empty = (await page(10, oldest)).body.data.votesConnection;
    expect(empty).toMatchObject({ totalCount: 25, edges: [], pageInfo: { hasNextPage: false, endCursor: oldest } });
    const none = await app.request('POST', '/graphql', {
      key: org.readKey,
      body: { query: '{ votesConnection(voter: "nobody") { edges { cursor } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }' },
    });
    expect(none.body.data.votesConnection).toEqual({ edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false } });
  });

  it('costs the same number of statements for 5 or 25 votes', async () => {
    const cost = async (first: number) => {
      // The hook request log writes its queue on a timer; written now, it cannot land inside the measured call.
      await app.hookRequestLog.flush();
      const before = app.deps.db.queryCount();
      await page(first);
      return app.deps.db.queryCount() - before;
    };
    await page(1); // the key's once-a-minute last_used_at write happens here, not in what is measured
    expect(await cost(5)).toBe(await cost(25));
  });

  it('refuses a foreign cursor and a bad page size', async () => {
    const bad = await page(10, 'not-a-cursor');
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'after' }] });
    const big = await page(1000);
    expect(big.body.errors[0].extensions.details[0].field).toBe('first');
    const none = await page(0);
    expect(none.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'first' }] });
    const back = await backward(101);
    expect(back.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'last' }] });
    // A cursor of another shape (base64 of text without the time|id form) is refused by name, for before as for after.
    const forged = await backward(5, Buffer.from('GPC:S:1').toString('base64'));
    expect(forged.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'before' }] });
  });
});
