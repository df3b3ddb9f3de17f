// Votes: the table with filters (provider, voter, date range, statuses) and paging, and the CSV export download.
// Votes left uncertain by a restart (the relay stopped while sending them) are announced at the top on every plan,
// with a button that lists only them, and each has a one-click Resend (full keys only). On a phone each vote is a
// small card, its Resend in view.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../gql';
import type { DeliveryStatus } from '../gql/graphql';
import { planAtLeast, READ_ONLY_REASON, UpgradeBadge, useAccess } from '../access';
import { readKey } from '../session';
import { Pager } from '../pager';
import { plural } from '../plural';
import { VoteCells } from '../vote-cells';

const VotesQuery = graphql(`
  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {
    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {
      page pages total
      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }
    }
    providers { providers { key name } }
  }
`);

/** How many votes wait for the owner's decision (every plan can ask: README "Delivery guarantees"). */
const UncertainQuery = graphql(`
  query UncertainVotes {
    callbacks: votes(callbackStatus: uncertain, limit: 1) { total }
    chat: votes(chatStatus: uncertain, limit: 1) { total }
  }
`);

const Resend = graphql(`
  mutation ResendVote($publicId: String!) {
    redeliverVote(publicId: $publicId) { voteId requeued }
  }
`);

const STATUSES: DeliveryStatus[] = ['pending', 'retrying', 'sent', 'failed', 'uncertain', 'skipped'];

interface Filters {
  provider: string;
  voter: string;
  from: string;
  to: string;
  chatStatus: string;
  callbackStatus: string;
}

const EMPTY: Filters = { provider: '', voter: '', from: '', to: '', chatStatus: '', callbackStatus: '' };

/** A resend's outcome in its row (and, as the row may leave the list it was in, in the notice). */
interface Outcome {
  text: string;
  error?: boolean;
}

/** What an empty list means, and what to do about it. */
function EmptyVotes({ uncertainView, filtered, clear, hasProviders }: { uncertainView: boolean; filtered: boolean; clear: () => void; hasProviders: boolean }) {
  if (uncertainView) return <p className="empty">No vote is uncertain now.</p>;
  if (filtered)
    return (
      <p className="empty">
        No votes match these filters.{' '}
        <button type="button" className="link" onClick={clear}>
          Show every vote
        </button>
      </p>
    );
  if (!hasProviders)
    return (
      <p className="empty">
        No votes yet: votes arrive through a provider. <Link to="/providers/new">Add the first provider</Link> (pick the voting site; the page says what to
        paste where), then send it a test vote.
      </p>
    );
  return (
    <p className="empty">
      No votes yet. Send a test vote from <Link to="/providers">Providers</Link> (Test vote beside a provider) to see one arrive here; if a site's votes do not
      arrive, its Requests page shows every request that reached its webhook and what to fix.
    </p>
  );
}

