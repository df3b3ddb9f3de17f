// Discord vote roles are taken away when they expire: every ROLE_EXPIRY_INTERVAL, due grants are claimed one by one
// with a lease (lockedUntil), so with several instances each is handled by one; the role is removed, then the row is
// marked removed only if no vote moved its expiry meanwhile (otherwise the role is given back). A crash between the
// two leaves the claim to lapse and another pass removes it again, which Discord takes as a no-op.
import type { AppDeps } from '../../../app/deps.js';
import { DiscordError } from '../../../discord/discord-api.js';
import { botOf } from '../../../discord/organization-bot.js';
import { backgroundLoop } from '../../../base/background-loop.js';

/** Grants handled per pass (the rest wait for the next). */
const PER_PASS = 200;
/** How long a claim keeps others off one grant (a removal, its rate-limit waits included). */
const CLAIM_MS = 60_000;

/** One pass: every due grant taken away; returns how many roles were removed. */
export async function expireRoles(deps: AppDeps): Promise<number> {
  const { prisma } = deps.db;
  const now = deps.clock.now();
  const due = await prisma.discordRoleGrant.findMany({
    where: { status: 'active', expiresAt: { lte: now }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
    orderBy: { expiresAt: 'asc' },
    take: PER_PASS,
  });
  // Each organization's bot is read once per pass, however many of its grants are due.
  const orgIds = [...new Set(due.map((g) => g.organizationId))];
  const orgs = new Map(
    orgIds.length
      ? (await prisma.organization.findMany({ where: { id: { in: orgIds } }, select: { id: true, discordBotTokenEnc: true, discordGuildId: true } })).map(
          (o) => [o.id, o],
        )
      : [],
  );
  let removed = 0;
  for (const grant of due) {
    const claim = new Date(now.getTime() + CLAIM_MS);
    const { count } = await prisma.discordRoleGrant.updateMany({
      where: { id: grant.id, status: 'active', expiresAt: grant.expiresAt, lockedUntil: grant.lockedUntil },
      data: { lockedUntil: claim },
    });
    if (count === 0) continue; // another instance has it, or a vote moved it
    const org = orgs.get(grant.organizationId);
    const bot = org ? botOf(deps, org) : null;
    if (!bot) {
      await prisma.discordRoleGrant.updateMany({
        where: { id: grant.id, lockedUntil: claim },
        data: { lastError: 'the organization has no Discord bot any more' },
      });
      continue;
    }
    const where = { guild: grant.guildId, user: grant.discordUserId, role: grant.roleId };
    try {
      await bot.api.removeMemberRole(grant.guildId, grant.discordUserId, grant.roleId, 'Vote role expired (Vote Relay)');
    } catch (err) {
      if (!(err instanceof DiscordError)) throw err;
      if (err.kind !== 'unknown_member') {
        // Tried again once the claim lapses (a rate limit, Discord down, a permission the owner must fix).
        await prisma.discordRoleGrant.updateMany({ where: { id: grant.id, lockedUntil: claim }, data: { lastError: err.message } });
        deps.logger.info({ ...where, grantId: grant.id, err: err.message }, 'a Discord vote role could not be taken away yet; it is tried again in a minute');
        continue;
      }
    }
    const marked = await prisma.discordRoleGrant.updateMany({
      where: { id: grant.id, lockedUntil: claim, expiresAt: grant.expiresAt },
      data: { status: 'removed', lockedUntil: null, lastError: null },
    });
    if (marked.count === 1) {
      removed++;
      continue;
    }
    // A vote moved the expiry while the role was being removed: the member keeps it.
    await bot.api
      .addMemberRole(grant.guildId, grant.discordUserId, grant.roleId, 'Voted again (Vote Relay)')
      .catch((err: unknown) =>
        deps.logger.warn(
          { ...where, err: (err as Error).message },
          'a vote role taken away as a new vote came in could not be given back; the next vote gives it',
        ),
      );
  }
  return removed;
}

/** The loop, while the delivery worker runs (0: not in this process). */
export function startRoleExpiry(deps: AppDeps): { stop(): Promise<void> } {
  const loop = backgroundLoop({
    everyMs: deps.config.roleExpiryIntervalMs,
    atStart: false,
    pass: () => expireRoles(deps),
    failed: (err) => deps.logger.error({ err }, 'taking away expired Discord vote roles failed; it runs again at the next interval'),
  });
  loop.start();
  return { stop: loop.stop };
}
