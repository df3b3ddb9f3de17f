// One voter (README "Voters"): their identities, standing (total, month, streaks, per site with the next vote) and
// votes, newest first, 25 a page by the votes connection's cursor. A full key merges another voter into this one
// (found by the search, confirmed: their history moves here and they are gone) and splits an identity off into a
// new voter (confirmed: the votes that came with it go with it), which is how a wrong merge or link is undone.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { VoterIdentityKind } from '../../gql/graphql';
import { Time } from '../../time';
import { plural } from '../../plural';
import { READ_ONLY_REASON, useAccess } from '../../access';
import { VoteCells } from '../../vote-cells';
import { IDENTITY_KIND, Identity } from './identity';

const VoterQuery = graphql(`
  query VoterDetail($id: String!, $after: String) {
    voter(id: $id) {
      id displayName createdAt
      identities { kind value createdAt }
      standing { total monthTotal streakDays bestStreakDays lastVoteAt timeZone sites { key name total lastVoteAt nextVoteAt } }
      votes(first: 25, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { publicId voterName repairedFrom providerName receivedAt chatStatus callbackStatus test } }
      }
    }
  }
`);

const FindVoters = graphql(`
  query FindVotersToMerge($search: String!) {
    voters(search: $search, limit: 6) { total voters { id displayName identities { kind value } standing { total } } }
  }
`);

const Merge = graphql(`
  mutation MergeVoters($id: String!, $other: String!) {
    mergeVoters(id: $id, other: $other) { id displayName }
  }
`);

const Split = graphql(`
  mutation SplitVoterIdentity($id: String!, $kind: VoterIdentityKind!, $value: String!) {
    splitVoterIdentity(id: $id, kind: $kind, value: $value) { id displayName }
  }
`);

/** What the last merge or split did, in words (or why it was refused). */
interface Outcome {
  text: string;
  link?: { to: string; label: string };
  error?: boolean;
}

const messageOf = (error: { graphQLErrors: { message: string }[]; message: string } | undefined, fallback: string) =>
  error?.graphQLErrors[0]?.message ?? error?.message ?? fallback;

