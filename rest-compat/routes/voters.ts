// /v1/voters: voters (README "Voters"): a search, one voter, merges and splits; a voter's erasure by name or id.
import type { RestRoute } from '../route.js';

const VOTER_FIELDS = `id display_name: displayName created_at: createdAt identities { kind value created_at: createdAt }`;

const STANDING = `standing { total month_total: monthTotal streak_days: streakDays best_streak_days: bestStreakDays last_vote_at: lastVoteAt
  time_zone: timeZone sites { key name total last_vote_at: lastVoteAt next_vote_at: nextVoteAt } }`;

export const voterRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/voters',
    summary: 'Search voters (a case-insensitive prefix of their name or of an identity), paged',
    document: `query ($search: String, $page: Int, $limit: Int) { voters(search: $search, page: $page, limit: $limit) {
      page limit total pages voters { ${VOTER_FIELDS} } } }`,
    variables: (req) => ({ search: req.query.search, page: req.query.page, limit: req.query.limit }),
    data: (r) => r.voters,
  },
  {
    method: 'get',
    path: '/voters/:id',
    summary: 'Read a voter: their identities and standing',
    document: `query ($id: String!) { voter(id: $id) { ${VOTER_FIELDS} ${STANDING} } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.voter,
  },
  {
    method: 'post',
    path: '/voters/:id/merge',
    summary: 'Merge another voter into this one (their history moves exactly; one standing is made again)',
    document: `mutation ($id: String!, $other: String!) { mergeVoters(id: $id, other: $other) { ${VOTER_FIELDS} ${STANDING} } }`,
    variables: (req) => ({ id: req.params.id, other: req.body?.other }),
    data: (r) => r.mergeVoters,
  },
  {
    method: 'post',
    path: '/voters/:id/split',
    summary: 'Split one identity off a voter into a new voter, with the votes that came with it',
    document: `mutation ($id: String!, $kind: VoterIdentityKind!, $value: String!) { splitVoterIdentity(id: $id, kind: $kind, value: $value) {
      ${VOTER_FIELDS} ${STANDING} } }`,
    variables: (req) => ({ id: req.params.id, kind: req.body?.kind, value: req.body?.value }),
    status: 201,
    data: (r) => r.splitVoterIdentity,
  },
  {
    method: 'delete',
    path: '/voters/:voter_name',
    summary: 'Erase a voter (by a name or their id) and everything they did',
    document: `mutation ($voterName: String!) { eraseVoter(voterName: $voterName) {
      voter_name: voterName votes_deleted: votesDeleted attempts_deleted: attemptsDeleted rollup_rows_deleted: rollupRowsDeleted } }`,
    variables: (req) => ({ voterName: req.params.voter_name }),
    data: (r) => r.eraseVoter,
  },
];
