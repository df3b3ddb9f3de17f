// Baseline (b), the ceiling: bare node:http — read the body, JSON.parse it, check the Authorization header,
// one better-sqlite3 INSERT, answer 200 JSON. Prints {"msg":"listening","port":N}.
import { createServer } from 'node:http';
import { listenSettings, readVote, sendJson, serve } from './http-kit.js';
import { openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = openVoteDb(settings.dbPath);

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/votes') return sendJson(res, 404, { error: 'not found' });
  readVote(req, res, settings.authorization, (vote) => {
    try {
      votes.insert(vote);
    } catch {
      return sendJson(res, 500, { error: 'could not store the vote' });
    }
    sendJson(res, 200, { received: true });
  });
});

serve(server, settings, { onClose: () => votes.close() });
