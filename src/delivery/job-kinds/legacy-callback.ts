// A vote to the deprecated server_callback_url setting: the default payload, unsigned, after every callback.
import { sendLegacyCallback } from '../callback-kinds/http/http-callback.js';
import type { JobKind } from './job-kind.js';

export const legacyCallbackJob: JobKind = {
  name: 'legacy_callback',
  summary: "server_callback_url (the interface's one callback URL)",
  describe: () => 'server_callback_url',
  target: (ctx) => ctx.org.serverCallbackUrl ?? '',
  shownTarget: () => 'server_callback_url',
  retries: 'callback',
  inVoteOrder: true,
  // An HTTP receiver drops a repeat by webhook-id.
  marksBeforeSending: () => false,
  alertsWhenFailed: true,
  send: (deps, ctx) => sendLegacyCallback(deps, ctx),
};
