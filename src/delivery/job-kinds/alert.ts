// An admin alert or summary (the organization's admin chat webhook); its body is rendered when it is queued.
import { redactUrl, sendAlert } from '../senders.js';
import type { JobKind } from './job-kind.js';

export const alertJob: JobKind = {
  name: 'alert',
  summary: "an admin alert (to the organization's admin chat)",
  describe: () => 'admin alert',
  target: (ctx) => redactUrl(ctx.org.chatAdminWebhookUrl ?? ''),
  shownTarget: () => null,
  retries: 'chat',
  inVoteOrder: false,
  // At least once: an owner is better told twice than not at all.
  marksBeforeSending: () => false,
  alertsWhenFailed: false,
  send: (deps, ctx, env) => sendAlert(deps, ctx, env.unknownWebhooks),
};
