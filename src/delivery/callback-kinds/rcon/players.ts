// What may go into a Minecraft command and what its answers say: safe text, `list` and failure answers (player names
// and the Bedrock prefix: src/domain/player-name.ts).

/**
 * Colour and format codes: `§` and one character. Servers that sent the section sign as the single Latin-1 byte 0xA7
 * (CraftBukkit 1.4, wiki.vg "RCON") reach us as U+FFFD after UTF-8 decoding; that pair is a colour code too.
 */
const FORMAT_CODE = /[§\uFFFD][0-9a-fk-orx]/gi;

export function stripFormatCodes(text: string): string {
  return text.replace(FORMAT_CODE, '');
}

// Vanilla 1.13+: "There are 1 of a max of 20 players online: Steve, Alex" (one line).
// Vanilla up to 1.12 and CraftBukkit/Spigot: "There are 1/20 players online:" then the names; vanilla's RCON joins
// the two messages without a line break ("…online:Steve", MC-7569), Bukkit's list puts a "\n" between them.
const LIST_HEADER = /There are (\d+)\s*(?:\/|of a max of)\s*(\d+) players online:?/i;

/**
 * The names in an answer to `list`, as written (display names: a scoreboard team's prefix shows up here too), or null
 * when the answer is not a `list` answer this reads. EssentialsX's grouped list ("out of maximum …") is not read.
 */
export function parseOnlinePlayers(answer: string): string[] | null {
  const text = stripFormatCodes(answer).replace(/\r/g, '');
  const header = LIST_HEADER.exec(text);
  if (!header) return null;
  const count = Number(header[1]);
  const names = text
    .slice(header.index + header[0].length)
    .split(/[,\n]/)
    .map((name) => name.trim())
    .filter(Boolean);
  if (count === 0) return [];
  return names.length > 0 ? names : null;
}

const TEXT_LIMIT = 100;

/**
 * Any Unicode letter or decimal digit, the space and `_ - . : , ! ? # ( ) +`. Everything else goes, among it what a
 * command treats specially: `/` and `;` (command start, command separator in some consoles), `"` `'` `\` (quoted
 * arguments), `{}` `[]` (NBT, JSON text, selector arguments), `§` and `&` (format codes), `@` (say, me, msg and
 * teammsg expand @a, @e, @p, @r, @s and @n anywhere in their message, so "@e" would list every entity), `~` `^`
 * (relative coordinates), `$` (function macros), `%`, `=`, `<>`, `*`, control and format characters (bidi overrides,
 * zero-width joiners) and combining marks left after NFC.
 */
const UNSAFE_TEXT = /[^\p{L}\p{Nd} _\-.:,!?#()+]/gu;

/**
 * A template value (provider name, organization name, a count…) made safe for a command's free text: normalised
 * (NFC), format codes ("§c") removed whole, every run of whitespace (line breaks included) one space, characters
 * outside the set above removed, trimmed, at most 100 characters. Null when nothing is left.
 */
export function commandSafeText(value: string): string | null {
  const kept = stripFormatCodes(value.normalize('NFC')).replace(/\s+/gu, ' ').replace(UNSAFE_TEXT, '').replace(/ {2,}/g, ' ').trim();
  const text = Array.from(kept).slice(0, TEXT_LIMIT).join('').trim();
  return text === '' ? null : text;
}

/** Answers of vanilla, Paper/Spigot and common plugins that mean the command did nothing. */
const FAILURE_ANSWERS = [
  'Unknown or incomplete command',
  'Unknown command',
  'No player was found',
  'Incorrect argument for command',
  'Expected whitespace',
  'Invalid name or UUID',
  'That player does not exist',
  'Player not found',
  "Can't find element",
];
const FAILURE = new RegExp(FAILURE_ANSWERS.map((answer) => answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/** The line of the answer that says the command failed (format codes removed, at most 200 characters), or null. */
export function answerMarksFailure(answer: string): string | null {
  for (const line of stripFormatCodes(answer).split(/\r?\n/)) {
    if (FAILURE.test(line)) return line.trim().slice(0, 200);
  }
  return null;
}

/** Whether `player` is in the server's `list` (names compare case-insensitively, as Minecraft's do). */
export function isOnline(players: readonly string[], player: string): boolean {
  const wanted = player.toLowerCase();
  return players.some((p) => p.toLowerCase() === wanted);
}
