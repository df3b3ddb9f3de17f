// What the bare node:http baselines share: reading and checking a top.gg-style vote (body limit, JSON.parse,
// Authorization header, `user` present), JSON answers, and listening (prints {"msg":"listening","port":N}, the line
// bench/lib/child.ts waits for) with a clean exit on SIGTERM. No database here (bench/baselines/vote-db.ts has it),
// so a baseline without one does not load better-sqlite3.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VoteRow } from './vote-db.js';

const BODY_LIMIT = 64 * 1024;

/** Where to listen, the database file (for the baselines that store votes) and the expected Authorization header. */
export function listenSettings() {
  return {
    port: Number(process.env.PORT ?? 0),
    host: process.env.HOST ?? '127.0.0.1',
    dbPath: process.env.BENCH_DB ?? 'baseline-votes.db',
    authorization: process.env.WEBHOOK_AUTH ?? 'bench-secret-0123456789',
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Reads the body; answers 413/400/401 itself, or calls `onVote` with the vote (the caller answers). */
export function readVote(req: IncomingMessage, res: ServerResponse, authorization: string, onVote: (vote: VoteRow) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_LIMIT) return sendJson(res, 413, { error: 'body too large' });
    let vote: Record<string, unknown>;
    try {
      vote = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: 'invalid JSON' });
    }
    if (req.headers.authorization !== authorization) return sendJson(res, 401, { error: 'unauthorized' });
    if (typeof vote !== 'object' || vote === null || typeof vote.user !== 'string') return sendJson(res, 400, { error: 'missing user' });
    onVote({
      bot: typeof vote.bot === 'string' ? vote.bot : null,
      user: vote.user,
      type: typeof vote.type === 'string' ? vote.type : null,
      isWeekend: vote.isWeekend === true,
      query: typeof vote.query === 'string' ? vote.query : JSON.stringify(vote.query ?? ''),
    });
  });
}

/**
 * Listens and announces the port; on SIGTERM stops accepting, closes idle connections (all of them with
 * `closeAll`, for servers holding open streams), runs `onClose` and exits.
 */
export function serve(server: Server, settings: { port: number; host: string }, options: { onClose?: () => void; closeAll?: boolean } = {}): void {
  server.listen(settings.port, settings.host, () => {
    console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
  });
  process.once('SIGTERM', () => {
    server.close(() => {
      options.onClose?.();
      process.exit(0);
    });
    if (options.closeAll) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}
