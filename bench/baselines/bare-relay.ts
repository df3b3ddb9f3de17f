// Delivery baseline, the ceiling of a relay that persists and forwards: bare node:http hook (bench/baselines/
// http-kit.ts: JSON.parse, header check), one INSERT per vote (bench/baselines/vote-db.ts: SQLite in WAL mode with
// synchronous=FULL, or PostgreSQL in the PostgreSQL mode; committed before the answer), answer 200 {"vote_id":"<row id>"}, then forward the vote at once
// as a JSON callback (the service's default payload fields) with undici over a keep-alive pool — fire-and-forget:
// no retries, no queue on disk, no signing, no record of the outcome. A vote whose callback fails is lost.
// Env: CALLBACK_URL (required), CALLBACK_CONNECTIONS (64: the pool's sockets, like the service's
// DELIVERY_CONCURRENCY), plus those of listenSettings(). Prints {"msg":"listening","port":N}.
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { listenSettings, readVote, sendJson, serve } from './http-kit.js';
import { openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = await openVoteDb(settings.dbPath);
const callback = new URL(process.env.CALLBACK_URL ?? '');
const pool = new Pool(callback.origin, { connections: Number(process.env.CALLBACK_CONNECTIONS ?? 64), keepAliveTimeout: 60_000 });
const CALLBACK_HEADERS = { 'content-type': 'application/json' };

function forward(body: string): void {
  pool.request({ path: callback.pathname, method: 'POST', headers: CALLBACK_HEADERS, body }).then(
    (answer) => answer.body.dump(),
    () => undefined, // fire-and-forget: a failed callback is dropped
  );
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/votes') return sendJson(res, 404, { error: 'not found' });
  readVote(req, res, settings.authorization, (vote) => {
    votes.insert(vote).then(
      (id) => {
        const voteId = String(id);
        sendJson(res, 200, { vote_id: voteId });
        forward(JSON.stringify({ event: 'vote', vote_id: voteId, voter_name: vote.user, provider: 'topgg', received_at: new Date().toISOString() }));
      },
      () => sendJson(res, 500, { error: 'could not store the vote' }),
    );
  });
});

serve(server, settings, {
  onClose: () => {
    votes.close();
    void pool.destroy();
  },
});
