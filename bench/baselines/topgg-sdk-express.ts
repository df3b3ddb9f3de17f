// Baseline (a): what a bot owner writes — express + the official @top-gg/sdk Webhook listener, one
// better-sqlite3 INSERT per vote. The SDK's listener awaits the callback and answers 204 afterwards (500 if it
// throws), so the synchronous INSERT is committed before the answer. Prints {"msg":"listening","port":N}.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Webhook } from '@top-gg/sdk';
import { listenSettings, openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = openVoteDb(settings.dbPath);

const app = express();
const webhook = new Webhook(settings.authorization);

app.post(
  '/dblwebhook',
  webhook.listener((vote) => {
    votes.insert({
      bot: vote.bot ?? vote.guild ?? null,
      user: vote.user,
      type: vote.type,
      isWeekend: vote.isWeekend === true,
      query: typeof vote.query === 'string' ? vote.query : JSON.stringify(vote.query),
    });
  }),
);

const server = app.listen(settings.port, settings.host);
server.once('listening', () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});

process.once('SIGTERM', () => {
  server.close(() => {
    votes.close();
    process.exit(0);
  });
  server.closeIdleConnections();
});
