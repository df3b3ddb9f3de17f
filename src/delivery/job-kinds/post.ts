// A message to the organization's chat webhook prepared when it was queued (the leaderboard posts, README "Discord
// rewards"): posted as it is, with chat's retry rules.
import { redactUrl, sendChatBody } from '../senders.js';
import type { JobKind } from './job-kind.js';

export const postJob: JobKind = {
  name: 'post',
  summary: 'a chat post (the leaderboard posts)',
  describe: () => 'chat post',
  target: (ctx) => redactUrl(ctx.org.chatWebhookUrl ?? ''),
  shownTarget: () => null,
  retries: 'chat',
  inVoteOrder: false,
  // At least once: a standing posted twice gives nobody anything.
  marksBeforeSending: () => false,
  alertsWhenFailed: false,
  send: (deps, ctx, env) => {
    const url = ctx.org.chatWebhookUrl;
    if (!url || !ctx.job.payloadJson) return Promise.resolve({ attempt: null, outcome: { kind: 'skipped' }, error: 'No chat webhook is set' });
    return sendChatBody(deps, ctx, url, JSON.parse(ctx.job.payloadJson), env.unknownWebhooks);
  },
};
