// Discord DMs (kind discord_dm): a thank-you for a vote, a milestone, or a reminder that the voter can vote again,
// sent by the organization's own bot to the voter's Discord id. It opens the DM channel, then posts the message (with a
// nonce, so a retried post is not shown twice). A voter who does not accept DMs (Discord 50007) is recorded: their
// messages go to fallback_channel_id with a mention, or stop (README "Discord rewards").
import { z } from 'zod';
import type { AppDeps } from '../../../app/deps.js';
import { DiscordError, type MessageBody } from '../../../discord/discord-api.js';
import { botOf, NO_BOT } from '../../../discord/organization-bot.js';
import { DISCORD_ID } from '../../../domain/discord-id.js';
import type { SendResult } from '../../senders.js';
import { renderText } from '../../template.js';
import type { CallbackKind, KindSendContext } from '../callback-kind.js';
import { attemptTo } from '../attempt-result.js';
import { setting, type SettingField } from '../settings-schema.js';

const CONTENT_LIMIT = 2_000;

const settings: SettingField[] = [
  {
    name: 'message',
    type: 'string',
    rule: z.string().min(1, 'must not be empty').max(CONTENT_LIMIT, `must be at most ${CONTENT_LIMIT} characters`),
    required: true,
    widget: 'textarea',
    label: 'Message',
    help: 'the DM, with {{variables}} (a reminder has {{vote_url}}); mentions in it ping nobody',
    placeholder: 'You can vote for us again on {{provider_name}}: {{vote_url}}',
  },
  {
    name: 'fallbackChannelId',
    type: 'string',
    rule: z.string().regex(DISCORD_ID, 'must be a channel id (17 to 20 digits)'),
    nullable: true,
    label: 'Fallback channel (optional)',
    help: 'where a voter who does not accept DMs gets the message instead, with a mention; null: they get none',
  },
];

const contentOf = (ctx: Pick<KindSendContext, 'settings' | 'delivery'>) =>
  renderText(setting<string>(ctx.settings, 'message'), ctx.delivery.lookup).slice(0, CONTENT_LIMIT);

export const discordDmCallback: CallbackKind = {
  name: 'discord_dm',
  label: 'Discord DM: thank-yous and reminders',
  description: 'a direct message to the voter from your own bot (settings.discord_bot_token): vote thank-yous, milestones, reminders',
  events: ['vote', 'milestone', 'reminder'],
  // A message is no reward, but it reaches a real person: a test vote reaches it only when its sender asks.
  marksTests: false,
  // A DM sent twice is read twice.
  dropsRepeats: false,
  signed: false,
  settings,
  target: () => 'discord dm',
  test: (_deps, _callback, values, delivery) => ({
    url: 'discord dm',
    method: 'POST /users/@me/channels, then POST /channels/{channel}/messages',
    headers: {},
    payload: { recipient_id: delivery.lookup('voter_discord_id') ?? '', content: contentOf({ settings: values, delivery }), allowed_mentions: { parse: [] } },
    sent: false,
  }),
  send: sendDm,
};

async function sendDm(deps: AppDeps, ctx: KindSendContext): Promise<SendResult> {
  const { job, org, settings: values, delivery } = ctx;
  const userId = delivery.lookup('voter_discord_id') ?? '';
  if (!userId) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The vote carries no Discord id (the provider has no discord_id_path)' };
  const done = attemptTo(deps, ctx, `discord dm to ${userId}`);
  const bot = botOf(deps, org);
  if (!bot) return done(NO_BOT, { permanent: true });
  const content = contentOf(ctx);
  // The job's id as nonce: a post retried after a lost answer is not shown twice.
  const message: MessageBody = { content, allowed_mentions: { parse: [] }, nonce: job.id.replace(/-/g, '').slice(0, 25), enforce_nonce: true };
  const { prisma } = deps.db;
  const refused = await prisma.discordDmRefusal.findUnique({ where: { organizationId_discordUserId: { organizationId: org.id, discordUserId: userId } } });
  const fallback = setting<string | null>(values, 'fallbackChannelId');
  try {
    if (!refused) {
      const { channelId } = await bot.api.openDm(userId);
      await bot.api.createMessage(channelId, message);
      return done(null, { detail: 'sent as a DM' });
    }
  } catch (err) {
    if (!(err instanceof DiscordError)) throw err;
    if (err.kind !== 'cannot_dm') return done(err.message, { permanent: err.permanent, voteRefused: err.kind === 'unknown_user' });
    await prisma.discordDmRefusal.upsert({
      where: { organizationId_discordUserId: { organizationId: org.id, discordUserId: userId } },
      create: { organizationId: org.id, discordUserId: userId, reason: err.message, refusedAt: deps.clock.now() },
      update: {},
    });
  }
  if (!fallback)
    return done('the voter does not accept DMs (Discord 50007): recorded, and no DM is sent to them again', { permanent: true, voteRefused: true });
  try {
    // The mention pings this voter only.
    await bot.api.createMessage(fallback, { ...message, content: `<@${userId}> ${content}`.slice(0, CONTENT_LIMIT), allowed_mentions: { users: [userId] } });
    return done(null, { detail: 'the voter does not accept DMs: posted to the fallback channel with a mention' });
  } catch (err) {
    if (!(err instanceof DiscordError)) throw err;
    return done(`the voter does not accept DMs, and the fallback channel refused the message: ${err.message}`, { permanent: err.permanent });
  }
}
