// Abuse (issue 7): slowloris-style clients — request headers sent a byte at a time, or a body trickled after
// complete headers — are cut at HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS (plus the once-a-second check),
// while two hundred of them do not keep anyone else from being served; oversized headers get 431, and bodies over
// the limit get 413 in the error envelope as soon as the limit is passed (a declared length is not waited for).
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { unclearError } from '../kit/faults.js';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
// Node checks the deadlines once a second (connectionsCheckingInterval); the rest is room for a busy machine.
const CHECK_INTERVAL_MS = 1_000;
const MARGIN_MS = 4_000;
const SLOW_HEADER_SOCKETS = 150;
const SLOW_BODY_SOCKETS = 50;

interface SlowClient {
  kind: 'headers' | 'body';
  openedAt: number;
  closedAt: number | null;
  bytesSent: number;
  received: string;
}

/** A raw connection that writes `head` at once, then `drip` one byte every `everyMs` until the server hangs up. */
function slowClient(port: number, kind: SlowClient['kind'], head: string, drip: string, everyMs: number): SlowClient {
  const client: SlowClient = { kind, openedAt: Date.now(), closedAt: null, bytesSent: 0, received: '' };
  const socket = connect(port, '127.0.0.1');
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (client.received += d));
  socket.on('error', () => {}); // a reset is one way of being cut off
  socket.on('close', () => {
    client.closedAt = Date.now();
    clearInterval(timer);
  });
  socket.on('connect', () => {
    client.openedAt = Date.now();
    socket.write(head);
    client.bytesSent += head.length;
    let i = 0;
    timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return clearInterval(timer);
      socket.write(drip[i++ % drip.length]);
      client.bytesSent++;
    }, everyMs);
  });
  return client;
}

interface RawAnswer {
  status: number | null;
  head: string;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
}

/**
 * Writes `chunks` on a raw connection (stopping early if the server answers or hangs up) and reads one answer:
 * status line, headers and a Content-Length body.
 */
function rawExchange(port: number, chunks: (string | Buffer)[], timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end === -1 ? text : text.slice(0, end);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      resolve({ status: status ? Number(status) : null, head, body: end === -1 ? '' : data.subarray(end + 4).toString('utf8'), closed });
      socket.destroy();
    };
    const timer = setTimeout(
      () => (done ? undefined : (socket.destroy(), reject(new Error(`no complete answer within ${timeoutMs} ms: ${data.toString('latin1').slice(0, 200)}`)))),
      timeoutMs,
    );
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (length !== undefined && data.length >= end + 4 + Number(length)) finish(false);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        // Respect back-pressure: a server that stopped reading must not make us buffer without end.
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
    });
  });
}

const chunked = (piece: string, count: number) => [...Array.from({ length: count }, () => `${piece.length.toString(16)}\r\n${piece}\r\n`)];

