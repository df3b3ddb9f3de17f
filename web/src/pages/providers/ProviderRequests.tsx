// One provider's Requests view (/providers/:key/requests): every request its webhook received and every Votifier
// session, accepted or not, newest first, filtered by outcome; new ones appear live (hookRequestReceived over
// graphql-sse) without a reload; refused ones say what to fix; what a flood left out is counted.
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../../gql';
import type { HookRequestOutcome } from '../../gql/graphql';
import { useLive } from '../../access';
import { Breakable } from '../../breakable';
import { plural } from '../../plural';
import { useChanged } from '../../changed';
import { DropNotes, OutcomeFilter, RequestsTable, type LoggedRequest } from './request-log';

const PAGE = 50;

const ProviderRequestsQuery = graphql(`
  query ProviderRequests($key: String!, $outcome: HookRequestOutcome, $first: Int, $after: String) {
    provider(key: $key) {
      id key name authMethod authField webhookUrl
      requests(outcome: $outcome, first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { cursor node {
          id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey
        } }
      }
      requestDrops { clientIp count firstAt lastAt }
    }
  }
`);

const LiveProviderRequests = graphql(`
  subscription LiveProviderRequests($provider: String) {
    hookRequestReceived(provider: $provider) {
      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey
    }
  }
`);

export function ProviderRequests() {
  const { key = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const outcome = (params.get('outcome') ?? '') as HookRequestOutcome | '';
  // Cursors of the pages before this one: the first is the newest page, the only one that grows live.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const [{ data, fetching, error }, refetch] = useQuery({
    query: ProviderRequestsQuery,
    variables: { key, outcome: outcome || null, first: PAGE, after: after ?? null },
  });
  const [live, setLive] = useState<LoggedRequest[]>([]);
  const { resumed } = useLive();
  // A new filter or page starts from what the server has; live arrivals are on top of that.
  if (useChanged(data?.provider?.requests, outcome, after)) setLive([]);
  useEffect(() => {
    if (resumed > 0) refetch({ requestPolicy: 'network-only' });
  }, [resumed, refetch]);
  useSubscription({ query: LiveProviderRequests, variables: { provider: key }, pause: !key }, (_previous: unknown, event) => {
    const entry = event.hookRequestReceived;
    if (!after && (!outcome || entry.outcome === outcome))
      setLive((current) => (current.some((r) => r.id === entry.id) ? current : [entry, ...current].slice(0, PAGE)));
    return event;
  });

  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the requests…
      </p>
    );
  const provider = data?.provider;
  if (!provider)
    return (
      <p role="alert" className="error">
        {error?.graphQLErrors[0]?.message ?? `No provider has the key ${key}.`}
      </p>
    );
  const stored = provider.requests.edges.map((e) => e.node);
  const rows = [...live.filter((r) => (!outcome || r.outcome === outcome) && !stored.some((s) => s.id === r.id)), ...stored];
  const total = provider.requests.totalCount + live.length;
  const setOutcome = (value: HookRequestOutcome | '') => {
    setCursors([]);
    setParams(value ? { outcome: value } : {});
  };
  return (
    <>
      <p>
        <Link to="/providers">← Providers</Link>
      </p>
      <h1>Requests: {provider.name}</h1>
      <p className="muted">
        Every request to <code>{provider.key}</code>'s webhook{provider.authMethod === 'votifier' ? ' and every Votifier session' : ''}, accepted or refused,
        newest first, with secrets redacted. New ones appear here as they arrive <span className="live-dot" aria-hidden="true" />.
      </p>
      <dl className="facts fit">
        <dt>Webhook URL</dt>
        <dd>
          <code>
            <Breakable text={provider.webhookUrl} />
          </code>
          {provider.authMethod === 'query' && (
            <span className="muted">
              {' '}
              followed by <code>?{provider.authField}=</code> and the secret
            </span>
          )}
          {provider.authMethod === 'url_path' && (
            <span className="muted">
              {' '}
              followed by <code>/</code> and the secret
            </span>
          )}
        </dd>
      </dl>
      <DropNotes drops={provider.requestDrops} />
      <OutcomeFilter id="requests-outcome" value={outcome} onChange={setOutcome} />
      <p className="muted" role="status">
        {plural(total, outcome ? `${outcome} request` : 'request')} kept{after ? ' (this is an older page)' : ''}.
      </p>
      {rows.length === 0 ? (
        <p className="empty">
          {outcome
            ? `No ${outcome} request yet.`
            : "No request has reached this webhook yet: send a test vote from the providers list, or the site's own test."}
        </p>
      ) : (
        <RequestsTable requests={rows} label={`Requests to ${provider.name}`} />
      )}
      <div className="pager">
        {cursors.length > 0 && (
          <button type="button" className="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
        )}
        {provider.requests.pageInfo.hasNextPage && provider.requests.pageInfo.endCursor && (
          <button type="button" className="secondary" onClick={() => setCursors([...cursors, provider.requests.pageInfo.endCursor!])}>
            Older
          </button>
        )}
      </div>
    </>
  );
}
