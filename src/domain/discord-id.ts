// A voter's Discord user id, read from a vote's body where its provider says (Provider.discordIdPath; the templates of
// Discord sites set it): Discord rewards and {{voter_discord_id}} use it (README "Discord rewards").
import { readPathAsText } from '../base/json-path.js';

/** A Discord snowflake as text: 17 to 20 digits (ids sent as JSON numbers lose digits, and are refused here). */
export const DISCORD_ID = /^\d{17,20}$/;

/** The Discord id at `path` in a stored vote body, or null when there is none or it is not a Discord id. */
export function discordIdIn(rawPayload: string, path: string | null | undefined): string | null {
  if (!path) return null;
  let body: unknown;
  try {
    body = JSON.parse(rawPayload);
  } catch {
    return null;
  }
  const found = readPathAsText(body, path.replace(/^\$\./, ''));
  return found !== undefined && DISCORD_ID.test(found) ? found : null;
}
