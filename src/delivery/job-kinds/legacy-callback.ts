// A vote to the deprecated server_callback_url setting: the default payload, unsigned, after every callback.
import { sendHttpCallback } from '../callback-kinds/http.js';
import type { JobKind } from './job-kind.js';

export const legacyCallbackJob: JobKind = {
  name: 'legacy_callback',
  describe: () => 'server_callback_url',
  target: (ctx) => ctx.org.serverCallbackUrl ?? '',
  retries: 'callback',
  inVoteOrder: true,
  alertsWhenFailed: true,
  send: (deps, ctx) => sendHttpCallback(deps, ctx),
};
