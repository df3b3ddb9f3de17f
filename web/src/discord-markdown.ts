// Discord's message markdown rendered as Discord shows it, for chat previews: **bold**, *italics* / _italics_,
// __underline__, ~~strikethrough~~, ||spoilers||, `inline code`, ```code blocks```, [masked links](https://…),
// bare links, > quotes, # headings, and \escapes (support.discord.com "Markdown Text 101"). It builds React
// elements, never HTML strings, so text from a template can never inject markup; links are http(s) only.
// (createElement rather than JSX: the file is plain TypeScript, so the unit tests in Node can import it.)
import { createElement as h, Fragment, type ReactNode } from 'react';

/** An inline rule: a sticky regex tried at the current position, and what its match renders as. */
type Rule = { re: RegExp; render: (m: RegExpExecArray, key: number) => ReactNode };

const safeHref = (raw: string): string | null => {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
};

const link = (href: string, children: ReactNode, key: number) =>
  h('a', { key, href, target: '_blank', rel: 'noopener noreferrer nofollow', className: 'md-link' }, children);

// Order matters as in Discord's parser (simple-markdown): longer markers before their shorter prefixes.
const RULES: Rule[] = [
  { re: /\\([^0-9A-Za-z\s])/y, render: (m) => m[1] },
  { re: /```(?:([a-z0-9_+-]+)\n)?\n*([\s\S]+?)\n*```/iy, render: (m, key) => h('pre', { key, className: 'md-codeblock' }, h('code', null, m[2])) },
  { re: /(`+)([\s\S]*?[^`])\1(?!`)/y, render: (m, key) => h('code', { key, className: 'md-code' }, m[2].trim()) },
  {
    re: /\[((?:\[[^\]]*\]|[^[\]])+)\]\(\s*<?((?:https?:\/\/)[^\s>)]+)>?\s*\)/y,
    render: (m, key) => {
      const href = safeHref(m[2]);
      return href ? link(href, inline(m[1]), key) : m[0];
    },
  },
  { re: /<(https?:\/\/[^\s>]+)>/y, render: (m, key) => (safeHref(m[1]) ? link(safeHref(m[1])!, m[1], key) : m[0]) },
  { re: /https?:\/\/[^\s<]+[^<.,:;"')\]\s]/y, render: (m, key) => (safeHref(m[0]) ? link(safeHref(m[0])!, m[0], key) : m[0]) },
  { re: /\*\*\*(?=\S)([\s\S]+?)\*\*\*(?!\*)/y, render: (m, key) => h('strong', { key }, h('em', null, inline(m[1]))) },
  { re: /\*\*(?=\S)([\s\S]+?)\*\*(?!\*)/y, render: (m, key) => h('strong', { key }, inline(m[1])) },
  { re: /__(?=\S)([\s\S]+?)__(?!_)/y, render: (m, key) => h('u', { key }, inline(m[1])) },
  { re: /\*(?=\S)((?:\*\*[\s\S]+?\*\*|[^*])+?)\*(?!\*)/y, render: (m, key) => h('em', { key }, inline(m[1])) },
  { re: /_(?=\S)((?:__[\s\S]+?__|[^_])+?)_(?![A-Za-z0-9_])/y, render: (m, key) => h('em', { key }, inline(m[1])) },
  { re: /~~(?=\S)([\s\S]+?)~~/y, render: (m, key) => h('s', { key }, inline(m[1])) },
  { re: /\|\|([\s\S]+?)\|\|/y, render: (m, key) => h('span', { key, className: 'md-spoiler' }, inline(m[1])) },
];
/** Characters where a rule may start; text runs up to the next one. */
const SPECIAL = /[\\`[<h*_~|]/g;

/** Inline markdown of one block of text. */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let plain = '';
  let at = 0;
  const flush = () => {
    if (plain) out.push(plain);
    plain = '';
  };
  while (at < text.length) {
    let matched = false;
    for (const rule of RULES) {
      rule.re.lastIndex = at;
      const m = rule.re.exec(text);
      if (!m) continue;
      // `_` only opens italics at a word's start (snake_case stays as it is, as in Discord).
      if (m[0].startsWith('_') && !m[0].startsWith('__') && /[A-Za-z0-9]/.test(text[at - 1] ?? '')) continue;
      flush();
      out.push(rule.render(m, out.length));
      at += m[0].length;
      matched = true;
      break;
    }
    if (matched) continue;
    SPECIAL.lastIndex = at + 1;
    const next = SPECIAL.exec(text);
    const end = next ? next.index : text.length;
    plain += text.slice(at, end);
    at = end;
  }
  flush();
  return out;
}

/** A line-level block: a quote (`> `), a heading (`# `, `## `, `### `), subtext (`-# `), or plain text. */
function block(line: string, key: number): ReactNode {
  const heading = /^(#{1,3}) (.+)$/.exec(line);
  if (heading) return h('strong', { key, className: `md-heading md-h${heading[1].length}` }, inline(heading[2]));
  const subtext = /^-# (.+)$/.exec(line);
  if (subtext) return h('small', { key, className: 'md-subtext' }, inline(subtext[1]));
  const quote = /^> ?(.*)$/.exec(line);
  if (quote) return h('span', { key, className: 'md-quote' }, inline(quote[1]));
  return h(Fragment, { key }, inline(line));
}

/**
 * Discord markdown as React elements. Code blocks may span lines; everything else is read line by line (a heading
 * or quote is one line), with the line breaks kept.
 */
export function DiscordMarkdown({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const fence = /```[\s\S]*?```/g;
  let last = 0;
  const lines = (chunk: string) =>
    chunk.split('\n').forEach((line, i) => {
      if (i > 0) parts.push(h('br', { key: `br${parts.length}` }));
      if (line) parts.push(block(line, parts.length));
    });
  for (const m of text.matchAll(fence)) {
    lines(text.slice(last, m.index));
    parts.push(h(Fragment, { key: parts.length }, inline(m[0])));
    last = m.index + m[0].length;
  }
  lines(text.slice(last));
  return h('span', { className: 'md' }, parts);
}
