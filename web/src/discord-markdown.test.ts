// The chat preview's Discord markdown (web/src/discord-markdown.ts) rendered to static HTML: each mark as Discord
// shows it, nothing a template writes can become markup, and only http(s) links are links.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiscordMarkdown } from './discord-markdown.js';

const html = (text: string) => renderToStaticMarkup(createElement(DiscordMarkdown, { text })).replace(/^<span class="md">|<\/span>$/g, '');

describe('Discord markdown in the chat preview', () => {
  it('renders the marks Discord renders', () => {
    expect(html('**Steve** voted')).toBe('<strong>Steve</strong> voted');
    expect(html('*soft* and _also_')).toBe('<em>soft</em> and <em>also</em>');
    expect(html('__under__ ~~gone~~ ***both***')).toBe('<u>under</u> <s>gone</s> <strong><em>both</em></strong>');
    expect(html('**bold with *italics* inside**')).toBe('<strong>bold with <em>italics</em> inside</strong>');
    expect(html('run `/vote` now')).toBe('run <code class="md-code">/vote</code> now');
    expect(html('||secret||')).toBe('<span class="md-spoiler">secret</span>');
    expect(html('line one\nline two')).toBe('line one<br/>line two');
  });

  it('masked links and bare links go to http(s) only, opened apart from this page', () => {
    expect(html('[Vote again](https://top.gg/bot/1/vote)')).toBe(
      '<a href="https://top.gg/bot/1/vote" target="_blank" rel="noopener noreferrer nofollow" class="md-link">Vote again</a>',
    );
    expect(html('[**bold** link](https://example.com/a)')).toContain('><strong>bold</strong> link</a>');
    expect(html('see https://example.com/x.')).toBe(
      'see <a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow" class="md-link">https://example.com/x</a>.',
    );
    expect(html('[click](javascript:alert(1))')).toBe('[click](javascript:alert(1))');
    expect(html('[click](data:text/html,hi)')).not.toContain('<a');
  });

  it('never turns text into markup, and leaves what is not markdown as it is', () => {
    expect(html('<img src=x onerror=alert(1)> **<b>x</b>**')).toBe('&lt;img src=x onerror=alert(1)&gt; <strong>&lt;b&gt;x&lt;/b&gt;</strong>');
    // `_` needs a word boundary (snake_case stays); `*` does not, as in Discord.
    expect(html('snake_case_name and 2*3*4')).toBe('snake_case_name and 2<em>3</em>4');
    expect(html('\\*\\*not bold\\*\\*')).toBe('**not bold**');
    expect(html('`**not bold in code**`')).toBe('<code class="md-code">**not bold in code**</code>');
    expect(html('a ** b')).toBe('a ** b');
  });

  it('quotes, headings and code blocks are blocks', () => {
    expect(html('# Thanks!')).toBe('<strong class="md-heading md-h1">Thanks!</strong>');
    expect(html('> quoted **text**')).toBe('<span class="md-quote">quoted <strong>text</strong></span>');
    expect(html('```\nconst a = "**b**";\n```')).toBe('<pre class="md-codeblock"><code>const a = &quot;**b**&quot;;</code></pre>');
  });
});
