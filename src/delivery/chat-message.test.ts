import { describe, it, expect } from 'vitest';
import { buildChatMessage, DEFAULT_EMBED_TEMPLATE, DISCORD_LIMITS, platformReason, type EmbedTemplate } from './chat-message.js';
import { voteLookup, type Lookup, type VoteTemplateValues } from './template.js';

const values: VoteTemplateValues = {
  voter_name: 'Steve',
  provider_name: 'top.gg',
  provider_key: 'topgg',
  vote_id: 'vt_3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04',
  received_at: '2026-01-31T23:59:59.123Z',
  organization_slug: 'acme',
  organization_name: 'Acme Network',
  raw_payload: '{"username":"Steve"}',
};
const lookup = voteLookup(values);

const chars = (text: string | undefined) => (text === undefined ? 0 : Array.from(text).length);

/** Discord's 6000 count: title, description, field names and values, footer text, author name. */
function embedTotal(embed: EmbedTemplate): number {
  return (
    chars(embed.title) +
    chars(embed.description) +
    chars(embed.footer?.text) +
    chars(embed.author?.name) +
    (embed.fields ?? []).reduce((sum, f) => sum + chars(f.name) + chars(f.value), 0)
  );
}

const simple = (template: string) => ({ type: 'simple' as const, template, embedTemplate: null });
const embed = (embedTemplate: EmbedTemplate | null) => ({ type: 'embed' as const, template: '', embedTemplate });

describe('DISCORD_LIMITS', () => {
  it('matches Discord documented limits', () => {
    expect(DISCORD_LIMITS).toMatchObject({
      content: 2000,
      title: 256,
      description: 4096,
      fields: 25,
      fieldName: 256,
      fieldValue: 1024,
      footer: 2048,
      author: 256,
      embedTotal: 6000,
    });
  });
});

describe('buildChatMessage — simple', () => {
  it('renders the template into content with no mentions allowed', () => {
    expect(buildChatMessage(simple('**{{voter_name}}** voted on {provider_name}'), lookup)).toEqual({
      content: '**Steve** voted on top.gg',
      allowed_mentions: { parse: [] },
    });
  });

  it('has no embeds key', () => {
    const body = buildChatMessage(simple('hi'), lookup);
    expect(Object.keys(body).sort()).toEqual(['allowed_mentions', 'content']);
  });

  it('prefixes [TEST] in test mode', () => {
    expect(buildChatMessage(simple('{{voter_name}} voted'), lookup, { test: true }).content).toBe('[TEST] Steve voted');
    expect(buildChatMessage(simple('{{voter_name}} voted'), lookup, { test: false }).content).toBe('Steve voted');
  });

  it('cuts content to 2000 characters', () => {
    const body = buildChatMessage(simple('x'.repeat(5000)), lookup);
    expect(chars(body.content)).toBe(2000);
    expect(body.content!.endsWith('…')).toBe(true);
    expect(body.content!.startsWith('x'.repeat(1999))).toBe(true);
  });

  it('keeps content of exactly 2000 characters whole', () => {
    const text = 'y'.repeat(2000);
    expect(buildChatMessage(simple(text), lookup).content).toBe(text);
  });

  it('cuts after the variables are rendered, and with the [TEST] prefix counted', () => {
    const longName = voteLookup({ ...values, voter_name: 'n'.repeat(3000) });
    const body = buildChatMessage(simple('{{voter_name}}'), longName, { test: true });
    expect(chars(body.content)).toBe(2000);
    expect(body.content!.startsWith('[TEST] nnn')).toBe(true);
  });

  it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
    const body = buildChatMessage(simple('🎉'.repeat(2500)), lookup);
    expect(chars(body.content)).toBe(2000);
    expect(body.content).toBe(`${'🎉'.repeat(1999)}…`);
  });

  it('never sends empty content', () => {
    const body = buildChatMessage(simple(''), lookup);
    expect(body.content).toBe('\u200b');
  });

  it('a voter named @everyone pings nobody', () => {
    const everyone = voteLookup({ ...values, voter_name: '@everyone' });
    const body = buildChatMessage(simple('{{voter_name}} voted! <@&123> @here'), everyone);
    expect(body.content).toBe('@everyone voted! <@&123> @here');
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });
});

