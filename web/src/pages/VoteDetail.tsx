// One vote: its statuses and its delivery log (every job with its origin when it is not the vote itself, every
// attempt: target, HTTP status, error, time, the wait for its callback's rate, and what it got back: an RCON
// callback's answer to each command, an HTTP answer's first bytes), with redelivery of its failed and uncertain jobs
// (an uncertain one is resent on purpose: the server may already have it, and the page says so). A vote read back
// from the site's vote list after an outage says so. On a phone each attempt is a small card.
import { Fragment } from 'react';
import { useParams, Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Time } from '../time';
import { noun, plural } from '../plural';
import { READ_ONLY_REASON, useAccess } from '../access';
import type { DeliveryJobOrigin, DeliveryJobStatus } from '../gql/graphql';
import { ResponseExcerpt } from './response-excerpt';
import { Status, UNCERTAIN_MEANING } from '../status';

/** Why a job that is not the vote's own delivery exists (DeliveryJobOrigin in the schema). */
const ORIGIN_TITLE: Record<Exclude<DeliveryJobOrigin, 'vote'>, string> = {
  recovered: "Planned when the vote was recovered from the site's vote list",
  replay: 'Queued again by a callback replay ("Resend since…")',
};

/** Statuses that need more than their name to be understood. */
const STATUS_TEXT: Partial<Record<DeliveryJobStatus, string>> = {
  held: 'held: its callback is disabled; sent when it is enabled again',
  running: 'sending now',
  uncertain: `uncertain: ${UNCERTAIN_MEANING}`,
};

/** A pacing wait as people read it: 350 ms, 1.2 s. */
const waited = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`);

const VoteQuery = graphql(`
  query VoteDetail($publicId: String!) {
    vote(publicId: $publicId) {
      publicId voterName voterId repairedFrom providerName providerKey receivedAt chatStatus callbackStatus callbackAttempts recovered test
      deliveryJobs { id kind event origin target status attempts maxAttempts nextAttemptAt lastError sentAt }
      deliveryAttempts { id jobId kind event attempt target pluginToken statusCode success durationMs pacedMs error responseExcerpt createdAt }
    }
  }
`);

const Redeliver = graphql(`
  mutation RedeliverVote($publicId: String!) {
    redeliverVote(publicId: $publicId) { voteId requeued }
  }
