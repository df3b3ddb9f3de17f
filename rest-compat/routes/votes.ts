// /v1/votes: single vote, its delivery log, redelivery.
import type { RestRoute } from '../route.js';

export const VOTE_FIELDS = `id public_id: publicId voter_name: voterName provider_key: providerKey provider_name: providerName
  received_at: receivedAt chat_status: chatStatus callback_status: callbackStatus`;

export const voteRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/votes/:id/deliveries',
    document: `query ($id: String!) { vote(publicId: $id) {
      public_id: publicId chat_status: chatStatus callback_status: callbackStatus callback_attempts: callbackAttempts
      jobs: deliveryJobs { id kind target callback_id: callbackId status attempts max_attempts: maxAttempts
        next_attempt_at: nextAttemptAt last_error: lastError sent_at: sentAt }
      attempts: deliveryAttempts { id job_id: jobId kind attempt target status_code: statusCode success
        duration_ms: durationMs error response_excerpt: responseExcerpt created_at: createdAt } } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => {
      const { public_id, ...rest } = r.vote;
      return { vote_id: public_id, ...rest };
    },
  },
  {
    method: 'post',
    path: '/votes/:id/redeliver',
    document: `mutation ($id: String!) { redeliverVote(publicId: $id) { vote_id: voteId requeued } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.redeliverVote,
  },
  {
    method: 'get',
    path: '/votes/:id',
    document: `query ($id: String!) { vote(publicId: $id) { ${VOTE_FIELDS}
      chat_sent_at: chatSentAt callback_sent_at: callbackSentAt callback_attempts: callbackAttempts } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.vote,
  },
];