describe('buildChatMessage — embed', () => {
  it('uses the default embed when no template is set', () => {
    const body = buildChatMessage(embed(null), lookup);
    expect(body).toEqual({
      embeds: [
        {
          color: DEFAULT_EMBED_TEMPLATE.color,
          title: 'New vote!',
          description: '**Steve** voted on **top.gg**',
          footer: { text: 'Vote Relay' },
          timestamp: '2026-01-31T23:59:59.123Z',
        },
      ],
      allowed_mentions: { parse: [] },
    });
    expect(body.content).toBeUndefined();
  });

  it('renders every text part of a custom embed', () => {
    const body = buildChatMessage(
      embed({
        color: 0xff0000,
        title: '{{voter_name}}',
        description: 'on {provider_name}',
        url: 'https://example.com/{{organization_slug}}',
        fields: [
          { name: 'Voter', value: '{{voter_name}}', inline: true },
          { name: 'Vote', value: '{vote_public_id}' },
        ],
        footer: { text: '{{organization_name}}', icon_url: 'https://example.com/icon.png' },
        author: { name: '{{provider_name}}', url: 'https://top.gg' },
        thumbnail: { url: 'https://mc-heads.net/avatar/{{voter_name}}' },
        image: { url: 'https://example.com/{{provider_key}}.png' },
        timestamp: '{{received_at}}',
      }),
      lookup,
    );
    expect(body.embeds).toEqual([
      {
        color: 0xff0000,
        title: 'Steve',
        description: 'on top.gg',
        url: 'https://example.com/acme',
        fields: [
          { name: 'Voter', value: 'Steve', inline: true },
          { name: 'Vote', value: '3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04' },
        ],
        footer: { text: 'Acme Network', icon_url: 'https://example.com/icon.png' },
        author: { name: 'top.gg', url: 'https://top.gg' },
        thumbnail: { url: 'https://mc-heads.net/avatar/Steve' },
        image: { url: 'https://example.com/topgg.png' },
        timestamp: '2026-01-31T23:59:59.123Z',
      },
    ]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('drops a timestamp that does not render to a date', () => {
    const body = buildChatMessage(embed({ title: 't', timestamp: '{{nope}}' }), lookup);
    expect(body.embeds![0].timestamp).toBeUndefined();
  });

  it('fills empty field names and values so Discord accepts them', () => {
    const body = buildChatMessage(embed({ fields: [{ name: '', value: '' }] }), lookup);
    expect(body.embeds![0].fields).toEqual([{ name: '\u200b', value: '\u200b' }]);
  });

  it('cuts title to 256, description to 4096, footer to 2048, author to 256', () => {
    const body = buildChatMessage(embed({ title: 't'.repeat(300), description: 'd'.repeat(5000), footer: { text: 'f'.repeat(3000) } }), lookup);
    const e = body.embeds![0];
    expect(chars(e.title)).toBe(256);
    expect(e.title!.endsWith('…')).toBe(true);
    expect(chars(e.footer!.text)).toBe(2048);
    // title 256 + description 4096 + footer 2048 = 6400: the description gives up the 400 over the total.
    expect(chars(e.description)).toBe(6000 - 256 - 2048);
    expect(embedTotal(e)).toBe(6000);

    const author = buildChatMessage(embed({ author: { name: 'a'.repeat(300) } }), lookup).embeds![0];
    expect(chars(author.author!.name)).toBe(256);
    const description = buildChatMessage(embed({ description: 'd'.repeat(5000) }), lookup).embeds![0];
    expect(chars(description.description)).toBe(4096);
  });

  it('keeps at most 25 fields, names cut to 256 and values to 1024', () => {
    const fields = Array.from({ length: 30 }, (_, i) => ({ name: `field ${i}`, value: `value ${i}` }));
    const e = buildChatMessage(embed({ fields }), lookup).embeds![0];
    expect(e.fields).toHaveLength(25);
    expect(e.fields![24]).toEqual({ name: 'field 24', value: 'value 24' });

    const long = buildChatMessage(embed({ fields: [{ name: 'n'.repeat(300), value: 'v'.repeat(2000) }] }), lookup).embeds![0];
    expect(chars(long.fields![0].name)).toBe(256);
    expect(chars(long.fields![0].value)).toBe(1024);
  });

  it('keeps the whole embed within 6000 characters for an oversize template', () => {
    const template: EmbedTemplate = {
      title: 'T'.repeat(1000),
      description: 'D'.repeat(10_000),
      fields: Array.from({ length: 40 }, () => ({ name: 'N'.repeat(500), value: 'V'.repeat(3000) })),
      footer: { text: 'F'.repeat(5000) },
      author: { name: 'A'.repeat(1000) },
    };
    for (const test of [false, true]) {
      const e = buildChatMessage(embed(template), lookup, { test }).embeds![0];
      expect(chars(e.title)).toBeLessThanOrEqual(256);
      expect(chars(e.description)).toBeLessThanOrEqual(4096);
      expect(chars(e.footer!.text)).toBeLessThanOrEqual(2048);
      expect(chars(e.author!.name)).toBeLessThanOrEqual(256);
      expect(e.fields!.length).toBeLessThanOrEqual(25);
      for (const f of e.fields!) {
        expect(chars(f.name)).toBeLessThanOrEqual(256);
        expect(chars(f.value)).toBeLessThanOrEqual(1024);
      }
      expect(embedTotal(e)).toBeLessThanOrEqual(6000);
      // Fixed parts (title 256 + footer 2048 + author 256) are kept; fields are dropped from the end.
      expect(chars(e.title)).toBe(256);
      expect(chars(e.footer!.text)).toBe(2048);
      expect(chars(e.author!.name)).toBe(256);
      expect(e.fields!.length).toBeGreaterThan(0);
    }
  });

  it('drops fields from the end when the description alone cannot absorb the excess', () => {
    const template: EmbedTemplate = {
      title: 'title',
      description: 'short description',
      fields: Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, value: 'v'.repeat(1024) })),
    };
    const e = buildChatMessage(embed(template), lookup).embeds![0];
    expect(embedTotal(e)).toBeLessThanOrEqual(6000);
    expect(e.fields!.length).toBeLessThan(25);
    expect(e.fields!.map((f) => f.name)).toEqual(Array.from({ length: e.fields!.length }, (_, i) => `f${i}`));
  });

  it('leaves an embed under the total untouched', () => {
    const template: EmbedTemplate = { title: 'T'.repeat(256), description: 'D'.repeat(3000), footer: { text: 'F'.repeat(100) } };
    const e = buildChatMessage(embed(template), lookup).embeds![0];
    expect(e.description).toBe('D'.repeat(3000));
    expect(embedTotal(e)).toBe(3356);
  });

  it('marks the footer with "Test message" in test mode', () => {
    const withFooter = buildChatMessage(embed(null), lookup, { test: true }).embeds![0];
    expect(withFooter.footer!.text).toContain('Test message');
    expect(withFooter.footer!.text).toContain('Vote Relay');

    const withoutFooter = buildChatMessage(embed({ title: '{{voter_name}}' }), lookup, { test: true }).embeds![0];
    expect(withoutFooter.footer).toEqual({ text: 'Test message' });

    const notTest = buildChatMessage(embed({ title: 'x' }), lookup).embeds![0];
    expect(notTest.footer).toBeUndefined();
  });

  it('a test vote says so: [TEST] before simple content, "Test vote" before the embed footer', () => {
    const simple = buildChatMessage({ type: 'simple', template: '{{voter_name}} voted', embedTemplate: null }, lookup, { test: true, testLabel: 'Test vote' });
    expect(simple.content).toBe(`[TEST] ${values.voter_name} voted`);
    const e = buildChatMessage(embed(null), lookup, { test: true, testLabel: 'Test vote' }).embeds![0];
    expect(e.footer!.text).toBe('Test vote · Vote Relay');
    expect(buildChatMessage(embed(null), lookup, { test: false, testLabel: 'Test vote' }).embeds![0].footer).toEqual({ text: 'Vote Relay' });
  });

  it('keeps the test marker when the footer is cut', () => {
    const e = buildChatMessage(embed({ footer: { text: 'F'.repeat(3000) } }), lookup, { test: true }).embeds![0];
    expect(e.footer!.text.startsWith('Test message')).toBe(true);
    expect(chars(e.footer!.text)).toBe(2048);
  });

  it('a voter named @everyone pings nobody', () => {
    const everyone: Lookup = voteLookup({ ...values, voter_name: '@everyone' });
    const body = buildChatMessage(embed({ title: '{{voter_name}}', description: '{{voter_name}} @here' }), everyone);
    expect(body.embeds![0].title).toBe('@everyone');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(buildChatMessage(embed(null), everyone, { test: true }).allowed_mentions).toEqual({ parse: [] });
  });

  it('does not mutate the template', () => {
    const template: EmbedTemplate = {
      title: '{{voter_name}}',
      fields: Array.from({ length: 30 }, () => ({ name: 'n', value: 'v'.repeat(1024) })),
      footer: { text: 'f' },
    };
    const copy = structuredClone(template);
    buildChatMessage(embed(template), lookup, { test: true });
    expect(template).toEqual(copy);
  });
});

