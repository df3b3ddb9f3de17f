// Statistics: the trend by day, week or month over any range, votes by provider, and (Pro+) the leaderboard and a
// voter's own page.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { Granularity } from '../gql/graphql';
import { TrendChart } from '../TrendChart';
import { Time } from '../time';
import { plural } from '../plural';
import { UpgradeBadge, planAtLeast, useAccess } from '../access';

const StatsQuery = graphql(`
  query Statistics($from: String, $to: String, $granularity: Granularity) {
    voteTrend(from: $from, to: $to, granularity: $granularity) { granularity trend { date count } }
    votesByProvider(from: $from, to: $to) { total providers { key name count percentage } }
    conversionStats(from: $from, to: $to) { sites { provider name clicks votes convertedClicks conversion medianSecondsToVote } }
  }
`);
const LeaderboardQuery = graphql(`
  query Leaderboard($days: Int) { leaderboard(days: $days, limit: 25) { voters { name votes lastVote } } }
`);
const VoterQuery = graphql(`
  query VoterPage($name: String!) {
    voterStats(voterName: $name) {
      voterName summary { total today thisWeek thisMonth firstVote lastVote } byProvider { key name count }
      standing { streakDays bestStreakDays monthTotal timeZone sites { key name total nextVoteAt } }
    }
  }
`);

export function Statistics() {
  const access = useAccess();
  if (!planAtLeast(access.plan, 'growth'))
    return (
      <>
        <h1>Statistics</h1>
        <UpgradeBadge plan="growth" />
      </>
    );
  return (
    <div className="stack">
      <h1>Statistics</h1>
      <Trend />
      {planAtLeast(access.plan, 'pro') ? <ProStats /> : <UpgradeBadge plan="pro">The leaderboard and voter pages need the pro plan or higher.</UpgradeBadge>}
    </div>
  );
}

