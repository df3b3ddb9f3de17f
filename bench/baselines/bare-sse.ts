// Live-feed baseline: a bare node:http server with no database and no GraphQL. `POST /graphql` with
// `Accept: text/event-stream` (body ignored) opens an SSE stream; `POST /votes` (bench/baselines/http-kit.ts:
// JSON.parse, header check) answers 200 and writes one `event: next` frame carrying
// {"data":{"voteReceived":{"voterName":<user>}}} to every open stream at once — one res.write per subscriber per
// vote, ignoring backpressure (the naive fan-out). Nothing is stored, nothing is resolved per subscriber.
// Prints {"msg":"listening","port":N}.
import { createServer, type ServerResponse } from 'node:http';
import { listenSettings, readVote, sendJson, serve } from './http-kit.js';

const settings = listenSettings();
const streams = new Set<ServerResponse>();

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/graphql' && String(req.headers.accept).includes('text/event-stream')) {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    streams.add(res);
    res.once('close', () => streams.delete(res));
    return;
  }
  if (req.method !== 'POST' || req.url !== '/votes') return sendJson(res, 404, { error: 'not found' });
  readVote(req, res, settings.authorization, (vote) => {
    sendJson(res, 200, { received: true });
    const frame = `event: next\ndata: ${JSON.stringify({ data: { voteReceived: { voterName: vote.user } } })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });
});

serve(server, settings, { closeAll: true });
