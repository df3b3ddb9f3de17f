// Discord rewards as owners read them (README "Discord rewards"): the vote roles given, with their expiry, newest
// expiry first, and the voters who refused DMs.
import type { AppDeps } from '../../app/deps.js';
import { pageOf } from '../../base/validation.js';

export interface RoleGrantRow {
  voterName: string;
  discordUserId: string;
  roleId: string;
  callbackId: string;
  status: string;
  expiresAt: Date;
  lastError: string | null;
  updatedAt: Date;
}

export function createDiscordService(deps: AppDeps) {
  const { prisma } = deps.db;

  /** The organization's vote roles: held ones first (soonest expiry first), then the rest, most recent first. */
  async function roleGrants(organizationId: string, input: { page?: number | null; limit?: number | null; status?: string | null }) {
    const { page, limit } = pageOf(input, 50);
    const where = { organizationId, ...(input.status ? { status: input.status } : {}) };
    const [grants, total] = await Promise.all([
      prisma.discordRoleGrant.findMany({
        where,
        orderBy: [{ status: 'asc' }, { expiresAt: 'asc' }, { id: 'asc' }],
        skip: (page - 1) * limit,
        take: limit,
        select: { voterName: true, discordUserId: true, roleId: true, callbackId: true, status: true, expiresAt: true, lastError: true, updatedAt: true },
      }),
      prisma.discordRoleGrant.count({ where }),
    ]);
    return { grants: grants as RoleGrantRow[], total, page, limit };
  }

  return { roleGrants };
}

export type DiscordService = ReturnType<typeof createDiscordService>;
