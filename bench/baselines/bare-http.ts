// Baseline (b), the ceiling: bare node:http — read the body, JSON.parse it, check the Authorization header,
// one INSERT (bench/baselines/vote-db.ts: SQLite, or PostgreSQL in the PostgreSQL mode), answer 200 JSON. Prints {"msg":"listening","port":N}.
import { createServer } from 'node:http';
import { listenSettings, readVote, sendJson, serve } from './http-kit.js';
import { openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = await openVoteDb(settings.dbPath);

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/votes') return sendJson(res, 404, { error: 'not found' });
  readVote(req, res, settings.authorization, (vote) => {
    votes.insert(vote).then(
      () => sendJson(res, 200, { received: true }),
      () => sendJson(res, 500, { error: 'could not store the vote' }),
    );
  });
});

serve(server, settings, { onClose: () => votes.close() });
