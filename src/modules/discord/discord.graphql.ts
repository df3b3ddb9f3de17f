// Discord rewards (README "Discord rewards"): the vote roles given with their expiry.
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import type { RoleGrantRow } from './discord.service.js';
import { oneOf } from '../../graphql/stored-enum.js';

const GRANT_STATUSES = ['active', 'removed', 'not_member'] as const;

const RoleGrantStatusEnum = builder.enumType('DiscordRoleGrantStatus', {
  description: 'active: held until expiresAt; removed: taken away at expiry; not_member: the user is not in the server, no role was given',
  values: GRANT_STATUSES,
});

const RoleGrantRef = builder.simpleObject('DiscordRoleGrant', {
  description: 'A Discord vote role given to a voter by a discord_role callback',
  fields: (t) => ({
    voter: t.string({ description: "The voter's name on the vote that gave it" }),
    discordId: t.string(),
    roleId: t.string(),
    callbackId: t.id(),
    status: t.field({ type: RoleGrantStatusEnum }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the role is (or was) taken away' }),
    lastError: t.string({ nullable: true, description: 'Why the last try to give or take it failed' }),
    updatedAt: t.field({ type: 'DateTime' }),
  }),
});
/** A grant as the API shows it. */
const shownGrant = (g: RoleGrantRow) => ({
  voter: g.voterName,
  discordId: g.discordUserId,
  roleId: g.roleId,
  callbackId: g.callbackId,
  status: oneOf(GRANT_STATUSES, g.status, 'role grant status'),
  expiresAt: g.expiresAt,
  lastError: g.lastError,
  updatedAt: g.updatedAt,
});

const RoleGrantListRef = builder.simpleObject('DiscordRoleGrantList', {
  fields: (t) => ({ grants: t.field({ type: [RoleGrantRef] }), total: t.int(), page: t.int(), limit: t.int() }),
});

builder.queryField('discordRoleGrants', (t) =>
  t.field({
    type: RoleGrantListRef,
    nullable: true,
    description: 'The vote roles given: held ones first, soonest expiry first (paginated)',
    authScopes: { access: { scope: 'read' } },
    args: { page: t.arg.int(), limit: t.arg.int(), status: t.arg({ type: RoleGrantStatusEnum }) },
    resolve: async (_root, args, ctx) => {
      const list = await ctx.services.discord.roleGrants(requireViewer(ctx.auth).organizationId, args);
      return { ...list, grants: list.grants.map(shownGrant) };
    },
  }),
);
