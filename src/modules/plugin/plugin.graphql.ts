// Plugin tokens (managed with API keys) and the pull queue (used with a plugin token).
import { builder } from '../../graphql/builder.js';
import { requirePlugin, requireViewer } from '../../auth/access.js';
import { createPluginTokenArgs, failPulledVoteArgs, type Connection } from './pull.service.js';
import { rule } from '../../graphql/input-rules.js';
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

// Result types are simple objects; the rows the pull service returns are put into their shape here.
const PluginToken = builder.simpleObject('PluginToken', {
  fields: (t) => ({
    id: t.id(),
    name: t.string(),
    prefix: t.string(),
    createdAt: t.field({ type: 'DateTime' }),
    lastPollAt: t.field({ type: 'DateTime', nullable: true }),
    connection: t.field({ type: ConnectionEnum, description: 'connected (polled within 30 s), intermittent (5 min), disconnected, never' }),
    parked: t.int({ description: 'Votes this token\'s plugin parked for offline players (README "Offline players")' }),
  }),
});
const shownToken = ({ lastPolledAt, ...token }: TokenRow) => ({ ...token, lastPollAt: lastPolledAt });

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
const ParkedVote = builder.simpleObject('ParkedVote', {
  description: "A vote parked for an offline player: returned by that player's poll (`pullVotes(player:)`)",
  fields: (t) => ({
    id: t.string(),
    voterName: t.string({ description: 'The player it waits for' }),
    providerKey: t.string(),
    providerName: t.string(),
    receivedAt: t.field({ type: 'DateTime' }),
    parkedAt: t.field({ type: 'DateTime' }),
    test: t.boolean(),
  }),
});
const shownParked = (p: ParkedRow) => ({
  id: p.publicId,
  voterName: p.voterName,
  providerKey: p.provider.key,
  providerName: p.provider.name,
  receivedAt: p.receivedAt,
  parkedAt: p.parkedAt,
  test: p.test,
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
const PulledVote = builder.simpleObject('PulledVote', {
  fields: (t) => ({
    id: t.string(),
    voterName: t.string(),
    providerKey: t.string(),
    providerName: t.string(),
    receivedAt: t.field({ type: 'DateTime' }),
    attempt: t.int(),
    test: t.boolean({ description: 'A test vote sent by the owner with deliver_to_game_servers (README "Test votes"): a plugin may skip its reward' }),
  }),
});
const shownPulled = ({ vote, attempt }: Pulled) => ({
  id: vote.publicId,
  voterName: vote.voterName,
  providerKey: vote.provider.key,
  providerName: vote.provider.name,
  receivedAt: vote.receivedAt,
  attempt,
  test: vote.test,
});

const PullSettlement = builder.simpleObject('PullSettlement', {
  fields: (t) => ({ voteId: t.string(), status: t.field({ type: PullStatusEnum }), retryAt: t.field({ type: 'DateTime', nullable: true }) }),
});
const shownSettlement = (s: { voteId: string; status: string; retryAt?: Date | null }) => ({
  voteId: s.voteId,
  status: oneOf(PULL_STATUSES, s.status, 'pulled vote status'),
  retryAt: s.retryAt ?? null,
});

builder.queryField('pluginTokens', (t) =>
  t.field({
    type: PluginTokenList,
    nullable: true,
    authScopes: { access: { scope: 'read' } },
    resolve: async (_r, _a, ctx) => {
      const list = await ctx.services.pull.listTokens(requireViewer(ctx.auth).organizationId);
      return { ...list, tokens: list.tokens.map(shownToken) };
    },
  }),
);

builder.queryField('parkedVotes', (t) =>
  t.field({
    type: ParkedVotePage,
    nullable: true,
    description: 'The votes one plugin token parked for offline players, most recently parked first',
    authScopes: { access: { scope: 'read' } },
    args: { tokenId: t.arg.id({ required: true }), page: t.arg.int(), limit: t.arg.int() },
    resolve: async (_r, { tokenId, page, limit }, ctx) => {
      const parked = await ctx.services.pull.listParked(requireViewer(ctx.auth).organizationId, String(tokenId), { page, limit });
      return { ...parked, votes: parked.votes.map(shownParked) };
    },
  }),
);

builder.mutationField('createPluginToken', (t) =>
  t.field({
    type: CreatedPluginToken,
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { name: t.arg.string({ required: true }) },
    validate: rule(createPluginTokenArgs),
    resolve: (_r, args, ctx) => ctx.services.pull.createToken(requireViewer(ctx.auth).organizationId, args),
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
    resolve: async (_r, args, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return (await ctx.services.pull.poll(plugin.organizationId, plugin.tokenId, args)).map(shownPulled);
    },
  }),
);

builder.mutationField('claimPulledVote', (t) =>
  t.field({
    type: PullSettlement,
    nullable: true,
    authScopes: { access: { scope: 'plugin' } },
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return shownSettlement(await ctx.services.pull.claim(plugin.organizationId, plugin.tokenId, id));
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
    validate: rule(failPulledVoteArgs),
    resolve: async (_r, args, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return shownSettlement(await ctx.services.pull.fail(plugin.organizationId, plugin.tokenId, args));
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
