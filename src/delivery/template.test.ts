import { describe, it, expect } from 'vitest';
import { INTEGER_VARIABLES, renderJson, renderText, voteLookup, type Lookup, type VoteTemplateValues } from './template.js';
import { TEMPLATE_VARIABLES } from './template-variables.js';

const values: VoteTemplateValues = {
  voter_name: 'Steve',
  provider_name: 'top.gg',
  provider_key: 'topgg',
  vote_id: 'vt_3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04',
  received_at: '2026-01-31T23:59:59.123Z',
  organization_slug: 'acme',
  organization_name: 'Acme Network',
  raw_payload: JSON.stringify({
    type: 'vote.create',
    data: { user: { name: 'Steve', platform_id: '123456789012345678' }, weight: 2, votes: [{ user: 'first' }] },
    test: false,
  }),
};

const lookup = voteLookup(values);

describe('voteLookup', () => {
  it('returns every plain template variable', () => {
    expect(lookup('voter_name')).toBe('Steve');
    expect(lookup('provider_name')).toBe('top.gg');
    expect(lookup('provider_key')).toBe('topgg');
    expect(lookup('vote_id')).toBe('vt_3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04');
    expect(lookup('received_at')).toBe('2026-01-31T23:59:59.123Z');
    expect(lookup('organization_slug')).toBe('acme');
    expect(lookup('organization_name')).toBe('Acme Network');
    expect(lookup('raw_payload')).toBe(values.raw_payload);
  });

  it('vote_public_id strips the vt_ prefix', () => {
    expect(lookup('vote_public_id')).toBe('3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04');
  });

  it('received_at_unix is whole unix seconds', () => {
    expect(lookup('received_at_unix')).toBe('1769903999');
    expect(lookup('received_at_unix')).toBe(String(Math.floor(Date.parse(values.received_at) / 1000)));
  });

  it('payload.<path> reads from raw_payload', () => {
    expect(lookup('payload.type')).toBe('vote.create');
    expect(lookup('payload.data.user.name')).toBe('Steve');
    expect(lookup('payload.data.user.platform_id')).toBe('123456789012345678');
    expect(lookup('payload.data.weight')).toBe('2');
    expect(lookup('payload.test')).toBe('false');
    expect(lookup('payload.data.votes[0].user')).toBe('first');
    expect(lookup('payload.data.user')).toBe('{"name":"Steve","platform_id":"123456789012345678"}');
  });

  it('payload.<path> prefers an already parsed payload when one is given', () => {
    const withParsed = voteLookup(values, { username: 'FromForm' });
    expect(withParsed('payload.username')).toBe('FromForm');
    expect(withParsed('payload.type')).toBeUndefined();
  });

  it('payload.<path> is undefined for missing paths, invalid paths and non-JSON raw payloads', () => {
    expect(lookup('payload.missing')).toBeUndefined();
    expect(lookup('payload.')).toBeUndefined();
    expect(lookup('payload.a..b')).toBeUndefined();
    const notJson = voteLookup({ ...values, raw_payload: 'p_resp=Steve&ip=1.2.3.4' });
    expect(notJson('payload.p_resp')).toBeUndefined();
  });

  it('unknown names are undefined', () => {
    expect(lookup('nope')).toBeUndefined();
    expect(lookup('payload')).toBeUndefined();
  });

  it('does not expose Object.prototype members as variables', () => {
    expect(lookup('toString')).toBeUndefined();
    expect(lookup('constructor')).toBeUndefined();
    expect(lookup('hasOwnProperty')).toBeUndefined();
    expect(lookup('__proto__')).toBeUndefined();
  });
});

describe('renderText', () => {
  it('replaces {{name}}, {{ name }} and {name}', () => {
    expect(renderText('{{voter_name}} voted', lookup)).toBe('Steve voted');
    expect(renderText('{{ voter_name }} voted', lookup)).toBe('Steve voted');
    expect(renderText('{{  voter_name\t}} voted', lookup)).toBe('Steve voted');
    expect(renderText('{voter_name} voted', lookup)).toBe('Steve voted');
  });

  it('replaces several variables and repeated ones', () => {
    expect(renderText('**{{voter_name}}** voted on **{provider_name}** ({{voter_name}})', lookup)).toBe('**Steve** voted on **top.gg** (Steve)');
  });

  it('keeps unknown names exactly as written', () => {
    expect(renderText('Hi {{nope}}', lookup)).toBe('Hi {{nope}}');
    expect(renderText('Hi {{ nope }}', lookup)).toBe('Hi {{ nope }}');
    expect(renderText('Hi {nope}', lookup)).toBe('Hi {nope}');
    expect(renderText('{{payload.missing}}', lookup)).toBe('{{payload.missing}}');
  });

  it('leaves text that is not a variable alone', () => {
    expect(renderText('no variables here', lookup)).toBe('no variables here');
    expect(renderText('{"a":1} { voter_name } {1abc} {}', lookup)).toBe('{"a":1} { voter_name } {1abc} {}');
    expect(renderText('', lookup)).toBe('');
  });

  it('renders payload paths with dots and indexes', () => {
    expect(renderText('{{payload.data.votes[0].user}} / {payload.data.user.name}', lookup)).toBe('first / Steve');
  });

  it('renders vote_public_id and received_at_unix', () => {
    expect(renderText('{vote_public_id}@{{received_at_unix}}', lookup)).toBe('3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04@1769903999');
  });

  it('inserts values as text without re-expanding them', () => {
    const custom: Lookup = (name) => (name === 'a' ? '{{b}} $& $1' : name === 'b' ? 'B' : undefined);
    expect(renderText('[{{a}}]', custom)).toBe('[{{b}} $& $1]');
  });
});

