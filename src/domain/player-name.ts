// Minecraft player names as a command may take them: a Java name, or a Bedrock player's name behind the
// organization's Floodgate prefix (settings.bedrock_prefix). The RCON callbacks check every name against it before a
// command is sent, and the organization's settings check the prefix.

/** Java Edition names: 3–16 in Mojang's account rules, but old and offline-mode names go down to 1. */
const JAVA_NAME = /^[A-Za-z0-9_]{1,16}$/;
const NAME_CHARACTERS = /^[A-Za-z0-9_]+$/;
/** Printable ASCII only, and none of what ends an argument or starts something else in a command. */
const PREFIX_REFUSED = /[;'"`/\\{}[\]@]/;

/**
 * A Floodgate username prefix (default ".") that may stand in front of a name in a command: 1–3 printable ASCII
 * characters without space, `;` (a command separator in some consoles), quotes and `\` (quoted arguments), `/`,
 * `{}` `[]` (NBT, JSON, selector arguments) or `@` (a target selector: prefix "@" and player "a" would be `@a`).
 */
export function isSafeBedrockPrefix(prefix: string): boolean {
  return /^[\x21-\x7e]{1,3}$/.test(prefix) && !PREFIX_REFUSED.test(prefix);
}

/**
 * A name that can be put into a command as one argument: a Java name, or a Bedrock player's name behind Floodgate's
 * prefix. Floodgate cuts the Bedrock name so that prefix and name together stay within 16 characters
 * (HandshakeDataImpl), and with replace-spaces on (the default) turns spaces into `_`.
 */
export function isPlayerName(name: string, bedrockPrefix: string | null): boolean {
  if (JAVA_NAME.test(name)) return true;
  if (bedrockPrefix === null || !isSafeBedrockPrefix(bedrockPrefix) || !name.startsWith(bedrockPrefix)) return false;
  return name.length <= 16 && NAME_CHARACTERS.test(name.slice(bedrockPrefix.length));
}
