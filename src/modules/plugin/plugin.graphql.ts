// Plugin tokens (managed with API keys) and the pull queue (used with a plugin token).
import { builder } from '../../graphql/builder.js';
import { requirePlugin, requireViewer } from '../../auth/access.js';
import type { Connection } from './pull.service.js';
import { oneOf } from '../../graphql/stored-enum.js';

const ConnectionEnum = builder.enumType('PluginConnection', { values: ['connected', 'intermittent', 'disconnected', 'never'] as const });
const PULL_STATUSES = ['claimed', 'retrying', 'failed', 'parked'] as const;
const PullStatusEnum = builder.enumType('PulledVoteStatus', {
  description:
    "claimed: done; retrying: handed out again after a back-off; failed: given up; parked: kept for its player (reason player_offline), returned by that player's poll",
  values: PULL_STATUSES,
});

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastPolledAt: Date | null;
  connection: Connection;
  parked: number;
}

const PluginToken = builder.objectRef<TokenRow>('PluginToken').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastPollAt: t.expose('lastPolledAt', { type: 'DateTime', nullable: true }),
    connection: t.expose('connection', { type: ConnectionEnum, description: 'connected (polled within 30 s), intermittent (5 min), disconnected, never' }),
    parked: t.exposeInt('parked', { description: 'Votes this token\'s plugin parked for offline players (README "Offline players")' }),
  }),
});

const PluginTokenList = builder.simpleObject('PluginTokenList', {
  fields: (t) => ({
    tokens: t.field({ type: [PluginToken] }),
    waiting: t.int({ description: 'Votes waiting for a plugin to claim them (parked ones not included)' }),
    parked: t.int({ description: 'Votes parked for offline players, by every token' }),
  }),
});

interface ParkedRow {
  publicId: string;
  voterName: string;
  receivedAt: Date;
  parkedAt: Date;
  test: boolean;
  provider: { key: string; name: string };
}
const ParkedVote = builder.objectRef<ParkedRow>('ParkedVote').implement({
  description: "A vote parked for an offline player: returned by that player's poll (`pullVotes(player:)`)",
  fields: (t) => ({
    id: t.exposeString('publicId'),
    voterName: t.exposeString('voterName', { description: 'The player it waits for' }),
    providerKey: t.string({ resolve: (p) => p.provider.key }),
    providerName: t.string({ resolve: (p) => p.provider.name }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    parkedAt: t.expose('parkedAt', { type: 'DateTime' }),
    test: t.exposeBoolean('test'),
  }),
});
const ParkedVotePage = builder.simpleObject('ParkedVotePage', {
  fields: (t) => ({ page: t.int(), limit: t.int(), total: t.int(), pages: t.int(), votes: t.field({ type: [ParkedVote] }) }),
});

const CreatedPluginToken = builder.simpleObject('CreatedPluginToken', {
  description: 'A new plugin token; `token` is shown only here',
  fields: (t) => ({ id: t.id(), name: t.string(), token: t.string(), prefix: t.string() }),
});

const Revoked = builder.simpleObject('RevokedPluginToken', { fields: (t) => ({ message: t.string(), id: t.id() }) });

interface Pulled {
  vote: { publicId: string; voterName: string; receivedAt: Date; test: boolean; provider: { key: string; name: string } };
  attempt: number;
}
const PulledVote = builder.objectRef<Pulled>('PulledVote').implement({
  fields: (t) => ({
    id: t.string({ resolve: (p) => p.vote.publicId }),
    voterName: t.string({ resolve: (p) => p.vote.voterName }),
    providerKey: t.string({ resolve: (p) => p.vote.provider.key }),
    providerName: t.string({ resolve: (p) => p.vote.provider.name }),
    receivedAt: t.field({ type: 'DateTime', resolve: (p) => p.vote.receivedAt }),
    attempt: t.exposeInt('attempt'),
    test: t.boolean({
      description: 'A test vote sent by the owner with deliver_to_game_servers (README "Test votes"): a plugin may skip its reward',
      resolve: (p) => p.vote.test,
    }),
  }),
});

const PullSettlement = builder.objectRef<{ voteId: string; status: string; retryAt?: Date | null }>('PullSettlement').implement({
  fields: (t) => ({
    voteId: t.exposeString('voteId'),
    status: t.field({ type: PullStatusEnum, resolve: (v) => oneOf(PULL_STATUSES, v.status, 'pulled vote status') }),
    retryAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.retryAt ?? null }),
  }),
});

