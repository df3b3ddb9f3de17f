// /v1/votes: list (paginated), CSV export (streamed), single vote, its delivery log, redelivery.
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Request } from 'express';
import { onlyIfSet, type RestRoute } from '../route.js';

const eventIfSet = onlyIfSet(['event']);

export const VOTE_FIELDS = `id public_id: publicId voter_name: voterName provider_key: providerKey provider_name: providerName
  received_at: receivedAt chat_status: chatStatus callback_status: callbackStatus test`;

const range = (req: Request) => ({ from: req.query.from, to: req.query.to });

/** The standing a vote made, on the votes that count only, and the voter's Discord id where the site sent one: other
 * votes keep the interface's shape. */
const standingOnlyIfSet = onlyIfSet([
  'voter_id',
  'repaired_from',
  'voter_discord_id',
  'voter_total',
  'voter_month_total',
  'voter_streak_days',
  'voter_best_streak_days',
  'provider_voter_total',
  'next_vote_at',
]);

export const voteRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/votes',
    summary: 'List votes, newest first (paginated)',
    document: `query ($page: Int, $limit: Int, $provider: String, $from: String, $to: String, $voter: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {
      votes(page: $page, limit: $limit, provider: $provider, from: $from, to: $to, voter: $voter, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {
        page limit total pages votes { ${VOTE_FIELDS} } } }`,
    variables: (req) => ({
      page: req.query.page,
      limit: req.query.limit,
      provider: req.query.provider,
      ...range(req),
      voter: req.query.voter,
      chatStatus: req.query.chat_status,
      callbackStatus: req.query.callback_status,
    }),
    data: (r) => ({ votes: r.votes.votes }),
    meta: (r) => ({ page: r.votes.page, limit: r.votes.limit, total: r.votes.total, pages: r.votes.pages }),
  },
  {
    method: 'get',
    path: '/votes/export',
    summary: 'Export votes as CSV (streamed)',
    streamType: 'text/csv',
    document: `query ($from: String, $to: String, $format: String, $includeTests: Boolean) {
      voteExport(from: $from, to: $to, format: $format, includeTests: $includeTests) { filename contentType columns } }`,
    variables: (req) => ({ ...range(req), format: req.query.format, includeTests: req.query.include_tests }),
    data: () => null,
    // Rows are streamed from the database in chunks: a 10-million-row export never sits in memory.
    stream: async (req, res, result, context) => {
      const { filename, contentType, columns } = result.voteExport;
      res.status(200);
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      const batches = context.services.votes.exportRows(context.auth.kind === 'viewer' ? context.auth.viewer.organizationId : '', {
        from: req.query.from as string | undefined,
        to: req.query.to as string | undefined,
        // Checked by the document (a boolean) before this runs.
        includeTests: req.query.include_tests === 'true',
      });
      // One CSV string per batch of rows (csv-stringify's quoting rules), written with back-pressure.
      async function* csv() {
        let header = true;
        for await (const batch of batches) {
          if (batch.length === 0 && !header) continue;
          yield stringify(batch, { header, columns });
          header = false;
        }
      }
      await pipeline(Readable.from(csv()), res);
    },
  },
  {
    method: 'get',
    path: '/votes/:id/deliveries',
    summary: "Read a vote's delivery jobs and attempts",
    document: `query ($id: String!) { vote(publicId: $id) {
      public_id: publicId chat_status: chatStatus callback_status: callbackStatus callback_attempts: callbackAttempts
      recovered test
      jobs: deliveryJobs { id kind target callback_id: callbackId status origin attempts max_attempts: maxAttempts
        next_attempt_at: nextAttemptAt paced_ms: pacedMs last_error: lastError sent_at: sentAt event }
      attempts: deliveryAttempts { id job_id: jobId kind attempt target status_code: statusCode success
        duration_ms: durationMs paced_ms: pacedMs error response_excerpt: responseExcerpt created_at: createdAt } } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => {
      const { public_id, jobs, ...rest } = r.vote;
      // `event` names an event job's event (README "Rewards"); other jobs keep their documented shape.
      return { vote_id: public_id, ...rest, jobs: jobs.map(eventIfSet) };
    },
  },
  {
    method: 'post',
    path: '/votes/:id/redeliver',
    summary: "Queue a vote's failed deliveries again",
    document: `mutation ($id: String!) { redeliverVote(publicId: $id) { vote_id: voteId requeued } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.redeliverVote,
  },
  {
    method: 'get',
    path: '/votes/:id',
    summary: 'Read a vote',
    document: `query ($id: String!) { vote(publicId: $id) { ${VOTE_FIELDS}
      chat_sent_at: chatSentAt callback_sent_at: callbackSentAt callback_attempts: callbackAttempts recovered
      voter_total: voterTotal voter_month_total: voterMonthTotal voter_streak_days: voterStreakDays
      voter_best_streak_days: voterBestStreakDays provider_voter_total: providerVoterTotal next_vote_at: nextVoteAt
      voter_discord_id: voterDiscordId voter_id: voterId repaired_from: repairedFrom } }`,
    variables: (req) => ({ id: req.params.id }),
    // The interface's vote, with `recovered: true` only on a vote recovered after an outage, and the standing the
    // vote made (README "Rewards") only where it counts.
    data: ({ vote: { recovered, ...vote } }) => standingOnlyIfSet(recovered ? { ...vote, recovered } : vote),
  },
];
