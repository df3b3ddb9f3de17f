import { describe, it, expect } from 'vitest';
import { PROVIDER_TEMPLATES, findTemplate } from './catalogue.js';

/** Tiny dotted-path reader: 'a.b', 'a[0].b', optional '$.' prefix. */
function readPath(obj: unknown, path: string): unknown {
  const p = path.startsWith('$.') ? path.slice(2) : path;
  const parts: (string | number)[] = [];
  for (const segment of p.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(segment);
    if (!m) throw new Error(`bad path segment ${segment}`);
    if (m[1]) parts.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) parts.push(Number(idx[1]));
  }
  let cur: unknown = obj;
  for (const key of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

describe('readPath (test helper)', () => {
  it('reads dotted and indexed paths', () => {
    const o = { a: { b: 'x' }, l: [{ b: 'y' }], $: 1 };
    expect(readPath(o, 'a.b')).toBe('x');
    expect(readPath(o, 'l[0].b')).toBe('y');
    expect(readPath(o, '$.a.b')).toBe('x');
    expect(readPath(o, 'a.c.d')).toBeUndefined();
  });
});

describe('provider template catalogue', () => {
  it('has unique ids and slugs', () => {
    const ids = PROVIDER_TEMPLATES.map((t) => t.id);
    const slugs = PROVIDER_TEMPLATES.map((t) => t.slug);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const t of PROVIDER_TEMPLATES) {
      expect(t.id).toMatch(/^tpl_[a-z0-9_]+$/);
      expect(t.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
  });

  it('contains the required sites', () => {
    for (const slug of [
      'hytale-servers-pro',
      'hytalecharts',
      'hylist',
      'topgg',
      'topgg-legacy',
      'discordbotlist',
      'discords',
      'discord-place',
      'discollab',
      'discordforge',
      'top-server',
      'topg',
      'gaming-toplist',
    ]) {
      expect(findTemplate(slug), slug).toBeDefined();
    }
  });

  it('gives a signature format to every hmac template and to no other', () => {
    for (const t of PROVIDER_TEMPLATES) {
      if (t.authMethod === 'hmac') expect(t.signatureFormat, t.slug).not.toBeNull();
      else {
        expect(t.signatureFormat, t.slug).toBeNull();
        expect(t.authTimestampField, t.slug).toBeNull();
      }
    }
  });

  it('has a non-empty auth field and text fields', () => {
    for (const t of PROVIDER_TEMPLATES) {
      expect(t.authField.trim(), t.slug).not.toBe('');
      expect(t.name.trim(), t.slug).not.toBe('');
      expect(t.description.trim(), t.slug).not.toBe('');
      expect(t.setupInstructions.trim(), t.slug).not.toBe('');
    }
  });

  it('puts a non-empty voter string at defaultVoteePath in every example', () => {
    for (const t of PROVIDER_TEMPLATES) {
      const voter = readPath(t.payloadExample, t.defaultVoteePath);
      expect(typeof voter, t.slug).toBe('string');
      expect((voter as string).length, t.slug).toBeGreaterThan(0);
    }
  });

  it('uses a real vote (not a test, not ignored) as every example', () => {
    for (const t of PROVIDER_TEMPLATES) {
      if (t.eventPath === null) {
        expect(t.voteEvents, t.slug).toBeNull();
        expect(t.testEvents, t.slug).toBeNull();
        continue;
      }
      const raw = readPath(t.payloadExample, t.eventPath);
      if (raw === undefined) continue; // missing counts as a vote
      const value = String(raw);
      if (t.voteEvents !== null) expect(t.voteEvents, t.slug).toContain(value);
      if (t.testEvents !== null) expect(t.testEvents, t.slug).not.toContain(value);
    }
  });

  it('uses https for every URL', () => {
    for (const t of PROVIDER_TEMPLATES) {
      expect(isHttps(t.websiteUrl), t.slug).toBe(true);
      if (t.logoUrl !== null) expect(isHttps(t.logoUrl), t.slug).toBe(true);
    }
  });

  it('keeps GET sites on query auth', () => {
    for (const t of PROVIDER_TEMPLATES) {
      if (t.method === 'GET') expect(t.authMethod, t.slug).toBe('query');
    }
  });

  it('records the event filters the sites really use', () => {
    const pick = (slug: string) => {
      const t = findTemplate(slug)!;
      return [t.eventPath, t.voteEvents, t.testEvents];
    };
    expect(pick('topgg')).toEqual(['type', ['vote.create'], ['webhook.test']]);
    expect(pick('topgg-legacy')).toEqual(['type', ['upvote'], ['test']]);
    expect(pick('hylist')).toEqual(['event', ['vote'], ['test']]);
    expect(pick('discord-place')).toEqual(['test', null, ['true']]);
    expect(pick('discordforge')).toEqual(['isTest', null, ['true']]);
    expect(pick('discollab')).toEqual(['is_test', null, ['true']]);
  });

  it('finds templates by id or slug and is immutable', () => {
    expect(findTemplate('tpl_topgg')?.slug).toBe('topgg');
    expect(findTemplate('topgg')?.id).toBe('tpl_topgg');
    expect(findTemplate('TOPGG-Legacy')?.id).toBe('tpl_topgg_legacy');
    expect(findTemplate('nope')).toBeUndefined();
    expect(Object.isFrozen(PROVIDER_TEMPLATES)).toBe(true);
    expect(Object.isFrozen(findTemplate('topgg')!.payloadExample)).toBe(true);
  });
});

describe("duplicate window against the sites' retry horizons", () => {
  it('the default DUPLICATE_WINDOW covers the longest retry horizon of every template', async () => {
    const { loadConfig } = await import('../../../config/config.js');
    const window = loadConfig({ DATABASE_URL: 'file:/tmp/vote-relay-catalogue-test.db' }).duplicateWindowMs;
    const horizons = PROVIDER_TEMPLATES.map((t) => (t.retryHorizonSeconds ?? 0) * 1000);
    expect(horizons.some((h) => h > 0)).toBe(true);
    for (const t of PROVIDER_TEMPLATES) expect(window, t.slug).toBeGreaterThan((t.retryHorizonSeconds ?? 0) * 1000);
  });

  it('a template with a body timestamp names a path its example has, and a maximum age', () => {
    const stamped = PROVIDER_TEMPLATES.filter((t) => t.bodyTimestampPath);
    expect(stamped.map((t) => t.slug)).toContain('hytale-servers-pro');
    for (const t of stamped) {
      expect(typeof readPath(t.payloadExample, t.bodyTimestampPath!), t.slug).toBe('number');
      expect(t.bodyTimestampMaxAgeSeconds, t.slug).toBeGreaterThan(0);
    }
  });
});
