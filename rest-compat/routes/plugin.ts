// /v1/plugin-tokens (API key) and /v1/plugin/votes (plugin token): pull delivery for servers behind NAT.
import type { RestRoute } from '../route.js';

export const pluginRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/plugin-tokens',
    summary: 'List plugin tokens',
    document: `query { pluginTokens { waiting parked tokens { id name prefix created_at: createdAt last_poll_at: lastPollAt connection parked } } }`,
    data: (r) => r.pluginTokens,
  },
  {
    method: 'get',
    path: '/plugin-tokens/:id/parked',
    summary: 'List the votes a plugin token parked for offline players (paginated)',
    document: `query ($id: ID!, $page: Int, $limit: Int) { parkedVotes(tokenId: $id, page: $page, limit: $limit) {
      page limit total pages votes { id voter_name: voterName provider_key: providerKey provider_name: providerName
        received_at: receivedAt parked_at: parkedAt test } } }`,
    variables: (req) => ({ id: req.params.id, page: req.query.page, limit: req.query.limit }),
    data: (r) => ({ votes: r.parkedVotes.votes }),
    meta: (r) => ({ page: r.parkedVotes.page, limit: r.parkedVotes.limit, total: r.parkedVotes.total, pages: r.parkedVotes.pages }),
  },
  {
    method: 'post',
    path: '/plugin-tokens',
    summary: 'Create a plugin token (shown once)',
    document: `mutation ($name: String!) { createPluginToken(name: $name) { id name token prefix } }`,
    variables: (req) => ({ name: req.body?.name }),
    status: 201,
    data: (r) => r.createPluginToken,
  },
  {
    method: 'delete',
    path: '/plugin-tokens/:id',
    summary: 'Revoke a plugin token',
    document: `mutation ($id: ID!) { revokePluginToken(id: $id) { message } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.revokePluginToken,
  },
  {
    method: 'post',
    path: '/plugin/players',
    summary: 'Report online players (plugin token): links each name to its UUID, so a renamed player keeps their standing',
    document: `mutation ($players: [PlayerInput!]!) { reportPlayers(players: $players) { players linked merged } }`,
    variables: (req) => ({ players: req.body?.players }),
    arrayBody: 'players',
    data: (r) => r.reportPlayers,
  },
  {
    method: 'get',
    path: '/plugin/votes',
    summary: 'Pull waiting votes (plugin token)',
    document: `mutation ($limit: Int, $wait: Int, $player: String) { pullVotes(limit: $limit, waitSeconds: $wait, player: $player) {
      id voter_name: voterName provider_key: providerKey provider_name: providerName received_at: receivedAt attempt test } }`,
    variables: (req) => ({ limit: req.query.limit, wait: req.query.wait, player: req.query.player }),
    data: (r) => ({ votes: r.pullVotes }),
  },
  {
    method: 'post',
    path: '/plugin/votes/:id/claim',
    summary: 'Claim a pulled vote as delivered',
    document: `mutation ($id: String!) { claimPulledVote(id: $id) { vote_id: voteId status } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.claimPulledVote,
  },
  {
    method: 'post',
    path: '/plugin/votes/:id/fail',
    summary: 'Report a pulled vote as failed (it comes back after a back-off; reason player_offline parks it for its player)',
    document: `mutation ($id: String!, $reason: String) { failPulledVote(id: $id, reason: $reason) { vote_id: voteId status retry_at: retryAt } }`,
    variables: (req) => ({ id: req.params.id, reason: req.body?.reason }),
    data: (r) => r.failPulledVote,
  },
];
