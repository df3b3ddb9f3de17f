// Discord rewards (README "Discord rewards"): the vote roles given with their expiry.
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import type { RoleGrantRow } from './discord.service.js';

const GRANT_STATUSES = ['active', 'removed', 'not_member'] as const;

const RoleGrantStatusEnum = builder.enumType('DiscordRoleGrantStatus', {
  description: 'active: held until expiresAt; removed: taken away at expiry; not_member: the user is not in the server, no role was given',
  values: GRANT_STATUSES,
});

const RoleGrantRef = builder.objectRef<RoleGrantRow>('DiscordRoleGrant').implement({
  description: 'A Discord vote role given to a voter by a discord_role callback',
  fields: (t) => ({
    voter: t.exposeString('voterName', { description: "The voter's name on the vote that gave it" }),
    discordId: t.exposeString('discordUserId'),
    roleId: t.exposeString('roleId'),
    callbackId: t.exposeID('callbackId'),
    status: t.field({ type: RoleGrantStatusEnum, resolve: (g) => g.status as (typeof GRANT_STATUSES)[number] }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the role is (or was) taken away' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last try to give or take it failed' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
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
    resolve: (_root, args, ctx) => ctx.services.discord.roleGrants(requireViewer(ctx.auth).organizationId, args),
  }),
);
