// Vote, its delivery jobs and attempts (the delivery log), the single-vote read and redelivery.
import { builder } from '../../graphql/builder.js';
import { discordIdIn } from '../../domain/discord-id.js';
import { TEST_VOTER_PREFIX } from '../../domain/voter-identity.js';
import { requireViewer } from '../../auth/access.js';
import { DELIVERY_STATUSES, type VoteListInput, type VotePage, type VoteService } from './votes.service.js';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { keysetConnection } from '../../graphql/keyset-connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { subscribeToVotes } from './vote-feed.js';
import type { VoteEvent } from '../../live/vote-events.js';
import { JOB_KINDS } from '../../domain/jobs.js';
import { describedValues, oneOf } from '../../graphql/stored-enum.js';
import { jobKindOf, jobKindSummary } from '../../delivery/job-kinds/registry.js';

const DeliveryStatusEnum = builder.enumType('DeliveryStatus', {
  description:
    "A vote's chat or callback delivery. uncertain: the relay stopped while sending it to a target that cannot drop a repeat (Votifier, RCON, chat, a DM) and did not send it again; it waits for the owner's decision (redeliverVote)",
  values: DELIVERY_STATUSES,
});
const JOB_STATUSES = ['pending', 'running', 'retrying', 'held', 'parked', 'sent', 'failed', 'skipped', 'uncertain'] as const;
const JobStatusEnum = builder.enumType('DeliveryJobStatus', {
  description:
    'running: claimed by a worker now; held: its callback is disabled, and it resumes when the callback is enabled again; parked: a vote kept for an offline player; uncertain: the relay stopped while sending it to a target that cannot drop a repeat, so it was not sent again (the server may or may not have it; redeliverVote sends it again on purpose)',
  values: JOB_STATUSES,
});
const JOB_ORIGINS = ['vote', 'recovered', 'replay'] as const;
const JobOriginEnum = builder.enumType('DeliveryJobOrigin', {
  description: "vote: planned with the vote; recovered: the vote was read from the site's vote list after an outage; replay: queued by a callback replay",
  values: JOB_ORIGINS,
});
const JobKindEnum = builder.enumType('DeliveryJobKind', {
  description: 'What a delivery job delivers (each value says)',
  values: describedValues(JOB_KINDS, jobKindSummary),
});

export const VoteRef = builder.prismaObject('Vote', {
  fields: (t) => ({
    id: t.exposeID('id'),
    publicId: t.exposeString('publicId'),
    voterName: t.exposeString('voterName'),
    voterId: t.string({
      nullable: true,
      description: 'The voter the vote resolved to (README "Voters"): one person across names and sites; null for a test vote that matched no voter',
      select: { voterKey: true },
      resolve: (v) => (v.voterKey.startsWith(TEST_VOTER_PREFIX) ? null : v.voterKey),
    }),
    repairedFrom: t.exposeString('repairedFrom', {
      nullable: true,
      description:
        'The name the site sent, when name repair gave the vote to the voter who clicked the vote page\'s button (README "Vote page"); voterName is the clicker\'s',
    }),
    voterDiscordId: t.string({
      nullable: true,
      description: "The voter's Discord user id, where the site sends one (the provider's discordIdPath); null otherwise",
      select: { rawPayload: true, provider: { select: { discordIdPath: true } } },
      resolve: (v) => discordIdIn(v.rawPayload, v.provider.discordIdPath),
    }),
    providerKey: t.string({ select: { provider: { select: { key: true } } }, resolve: (v) => v.provider.key }),
    providerName: t.string({ select: { provider: { select: { name: true } } }, resolve: (v) => v.provider.name }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    chatStatus: t.field({ type: DeliveryStatusEnum, resolve: (v) => oneOf(DELIVERY_STATUSES, v.chatStatus, 'chat status') }),
    chatSentAt: t.expose('chatSentAt', { type: 'DateTime', nullable: true }),
    callbackStatus: t.field({ type: DeliveryStatusEnum, resolve: (v) => oneOf(DELIVERY_STATUSES, v.callbackStatus, 'callback status') }),
    callbackSentAt: t.expose('callbackSentAt', { type: 'DateTime', nullable: true }),
    callbackAttempts: t.exposeInt('callbackAttempts'),
    overLimit: t.exposeBoolean('overLimit'),
    recovered: t.exposeBoolean('recovered', { description: "Not received by the hook: read from the site's vote list after an outage" }),
    test: t.exposeBoolean('test', { description: 'A test vote (sendTestVote): delivered marked as a test, counted in no statistics, usage or limit' }),
    voterTotal: t.exposeInt('voterTotal', {
      nullable: true,
      description: 'The voter\'s counted votes in the organization with this one (README "Rewards"); null for a test vote',
    }),
    voterMonthTotal: t.exposeInt('voterMonthTotal', { nullable: true, description: "The voter's counted votes in this vote's month (organization time zone)" }),
    voterStreakDays: t.exposeInt('voterStreakDays', {
      nullable: true,
      description: 'Consecutive voting days ending on this vote’s day (organization time zone)',
    }),
    voterBestStreakDays: t.exposeInt('voterBestStreakDays', { nullable: true, description: "The voter's longest streak so far" }),
    providerVoterTotal: t.exposeInt('providerVoterTotal', { nullable: true, description: "The voter's counted votes on this vote's site" }),
    nextVoteAt: t.expose('nextVoteAt', {
      type: 'DateTime',
      nullable: true,
      description: "When the voter may vote again on this site; null when the site's cooldown is unknown",
    }),
    deliveryJobs: t.relation('jobs', { query: { orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }] } }),
    deliveryAttempts: t.relation('attempts', { query: { orderBy: [{ createdAt: 'asc' }, { attempt: 'asc' }] } }),
  }),
});

