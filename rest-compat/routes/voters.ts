// /v1/voters: a voter's erasure.
import type { RestRoute } from '../route.js';

export const voterRoutes: RestRoute[] = [
  {
    method: 'delete',
    path: '/voters/:voter_name',
    document: `mutation ($voterName: String!) { eraseVoter(voterName: $voterName) {
      voter_name: voterName votes_deleted: votesDeleted attempts_deleted: attemptsDeleted rollup_rows_deleted: rollupRowsDeleted } }`,
    variables: (req) => ({ voterName: req.params.voter_name }),
    data: (r) => r.eraseVoter,
  },
];