builder.queryField('pluginTokens', (t) =>
  t.field({
    type: PluginTokenList,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    resolve: (_r, _a, ctx) => ctx.services.pull.listTokens(requireViewer(ctx.auth).organizationId),
  }),
);

builder.queryField('parkedVotes', (t) =>
  t.field({
    type: ParkedVotePage,
    nullable: true,
    description: 'The votes one plugin token parked for offline players, most recently parked first',
    authScopes: { access: { scope: 'read' } },
    args: { tokenId: t.arg.id({ required: true }), page: t.arg.int(), limit: t.arg.int() },
    resolve: (_r, { tokenId, page, limit }, ctx) => ctx.services.pull.listParked(requireViewer(ctx.auth).organizationId, String(tokenId), { page, limit }),
  }),
);

builder.mutationField('createPluginToken', (t) =>
  t.field({
    type: CreatedPluginToken,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, { name }, ctx) => ctx.services.pull.createToken(requireViewer(ctx.auth).organizationId, { name }),
  }),
);

builder.mutationField('revokePluginToken', (t) =>
  t.field({
    type: Revoked,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => ctx.services.pull.revokeToken(requireViewer(ctx.auth).organizationId, String(id)),
  }),
);

builder.mutationField('pullVotes', (t) =>
  t.field({
    type: [PulledVote],
    description:
      "Reserves unclaimed votes for this plugin (oldest first); waits up to waitSeconds (max 25) when none are waiting. With player: that player's waiting votes, parked ones included, at once",
    nullable: true,
    authScopes: { access: { scope: 'plugin' } },
    args: {
      limit: t.arg.int(),
      waitSeconds: t.arg.int(),
      player: t.arg.string({ description: 'A player who just joined: their waiting votes (case-insensitive), parked ones included' }),
    },
    resolve: (_r, args, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return ctx.services.pull.poll(plugin.organizationId, plugin.tokenId, args);
    },
  }),
);

builder.mutationField('claimPulledVote', (t) =>
  t.field({
    type: PullSettlement,
    nullable: true,
    authScopes: { access: { scope: 'plugin' } },
    args: { id: t.arg.string({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return ctx.services.pull.claim(plugin.organizationId, plugin.tokenId, id);
    },
  }),
);

builder.mutationField('failPulledVote', (t) =>
  t.field({
    type: PullSettlement,
    nullable: true,
    authScopes: { access: { scope: 'plugin' } },
    args: {
      id: t.arg.string({ required: true }),
      reason: t.arg.string({ description: "Why; `player_offline` parks the vote for its player's poll instead of retrying it after a back-off" }),
    },
    resolve: (_r, { id, reason }, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return ctx.services.pull.fail(plugin.organizationId, plugin.tokenId, id, reason === undefined || reason === null ? {} : { reason });
    },
  }),
);

const PlatformEnum = builder.enumType('PlayerPlatform', {
  description: 'java: a Java Edition account; bedrock: a Bedrock player (through Floodgate)',
  values: ['java', 'bedrock'] as const,
});

const PlayerInput = builder.inputType('PlayerInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'The name in game (a Bedrock player with the Floodgate prefix)' }),
    uuid: t.string({ required: true, description: 'The player UUID, with or without hyphens' }),
    platform: t.field({ type: PlatformEnum, description: 'Default java' }),
  }),
});

const PlayersReport = builder.simpleObject('PlayersReport', {
  description: 'What a report of online players changed (README "Voters")',
  fields: (t) => ({
    players: t.int({ description: 'Players in the report' }),
    linked: t.int({ description: 'Names and UUIDs newly linked to a voter' }),
    merged: t.int({ description: 'Voters merged into a player’s voter (votes sent under a new name before the plugin saw it)' }),
  }),
});

builder.mutationField('reportPlayers', (t) =>
  t.field({
    type: PlayersReport,
    nullable: true,
    description:
      "Online players as the plugin sees them (up to 500 a call): each name is linked to the player's UUID, so a renamed player's votes keep counting on one voter",
    authScopes: { access: { scope: 'plugin' } },
    args: { players: t.arg({ type: [PlayerInput], required: true }) },
    resolve: (_r, { players }, ctx) => ctx.services.voters.reportPlayers(requirePlugin(ctx.auth).organizationId, players),
  }),
);
