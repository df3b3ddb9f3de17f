// Voters: the people behind the votes (README "Voters"), found by the start of a name or an identity (a Discord id,
// a UUID), each with their identities, total, streak and last vote, paged; a voter's own page is ./VoterDetail.tsx.
// On a phone each voter is a small card.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import { Time } from '../../time';
import { Pager } from '../../pager';
import { Identity } from './identity';

const VotersQuery = graphql(`
  query Voters($search: String, $page: Int) {
    voters(search: $search, page: $page, limit: 25) {
      page pages total
      voters { id displayName identities { kind value } standing { total streakDays lastVoteAt } }
    }
  }
`);

export function Voters() {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [{ data, fetching, error }] = useQuery({
    query: VotersQuery,
    variables: { search: search || undefined, page },
    requestPolicy: 'cache-and-network',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setSearch(draft.trim());
  };
  const result = data?.voters;
  return (
    <>
      <h1>Voters</h1>
      <p className="muted intro">
        A voter is one person across their names, sites and platforms: a Discord id, a Minecraft name or UUID, a Bedrock or Hytale name. Their streak and totals
        follow them when they rename. Open one to see their votes, or to merge two voters or split an identity off.
      </p>
      <form className="filters" onSubmit={submit} aria-label="Search voters">
        <label>
          Name or identity
          <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="starts with…" maxLength={64} />
        </label>
        <button type="submit">Search</button>
        {search && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft('');
              setSearch('');
              setPage(1);
            }}
          >
            Show all
          </button>
        )}
      </form>
      {error && (
        <p role="alert" className="error">
          {error.graphQLErrors[0]?.message ?? error.message}
        </p>
      )}
      {fetching && !result && (
        <p className="loading" role="status">
          Loading voters…
        </p>
      )}
      {result && result.voters.length === 0 && (
        <p className="empty">{search ? `No voter's name or identity starts with “${search}”.` : 'No voters yet: the first vote makes the first one.'}</p>
      )}
      {result && result.voters.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="list voters-table phone-cards" data-testid="voters-table">
              <thead>
                <tr>
                  <th scope="col">Voter</th>
                  <th scope="col">Identities</th>
                  <th scope="col" className="num">
                    Votes
                  </th>
                  <th scope="col" className="num">
                    Streak
                  </th>
                  <th scope="col">Last vote</th>
                </tr>
              </thead>
              <tbody>
                {result.voters.map((v) => (
                  <tr key={v.id}>
                    <td className="voter full wrap-anywhere" data-label="Voter">
                      <Link to={`/voters/${v.id}`}>{v.displayName}</Link>
                    </td>
                    <td className="identities full" data-label="Identities">
                      <ul className="identity-list">
                        {v.identities.map((i) => (
                          <li key={`${i.kind}:${i.value}`}>
                            <Identity kind={i.kind} value={i.value} />
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="num" data-label="Votes">
                      {v.standing?.total ?? 0}
                    </td>
                    <td className="num" data-label="Streak">
                      {v.standing ? `${v.standing.streakDays} d` : '—'}
                    </td>
                    <td className="last-vote full" data-label="Last vote">
                      {v.standing ? <Time value={v.standing.lastVoteAt} /> : <span className="muted">no counted vote</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={result.page} pages={result.pages} total={result.total} onPage={setPage} noun="voter" />
        </>
      )}
    </>
  );
}