// Connections are cut before any database work: run once, on SQLite, where the database does not matter.
describe.skipIf(databaseUnavailable || dialect !== 'sqlite')('slow and oversized requests', () => {
  let app: TestApp;
  let org: TestOrg;
  let hookPath: string;

  beforeAll(async () => {
    app = await startTestApp({ HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    org = await app.createOrg({ plan: 'business' });
    const provider = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(provider.status, provider.text).toBe(201);
    hookPath = new URL(provider.body.data.webhook_url).pathname;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it(`cuts ${SLOW_HEADER_SOCKETS} slow-header and ${SLOW_BODY_SOCKETS} slow-body connections at their deadlines while serving everyone else`, async () => {
    const clients: SlowClient[] = [];
    for (let i = 0; i < SLOW_HEADER_SOCKETS; i++) {
      clients.push(slowClient(app.port, 'headers', `POST ${hookPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-${i}: `, 'abcdefghij', 200));
    }
    for (let i = 0; i < SLOW_BODY_SOCKETS; i++) {
      const head = `POST ${hookPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"user":"Slow${i}","pad":"`;
      clients.push(slowClient(app.port, 'body', head, 'xxxxxxxxxx', 300));
    }

    // Meanwhile, other clients are served as usual, more than once while the slow ones hold their sockets.
    const served: { what: string; status: number }[] = [];
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 400));
      const stillOpen = clients.filter((c) => c.closedAt === null).length;
      const health = await app.request('GET', '/healthz');
      const vote = await app.request('POST', hookPath, { body: { user: `Normal${round}` } });
      const read = await app.request('GET', '/v1/organization', { key: org.key });
      served.push(
        { what: `healthz (${stillOpen} slow open)`, status: health.status },
        { what: 'vote', status: vote.status },
        { what: 'organization', status: read.status },
      );
      if (round === 0)
        expect(stillOpen, 'the slow connections were not open while others were served').toBeGreaterThan((SLOW_HEADER_SOCKETS + SLOW_BODY_SOCKETS) / 2);
    }
    expect(served.filter((s) => s.status !== 200)).toEqual([]);

    const bound = { headers: HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + MARGIN_MS, body: REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + MARGIN_MS };
    const deadline = Date.now() + bound.body + 2_000;
    while (clients.some((c) => c.closedAt === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const late = clients.filter((c) => c.closedAt === null || c.closedAt - c.openedAt > bound[c.kind]);
    expect(
      late.slice(0, 5).map((c) => ({ kind: c.kind, openFor: (c.closedAt ?? Date.now()) - c.openedAt, bytesSent: c.bytesSent })),
      `${late.length} slow connections outlived their deadline (+${CHECK_INTERVAL_MS + MARGIN_MS} ms)`,
    ).toEqual([]);
    // They kept sending until cut (a client that merely went idle proves nothing), and got a 408 or nothing.
    expect(clients.filter((c) => c.bytesSent < 5).length).toBe(0);
    const answers = clients.map((c) => (c.received === '' ? '(closed)' : c.received.split('\r\n')[0]));
    expect([...new Set(answers)].filter((a) => a !== '(closed)' && a !== 'HTTP/1.1 408 Request Timeout')).toEqual([]);
    // None of the slow bodies became a vote.
    const votes = await app.request('GET', '/v1/votes?limit=100', { key: org.key });
    expect(votes.status, votes.text).toBe(200);
    expect(votes.body.data.votes.map((v: { voter_name: string }) => v.voter_name).sort()).toEqual(['Normal0', 'Normal1', 'Normal2']);

    // And once they are gone, the server still answers.
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    const longest = (kind: SlowClient['kind']) => Math.max(...clients.filter((c) => c.kind === kind).map((c) => c.closedAt! - c.openedAt));
    const tally: Record<string, number> = {};
    for (const a of answers) tally[a] = (tally[a] ?? 0) + 1;
    console.log(
      `[slowloris] answers=${JSON.stringify(tally)} longest-open: headers=${longest('headers')} ms body=${longest('body')} ms served-meanwhile=${served.length}`,
    );
  }, 30_000);

  it('answers 431 to request headers over 16 KiB, and keeps serving', async () => {
    const answer = await rawExchange(app.port, [`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`]);
    expect(answer.status, answer.head).toBe(431);
    expect(answer.closed).toBe(true);
    const many = await rawExchange(app.port, [
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('')}\r\n`,
    ]);
    expect(many.status, many.head).toBe(431);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });

  it('answers 413 in the envelope to bodies over the limit, with a declared length or streamed', async () => {
    const tooLarge = { status: 413, code: 'PAYLOAD_TOO_LARGE' };
    const clear = (a: RawAnswer) => unclearError({ status: a.status, text: a.body }, tooLarge);
    const piece = 'x'.repeat(16 * 1024);

    // With a Content-Length: 80 KiB to a hook (limit 64 KiB), 1.1 MiB to GraphQL (limit 1 MiB).
    const hookBody = JSON.stringify({ user: 'Big', pad: piece.repeat(5) });
    const declaredHook = await rawExchange(app.port, [
      `POST ${hookPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(hookBody)}\r\n\r\n`,
      hookBody,
    ]);
    expect(clear(declaredHook), declaredHook.head).toBeNull();
    const query = JSON.stringify({ query: `{ organization { slug } }`, variables: { pad: piece.repeat(70) } });
    const declaredGraphql = await rawExchange(app.port, [
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(query)}\r\n\r\n`,
      query,
    ]);
    expect(clear(declaredGraphql), declaredGraphql.head).toBeNull();

    // Streamed without a length (chunked): past 64 KiB on a hook, past 1 MiB on the API and on GraphQL.
    const hook = await rawExchange(app.port, [
      `POST ${hookPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...chunked(piece, 6),
      '0\r\n\r\n',
    ]);
    expect(clear(hook), hook.head).toBeNull();
    for (const [method, path] of [
      ['PATCH', '/v1/organization'],
      ['POST', '/graphql'],
    ]) {
      const api = await rawExchange(app.port, [
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${org.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        ...chunked(piece, 70),
        '0\r\n\r\n',
      ]);
      expect(clear(api), `${path}: ${api.head}`).toBeNull();
    }

    // A huge declared length whose body never comes does not hold the connection past the request deadline.
    const openedAt = Date.now();
    const never = await rawExchange(app.port, [
      `POST ${hookPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
    ]);
    expect([408, 413]).toContain(never.status);
    expect(Date.now() - openedAt).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + MARGIN_MS);

    // Nothing was recorded or changed, and the server answers as usual.
    const votes = await app.request('GET', '/v1/votes?limit=100', { key: org.key });
    expect(votes.status, votes.text).toBe(200);
    expect(votes.body.data.votes.filter((v: { voter_name: string }) => !/^Normal\d$/.test(v.voter_name))).toEqual([]);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });
});
