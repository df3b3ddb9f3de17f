// Vote recovery's own parts: instants at millisecond precision, when a stored vote is a listed one, and what the
// vote list client makes of each answer (local servers on 127.0.0.1).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HOOK_FORMATS, LEGACY_EARLY_MS, createTopggClient, instantMs, recoveredDedupKey, type ListedVote } from './topgg.js';

const listed = (over: Partial<ListedVote> = {}): ListedVote => ({
  user_id: '8226924471638491136',
  platform_id: '661200758510977084',
  weight: 1,
  created_at: '2026-01-28T02:19:19.145733Z',
  expires_at: '2026-01-28T14:19:19.145733Z',
  ...over,
});

describe('instantMs', () => {
  it('reads ISO 8601 instants with any number of fractional digits, at millisecond precision', () => {
    const at = Date.UTC(2026, 0, 28, 2, 19, 19, 145);
    expect(instantMs('2026-01-28T02:19:19.145733Z')).toBe(at);
    expect(instantMs('2026-01-28T02:19:19.1457331+00:00')).toBe(at);
    expect(instantMs('2026-01-28T04:19:19.145+02:00')).toBe(at);
    expect(instantMs('2026-01-28T02:19:19Z')).toBe(at - 145);
    expect(instantMs('2026-01-28T02:19:19.1Z')).toBe(at - 45);
  });

  it('refuses text without an offset (it would be local time) and anything else', () => {
    for (const value of ['2026-01-28T02:19:19.145', '2026-01-28', 'yesterday', '', 1769566759145, null, undefined]) {
      expect(instantMs(value), String(value)).toBeNull();
    }
  });
});

describe('HOOK_FORMATS.topgg (current webhooks)', () => {
  const format = HOOK_FORMATS.topgg;
  const hook = (userId: string, createdAt: string) => ({
    payload: { type: 'vote.create', data: { id: '808499215864008704', created_at: createdAt, user: { id: userId, name: 'cooluser' } } },
    receivedAtMs: 0,
  });

  it('is the same vote for the same top.gg user and instant, however each writes it', () => {
    expect(format.isSame(hook('8226924471638491136', '2026-01-28T02:19:19.1457331+00:00'), listed(), 0)).toBe(true);
    // A webhook that rounds past the millisecond the other way.
    expect(format.isSame(hook('8226924471638491136', '2026-01-28T02:19:19.1460000+00:00'), listed(), 0)).toBe(true);
  });

  it('is another vote for another user or another instant', () => {
    expect(format.isSame(hook('1', '2026-01-28T02:19:19.145733Z'), listed(), 0)).toBe(false);
    expect(format.isSame(hook('8226924471638491136', '2026-01-28T02:19:20.145733Z'), listed(), 0)).toBe(false);
    expect(format.isSame({ payload: null, receivedAtMs: 0 }, listed(), 0)).toBe(false);
  });

  it('a recovered body is recognised by the same rule', () => {
    const vote = listed({ weight: 2 });
    const body = format.body(vote);
    expect(body).toMatchObject({ type: 'vote.create', recovered: true, data: { weight: 2, user: { id: vote.user_id, name: vote.platform_id } } });
    expect(format.isSame({ payload: JSON.parse(JSON.stringify(body)), receivedAtMs: 0 }, vote, 0)).toBe(true);
  });
});

