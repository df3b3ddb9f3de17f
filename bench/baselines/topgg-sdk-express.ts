// Baseline (a): what a bot owner writes — express + the official @top-gg/sdk Webhook listener, one INSERT per
// vote (bench/baselines/vote-db.ts: SQLite, or PostgreSQL in the PostgreSQL mode). The SDK's listener awaits the
// callback and answers 204 afterwards (500 if it throws), so the INSERT is committed before the answer. Prints {"msg":"listening","port":N}.
import { createServer } from 'node:http';
import express from 'express';
import { Webhook } from '@top-gg/sdk';
import { listenSettings, serve } from './http-kit.js';
import { openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = await openVoteDb(settings.dbPath);

const app = express();
const webhook = new Webhook(settings.authorization);

app.post(
  '/dblwebhook',
  webhook.listener(async (vote) => {
    await votes.insert({
      bot: vote.bot ?? vote.guild ?? null,
      user: vote.user,
      type: vote.type,
      isWeekend: vote.isWeekend === true,
      query: typeof vote.query === 'string' ? vote.query : JSON.stringify(vote.query),
    });
  }),
);

serve(createServer(app), settings, { onClose: () => votes.close() });
