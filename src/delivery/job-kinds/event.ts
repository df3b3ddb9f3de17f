// An event beyond a vote (README "Rewards": milestone, vote_party, reminder) to a callback that takes it, signed and
// retried like a vote's callback, or (milestones and parties, when the organization set a message for them) to the
// chat webhook. The job carries the event (src/domain/reward-events.ts); its payload is rendered at each attempt
// from the callback's template for that event, or the event's default.
import type { EventData } from '../../domain/reward-events.js';
import { eventsOf } from '../../domain/job-plan.js';
import { buildChatMessage } from '../chat-message.js';
import { dropsRepeats, marksItself, sendByKind, targetOf } from '../callback-kinds/dispatch.js';
import { redactUrl, sendChatBody, type JobContext } from '../senders.js';
import { voteLookup, type Lookup } from '../template.js';
import { voteTemplateValues } from '../vote-values.js';
import type { JobKind } from './job-kind.js';
import type { AppDeps } from '../../app/deps.js';
import { voterIdByName } from '../../storage/voter-lookup.js';

/** The event's own variables (GET /v1/callbacks/variables lists them), as text; numbers also typed. */
export function eventValues(data: EventData): Record<string, string | number> {
  switch (data.event) {
    case 'milestone':
      return { event: 'milestone', milestone_type: data.milestone.type, milestone_value: data.milestone.value };
    case 'vote_party':
      return { event: 'vote_party', party_count: data.party.count, party_every: data.party.every, party_number: data.party.number };
    case 'reminder':
      return {
        event: 'reminder',
        voter_name: data.reminder.voterName,
        provider_key: data.reminder.providerKey,
        provider_name: data.reminder.providerName,
        vote_url: data.reminder.voteUrl ?? '',
        next_vote_at: data.reminder.nextVoteAt,
      };
  }
}

/** The lookup of an event: its own values over its vote's (a reminder may outlive its vote: then its own only). */
export function eventLookup(data: EventData, base: Lookup | null, org: { slug: string; name: string }): Lookup {
  const own = eventValues(data);
  const lookup: Lookup = (name) => {
    if (Object.hasOwn(own, name)) return String(own[name]);
    if (name === 'organization_slug') return org.slug;
    if (name === 'organization_name') return org.name;
    return base ? base(name) : name === 'test' ? 'false' : undefined;
  };
  // The event's numbers, and its vote's typed values (`test`, the voter's standing) where it has a vote.
  lookup.typed = (name) => (typeof own[name] === 'number' ? own[name] : base ? base.typed?.(name) : name === 'test' ? false : undefined);
  return lookup;
}

/** The event, and whether this job is its chat message (planEventJobs marks it). */
const eventDataOf = (payloadJson: string | null) => JSON.parse(payloadJson ?? '{}') as EventData & { chat?: boolean };
const dataOf = (ctx: JobContext) => eventDataOf(ctx.job.payloadJson);

/** Why a queued reminder is no longer sent, or null: reminders turned off, or the voter opted out meanwhile. */
async function reminderStopped(deps: AppDeps, organizationId: string, reminder: { voterName: string; voterId?: string }): Promise<string | null> {
  const { prisma } = deps.db;
  // The voter (README "Voters"); a reminder queued before voters names them only.
  const voterKey = reminder.voterId ?? (await voterIdByName(prisma, organizationId, reminder.voterName)) ?? '';
  const [org, optOut] = await Promise.all([
    prisma.organization.findUnique({ where: { id: organizationId }, select: { remindersEnabled: true } }),
    prisma.reminderOptOut.findUnique({ where: { organizationId_voterKey: { organizationId, voterKey } }, select: { voterKey: true } }),
  ]);
  if (!org?.remindersEnabled) return 'Reminders were turned off before sending';
  return optOut ? 'The voter turned reminders off before sending' : null;
}

export const eventJob: JobKind = {
  name: 'event',
  summary: 'an event the vote set off (milestone, vote_party, reminder: see `event`)',
  describe: (ctx) => {
    const data = dataOf(ctx);
    if (data.chat) return `${data.event} chat message`;
    return ctx.callback ? `${data.event} event to callback "${ctx.callback.name}"` : `${data.event} event to a deleted callback`;
  },
  target: (ctx, deps) => (dataOf(ctx).chat ? redactUrl(ctx.org.chatWebhookUrl ?? '') : ctx.callback ? targetOf(deps, ctx.callback) : ''),
  shownTarget: (job, callbackName) => (eventDataOf(job.payloadJson).chat ? 'chat_webhook_url' : callbackName),
  retries: 'callback',
  inVoteOrder: false,
  // A chat message cannot drop a repeat; a callback's event as its kind can or cannot.
  marksBeforeSending: (ctx) => dataOf(ctx).chat || !dropsRepeats(ctx.callback),
  marksItself: (ctx) => !dataOf(ctx).chat && marksItself(ctx.callback),
  // A callback's event failing for good is the admin's business, as its votes are; a chat message is not.
  alertsWhenFailed: (ctx) => !dataOf(ctx).chat,
  async send(deps, ctx, env) {
    const { org, vote, callback } = ctx;
    const data = dataOf(ctx);
    const base = vote ? voteLookup(voteTemplateValues(vote, vote.provider, org)) : null;
    const lookup = eventLookup(data, base, org);
    if (data.chat) {
      const template = data.event === 'milestone' ? org.chatMilestoneTemplate : data.event === 'vote_party' ? org.chatVotePartyTemplate : null;
      if (!template || !org.chatWebhookUrl)
        return { attempt: null, outcome: { kind: 'skipped' }, error: `Chat messages for ${data.event} were turned off before sending` };
      return sendChatBody(deps, ctx, org.chatWebhookUrl, buildChatMessage({ type: 'simple', template, embedTemplate: null }, lookup), env.unknownWebhooks);
    }
    if (!callback) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The callback was deleted' };
    // A reminder goes only while reminders are on and the voter has not asked to stop (README "Reminders").
    if (data.event === 'reminder') {
      const stop = await reminderStopped(deps, org.id, data.reminder);
      if (stop) return { attempt: null, outcome: { kind: 'skipped' }, error: stop };
    }
    if (!eventsOf(callback.eventsJson).has(data.event))
      return { attempt: null, outcome: { kind: 'skipped' }, error: `The callback no longer takes ${data.event} events` };
    return sendByKind(deps, ctx, { event: data.event, data, lookup, test: false });
  },
};
