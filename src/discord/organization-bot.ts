// The organization's own Discord bot (settings.discord_bot_token, discord_guild_id): its API client and server, or
// none. The Discord callback kinds and the role expiry use it.
import type { AppDeps } from '../app/deps.js';
import { discordApiFor } from './discord-api.js';

export const NO_BOT = 'the organization has no Discord bot: set settings.discord_bot_token and settings.discord_guild_id';

export function botOf(deps: Pick<AppDeps, 'secrets' | 'config'>, org: { discordBotTokenEnc: string | null; discordGuildId: string | null }) {
  if (!org.discordBotTokenEnc || !org.discordGuildId) return null;
  return { api: discordApiFor(deps.config.discordApiUrl, deps.secrets.open(org.discordBotTokenEnc)), guildId: org.discordGuildId };
}
