// Discord vote roles (kind discord_role): each vote that carries the voter's Discord id gives the member a role for
// `duration` with the organization's own bot (settings.discord_bot_token, discord_guild_id); a vote while the role is
// held moves its expiry; at expiry the role is taken away again (role-expiry.ts). A grant is a row, written after the
// role was given: adding a role the member holds is a no-op at Discord, so a retry or a repeat after a crash gives
// nothing twice (README "Discord rewards").
import { z } from 'zod';
import type { AppDeps } from '../../../app/deps.js';
import { DiscordError } from '../../../discord/discord-api.js';
import { botOf, NO_BOT } from '../../../discord/organization-bot.js';
import { DISCORD_ID } from '../../../domain/discord-id.js';
import { fixThisAlert, queueAdminAlert } from '../../alerts.js';
import type { SendResult } from '../../senders.js';
import type { CallbackKind, KindSendContext } from '../callback-kind.js';
import { attemptTo } from '../attempt-result.js';
import { setting, type SettingField } from '../settings-schema.js';
import { startRoleExpiry } from './role-expiry.js';

const DURATION = /^(\d+)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MIN_DURATION_MS = 60_000;
const MAX_DURATION_MS = 90 * 86_400_000;

/** "12h" → milliseconds; null when it is not a duration from 1m to 90d. */
export function durationMs(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms >= MIN_DURATION_MS && ms <= MAX_DURATION_MS ? ms : null;
}

const settings: SettingField[] = [
  {
    name: 'roleId',
    type: 'string',
    rule: z.string().regex(DISCORD_ID, 'must be a role id (17 to 20 digits: Server Settings → Roles → right-click → Copy Role ID)'),
    required: true,
    label: 'Role id',
    help: 'the role each voter gets (the bot’s own role must be above it)',
    placeholder: '123456789012345678',
  },
  {
    name: 'duration',
    type: 'string',
    rule: z.string().refine((d) => durationMs(d) !== null, 'must be a duration from 1m to 90d, such as 30m, 12h or 7d'),
    required: true,
    label: 'For how long',
    help: 'how long a vote keeps the role (1m to 90d, e.g. 12h); a vote while it is held starts it again',
    placeholder: '12h',
  },
];

export const discordRoleCallback: CallbackKind = {
  name: 'discord_role',
  label: 'Discord vote role: a role for N hours',
  description: 'a Discord role given to the voter for a while with your own bot (settings.discord_bot_token)',
  events: ['vote'],
  // A role is a reward: a test vote reaches it only when its sender asks.
  marksTests: false,
  // Giving a member a role they hold changes nothing (the grant's expiry is kept per voter and role).
  dropsRepeats: true,
  signed: false,
  settings,
  target: (values) => `discord role ${setting(values, 'roleId')}`,
  test: (_deps, _callback, values, delivery) => ({
    url: `discord role ${setting(values, 'roleId')}`,
    method: 'PUT /guilds/{guild}/members/{user}/roles/{role}',
    headers: { 'x-audit-log-reason': `Voted on ${delivery.lookup('provider_name') ?? ''}` },
    payload: { user_id: delivery.lookup('voter_discord_id') ?? '', role_id: setting(values, 'roleId'), duration: setting(values, 'duration') },
    sent: false,
  }),
  send: giveRole,
  background: (deps) => startRoleExpiry(deps),
};

async function giveRole(deps: AppDeps, ctx: KindSendContext): Promise<SendResult> {
  const { org, callback, settings: values, delivery } = ctx;
  const userId = delivery.lookup('voter_discord_id') ?? '';
  if (!userId) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The vote carries no Discord id (the provider has no discord_id_path)' };
  const roleId = setting<string>(values, 'roleId');
  const where = `discord role ${roleId} for ${userId}`;
  const done = attemptTo(deps, ctx, where);
  const bot = botOf(deps, org);
  if (!bot) return done(NO_BOT, { permanent: true });
  const voter = delivery.lookup('voter_name') ?? '';
  const now = deps.clock.now();
  const until = new Date(now.getTime() + (durationMs(setting(values, 'duration')) ?? MIN_DURATION_MS));
  const grant = { organizationId: org.id, callbackId: callback.id, guildId: bot.guildId, roleId, discordUserId: userId, voterName: voter };
  try {
    await bot.api.addMemberRole(bot.guildId, userId, roleId, `Voted on ${delivery.lookup('provider_name') ?? 'a voting site'} (Vote Relay)`);
  } catch (err) {
    if (!(err instanceof DiscordError)) throw err;
    if (err.kind === 'unknown_member') {
      await recordGrant(deps, grant, until, 'not_member', err.message);
      return done(`${voter} (${userId}) is not a member of the Discord server: no role given`, { permanent: true, voteRefused: true });
    }
    // The owner can fix a permission: the vote is retried by the schedule, and they are told once a day what to fix.
    const fixable = err.kind === 'missing_permissions' || err.kind === 'missing_access';
    if (fixable) {
      await queueAdminAlert(
        deps,
        org,
        `discord_permissions:${callback.id}:${now.toISOString().slice(0, 10)}`,
        fixThisAlert({
          title: 'Discord vote role: the bot may not give the role',
          description: `Callback **${callback.name}** could not give role ${roleId}: ${err.message}. Move the bot's role above the vote role (Server Settings → Roles), and give it Manage Roles; then redeliver the failed votes.`,
        }),
        now,
      );
    }
    return done(err.message, { permanent: err.permanent && !fixable });
  }
  const expiresAt = await recordGrant(deps, grant, until, 'active', null);
  return done(null, { detail: `role given until ${expiresAt.toISOString()}` });
}

/**
 * The grant's row after a role was given (or refused): its expiry moves to `until` when that is later (a vote while
 * the role is held starts its time again), and an expired or refused row is active again. Returns the expiry.
 */
async function recordGrant(
  deps: AppDeps,
  grant: { organizationId: string; callbackId: string; guildId: string; roleId: string; discordUserId: string; voterName: string },
  until: Date,
  status: 'active' | 'not_member',
  error: string | null,
): Promise<Date> {
  const { prisma } = deps.db;
  const key = { callbackId_discordUserId: { callbackId: grant.callbackId, discordUserId: grant.discordUserId } };
  for (;;) {
    const row = await prisma.discordRoleGrant.findUnique({ where: key });
    if (!row) {
      try {
        await prisma.discordRoleGrant.create({ data: { ...grant, expiresAt: until, status, lastError: error } });
        return until;
      } catch (err) {
        if ((err as { code?: string }).code === 'P2002') continue; // a vote of the same member at the same time: update it
        throw err;
      }
    }
    const expiresAt = row.status === 'active' && row.expiresAt > until ? row.expiresAt : until;
    // Only the row as read (its updatedAt): an expiry or another vote in between is read again.
    const { count } = await prisma.discordRoleGrant.updateMany({
      where: { id: row.id, updatedAt: row.updatedAt },
      data: { ...grant, expiresAt, status: status === 'active' ? 'active' : row.status === 'active' ? 'active' : status, lastError: error, lockedUntil: null },
    });
    if (count === 1) return expiresAt;
  }
}
