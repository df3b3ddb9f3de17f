// Baseline (b), the ceiling: bare node:http — read the body, JSON.parse it, check the Authorization header,
// one better-sqlite3 INSERT, answer 200 JSON. Prints {"msg":"listening","port":N}.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenSettings, openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = openVoteDb(settings.dbPath);
const BODY_LIMIT = 64 * 1024;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/votes') return send(res, 404, { error: 'not found' });
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_LIMIT) return send(res, 413, { error: 'body too large' });
    let vote: Record<string, unknown>;
    try {
      vote = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'invalid JSON' });
    }
    if (req.headers.authorization !== settings.authorization) return send(res, 401, { error: 'unauthorized' });
    if (typeof vote !== 'object' || vote === null || typeof vote.user !== 'string') return send(res, 400, { error: 'missing user' });
    try {
      votes.insert({
        bot: typeof vote.bot === 'string' ? vote.bot : null,
        user: vote.user,
        type: typeof vote.type === 'string' ? vote.type : null,
        isWeekend: vote.isWeekend === true,
        query: typeof vote.query === 'string' ? vote.query : JSON.stringify(vote.query ?? ''),
      });
    } catch {
      return send(res, 500, { error: 'could not store the vote' });
    }
    send(res, 200, { received: true });
  });
});

server.listen(settings.port, settings.host, () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});

process.once('SIGTERM', () => {
  server.close(() => {
    votes.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