describe('HOOK_FORMATS["topgg-legacy"]', () => {
  const format = HOOK_FORMATS['topgg-legacy'];
  const window = 20 * 60_000;
  const createdAt = instantMs(listed().created_at)!;
  const hook = (user: string, receivedAtMs: number) => ({ payload: { bot: '1', user, type: 'upvote', isWeekend: false, query: '' }, receivedAtMs });

  it('is the same vote for the same Discord id received from a little before to the duplicate window after', () => {
    expect(format.isSame(hook('661200758510977084', createdAt - LEGACY_EARLY_MS), listed(), window)).toBe(true);
    expect(format.isSame(hook('661200758510977084', createdAt + window), listed(), window)).toBe(true);
    expect(format.isSame(hook('661200758510977084', createdAt - LEGACY_EARLY_MS - 1), listed(), window)).toBe(false);
    expect(format.isSame(hook('661200758510977084', createdAt + window + 1), listed(), window)).toBe(false);
    expect(format.isSame(hook('1', createdAt), listed(), window)).toBe(false);
  });

  it('a recovered body has the legacy shape and is recognised by the same rule', () => {
    const body = format.body(listed({ weight: 2 }));
    expect(body).toEqual({ user: '661200758510977084', type: 'upvote', isWeekend: true, query: '', recovered: true });
    expect(format.isSame({ payload: body, receivedAtMs: createdAt }, listed(), window)).toBe(true);
  });
});

describe('recoveredDedupKey', () => {
  it('is the same for one listed vote however its instant is written, and differs per provider, user and instant', () => {
    const key = recoveredDedupKey('p1', listed());
    expect(recoveredDedupKey('p1', listed({ created_at: '2026-01-28T02:19:19.1457+00:00' }))).toBe(key);
    expect(recoveredDedupKey('p2', listed())).not.toBe(key);
    expect(recoveredDedupKey('p1', listed({ user_id: '1' }))).not.toBe(key);
    expect(recoveredDedupKey('p1', listed({ created_at: '2026-01-28T02:19:19.146Z' }))).not.toBe(key);
  });
});

describe("createTopggClient: what a failed request leaves as the provider's error", () => {
  /** A local server answering every request with `handle`; the client pointed at it. */
  async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
    const server = createServer(handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const client = createTopggClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, timeoutMs: 1_000 });
    return {
      client,
      async close() {
        await client.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('a hung connection, a closed port, and a 429 whose wait is only in the body', async () => {
    const hung = await serve(() => {});
    expect(await hung.client.listVotes('tok', { startDate: '2026-01-01T00:00:00.000Z' })).toEqual({ ok: false, error: 'top.gg did not answer within 1 s' });
    await hung.close();

    const gone = createServer();
    gone.listen(0, '127.0.0.1');
    await once(gone, 'listening');
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const refusing = createTopggClient({ baseUrl: `http://127.0.0.1:${port}/api`, timeoutMs: 1_000 });
    expect(await refusing.listVotes('tok', { cursor: 'abc' })).toEqual({ ok: false, error: 'top.gg could not be reached (ECONNREFUSED)' });
    await refusing.close();

    const limited = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ 'retry-after': 7 }));
    });
    expect(await limited.client.listVotes('tok', { cursor: 'abc' })).toEqual({
      ok: false,
      error: 'top.gg rate-limited the vote list; waiting 7 s',
      retryAfterS: 7,
    });
    await limited.close();
  });

  it('sends the bearer token and the query, skips an unreadable entry, and never repeats the token in an error', async () => {
    const seen: { url?: string; authorization?: string }[] = [];
    const site = await serve((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      if (seen.length === 2) {
        res.writeHead(400, { 'content-type': 'application/problem+json' });
        return void res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'bad cursor secret-token-123' }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ cursor: 'next', data: [listed(), { user_id: '1', created_at: 'not a time' }] }));
    });
    const page = await site.client.listVotes('secret-token-123', { startDate: '2026-01-01T00:00:00.000Z' });
    expect(page).toEqual({ ok: true, cursor: 'next', listed: 2, votes: [listed()] });
    expect(seen[0]).toEqual({ url: '/api/v1/projects/@me/votes?startDate=2026-01-01T00%3A00%3A00.000Z', authorization: 'Bearer secret-token-123' });
    const refused = await site.client.listVotes('secret-token-123', { cursor: 'next' });
    expect(refused).toEqual({ ok: false, error: 'top.gg answered 400: bad cursor …' });
    await site.close();
  });
});
