// A vote to one of the organization's callbacks, sent by the callback's kind (../callback-kinds/).
import { dropsRepeats, marksItself, sendByKind, targetOf } from '../callback-kinds/dispatch.js';
import { voteLookup } from '../template.js';
import { voteTemplateValues } from '../vote-values.js';
import type { JobKind } from './job-kind.js';

export const callbackJob: JobKind = {
  name: 'callback',
  summary: 'a callback (HTTP, Votifier, RCON, a broker, a Discord role)',
  describe: (ctx) => (ctx.callback ? `callback "${ctx.callback.name}" (${ctx.callback.kind})` : 'a deleted callback'),
  target: (ctx, deps) => (ctx.callback ? targetOf(deps, ctx.callback) : ''),
  shownTarget: (_job, callbackName) => callbackName,
  retries: 'callback',
  inVoteOrder: true,
  marksBeforeSending: (ctx) => !dropsRepeats(ctx.callback),
  marksItself: (ctx) => marksItself(ctx.callback),
  alertsWhenFailed: true,
  async send(deps, ctx) {
    const { vote, org } = ctx;
    if (!vote) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The vote was deleted' };
    return sendByKind(deps, ctx, { event: 'vote', data: null, lookup: voteLookup(voteTemplateValues(vote, vote.provider, org)), test: vote.test });
  },
};
