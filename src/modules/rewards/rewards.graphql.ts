// Rewards (README "Rewards"): the vote party's progress (with a live subscription), and voters' reminder opt-outs.
import { builder } from '../../graphql/builder.js';
import { requireViewer, type Viewer } from '../../auth/access.js';
import type { AppDeps } from '../../app/deps.js';
import type { VoteEvent } from '../../live/vote-events.js';
import { keyBoundStream } from '../../live/key-bound-stream.js';
import type { VotePartyProgress } from './rewards.service.js';

const VotePartyRef = builder.simpleObject('VoteParty', {
  description: 'The vote party: every `every` counted votes (of one site when `provider` is set), one vote_party event',
  fields: (t) => ({
    enabled: t.boolean({ description: 'settings.vote_party_every is set' }),
    every: t.int({ nullable: true }),
    provider: t.string({ nullable: true, description: 'Key of the only provider whose votes count; null: every site' }),
    count: t.int({ description: 'Counted votes since the party was set (changing every or provider starts it over)' }),
    progress: t.int({ description: 'Votes toward the next party ("63 of 100": 63)' }),
    remaining: t.int({ nullable: true, description: 'Votes still needed for the next party' }),
    completed: t.int({ description: 'Parties completed so far' }),
  }),
});

builder.queryField('voteParty', (t) =>
  t.field({
    type: VotePartyRef,
    nullable: true,
    description: "The vote party's progress (enabled false when settings.vote_party_every is not set)",
    authScopes: { access: { scope: 'read' } },
    resolve: (_root, _args, ctx) => ctx.services.rewards.partyProgress(requireViewer(ctx.auth).organizationId),
  }),
);

/**
 * The organization's votes as wake-ups for the party's progress: at most one waits at a time (the progress is read
 * when it is sent, so skipping the wake-ups behind it loses nothing).
 */
async function* partyWakeUps(deps: AppDeps, viewer: Viewer): AsyncGenerator<true> {
  let waiting = false;
  const stream = keyBoundStream(deps, viewer, {
    source: deps.feed.pubsub.subscribe('voteReceived', viewer.organizationId)[Symbol.asyncIterator](),
    take: (_vote: VoteEvent): true[] => {
      if (waiting) return [];
      waiting = true;
      return [true];
    },
  });
  try {
    yield true; // the progress as it stands when the subscriber joins
    for await (const wake of stream) {
      waiting = false;
      yield wake;
    }
  } finally {
    await stream.return?.();
  }
}

builder.subscriptionField('votePartyProgress', (t) =>
  t.field({
    type: VotePartyRef,
    description: "The vote party's progress now, then again after votes (Server-Sent Events)",
    authScopes: { access: { scope: 'read' } },
    subscribe: (_root, _args, ctx) => partyWakeUps(ctx.deps, requireViewer(ctx.auth)),
    resolve: (_wake, _args, ctx): Promise<VotePartyProgress> => ctx.services.rewards.partyProgress(requireViewer(ctx.auth).organizationId),
  }),
);

const ReminderSetting = builder.simpleObject('VoterReminders', { fields: (t) => ({ voterName: t.string(), enabled: t.boolean() }) });

builder.mutationField('setVoterReminders', (t) =>
  t.field({
    type: ReminderSetting,
    nullable: true,
    description:
      'Turns reminders off for one voter (their pending reminders are dropped and none is scheduled again) or back on; names match case-insensitively',
    authScopes: { access: { scope: 'full' } },
    args: { voterName: t.arg.string({ required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: (_root, { voterName, enabled }, ctx) => ctx.services.rewards.setReminders(requireViewer(ctx.auth).organizationId, voterName, enabled),
  }),
);

const OptOutRef = builder.simpleObject('ReminderOptOut', { fields: (t) => ({ voterName: t.string(), createdAt: t.field({ type: 'DateTime' }) }) });
const OptOutPage = builder.simpleObject('ReminderOptOutPage', {
  fields: (t) => ({ optOuts: t.field({ type: [OptOutRef] }), total: t.int(), page: t.int(), limit: t.int() }),
});

builder.queryField('reminderOptOuts', (t) =>
  t.field({
    type: OptOutPage,
    nullable: true,
    description: 'Voters who turned reminders off, newest first',
    authScopes: { access: { scope: 'read' } },
    args: { page: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => ctx.services.rewards.optOuts(requireViewer(ctx.auth).organizationId, args),
  }),
);
