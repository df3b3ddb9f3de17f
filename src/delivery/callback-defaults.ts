// What a callback gets when its creator leaves a field out (the README's Connect a game server).

export const DEFAULT_PAYLOAD_TEMPLATE = {
  event: 'vote',
  vote_id: '{{vote_id}}',
  voter_name: '{{voter_name}}',
  provider: '{{provider_key}}',
  received_at: '{{received_at}}',
  // A JSON boolean: a game server skips the reward of a test vote (README "Test votes").
  test: '{{test}}',
};

/**
 * An event's payload when its callback has no template of its own for it (README "Rewards"). Numbers of the event
 * (`milestone_value`, `party_count`, …) become JSON numbers where a string is exactly that variable.
 */
export const DEFAULT_EVENT_TEMPLATES = {
  milestone: {
    event: 'milestone',
    voter_name: '{{voter_name}}',
    milestone: { type: '{{milestone_type}}', value: '{{milestone_value}}' },
    provider: '{{provider_key}}',
    vote_id: '{{vote_id}}',
    received_at: '{{received_at}}',
    voter_total: '{{voter_total}}',
    voter_streak_days: '{{voter_streak_days}}',
  },
  vote_party: {
    event: 'vote_party',
    party: { count: '{{party_count}}', every: '{{party_every}}', number: '{{party_number}}' },
    voter_name: '{{voter_name}}',
    provider: '{{provider_key}}',
    vote_id: '{{vote_id}}',
    received_at: '{{received_at}}',
  },
  reminder: {
    event: 'reminder',
    voter_name: '{{voter_name}}',
    provider: '{{provider_key}}',
    provider_name: '{{provider_name}}',
    vote_url: '{{vote_url}}',
    next_vote_at: '{{next_vote_at}}',
  },
} as const;

/** Sent with every HTTP callback attempt of a test vote, so a receiver with an older custom template can tell too. */
export const TEST_VOTE_HEADER = 'x-vote-relay-test';

/** Each attempt's bound unless the callback sets its own (1 s up to the plan's ceiling). */
export const DEFAULT_TIMEOUT_MS = 5_000;
