// Plugin tokens (managed with API keys) and the pull queue (used with a plugin token).
import { builder } from '../../graphql/builder.js';
import { requirePlugin, requireViewer } from '../../auth/access.js';
import type { Connection } from './pull.service.js';

const ConnectionEnum = builder.enumType('PluginConnection', { values: ['connected', 'intermittent', 'disconnected', 'never'] as string[] });
const PullStatusEnum = builder.enumType('PulledVoteStatus', {
  description: 'claimed: done; retrying: handed out again after a back-off; failed: given up',
  values: ['claimed', 'retrying', 'failed'] as string[],
});

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastPolledAt: Date | null;
  connection: Connection;
}

const PluginToken = builder.objectRef<TokenRow>('PluginToken').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastPollAt: t.expose('lastPolledAt', { type: 'DateTime', nullable: true }),
    connection: t.expose('connection', { type: ConnectionEnum, description: 'connected (polled within 30 s), intermittent (5 min), disconnected, never' }),
  }),
});

const PluginTokenList = builder.objectRef<{ tokens: TokenRow[]; waiting: number }>('PluginTokenList').implement({
  fields: (t) => ({
    tokens: t.field({ type: [PluginToken], resolve: (l) => l.tokens }),
    waiting: t.exposeInt('waiting', { description: 'Votes waiting for a plugin to claim them' }),
  }),
});

const CreatedPluginToken = builder.objectRef<{ id: string; name: string; token: string; prefix: string }>('CreatedPluginToken').implement({
  description: 'A new plugin token; `token` is shown only here',
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name'), token: t.exposeString('token'), prefix: t.exposeString('prefix') }),
});

const Revoked = builder.objectRef<{ message: string; id: string }>('RevokedPluginToken').implement({
  fields: (t) => ({ message: t.exposeString('message'), id: t.exposeID('id') }),
});

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
    status: t.expose('status', { type: PullStatusEnum }),
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
    description: 'Reserves unclaimed votes for this plugin (oldest first); waits up to waitSeconds (max 25) when none are waiting',
    nullable: true,
    authScopes: { access: { scope: 'plugin' } },
    args: { limit: t.arg.int(), waitSeconds: t.arg.int() },
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
    args: { id: t.arg.string({ required: true }), reason: t.arg.string() },
    resolve: (_r, { id, reason }, ctx) => {
      const plugin = requirePlugin(ctx.auth);
      return ctx.services.pull.fail(plugin.organizationId, plugin.tokenId, id, reason === undefined || reason === null ? {} : { reason });
    },
  }),
);