builder.prismaObject('DeliveryJob', {
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: JobKindEnum, resolve: (j) => oneOf(JOB_KINDS, j.kind, 'delivery job kind') }),
    callbackId: t.exposeString('callbackId', { nullable: true }),
    target: t.string({
      nullable: true,
      select: { callback: { select: { name: true } }, payloadJson: true },
      // Each kind names its own (delivery/job-kinds/); pull jobs are taken by plugins, not sent by a kind.
      resolve: (j) => (j.kind === 'pull' ? 'plugin tokens (pull API)' : (jobKindOf(j.kind)?.shownTarget(j, j.callback?.name ?? null) ?? null)),
    }),
    event: t.string({
      nullable: true,
      description: 'kind event: which (milestone, vote_party, reminder; README "Rewards")',
      select: { payloadJson: true },
      resolve: (j) => (j.kind === 'event' && j.payloadJson ? ((JSON.parse(j.payloadJson) as { event?: string }).event ?? null) : null),
    }),
    status: t.field({ type: JobStatusEnum, resolve: (j) => oneOf(JOB_STATUSES, j.status, 'delivery job status') }),
    origin: t.field({ type: JobOriginEnum, resolve: (j) => oneOf(JOB_ORIGINS, j.origin, 'delivery job origin') }),
    pacedMs: t.exposeInt('pacedMs', { description: "Time waited so far for its callback's rate (max_per_second) before the next attempt" }),
    attempts: t.exposeInt('attempts'),
    maxAttempts: t.exposeInt('maxAttempts'),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      select: { runAt: true, status: true },
      resolve: (j) => (j.status === 'pending' || j.status === 'retrying' ? j.runAt : null),
    }),
    lastError: t.exposeString('lastError', { nullable: true }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('DeliveryAttempt', {
  fields: (t) => ({
    id: t.exposeID('id'),
    jobId: t.exposeString('jobId'),
    kind: t.field({ type: JobKindEnum, select: { job: { select: { kind: true } } }, resolve: (a) => oneOf(JOB_KINDS, a.job.kind, 'delivery job kind') }),
    event: t.string({
      nullable: true,
      description: 'kind event: which (milestone, vote_party, reminder; README "Rewards")',
      select: { job: { select: { kind: true, payloadJson: true } } },
      resolve: (a) => (a.job.kind === 'event' && a.job.payloadJson ? ((JSON.parse(a.job.payloadJson) as { event?: string }).event ?? null) : null),
    }),
    attempt: t.exposeInt('attempt'),
    target: t.exposeString('target'),
    pluginToken: t.string({
      nullable: true,
      description: 'A pull attempt (target plugin:<token id>): the name of the plugin token that took the vote, while it exists',
      select: { target: true, job: { select: { organizationId: true } } },
      resolve: (a, _args, ctx) => (a.target.startsWith('plugin:') ? ctx.services.pull.tokenName(a.job.organizationId, a.target.slice('plugin:'.length)) : null),
    }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    success: t.exposeBoolean('success'),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    pacedMs: t.exposeInt('pacedMs', { description: "How long this attempt waited for its callback's rate (max_per_second) before it started" }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const Redelivered = builder.simpleObject('Redelivered', { fields: (t) => ({ voteId: t.string(), requeued: t.int() }) });

builder.queryField('vote', (t) =>
  t.prismaField({
    type: 'Vote',
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    args: { publicId: t.arg.string({ required: true, description: "The vote's public_id (vt_<uuid>), or the id a vote list shows" }) },
    resolve: async (query, _root, { publicId }, ctx) => {
      const organizationId = requireViewer(ctx.auth).organizationId;
      const { id } = await ctx.services.votes.get(organizationId, publicId); // NOT_FOUND for unknown and other organizations' votes
      return ctx.services.votes.read(organizationId, id, query);
    },
  }),
);

builder.mutationField('redeliverVote', (t) =>
  t.field({
    type: Redelivered,
    description: "Queues the vote's failed and uncertain deliveries again (an uncertain one on purpose: its target may have it already)",
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { publicId: t.arg.string({ required: true, description: "The vote's public_id (vt_<uuid>), or the id a vote list shows" }) },
    resolve: (_root, { publicId }, ctx) => ctx.services.votes.redeliver(requireViewer(ctx.auth).organizationId, publicId),
  }),
);

/** The filters of both vote lists (the numbered pages and the connection). */
const voteFilterArgs = builder.args((t) => ({
  provider: t.string(),
  from: t.string(),
  to: t.string(),
  voter: t.string(),
  chatStatus: t.field({ type: DeliveryStatusEnum }),
  callbackStatus: t.field({ type: DeliveryStatusEnum }),
}));

const VotePageRef = builder.objectRef<VotePage>('VotePage').implement({
  description: 'A page of votes, newest first',
  fields: (t) => ({
    votes: t.prismaField({
      type: ['Vote'],
      resolve: (query, page, _args, ctx) => ctx.services.votes.pageRows(page, query),
    }),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    pages: t.exposeInt('pages'),
  }),
});

builder.queryField('votes', (t) =>
  t.field({
    type: VotePageRef,
    description: 'Votes, newest first (starter plans: the last 10, without filters)',
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    args: { page: t.arg.int(), limit: t.arg.int(), ...voteFilterArgs },
    resolve: (_root, args, ctx) => {
      const viewer = requireViewer(ctx.auth);
      return ctx.services.votes.list(viewer.organizationId, viewer.plan, args);
    },
  }),
);

const VoteExport = builder.simpleObject('VoteExport', {
  description: 'What GET /v1/votes/export streams (the rows themselves are streamed by the REST layer)',
  fields: (t) => ({ filename: t.string(), contentType: t.string(), columns: t.stringList() }),
});

builder.queryField('voteExport', (t) =>
  t.field({
    type: VoteExport,
    nullable: true,
    authScopes: { access: { scope: 'read', plan: 'growth' } },
    args: {
      from: t.arg.string(),
      to: t.arg.string(),
      format: t.arg.string(),
      includeTests: t.arg.boolean({ description: "Test votes too, marked in a last `test` column (default: real votes only, the interface's columns)" }),
    },
    resolve: (_root, args, ctx) => ({ filename: 'votes.csv', contentType: 'text/csv', columns: ctx.services.votes.exportColumns(args) }),
  }),
);

builder.subscriptionType({});

// Every subscriber of an organization gets the same event object: read its vote once for all of them, not once
// per subscriber (1,000 subscribers × 500 votes/s would otherwise be 500,000 reads/s).
const votesOfEvents = new WeakMap<VoteEvent, ReturnType<VoteService['recorded']>>();

builder.subscriptionField('voteReceived', (t) =>
  t.field({
    type: VoteRef,
    description: "Each new vote of the caller's organization, as it is recorded (Server-Sent Events)",
    authScopes: { access: { scope: 'read' } },
    args: { provider: t.arg.string({ description: 'Only votes of the provider with this key' }) },
    subscribe: (_root, { provider }, ctx) => subscribeToVotes(ctx.deps, requireViewer(ctx.auth), provider),
    resolve: (event: VoteEvent, _args, ctx) => {
      let vote = votesOfEvents.get(event);
      if (!vote) {
        vote = ctx.services.votes.recorded(event.voteId);
        votesOfEvents.set(event, vote);
      }
      return vote;
    },
  }),
);

type VoteConnectionShape = Awaited<ReturnType<typeof voteConnection>>;

/**
 * Votes newest first as a Relay connection (`votesConnection`, `Voter.votes`): the service checks the filters and
 * reads the window.
 */
export async function voteConnection(ctx: GraphQLContext, organizationId: string, args: VoteListInput & DefaultConnectionArguments) {
  const votes = ctx.services.votes;
  const where = await votes.connectionWhere(organizationId, args);
  return keysetConnection(args, where, (window) => votes.window(where, window));
}

export const VoteConnection = builder.connectionObject<typeof VoteRef, VoteConnectionShape>({
  type: VoteRef,
  name: 'VoteConnection',
  description: 'Votes newest first, Relay-style (cursor = position after the given vote)',
  fields: (t) => ({ totalCount: t.int({ resolve: (c, _a, ctx) => ctx.services.votes.count(c.countWhere) }) }),
});

builder.queryField('votesConnection', (t) =>
  t.connection(
    {
      type: VoteRef,
      nullable: true,
      authScopes: { access: { scope: 'read', plan: 'growth' } },
      args: voteFilterArgs,
      resolve: (_root, args, ctx) => voteConnection(ctx, requireViewer(ctx.auth).organizationId, args),
    },
    VoteConnection,
  ),
);
