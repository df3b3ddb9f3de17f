// Builds Discord-compatible webhook bodies (simple or embed) within Discord's limits; never pings anyone.
import { renderText, type Lookup } from './template.js';

export interface EmbedTemplate {
  color?: number;
  title?: string;
  description?: string;
  url?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string; icon_url?: string };
  author?: { name: string; url?: string; icon_url?: string };
  thumbnail?: { url: string };
  image?: { url: string };
  timestamp?: string;
}

export interface ChatMessageBody {
  content?: string;
  embeds?: EmbedTemplate[];
  allowed_mentions: { parse: never[] };
}

// Discord's documented limits (characters).
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedTotal: 6000,
} as const;

export const DEFAULT_EMBED_TEMPLATE: EmbedTemplate = {
  color: 5_814_783,
  title: 'New vote!',
  description: '**{{voter_name}}** voted on **{{provider_name}}**',
  footer: { text: 'Vote Relay' },
  timestamp: '{{received_at}}',
};

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const length = (text: string | undefined) => (text ? Array.from(text).length : 0);

function embedSize(embed: EmbedTemplate): number {
  return (
    length(embed.title) +
    length(embed.description) +
    length(embed.footer?.text) +
    length(embed.author?.name) +
    (embed.fields ?? []).reduce((sum, f) => sum + length(f.name) + length(f.value), 0)
  );
}

function renderEmbed(template: EmbedTemplate, lookup: Lookup, test: string | null): EmbedTemplate {
  const r = (text: string | undefined) => (text === undefined ? undefined : renderText(text, lookup));
  // A voter chooses their own name: inside a link it is one percent-encoded value, never a path or query of its own.
  const link = (text: string | undefined) => (text === undefined ? undefined : renderText(text, lookup, encodeURIComponent));
  const embed: EmbedTemplate = {};
  if (template.color !== undefined) embed.color = template.color;
  if (template.title !== undefined) embed.title = cut(r(template.title)!, DISCORD_LIMITS.title);
  if (template.description !== undefined) embed.description = cut(r(template.description)!, DISCORD_LIMITS.description);
  if (template.url !== undefined) embed.url = link(template.url);
  if (template.fields) {
    embed.fields = template.fields.slice(0, DISCORD_LIMITS.fields).map((f) => ({
      name: cut(r(f.name) || '\u200b', DISCORD_LIMITS.fieldName),
      value: cut(r(f.value) || '\u200b', DISCORD_LIMITS.fieldValue),
      ...(f.inline === undefined ? {} : { inline: f.inline }),
    }));
  }
  const footerText = template.footer ? r(template.footer.text) : undefined;
  const marked = test ? (footerText ? `${test} · ${footerText}` : test) : footerText;
  if (marked !== undefined) {
    embed.footer = {
      text: cut(marked, DISCORD_LIMITS.footer),
      ...(template.footer?.icon_url !== undefined ? { icon_url: link(template.footer.icon_url) } : {}),
    };
  }
  if (template.author) {
    embed.author = {
      name: cut(r(template.author.name) ?? '', DISCORD_LIMITS.author),
      ...(template.author.url !== undefined ? { url: link(template.author.url) } : {}),
      ...(template.author.icon_url !== undefined ? { icon_url: link(template.author.icon_url) } : {}),
    };
  }
  if (template.thumbnail) embed.thumbnail = { url: link(template.thumbnail.url)! };
  if (template.image) embed.image = { url: link(template.image.url)! };
  if (template.timestamp !== undefined) {
    const ts = r(template.timestamp)!;
    if (!Number.isNaN(Date.parse(ts))) embed.timestamp = new Date(ts).toISOString();
  }
  // Over the 6000 total: shorten the description, then drop fields from the end.
  let over = embedSize(embed) - DISCORD_LIMITS.embedTotal;
  if (over > 0 && embed.description) {
    embed.description = cut(embed.description, Math.max(1, length(embed.description) - over));
    over = embedSize(embed) - DISCORD_LIMITS.embedTotal;
  }
  while (over > 0 && embed.fields && embed.fields.length > 0) {
    embed.fields.pop();
    over = embedSize(embed) - DISCORD_LIMITS.embedTotal;
  }
  return embed;
}

/**
 * `test` marks the message as a test: `[TEST] ` before simple content, the label (default "Test message", the chat
 * webhook test; a test vote says "Test vote") before the embed's footer.
 */
export function buildChatMessage(
  input: { type: 'simple' | 'embed'; template: string; embedTemplate: EmbedTemplate | null },
  lookup: Lookup,
  options: { test?: boolean; testLabel?: string } = {},
): ChatMessageBody {
  const test = options.test ? (options.testLabel ?? 'Test message') : null;
  if (input.type === 'embed') {
    return { embeds: [renderEmbed(input.embedTemplate ?? DEFAULT_EMBED_TEMPLATE, lookup, test)], allowed_mentions: { parse: [] } };
  }
  const text = renderText(input.template, lookup);
  return { content: cut(test ? `[TEST] ${text}` : text, DISCORD_LIMITS.content) || '\u200b', allowed_mentions: { parse: [] } };
}

/** The platform's own reason from an error answer (Discord: `{message, code}`), else a short status line. */
export function platformReason(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string') {
      return typeof parsed.code === 'number' ? `${parsed.message} (code ${parsed.code})` : parsed.message;
    }
  } catch {
    // not JSON: fall through
  }
  const text = body.trim().slice(0, 200);
  return text ? `HTTP ${status}: ${text}` : `HTTP ${status}`;
}
