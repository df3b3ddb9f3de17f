// A vote to one of the organization's callbacks, sent by the callback's kind (../callback-kinds/).
import { callbackKindOf } from '../callback-kinds/registry.js';
import type { JobKind } from './job-kind.js';

export const callbackJob: JobKind = {
  name: 'callback',
  describe: (ctx) => (ctx.callback ? `callback "${ctx.callback.name}" (${ctx.callback.kind})` : 'a deleted callback'),
  target: (ctx) => (ctx.callback ? (callbackKindOf(ctx.callback.kind)?.target(ctx.callback) ?? '') : ''),
  retries: 'callback',
  inVoteOrder: true,
  alertsWhenFailed: true,
  async send(deps, ctx) {
    if (!ctx.callback) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The callback was deleted' };
    const kind = callbackKindOf(ctx.callback.kind);
    return kind ? kind.send(deps, ctx) : { attempt: null, outcome: { kind: 'failed' }, error: `Unknown callback kind ${ctx.callback.kind}` };
  },
};