function Trend() {
  const [draft, setDraft] = useState({ from: '', to: '', granularity: 'day' as Granularity });
  const [applied, setApplied] = useState(draft);
  const [{ data, error }] = useQuery({
    query: StatsQuery,
    variables: { from: applied.from || undefined, to: applied.to || undefined, granularity: applied.granularity },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  return (
    <>
      <form className="filters" onSubmit={submit} aria-label="Range">
        <label>
          From
          <input type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <label>
          By
          <select aria-label="Granularity" value={draft.granularity} onChange={(e) => setDraft({ ...draft, granularity: e.target.value as Granularity })}>
            <option value="day">day</option>
            <option value="week">week</option>
            <option value="month">month</option>
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error.graphQLErrors[0]?.message ?? error.message}
        </p>
      )}
      <div className="grid">
        {data?.voteTrend && (
          <section className="card wide" aria-labelledby="trend-h">
            <h2 id="trend-h">Votes per {data.voteTrend.granularity}</h2>
            <TrendChart points={data.voteTrend.trend} label={`Votes per ${data.voteTrend.granularity}`} />
          </section>
        )}
        {data?.votesByProvider && (
          <section className="card" aria-labelledby="share-h">
            <h2 id="share-h">By provider ({plural(data.votesByProvider.total, 'vote')})</h2>
            <table>
              <tbody>
                {data.votesByProvider.providers.map((p) => (
                  <tr key={p.key}>
                    <th scope="row">{p.name}</th>
                    <td className="num">{p.count.toLocaleString()}</td>
                    <td className="num">{p.percentage}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
        {data?.conversionStats && (
          <section className="card wide" aria-labelledby="conversion-h">
            <h2 id="conversion-h">From clicks to votes</h2>
            {data.conversionStats.sites.every((s) => s.clicks === 0) ? (
              <p className="muted">
                No click on your vote page's buttons in this range. Turn the vote page on in Settings and link players to /vote/&lt;your slug&gt;: each site's
                clicks, votes and how many clicks became votes show here.
              </p>
            ) : (
              <div className="table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Site</th>
                      <th scope="col" className="num">
                        Clicks
                      </th>
                      <th scope="col" className="num">
                        Votes
                      </th>
                      <th scope="col" className="num">
                        Converted
                      </th>
                      <th scope="col" className="num">
                        Time to vote
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.conversionStats.sites.map((s) => (
                      <tr key={s.provider}>
                        <th scope="row">{s.name}</th>
                        <td className="num">{s.clicks.toLocaleString()}</td>
                        <td className="num">{s.votes.toLocaleString()}</td>
                        <td className="num">{s.conversion === null ? '–' : `${Math.round(s.conversion * 100)}%`}</td>
                        <td className="num">{s.medianSecondsToVote === null ? '–' : secondsWords(s.medianSecondsToVote)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        )}
      </div>
    </>
  );
}

/** "45 s", "3 min", "2 h": a median time from a click to its vote. */
function secondsWords(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

function ProStats() {
  const [days, setDays] = useState(30);
  const [voter, setVoter] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [{ data }] = useQuery({ query: LeaderboardQuery, variables: { days } });
  const [{ data: voterData, error: voterError }] = useQuery({ query: VoterQuery, variables: { name: shown ?? '' }, pause: !shown });
  const stats = voterData?.voterStats;
  return (
    <div className="grid">
      <section className="card" aria-labelledby="board-h">
        <h2 id="board-h">Leaderboard</h2>
        <label>
          Last
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} style={{ marginLeft: '.5rem' }}>
            <option value={7}>7 days</option>
            <option value={30}>30 days</option>
            <option value={90}>90 days</option>
            <option value={365}>365 days</option>
          </select>
        </label>
        <ol>
          {data?.leaderboard?.voters.map((v) => (
            <li key={v.name}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  setVoter(v.name);
                  setShown(v.name);
                }}
              >
                {v.name}
              </button>{' '}
              {plural(v.votes, 'vote')}, last <Time value={v.lastVote} />
            </li>
          ))}
        </ol>
      </section>
      <section className="card" aria-labelledby="voter-h">
        <h2 id="voter-h">A voter</h2>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            setShown(voter.trim() || null);
          }}
        >
          <label htmlFor="voter-name" style={{ margin: 0 }}>
            Name
          </label>
          <input id="voter-name" value={voter} onChange={(e) => setVoter(e.target.value)} />
          <button type="submit">Show</button>
        </form>
        {voterError && (
          <p role="alert" className="error">
            {voterError.graphQLErrors[0]?.message ?? voterError.message}
          </p>
        )}
        {stats && (
          <dl className="facts">
            <dt>Voter</dt>
            <dd>{stats.voterName}</dd>
            <dt>Total</dt>
            <dd>{stats.summary.total}</dd>
            <dt>Today / week / month</dt>
            <dd>
              {stats.summary.today} / {stats.summary.thisWeek} / {stats.summary.thisMonth}
            </dd>
            <dt>First vote</dt>
            <dd>
              <Time value={stats.summary.firstVote} />
            </dd>
            <dt>Last vote</dt>
            <dd>
              <Time value={stats.summary.lastVote} />
            </dd>
            <dt>By provider</dt>
            <dd>{stats.byProvider.map((p) => `${p.name} ${p.count}`).join(', ') || '—'}</dd>
            {stats.standing && (
              <>
                <dt>Streak</dt>
                <dd data-testid="voter-streak">
                  {plural(stats.standing.streakDays, 'day')} in a row (best {plural(stats.standing.bestStreakDays, 'day')})
                </dd>
                <dt>This month ({stats.standing.timeZone})</dt>
                <dd>{plural(stats.standing.monthTotal, 'vote')}</dd>
                <dt>Can vote again</dt>
                <dd>
                  {stats.standing.sites.map((site, i) => (
                    <span key={site.key}>
                      {i > 0 && ', '}
                      {site.name}:{' '}
                      {!site.nextVoteAt ? (
                        'unknown (no vote cooldown set)'
                      ) : Date.parse(site.nextVoteAt) <= Date.now() ? (
                        'now'
                      ) : (
                        <Time value={site.nextVoteAt} />
                      )}
                    </span>
                  ))}
                </dd>
              </>
            )}
          </dl>
        )}
      </section>
    </div>
  );
}
