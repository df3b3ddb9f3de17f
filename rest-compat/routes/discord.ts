// /v1/discord/role-grants (README "Discord rewards").
import type { RestRoute } from '../route.js';

export const discordRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/discord/role-grants',
    summary: 'List the Discord vote roles given, held ones first (paginated)',
    document: `query ($page: Int, $limit: Int, $status: DiscordRoleGrantStatus) { discordRoleGrants(page: $page, limit: $limit, status: $status) {
      total page limit grants { voter discord_id: discordId role_id: roleId callback_id: callbackId status expires_at: expiresAt
        last_error: lastError updated_at: updatedAt } } }`,
    variables: (req) => ({ page: req.query.page, limit: req.query.limit, status: req.query.status }),
    data: (r) => ({ grants: r.discordRoleGrants.grants }),
    meta: (r) => ({ total: r.discordRoleGrants.total, page: r.discordRoleGrants.page, limit: r.discordRoleGrants.limit }),
  },
];
