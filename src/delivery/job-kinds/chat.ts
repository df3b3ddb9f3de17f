// A vote's chat notification (the organization's chat webhook, Discord-compatible).
import { redactUrl, sendChat } from '../senders.js';
import type { JobKind } from './job-kind.js';

export const chatJob: JobKind = {
  name: 'chat',
  summary: 'the chat notification of a vote',
  describe: () => 'chat notification',
  target: (ctx) => redactUrl(ctx.org.chatWebhookUrl ?? ''),
  shownTarget: () => 'chat_webhook_url',
  retries: 'chat',
  inVoteOrder: false,
  // A channel shows every post: a repeat is a second announcement of one vote.
  marksBeforeSending: () => true,
  alertsWhenFailed: false,
  send: (deps, ctx, env) => sendChat(deps, ctx, env.unknownWebhooks),
};
