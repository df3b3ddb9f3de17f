// POST /v1/providers/:key/test-vote: the owner's test vote through the provider's own hook path (README "Test votes").
import type { RestRoute } from '../route.js';

/** The receipt's fields that apply: {received, vote_id, duplicate, test_vote, voter_name, deliver_to_game_servers}. */
const onlySet = (receipt: Record<string, unknown>) => Object.fromEntries(Object.entries(receipt).filter(([, v]) => v !== null));

export const testVoteRoutes: RestRoute[] = [
  {
    method: 'post',
    path: '/providers/:key/test-vote',
    summary: "Send a test vote through the provider's hook path (stored as a test vote, counted nowhere)",
    document: `mutation ($key: String!, $voterName: String, $deliverToGameServers: Boolean) {
      sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {
        received vote_id: voteId duplicate test ignored test_vote: testVote voter_name: voterName
        deliver_to_game_servers: deliverToGameServers } }`,
    variables: (req) => ({
      key: req.params.key,
      voterName: req.body?.voter_name,
      deliverToGameServers: req.body?.deliver_to_game_servers,
    }),
    data: (r) => onlySet(r.sendTestVote),
    errors: ['AUTH_FAILED', 'PROVIDER_DISABLED', 'RATE_LIMITED'],
  },
];