export function Votes() {
  const access = useAccess();
  const readOnly = access.scope !== 'full';
  const filtering = planAtLeast(access.plan, 'growth');
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [exportState, setExportState] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [lastResend, setLastResend] = useState<Outcome | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const variables = {
    page,
    provider: applied.provider || undefined,
    voter: applied.voter || undefined,
    from: applied.from || undefined,
    to: applied.to || undefined,
    chatStatus: (applied.chatStatus || undefined) as DeliveryStatus | undefined,
    callbackStatus: (applied.callbackStatus || undefined) as DeliveryStatus | undefined,
  };
  // Read again on every visit: a resend from a vote's page (or another tab) changes both behind the cache's back.
  const [{ data, fetching, error }, refetchVotes] = useQuery({ query: VotesQuery, variables, requestPolicy: 'cache-and-network' });
  const [uncertain, refetchUncertain] = useQuery({ query: UncertainQuery, requestPolicy: 'cache-and-network' });
  const [, resend] = useMutation(Resend);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setApplied(draft);
  };
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value });
  /** Shows just the votes whose callbacks (or chat message) are uncertain: a filter every plan has. */
  const show = (filters: Filters) => {
    setPage(1);
    setDraft(filters);
    setApplied(filters);
  };

  const uncertainCallbacks = uncertain.data?.callbacks?.total ?? 0;
  const uncertainChat = uncertain.data?.chat?.total ?? 0;
  // The only filter a starter plan has: the server lists uncertain votes on every plan.
  const uncertainView = applied.callbackStatus === 'uncertain' || applied.chatStatus === 'uncertain';
  const one = uncertainCallbacks + uncertainChat === 1;

  async function resendVote(publicId: string, voterName: string) {
    setResending(publicId);
    const answer = await resend({ publicId });
    setResending(null);
    const requeued = answer.data?.redeliverVote?.requeued;
    const outcome: Outcome =
      requeued === undefined
        ? { text: answer.error?.graphQLErrors[0]?.message ?? answer.error?.message ?? 'The resend failed.', error: true }
        : requeued === 0
          ? { text: 'nothing left to resend' }
          : { text: `queued again (${plural(requeued, 'delivery', 'deliveries')})` };
    setOutcomes((current) => ({ ...current, [publicId]: outcome }));
    setLastResend({ ...outcome, text: `The vote by ${voterName}: ${outcome.text}.` });
    refetchVotes({ requestPolicy: 'network-only' });
    refetchUncertain({ requestPolicy: 'network-only' });
  }

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
  const isUncertain = (v: { chatStatus: string; callbackStatus: string }) => v.callbackStatus === 'uncertain' || v.chatStatus === 'uncertain';
  // The Resend column is there while a vote on the page is uncertain, or has just been resent.
  const actions = !!result?.votes.some((v) => isUncertain(v) || outcomes[v.publicId]);
  return (
    <>
      <h1>Votes</h1>
      {(uncertainCallbacks > 0 || uncertainChat > 0 || uncertainView || lastResend) && (
        <section className="notice uncertain-notice" aria-labelledby="uncertain-heading" data-testid="uncertain-notice">
          <h2 id="uncertain-heading">
            {uncertainCallbacks > 0
              ? `${plural(uncertainCallbacks, 'vote')} may or may not have reached your game servers`
              : uncertainChat > 0
                ? `${plural(uncertainChat, 'chat message')} may or may not have been posted`
                : 'No uncertain votes left'}
          </h2>
          {(uncertainCallbacks > 0 || uncertainChat > 0) && (
            <p className="uncertain-text">
              The relay sent {one ? 'it' : 'them'} but cannot tell whether {one ? 'it' : 'they'} arrived (it stopped mid-send, or the server never answered),
              and did not send {one ? 'it' : 'them'} again, so nobody was sent a vote twice. Check the server or ask the player whether the reward arrived, and
              resend {one ? 'it if it did not' : 'the ones that did not'}.
              {uncertainCallbacks > 0 && uncertainChat > 0 && ` Also ${plural(uncertainChat, 'chat message')} may or may not have been posted.`}
            </p>
          )}
          <div className="row">
            {uncertainCallbacks > 0 && applied.callbackStatus !== 'uncertain' && (
              <button type="button" onClick={() => show({ ...EMPTY, callbackStatus: 'uncertain' })}>
                Show only {uncertainCallbacks === 1 ? 'this vote' : `these ${plural(uncertainCallbacks, 'vote')}`}
              </button>
            )}
            {uncertainChat > 0 && applied.chatStatus !== 'uncertain' && (
              <button type="button" className={uncertainCallbacks > 0 ? 'secondary' : undefined} onClick={() => show({ ...EMPTY, chatStatus: 'uncertain' })}>
                {uncertainChat === 1
                  ? 'Show the vote whose chat message is uncertain'
                  : `Show the ${plural(uncertainChat, 'vote')} whose chat messages are uncertain`}
              </button>
            )}
            {uncertainView && (
              <>
                <button type="button" className="secondary" onClick={() => show(EMPTY)}>
                  Show all votes
                </button>
                {(uncertainCallbacks > 0 || uncertainChat > 0) && <span>Only the uncertain {one ? 'one is' : 'ones are'} listed below.</span>}
              </>
            )}
          </div>
          {lastResend && (
            <p role="status" className={lastResend.error ? 'uncertain-text error' : 'uncertain-text'}>
              {lastResend.text}
            </p>
          )}
        </section>
      )}
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
        <UpgradeBadge plan="growth">
          Filters, paging and the CSV export need the growth plan; the starter plan shows the last 10 votes (and every uncertain one).
        </UpgradeBadge>
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
      {result && result.votes.length === 0 && (
        <EmptyVotes
          uncertainView={uncertainView}
          filtered={JSON.stringify(applied) !== JSON.stringify(EMPTY)}
          clear={() => show(EMPTY)}
          hasProviders={(data?.providers?.providers.length ?? 0) > 0}
        />
      )}
      {result && result.votes.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="list votes-table phone-cards" data-testid="votes-table">
              <thead>
                <tr>
                  <th scope="col">Voter</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Received</th>
                  <th scope="col">Chat</th>
                  <th scope="col">Callbacks</th>
                  {actions && <th scope="col">Action</th>}
                </tr>
              </thead>
              <tbody>
                {result.votes.map((v) => {
                  const outcome = outcomes[v.publicId];
                  return (
                    <tr key={v.publicId} className={isUncertain(v) ? 'uncertain-row' : undefined}>
                      <td className="voter wrap-anywhere" data-label="Voter">
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
                      <VoteCells vote={v} />
                      {actions && (
                        <td className="vote-action full">
                          {outcome && (
                            <span role="status" className={outcome.error ? 'error' : 'outcome-text'}>
                              {outcome.text}
                            </span>
                          )}
                          {isUncertain(v) && !(outcome && !outcome.error) && (
                            <button
                              type="button"
                              className="resend"
                              aria-label={`Resend the vote by ${v.voterName}`}
                              disabled={readOnly || resending === v.publicId}
                              title={
                                readOnly
                                  ? READ_ONLY_REASON
                                  : 'Send it again, on purpose: the server may already have it. Check the server or ask the player first.'
                              }
                              onClick={() => void resendVote(v.publicId, v.voterName)}
                            >
                              {resending === v.publicId ? 'Resending…' : 'Resend'}
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {(filtering || uncertainView) && <Pager page={result.page} pages={result.pages} total={result.total} onPage={setPage} />}
        </>
      )}
    </>
  );
}
