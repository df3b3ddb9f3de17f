// What a callback gets when its creator leaves a field out (the README's Connect a game server).

export const DEFAULT_PAYLOAD_TEMPLATE = {
  event: 'vote',
  vote_id: '{{vote_id}}',
  voter_name: '{{voter_name}}',
  provider: '{{provider_key}}',
  received_at: '{{received_at}}',
};

/** Each attempt's bound unless the callback sets its own (1 s up to the plan's ceiling). */
export const DEFAULT_TIMEOUT_MS = 5_000;
