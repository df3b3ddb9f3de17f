// The variables a chat or callback template may use (GET /v1/callbacks/variables) and the sample values tests use.
import type { VoteTemplateValues } from './template.js';
import type { EventType } from '../domain/reward-events.js';

export interface TemplateVariable {
  name: string;
  description: string;
  example: string;
  type: 'string' | 'integer' | 'timestamp' | 'json' | 'boolean';
  /** The events whose templates have it (README "Rewards"); a milestone's and a party's carry their vote's too. */
  events: readonly EventType[];
}

const WITH_VOTE: readonly EventType[] = ['vote', 'milestone', 'vote_party'];
const EVERY_EVENT: readonly EventType[] = ['vote', 'milestone', 'vote_party', 'reminder'];
/** Variables every event's template has, and those a vote (or the vote behind a milestone or a party) adds. */
const ON_EVERY_EVENT = new Set([
  'voter_name',
  'voter_discord_id',
  'provider_name',
  'provider_key',
  'organization_slug',
  'organization_name',
  'test',
  'next_vote_at',
]);

const VOTE_VARIABLES: readonly Omit<TemplateVariable, 'events'>[] = [
  { name: 'voter_name', description: "The voter's name as the voting site sent it", example: 'Steve', type: 'string' },
  {
    name: 'voter_discord_id',
    description: "The voter's Discord user id, where the site sends one (the provider's discord_id_path); empty otherwise",
    example: '160105994217586689',
    type: 'string',
  },
  {
    name: 'voter_id',
    description: 'The voter the vote resolved to (README "Voters"): one id across names, sites and platforms; empty for a test vote that matched no voter',
    example: 'vtr_0192f3a4-5b6c-7d8e-9f01-23456789abcd',
    type: 'string',
  },
  {
    name: 'voter_uuid',
    description: "The voter's Minecraft UUID, where a plugin reported it (POST /v1/plugin/players); empty otherwise",
    example: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
    type: 'string',
  },
  { name: 'provider_name', description: 'Display name of the provider that received the vote', example: 'top.gg', type: 'string' },
  { name: 'provider_key', description: 'Key of the provider (as in its webhook URL)', example: 'topgg', type: 'string' },
  { name: 'vote_id', description: 'Public id of the vote', example: 'vt_3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04', type: 'string' },
  { name: 'vote_public_id', description: 'The vote id without its vt_ prefix (a bare UUID)', example: '3f1c2b9e-8a4d-4c55-9f0e-2a7b6c1d9e04', type: 'string' },
  { name: 'received_at', description: 'When the vote was received (ISO 8601, UTC)', example: '2026-01-31T23:59:59.123Z', type: 'timestamp' },
  { name: 'received_at_unix', description: 'When the vote was received (unix seconds)', example: '1769903999', type: 'integer' },
  { name: 'organization_slug', description: "Your organization's slug", example: 'acme', type: 'string' },
  { name: 'organization_name', description: "Your organization's name", example: 'Acme Network', type: 'string' },
  {
    name: 'test',
    description: 'true for a test vote (never reward it), false for a real one; a JSON string that is exactly "{{test}}" becomes a JSON boolean',
    example: 'false',
    type: 'boolean',
  },
  {
    name: 'voter_total',
    description: "The voter's counted votes in your organization, this one included (every site; test votes never count)",
    example: '42',
    type: 'integer',
  },
  {
    name: 'voter_month_total',
    description: "The voter's counted votes this month, in your organization's time zone (settings.time_zone)",
    example: '7',
    type: 'integer',
  },
  {
    name: 'voter_streak_days',
    description: "Consecutive days, ending today in your organization's time zone, with at least one vote by this voter",
    example: '3',
    type: 'integer',
  },
  { name: 'voter_best_streak_days', description: "The voter's longest streak of consecutive voting days", example: '12', type: 'integer' },
  { name: 'provider_voter_total', description: "The voter's counted votes on this site", example: '30', type: 'integer' },
  {
    name: 'next_vote_at',
    description: "When the voter may vote again on this site (ISO 8601, UTC), from the provider's vote_cooldown; empty when unknown",
    example: '2026-02-01T11:59:59.123Z',
    type: 'timestamp',
  },
  { name: 'raw_payload', description: 'The inbound vote body as a JSON string', example: '{"username":"Steve"}', type: 'json' },
  {
    name: 'payload.<path>',
    description: 'Any value from the inbound body, by dotted path (e.g. payload.user.id)',
    example: 'payload.username',
    type: 'string',
  },
];

/** The variables only an event other than a vote has. */
const EVENT_VARIABLES: readonly TemplateVariable[] = [
  {
    name: 'event',
    description: 'The event: milestone, vote_party or reminder',
    example: 'milestone',
    type: 'string',
    events: ['milestone', 'vote_party', 'reminder'],
  },
  { name: 'milestone_type', description: "The milestone rule's type: total or streak", example: 'total', type: 'string', events: ['milestone'] },
  {
    name: 'milestone_value',
    description: 'The value reached (votes, or streak days); a JSON number where a string is exactly this variable',
    example: '100',
    type: 'integer',
    events: ['milestone'],
  },
  {
    name: 'party_count',
    description: 'The party count this vote made (a multiple of party_every); a JSON number where a string is exactly this variable',
    example: '500',
    type: 'integer',
    events: ['vote_party'],
  },
  { name: 'party_every', description: 'settings.vote_party_every when the party completed', example: '100', type: 'integer', events: ['vote_party'] },
  { name: 'party_number', description: 'Which party this is (party_count / party_every)', example: '5', type: 'integer', events: ['vote_party'] },
  {
    name: 'vote_url',
    description: "The site's vote page (the provider's vote_url, rendered with the vote that set the reminder); empty when unknown",
    example: 'https://top.gg/bot/264811613708746752/vote',
    type: 'string',
    events: ['reminder'],
  },
];

export const TEMPLATE_VARIABLES: readonly TemplateVariable[] = [
  ...VOTE_VARIABLES.map((v) => ({ ...v, events: ON_EVERY_EVENT.has(v.name) ? EVERY_EVENT : WITH_VOTE })),
  ...EVENT_VARIABLES,
];

export function sampleTemplateValues(now: Date, organization: { slug: string; name: string }): VoteTemplateValues {
  return {
    voter_name: 'TestVoter',
    voter_discord_id: '160105994217586689',
    voter_id: 'vtr_00000000-0000-7000-8000-000000000000',
    voter_uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
    provider_name: 'Test Provider',
    provider_key: 'test-provider',
    vote_id: 'vt_00000000-0000-4000-8000-000000000000',
    received_at: now.toISOString(),
    organization_slug: organization.slug,
    organization_name: organization.name,
    raw_payload: JSON.stringify({ username: 'TestVoter', test: true }),
    test: false,
    voter_total: '42',
    voter_month_total: '7',
    voter_streak_days: '3',
    voter_best_streak_days: '12',
    provider_voter_total: '30',
    next_vote_at: new Date(now.getTime() + 12 * 3_600_000).toISOString(),
  };
}