export function VoterDetail() {
  const { id = '' } = useParams();
  const readOnly = useAccess().scope !== 'full';
  // The cursors of the pages before this one (Newer goes back), and this page's.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const [{ data, fetching, error }, refetch] = useQuery({ query: VoterQuery, variables: { id, after }, requestPolicy: 'cache-and-network' });
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [found] = useQuery({ query: FindVoters, variables: { search }, pause: !search });
  const [merging, merge] = useMutation(Merge);
  const [splitting, split] = useMutation(Split);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the voter…
      </p>
    );
  const voter = data?.voter;
  if (!voter)
    return (
      <>
        <p>
          <Link to="/voters">← Voters</Link>
        </p>
        <p role="alert" className="error">
          {error ? messageOf(error, 'The voter could not be read.') : 'This voter was not found: merged into another, erased, or never here.'}
        </p>
      </>
    );

  async function mergeIn(other: { id: string; displayName: string }) {
    if (!voter) return;
    const confirmed = window.confirm(
      `Merge ${other.displayName} into ${voter.displayName}? ${other.displayName}'s votes, days, reminders and identities move to ${voter.displayName}, ` +
        `whose standing is counted again; ${other.displayName} (${other.id}) is gone. An identity merged by mistake can be split off again.`,
    );
    if (!confirmed) return;
    const answer = await merge({ id: voter.id, other: other.id });
    if (answer.error) {
      setOutcome({ text: messageOf(answer.error, 'The merge failed.'), error: true });
      return;
    }
    setOutcome({ text: `${other.displayName} was merged into ${voter.displayName}.` });
    setDraft('');
    setSearch('');
    setCursors([]);
    reload();
  }

  async function splitOff(kind: VoterIdentityKind, value: string) {
    if (!voter) return;
    const confirmed = window.confirm(
      `Split ${IDENTITY_KIND[kind]} ${value} off ${voter.displayName}? A new voter gets it, with the votes that came with it; both standings are counted again.`,
    );
    if (!confirmed) return;
    const answer = await split({ id: voter.id, kind, value });
    const made = answer.data?.splitVoterIdentity;
    if (!made) {
      setOutcome({ text: messageOf(answer.error, 'The split failed.'), error: true });
      return;
    }
    setOutcome({ text: `${IDENTITY_KIND[kind]} ${value} is now its own voter.`, link: { to: `/voters/${made.id}`, label: `Open ${made.displayName}` } });
    setCursors([]);
    reload();
  }

  const findSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
  };
  const standing = voter.standing;
  const votes = voter.votes;
  // Only while a search is asked (a merged voter is gone: the last answer is not shown again).
  const candidates = search ? (found.data?.voters?.voters ?? []).filter((v) => v.id !== voter.id) : [];
  const busy = merging.fetching || splitting.fetching;
  return (
    <>
      <p>
        <Link to="/voters">← Voters</Link>
      </p>
      <h1 className="wrap-anywhere">{voter.displayName}</h1>
      {outcome && (
        <p role="status" className={outcome.error ? 'error' : 'once'}>
          {outcome.text}{' '}
          {outcome.link && (
            <Link to={outcome.link.to} onClick={() => setOutcome(null)}>
              {outcome.link.label}
            </Link>
          )}
        </p>
      )}
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{voter.id}</code>
        </dd>
        <dt>First vote</dt>
        <dd>
          <Time value={voter.createdAt} />
        </dd>
        {standing ? (
          <>
            <dt>Votes</dt>
            <dd>
              {standing.total} ({standing.monthTotal} this month)
            </dd>
            <dt>Streak</dt>
            <dd>
              {plural(standing.streakDays, 'day')} (best {plural(standing.bestStreakDays, 'day')}, days in {standing.timeZone})
            </dd>
            <dt>Last vote</dt>
            <dd>
              <Time value={standing.lastVoteAt} />
            </dd>
          </>
        ) : (
          <>
            <dt>Votes</dt>
            <dd className="muted">no counted vote (test votes and votes over the plan's limit are not counted)</dd>
          </>
        )}
      </dl>

      <section className="card" aria-labelledby="identities-heading">
        <h2 id="identities-heading">Identities</h2>
        <p className="muted">
          What this voter's votes resolve by: an id before a name. A name that a site sent for someone else, or a link made by mistake, is split off into a
          voter of its own.
        </p>
        <ul className="identity-rows">
          {voter.identities.map((i) => (
            <li key={`${i.kind}:${i.value}`}>
              <Identity kind={i.kind} value={i.value} />
              <span className="muted">
                {' '}
                since <Time value={i.createdAt} />
              </span>
              {voter.identities.length > 1 && (
                <button
                  type="button"
                  className="secondary split"
                  aria-label={`Split off ${IDENTITY_KIND[i.kind]} ${i.value}`}
                  disabled={readOnly || busy}
                  title={readOnly ? READ_ONLY_REASON : 'Make this identity a voter of its own, with the votes that came with it'}
                  onClick={() => void splitOff(i.kind, i.value)}
                >
                  Split off
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>

      {standing && standing.sites.length > 0 && (
        <section className="card" aria-labelledby="sites-heading">
          <h2 id="sites-heading">Sites</h2>
          <div className="table-scroll">
            <table className="list phone-cards">
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col" className="num">
                    Votes
                  </th>
                  <th scope="col">Last vote</th>
                  <th scope="col">Can vote again</th>
                </tr>
              </thead>
              <tbody>
                {standing.sites.map((s) => (
                  <tr key={s.key}>
                    <td data-label="Site">{s.name}</td>
                    <td className="num" data-label="Votes">
                      {s.total}
                    </td>
                    <td className="full" data-label="Last vote">
                      <Time value={s.lastVoteAt} />
                    </td>
                    <td className="full" data-label="Can vote again">
                      {s.nextVoteAt ? <Time value={s.nextVoteAt} /> : <span className="muted">the site's wait is unknown</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <section aria-labelledby="votes-heading">
        <h2 id="votes-heading">Votes ({votes.totalCount})</h2>
        {votes.edges.length === 0 ? (
          <p className="empty">No votes.</p>
        ) : (
          <div className="table-wrap">
            <table className="list votes-table phone-cards" data-testid="voter-votes">
              <thead>
                <tr>
                  <th scope="col">Sent as</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Received</th>
                  <th scope="col">Chat</th>
                  <th scope="col">Callbacks</th>
                </tr>
              </thead>
              <tbody>
                {votes.edges.map(({ node: v }) => (
                  <tr key={v.publicId}>
                    <td className="voter wrap-anywhere" data-label="Sent as">
                      <Link to={`/votes/${v.publicId}`}>{v.repairedFrom ?? v.voterName}</Link>
                      {v.repairedFrom && <span className="muted"> (repaired to {v.voterName})</span>}
                      {v.test && (
                        <>
                          {' '}
                          <span className="badge test-badge">test</span>
                        </>
                      )}
                    </td>
                    <VoteCells vote={v} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {(cursors.length > 0 || votes.pageInfo.hasNextPage) && (
          <nav className="pager" aria-label="Vote pages">
            <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
            <button
              type="button"
              disabled={!votes.pageInfo.hasNextPage || !votes.pageInfo.endCursor}
              onClick={() => votes.pageInfo.endCursor && setCursors([...cursors, votes.pageInfo.endCursor])}
            >
              Older
            </button>
          </nav>
        )}
      </section>

      <section className="card" aria-labelledby="merge-heading">
        <h2 id="merge-heading">Merge another voter into {voter.displayName}</h2>
        <p className="muted">
          For one person the relay counted twice (an old name, another platform). Their history moves here exactly and their standing is counted again with this
          one's.
        </p>
        <form className="filters" onSubmit={findSubmit} aria-label="Find a voter to merge">
          <label>
            Name or identity
            <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="starts with…" maxLength={64} />
          </label>
          <button type="submit" disabled={readOnly} title={readOnly ? READ_ONLY_REASON : undefined}>
            Find
          </button>
        </form>
        {search && found.data && candidates.length === 0 && <p className="empty">No other voter's name or identity starts with “{search}”.</p>}
        {candidates.length > 0 && (
          <ul className="identity-rows merge-candidates">
            {candidates.map((c) => (
              <li key={c.id}>
                <Link to={`/voters/${c.id}`} className="wrap-anywhere">
                  {c.displayName}
                </Link>{' '}
                <span className="muted">
                  {plural(c.standing?.total ?? 0, 'vote')} · {c.identities.map((i) => `${IDENTITY_KIND[i.kind]} ${i.value}`).join(', ')}
                </span>
                <button
                  type="button"
                  aria-label={`Merge ${c.displayName} into ${voter.displayName}`}
                  disabled={readOnly || busy}
                  title={readOnly ? READ_ONLY_REASON : undefined}
                  onClick={() => void mergeIn(c)}
                >
                  Merge in
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
