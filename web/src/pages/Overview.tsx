// The landing page: counters, the 30-day trend, share by provider, usage against the plan, failing callbacks, and
// the latest votes, which grow live (voteReceived over graphql-sse) and move the counters without a reload.
import { useEffect, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { TrendChart } from '../TrendChart';
import { Time } from '../time';
import { UpgradeBadge, useLive } from '../access';

const OverviewQuery = graphql(`
  query Overview {
    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }
    dashboardStats {
      summary { today thisWeek thisMonth allTime }
      byProvider { key name count }
      dailyTrend { date count }
    }
    failingCallbacks { callback { id name } failedLast24h lastError lastFailedAt }
    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt } }
  }
`);

const LiveVotes = graphql(`
  subscription LiveVotes {
    voteReceived { publicId voterName providerKey providerName receivedAt }
  }
`);

type LiveVote = { publicId: string; voterName: string; providerKey: string; providerName: string; receivedAt: string };

export function Overview() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: OverviewQuery });
  const { resumed } = useLive();
  const [latest, setLatest] = useState<LiveVote[]>([]);
  const [arrived, setArrived] = useState(0);
  const [arrivedBy, setArrivedBy] = useState<Record<string, number>>({});
  useEffect(() => {
    if (data?.votes) setLatest(data.votes.votes);
  }, [data?.votes]);
  // Fresh counters already hold the votes that arrived live until then.
  useEffect(() => {
    setArrived(0);
    setArrivedBy({});
  }, [data?.dashboardStats, data?.organization]);
  // Back from a lost connection: what arrived meanwhile never reached the stream, so read it again.
  useEffect(() => {
    if (resumed > 0) refetch({ requestPolicy: 'network-only' });
  }, [resumed, refetch]);
  useSubscription({ query: LiveVotes }, (_previous: unknown, event) => {
    const vote = event.voteReceived;
    setLatest((current) => (current.some((v) => v.publicId === vote.publicId) ? current : [vote, ...current].slice(0, 50)));
    setArrived((n) => n + 1);
    setArrivedBy((counts) => ({ ...counts, [vote.providerKey]: (counts[vote.providerKey] ?? 0) + 1 }));
    return event;
  });

  if (fetching && !data) return <p className="loading" role="status">Loading the overview…</p>;
  if (!data?.organization) return <p role="alert" className="error">{error?.message ?? 'The overview could not be loaded.'}</p>;
  const { organization, dashboardStats: stats } = data;
  const usage = organization.usage;
  const summary = stats?.summary;
  const counters: [string, number | undefined][] = [
    ['Today', summary && summary.today + arrived],
    ['This week', summary && summary.thisWeek + arrived],
    ['This month', summary && summary.thisMonth + arrived],
    ['All time', summary && summary.allTime + arrived],
  ];
  return (
    <>
      <h1>{organization.name}</h1>
      {stats ? (
        <section aria-label="Vote counters" className="counters">
          {counters.map(([label, value]) => (
            <div key={label} className="counter">
              <span className="counter-label">{label}</span>
              <span className="counter-value" data-testid={`counter-${label.toLowerCase().replace(' ', '-')}`}>{value?.toLocaleString()}</span>
            </div>
          ))}
        </section>
      ) : (
        <UpgradeBadge plan="growth">Counters, the trend chart and the share by provider need the growth plan or higher.</UpgradeBadge>
      )}
      <div className="grid">
        {stats && (
          <section className="card wide" aria-labelledby="trend-title">
            <h2 id="trend-title">Last 30 days</h2>
            <TrendChart points={stats.dailyTrend} label="Votes per day, last 30 days" />
          </section>
        )}
        <section className="card" aria-labelledby="latest-title">
          <h2 id="latest-title">Latest votes <span className="live-dot" title="Live" aria-hidden="true" /></h2>
          {latest.length === 0 ? (
            <p className="muted">No votes yet. They appear here as they arrive.</p>
          ) : (
            <ul className="latest" aria-live="polite" data-testid="latest-votes">
              {latest.map((vote) => (
                <li key={vote.publicId}>
                  <strong>{vote.voterName}</strong> <span className="muted">on {vote.providerName}</span> <Time value={vote.receivedAt} />
                </li>
              ))}
            </ul>
          )}
        </section>
        {stats && (
          <section className="card" aria-labelledby="share-title">
            <h2 id="share-title">By provider (30 days)</h2>
            {stats.byProvider.length === 0 && arrived === 0 ? (
              <p className="muted">No provider has votes yet.</p>
            ) : (
              <table>
                <tbody>
                  {stats.byProvider.map((p) => (
                    <tr key={p.key}>
                      <th scope="row">{p.name}</th>
                      <td className="num">{(p.count + (arrivedBy[p.key] ?? 0)).toLocaleString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        )}
        <section className="card" aria-labelledby="usage-title">
          <h2 id="usage-title">Usage ({organization.plan} plan)</h2>
          <Meter label="Votes this month" value={usage.votesThisMonth + arrived} max={usage.votesLimit} />
          <Meter label="Providers" value={usage.providersCount} max={usage.providersLimit} />
        </section>
        <section className="card" aria-labelledby="failing-title">
          <h2 id="failing-title">Failing callbacks</h2>
          {!data.failingCallbacks || data.failingCallbacks.length === 0 ? (
            <p className="muted">Every callback delivered in the last 24 hours.</p>
          ) : (
            <ul>
              {data.failingCallbacks.map((f) => (
                <li key={f.callback.id}>
                  <strong>{f.callback.name}</strong>: {f.failedLast24h} failed in 24 h, last <Time value={f.lastFailedAt} /> {f.lastError && <span className="muted">({f.lastError})</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function Meter({ label, value, max }: { label: string; value: number; max: number }) {
  return (
    <div className="meter">
      <span>{label}</span>
      <meter min={0} max={max} value={value} aria-label={label} />
      <span className="num">
        {value.toLocaleString()} / {max.toLocaleString()}
      </span>
    </div>
  );
}
