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

/** Sent with every HTTP callback attempt of a test vote, so a receiver with an older custom template can tell too. */
export const TEST_VOTE_HEADER = 'x-vote-relay-test';

/** Each attempt's bound unless the callback sets its own (1 s up to the plan's ceiling). */
export const DEFAULT_TIMEOUT_MS = 5_000;
