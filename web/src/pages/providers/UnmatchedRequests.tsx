// The organization-level request log (/providers/unmatched): requests to this organization's hook URLs with a key
// no provider has (a mistyped or deleted key), so a site given a wrong URL is visible too; live, like a provider's.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../../gql';
import type { HookRequestOutcome } from '../../gql/graphql';
import { useLive } from '../../access';
import { plural } from '../../plural';
import { useChanged } from '../../changed';
import { DropNotes, OutcomeFilter, RequestsTable, type LoggedRequest } from './request-log';

const PAGE = 50;

const UnmatchedRequestsQuery = graphql(`
  query UnmatchedRequests($outcome: HookRequestOutcome, $page: Int, $limit: Int) {
    hookRequests(outcome: $outcome, page: $page, limit: $limit) {
      page pages total
      requests { id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey }
      dropped { clientIp count firstAt lastAt }
    }
  }
`);

const LiveRequests = graphql(`
  subscription LiveOrganizationRequests {
    hookRequestReceived {
      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey matched
    }
  }
`);

export function UnmatchedRequests() {
  const [params, setParams] = useSearchParams();
  const outcome = (params.get('outcome') ?? '') as HookRequestOutcome | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [{ data, fetching, error }, refetch] = useQuery({ query: UnmatchedRequestsQuery, variables: { outcome: outcome || null, page, limit: PAGE } });
  const [live, setLive] = useState<LoggedRequest[]>([]);
  const { resumed } = useLive();
  // A new filter or page starts from what the server has; live arrivals are on top of that.
  if (useChanged(data?.hookRequests, outcome, page)) setLive([]);
  useEffect(() => {
    if (resumed > 0) refetch({ requestPolicy: 'network-only' });
  }, [resumed, refetch]);
  // The subscription carries every entry of the organization: here only those addressed to a key no provider has.
  useSubscription({ query: LiveRequests, pause: !data }, (_previous: unknown, event) => {
    const entry = event.hookRequestReceived;
    if (page === 1 && !entry.matched && (!outcome || entry.outcome === outcome)) {
      setLive((current) => (current.some((r) => r.id === entry.id) ? current : [entry, ...current].slice(0, PAGE)));
    }
    return event;
  });

  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the requests…
      </p>
    );
  const log = data?.hookRequests;
  if (!log)
    return (
      <p role="alert" className="error">
        {error?.graphQLErrors[0]?.message ?? 'The requests could not be loaded.'}
      </p>
    );
  const rows = [...live.filter((r) => (!outcome || r.outcome === outcome) && !log.requests.some((s) => s.id === r.id)), ...log.requests];
  const go = (next: { outcome?: HookRequestOutcome | ''; page?: number }) => {
    const o = next.outcome ?? outcome;
    const p = next.page ?? 1;
    setParams({ ...(o ? { outcome: o } : {}), ...(p > 1 ? { page: String(p) } : {}) });
  };
  return (
    <>
      <p>
        <Link to="/providers">← Providers</Link>
      </p>
      <h1>Requests that matched no provider</h1>
      <p className="muted">
        Requests to this organization's hook URLs with a provider key no provider has: a site given a mistyped URL, or one still sending to a deleted provider.
        Give the site the webhook URL shown on its provider's Requests page. New ones appear here as they arrive.
      </p>
      <DropNotes drops={log.dropped} />
      <OutcomeFilter id="unmatched-outcome" value={outcome} onChange={(o) => go({ outcome: o })} />
      <p className="muted" role="status">
        {plural(log.total + live.length, 'request')} kept.
      </p>
      {rows.length === 0 ? (
        <p className="empty">None: every request reached a provider.</p>
      ) : (
        <RequestsTable requests={rows} showKey label="Requests that matched no provider" />
      )}
      {log.pages > 1 && (
        <div className="pager">
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
            Newer
          </button>
          <span>
            Page {page} of {log.pages}
          </span>
          <button type="button" className="secondary" disabled={page >= log.pages} onClick={() => go({ page: page + 1 })}>
            Older
          </button>
        </div>
      )}
    </>
  );
}
