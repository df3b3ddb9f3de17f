// Votes: the table with filters (provider, voter, date range, statuses) and paging, and the CSV export download.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../gql';
import type { DeliveryStatus } from '../gql/graphql';
import { Time } from '../time';
import { planAtLeast, UpgradeBadge, useAccess } from '../access';
import { readKey } from '../session';
import { Pager } from '../pager';

const VotesQuery = graphql(`
  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {
    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {
      page pages total
      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }
    }
    providers { providers { key name } }
  }
`);

const STATUSES: DeliveryStatus[] = ['pending', 'retrying', 'sent', 'failed', 'skipped'];

interface Filters {
  provider: string;
  voter: string;
  from: string;
  to: string;
  chatStatus: string;
  callbackStatus: string;
}

const EMPTY: Filters = { provider: '', voter: '', from: '', to: '', chatStatus: '', callbackStatus: '' };

export function Votes() {
  const access = useAccess();
  const filtering = planAtLeast(access.plan, 'growth');
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [exportState, setExportState] = useState<string | null>(null);
  const variables = {
    page,
    provider: applied.provider || undefined,
    voter: applied.voter || undefined,
    from: applied.from || undefined,
    to: applied.to || undefined,
    chatStatus: (applied.chatStatus || undefined) as DeliveryStatus | undefined,
    callbackStatus: (applied.callbackStatus || undefined) as DeliveryStatus | undefined,
  };
  const [{ data, fetching, error }] = useQuery({ query: VotesQuery, variables });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setApplied(draft);
  };
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value });

  async function downloadCsv() {
    setExportState('Preparing the export…');
    const query = new URLSearchParams(Object.entries({ from: applied.from, to: applied.to }).filter(([, v]) => v) as [string, string][]);
    const res = await fetch(`/v1/votes/export?${query}`, { headers: { authorization: `Bearer ${readKey()}` } });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      setExportState(body?.error?.message ?? `The export failed (HTTP ${res.status}).`);
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = 'votes.csv';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
    setExportState(null);
  }

  const result = data?.votes;
  return (
    <>
      <h1>Votes</h1>
      {filtering ? (
        <form className="filters" onSubmit={submit} aria-label="Filter votes">
          <label>
            Provider
            <select value={draft.provider} onChange={set('provider')}>
              <option value="">All</option>
              {data?.providers?.providers.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Voter
            <input value={draft.voter} onChange={set('voter')} placeholder="exact name" />
          </label>
          <label>
            From
            <input type="date" value={draft.from} onChange={set('from')} />
          </label>
          <label>
            To
            <input type="date" value={draft.to} onChange={set('to')} />
          </label>
          <label>
            Chat
            <select value={draft.chatStatus} onChange={set('chatStatus')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Callbacks
            <select value={draft.callbackStatus} onChange={set('callbackStatus')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <button type="submit">Apply</button>
          <button type="button" onClick={() => void downloadCsv()}>
            Export CSV
          </button>
        </form>
      ) : (
        <UpgradeBadge plan="growth">Filters, paging and the CSV export need the growth plan; the starter plan shows the last 10 votes.</UpgradeBadge>
      )}
      {exportState && <p role="status">{exportState}</p>}
      {error && !result && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {fetching && !result && (
        <p className="loading" role="status">
          Loading votes…
        </p>
      )}
      {result && result.votes.length === 0 && <p className="empty">No votes match.</p>}
      {result && result.votes.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="list" data-testid="votes-table">
              <thead>
                <tr>
                  <th scope="col">Voter</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Received</th>
                  <th scope="col">Chat</th>
                  <th scope="col">Callbacks</th>
                </tr>
              </thead>
              <tbody>
                {result.votes.map((v) => (
                  <tr key={v.publicId}>
                    <td className="wrap-anywhere">
                      <Link to={`/votes/${v.publicId}`}>{v.voterName}</Link>
                      {v.test && (
                        <>
                          {' '}
                          <span className="badge test-badge" title="A test vote: delivered marked as a test, counted nowhere">
                            test
                          </span>
                        </>
                      )}
                    </td>
                    <td>{v.providerName}</td>
                    <td>
                      <Time value={v.receivedAt} />
                    </td>
                    <td>
                      <span className={`status ${v.chatStatus}`}>{v.chatStatus}</span>
                    </td>
                    <td>
                      <span className={`status ${v.callbackStatus}`}>{v.callbackStatus}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {filtering && <Pager page={result.page} pages={result.pages} total={result.total} onPage={setPage} />}
        </>
      )}
    </>
  );
}
