// /v1/vote-party, /v1/voters/:voter_name/reminders, /v1/reminders/opt-outs (README "Rewards").
import type { RestRoute } from '../route.js';

export const rewardRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/vote-party',
    summary: "Read the vote party's progress",
    document: `query { voteParty { enabled every provider count progress remaining completed } }`,
    data: (r) => r.voteParty,
  },
  {
    method: 'post',
    path: '/voters/:voter_name/reminders',
    summary: 'Turn reminders off (or back on) for one voter',
    document: `mutation ($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) {
      voter_name: voterName enabled } }`,
    variables: (req) => ({ voterName: req.params.voter_name, enabled: req.body?.enabled }),
    data: (r) => r.setVoterReminders,
  },
  {
    method: 'get',
    path: '/reminders/opt-outs',
    summary: 'List the voters who turned reminders off, newest first',
    document: `query ($page: Int, $limit: Int) { reminderOptOuts(page: $page, limit: $limit) {
      opt_outs: optOuts { voter_name: voterName created_at: createdAt } total page limit } }`,
    variables: (req) => ({ page: req.query.page, limit: req.query.limit }),
    data: (r) => r.reminderOptOuts,
  },
];