describe('platformReason', () => {
  it("extracts Discord's message and code", () => {
    expect(platformReason(404, '{"code":10015,"message":"Unknown Webhook"}')).toBe('Unknown Webhook (code 10015)');
    expect(platformReason(400, '{"code":50006,"message":"Cannot send an empty message"}')).toBe('Cannot send an empty message (code 50006)');
  });

  it('uses the message alone when there is no numeric code', () => {
    expect(platformReason(429, '{"message":"You are being rate limited.","retry_after":0.5,"global":false}')).toBe('You are being rate limited.');
    expect(platformReason(400, '{"message":"Bad","code":"X"}')).toBe('Bad');
  });

  it('falls back to HTTP <status> with a short excerpt of the body', () => {
    expect(platformReason(502, 'Bad Gateway')).toBe('HTTP 502: Bad Gateway');
    expect(platformReason(400, '{"error":"nope"}')).toBe('HTTP 400: {"error":"nope"}');
    expect(platformReason(500, 'null')).toBe('HTTP 500: null');
    const long = platformReason(503, 'x'.repeat(1000));
    expect(long).toBe(`HTTP 503: ${'x'.repeat(200)}`);
  });

  it('is just HTTP <status> for an empty body', () => {
    expect(platformReason(500, '')).toBe('HTTP 500');
    expect(platformReason(401, '   \n')).toBe('HTTP 401');
  });
});