describe('renderJson', () => {
  it('renders every string, keeps keys and non-string values', () => {
    const template = {
      event: 'vote',
      '{{voter_name}}': 'key is kept',
      vote_id: '{{vote_id}}',
      player: '{voter_name}',
      message: '{{voter_name}} voted on {{provider_name}}',
      count: 1,
      ratio: 0.5,
      enabled: true,
      off: false,
      none: null,
    };
    expect(renderJson(template, lookup)).toEqual({
      event: 'vote',
      '{{voter_name}}': 'key is kept',
      vote_id: 'vt_3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04',
      player: 'Steve',
      message: 'Steve voted on top.gg',
      count: 1,
      ratio: 0.5,
      enabled: true,
      off: false,
      none: null,
    });
  });

  it('renders nested objects and arrays', () => {
    const template = {
      data: { user: { name: '{{voter_name}}', id: '{{payload.data.user.platform_id}}' }, list: ['{provider_key}', 2, { at: '{{received_at_unix}}' }] },
      unknown: { kept: '{{nope}}' },
    };
    expect(renderJson(template, lookup)).toEqual({
      data: { user: { name: 'Steve', id: '123456789012345678' }, list: ['topgg', 2, { at: 1769903999 }] },
      unknown: { kept: '{{nope}}' },
    });
  });

  it('a string that is exactly one variable becomes the value text', () => {
    expect(renderJson({ raw: '{{raw_payload}}' }, lookup)).toEqual({ raw: values.raw_payload });
    expect(renderJson({ weight: '{{payload.data.weight}}' }, lookup)).toEqual({ weight: '2' });
  });

  it('renders top-level strings and arrays and passes scalars through', () => {
    expect(renderJson('{{voter_name}}', lookup)).toBe('Steve');
    expect(renderJson(['{voter_name}', 3], lookup)).toEqual(['Steve', 3]);
    expect(renderJson(7, lookup)).toBe(7);
    expect(renderJson(null, lookup)).toBeNull();
  });

  it('does not mutate the template', () => {
    const template = { a: '{{voter_name}}', b: ['{voter_name}'] };
    const copy = structuredClone(template);
    renderJson(template, lookup);
    expect(template).toEqual(copy);
  });
});

describe('{{test}}', () => {
  const testVote = voteLookup({ ...values, test: true });

  it('is the text true or false inside text, and a JSON boolean when a JSON string is exactly that variable', () => {
    expect(renderText('test={{test}}', testVote)).toBe('test=true');
    expect(renderText('test={test}', lookup)).toBe('test=false');
    expect(
      renderJson({ test: '{{test}}', also: '{test}', inner: '{{ test }}', spaced: ' {{test}} ', text: 'is {{test}}', n: '{{received_at_unix}}' }, testVote),
    ).toEqual({
      test: true,
      also: true,
      inner: true,
      spaced: ' true ',
      text: 'is true',
      n: 1769903999,
    });
    expect(renderJson({ test: '{{test}}' }, lookup)).toEqual({ test: false });
  });
});

describe('whole numbers', () => {
  const counted = voteLookup({
    ...values,
    voter_total: '42',
    voter_month_total: '7',
    voter_streak_days: '3',
    voter_best_streak_days: '12',
    provider_voter_total: '30',
  });

  it('a JSON string that is exactly one whole-number variable is the JSON number; inside text it stays text', () => {
    expect(
      renderJson(
        {
          total: '{{voter_total}}',
          streak: '{voter_streak_days}',
          best: '{{ voter_best_streak_days }}',
          site: '{{provider_voter_total}}',
          month: '{{voter_month_total}}',
          text: '{{voter_total}} votes',
          padded: ' {{voter_total}}',
          name: '{{voter_name}}',
        },
        counted,
      ),
    ).toEqual({ total: 42, streak: 3, best: 12, site: 30, month: 7, text: '42 votes', padded: ' 42', name: 'Steve' });
  });

  it('is null where the vote has no standing (a test vote counts nowhere)', () => {
    expect(renderJson({ total: '{{voter_total}}', streak: '{{voter_streak_days}}' }, voteLookup({ ...values, test: true }))).toEqual({
      total: null,
      streak: null,
    });
  });

  it('is the list GET /v1/callbacks/variables types as integer (the vote variables)', () => {
    const integers = TEMPLATE_VARIABLES.filter((v) => v.type === 'integer' && v.events.includes('vote')).map((v) => v.name);
    expect(new Set(integers)).toEqual(INTEGER_VARIABLES);
  });
});