`);

export function VoteDetail() {
  const { publicId = '' } = useParams();
  const readOnly = useAccess().scope !== 'full';
  const [{ data, fetching, error }, refetch] = useQuery({ query: VoteQuery, variables: { publicId } });
  const [redelivery, redeliver] = useMutation(Redeliver);
  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the vote…
      </p>
    );
  const vote = data?.vote;
  if (!vote)
    return (
      <p role="alert" className="error">
        {error?.graphQLErrors[0]?.message ?? 'This vote was not found.'}
      </p>
    );
  // Redelivery queues failed and uncertain deliveries again: with none, the button has nothing to do.
  const failedJobs = vote.deliveryJobs.filter((job) => job.status === 'failed').length;
  const uncertainJobs = vote.deliveryJobs.filter((job) => job.status === 'uncertain').length;
  const toResend = failedJobs + uncertainJobs;
  const requeued = redelivery.data?.redeliverVote?.requeued;
  const label =
    uncertainJobs === 0
      ? 'Redeliver failed'
      : failedJobs === 0
        ? `Resend ${plural(uncertainJobs, 'uncertain delivery', 'uncertain deliveries')}`
        : `Resend ${uncertainJobs} uncertain and ${failedJobs} failed ${noun(toResend, 'delivery', 'deliveries')}`;
  return (
    <>
      <p>
        <Link to="/votes">← Votes</Link>
      </p>
      <h1 className="wrap-anywhere">
        Vote by {vote.voterName}
        {vote.test && (
          <>
            {' '}
            <span className="badge test-badge">test</span>
          </>
        )}
      </h1>
      {vote.test && (
        <p className="muted">
          A test vote: delivered marked as a test (<code>"test": true</code>), counted in no statistics, usage or limit.
        </p>
      )}
      {vote.recovered && (
        <p>
          <span className="badge">Recovered</span>{' '}
          <span className="muted">The hook never received it: it was read back from the site's vote list after an outage.</span>
        </p>
      )}
      <dl className="facts">
        <dt>Voter</dt>
        <dd className="wrap-anywhere">
          {vote.voterId ? <Link to={`/voters/${vote.voterId}`}>{vote.voterName}</Link> : vote.voterName}
          {vote.repairedFrom && (
            <span className="muted">
              {' '}
              (the site sent <code>{vote.repairedFrom}</code>: repaired to the player who clicked the vote page's button)
            </span>
          )}
        </dd>
        <dt>Provider</dt>
        <dd>
          {vote.providerName} (<code>{vote.providerKey}</code>)
        </dd>
        <dt>Received</dt>
        <dd>
          <Time value={vote.receivedAt} />
        </dd>
        <dt>Chat</dt>
        <dd>
          <Status value={vote.chatStatus} />
        </dd>
        <dt>Callbacks</dt>
        <dd>
          <Status value={vote.callbackStatus} /> ({plural(vote.callbackAttempts, 'attempt')})
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{vote.publicId}</code>
        </dd>
      </dl>
      <div className="row redeliver">
        <button
          type="button"
          disabled={readOnly || redelivery.fetching || toResend === 0}
          title={
            readOnly
              ? READ_ONLY_REASON
              : toResend === 0
                ? 'Nothing failed: every delivery was sent or is still under way'
                : uncertainJobs === 0
                  ? `Queue its ${plural(failedJobs, 'failed delivery', 'failed deliveries')} again`
                  : `Send its ${plural(uncertainJobs, 'uncertain delivery', 'uncertain deliveries')} again on purpose (the server may already have ${uncertainJobs === 1 ? 'it' : 'them'})${failedJobs > 0 ? ` and queue its ${plural(failedJobs, 'failed delivery', 'failed deliveries')} again` : ''}`
          }
          onClick={() => void redeliver({ publicId }).then(() => refetch({ requestPolicy: 'network-only' }))}
        >
          {label}
        </button>
        {toResend === 0 && requeued === undefined && <span className="muted">Nothing failed.</span>}
        {uncertainJobs > 0 && requeued === undefined && (
          <span className="warn-text uncertain-warning">
            Sent, and nothing says whether {uncertainJobs === 1 ? 'it' : 'they'} arrived: the server may already have {uncertainJobs === 1 ? 'it' : 'them'}.
            Check the server or ask the player first.
          </span>
        )}
        {requeued !== undefined && <span role="status">{plural(requeued, 'delivery', 'deliveries')} queued again.</span>}
      </div>
      {redelivery.error && (
        <p role="alert" className="error">
          {redelivery.error.graphQLErrors[0]?.message ?? redelivery.error.message}
        </p>
      )}
      <h2>Deliveries</h2>
      {vote.deliveryJobs.length === 0 ? (
        <p className="muted">Nothing to deliver for this vote (no chat webhook or callback, or over the monthly limit).</p>
      ) : (
        <div className="table-wrap">
          <table className="list phone-cards" data-testid="delivery-jobs">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Attempts
                </th>
                <th scope="col">Next attempt</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {vote.deliveryJobs.map((job) => (
                <tr key={job.id}>
                  <td data-label="Kind">
                    {job.event ? `${job.kind}: ${job.event}` : job.kind}
                    {job.origin !== 'vote' && (
                      <>
                        {' '}
                        <span className="badge" title={ORIGIN_TITLE[job.origin]}>
                          {job.origin}
                        </span>
                      </>
                    )}
                  </td>
                  <td className="target" data-label="Target">
                    {job.target ?? '—'}
                  </td>
                  <td className="job-status" data-label="Status">
                    <Status value={job.status}>{STATUS_TEXT[job.status] ?? job.status}</Status>
                  </td>
                  <td className="num" data-label="Attempts">
                    {job.attempts} / {job.maxAttempts}
                  </td>
                  {/* A whole line of the card on a phone: a time never breaks. */}
                  <td className="full" data-label="Next attempt">
                    <Time value={job.nextAttemptAt} />
                  </td>
                  {/* An uncertain job's error is what its status already says. */}
                  <td className="target full" data-label="Last error">
                    {job.status === 'uncertain' && job.lastError === UNCERTAIN_MEANING ? '' : (job.lastError ?? '')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Attempts</h2>
      {vote.deliveryAttempts.length === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="list attempts-table" data-testid="delivery-attempts">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">Target</th>
                <th scope="col" className="num">
                  HTTP
                </th>
                <th scope="col" className="num">
                  ms
                </th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {vote.deliveryAttempts.map((a) => (
                <Fragment key={a.id}>
                  <tr className={a.responseExcerpt ? 'attempt has-answer' : 'attempt'}>
                    <td className="when" data-label="When">
                      <Time value={a.createdAt} />
                    </td>
                    <td data-label="Kind">{a.event ? `${a.kind}: ${a.event}` : a.kind}</td>
                    <td className="num" data-label="Attempt">
                      {a.attempt}
                    </td>
                    <td className="target" data-label="Target">
                      {a.pluginToken ? `plugin token “${a.pluginToken}”` : a.target}
                    </td>
                    <td className="num" data-label="HTTP">
                      {a.statusCode ?? '—'}
                    </td>
                    <td className="num" data-label="ms">
                      {a.durationMs}
                    </td>
                    <td className="result" data-label="Result">
                      {a.success ? (
                        <span className="status sent">delivered</span>
                      ) : a.error === UNCERTAIN_MEANING ? (
                        <Status value="uncertain">{a.error}</Status>
                      ) : (
                        <span className="status failed">{a.error ?? 'failed'}</span>
                      )}
                      {a.pacedMs > 0 && <span className="muted"> (waited {waited(a.pacedMs)} for the callback's rate)</span>}
                    </td>
                  </tr>
                  {a.responseExcerpt && (
                    <tr className="attempt-answer">
                      <td colSpan={7}>
                        <ResponseExcerpt id={`attempt-${a.id}`} text={a.responseExcerpt} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
