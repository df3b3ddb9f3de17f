// The landing page: counters, the 30-day trend, share by provider, usage against the plan, failing callbacks, the
// vote party's progress (live: votePartyProgress), and the latest votes, which grow live (voteReceived over
// graphql-sse) and move the counters, the chart and the shares without a reload. Test votes show in the live list,
// marked, and count nowhere (as in the statistics themselves).
import { useEffect, useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../gql';
import { TrendChart } from '../TrendChart';
import { Time } from '../time';
import { UpgradeBadge, useLive } from '../access';
import { plural } from '../plural';
import { useChanged } from '../changed';
import type { FailingCallbackState } from '../gql/graphql';

const OverviewQuery = graphql(`
  query Overview {
    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }
    dashboardStats {
      summary { today thisWeek thisMonth allTime }
      byProvider { key name count }
      dailyTrend { date count }
    }
    failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt }
    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt test } }
    voteParty { enabled every provider count progress remaining completed }
    providers { providers { key name } }
    quietSites { providerKey providerName message }
  }
`);

/** Sites that have gone quiet (README "A site that goes quiet"): what is known, and where to look. */
function QuietSites({ sites }: { sites: { providerKey: string; providerName: string; message: string }[] }) {
  if (sites.length === 0) return null;
  return (
    <section className="card quiet-sites" aria-labelledby="quiet-title" data-testid="quiet-sites">
      <h2 id="quiet-title">{sites.length === 1 ? 'A site has gone quiet' : `${sites.length} sites have gone quiet`}</h2>
      <ul>
        {sites.map((site) => (
          <li key={site.providerKey}>
            {site.message}. <Link to={`/providers/${encodeURIComponent(site.providerKey)}/requests`}>Its requests</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

const LiveVotes = graphql(`
  subscription LiveVotes {
    voteReceived { publicId voterName providerKey providerName receivedAt test }
  }
`);

const LiveParty = graphql(`
  subscription LiveVoteParty {
    votePartyProgress { enabled every provider count progress remaining completed }
  }
`);

type LiveVote = { publicId: string; voterName: string; providerKey: string; providerName: string; receivedAt: string; test: boolean };

/** Votes that arrived live since the statistics were read: added to what the statistics said. */
type Arrivals = { total: number; byProvider: Record<string, { name: string; count: number }>; byDay: Record<string, number> };
const NONE: Arrivals = { total: 0, byProvider: {}, byDay: {} };

/** The statistics' days are UTC days (YYYY-MM-DD). */
const utcDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** The 30-day trend with live arrivals added; a day that began since the read is appended (the oldest drops). */
function trendWith(points: { date: string; count: number }[], byDay: Record<string, number>) {
  const moved = points.map((p) => ({ date: p.date, count: p.count + (byDay[p.date] ?? 0) }));
  const last = points.at(-1)?.date ?? '';
  const newDays = Object.keys(byDay)
    .filter((day) => day > last)
    .sort();
  return newDays.length === 0 ? moved : [...moved, ...newDays.map((date) => ({ date, count: byDay[date] }))].slice(-Math.max(points.length, 1));
}

/** The share by provider with live arrivals added, a provider's first vote included, most votes first. */
function sharesWith(rows: { key: string; name: string; count: number }[], byProvider: Arrivals['byProvider']) {
  const merged = rows.map((p) => ({ ...p, count: p.count + (byProvider[p.key]?.count ?? 0) }));
  for (const [key, arrived] of Object.entries(byProvider)) if (!rows.some((p) => p.key === key)) merged.push({ key, name: arrived.name, count: arrived.count });
  return merged.sort((a, b) => b.count - a.count);
}

const STATE_TEXT: Record<FailingCallbackState, string> = {
  retrying: 'retrying',
  failing: 'no retry left',
  recovered: 'delivering again',
  disabled: 'disabled',
};

/** "3 failed attempts in the last 24 hours, retrying 1 delivery — last error ENOTFOUND". */
function failingSummary(f: { state: FailingCallbackState; failedAttemptsLast24h: number; retryingDeliveries: number; failedLast24h: number }) {
  const parts: string[] = [];
  if (f.failedAttemptsLast24h > 0) parts.push(`${plural(f.failedAttemptsLast24h, 'failed attempt')} in the last 24 hours`);
  if (f.state === 'retrying') parts.push(`retrying ${plural(f.retryingDeliveries, 'delivery', 'deliveries')}`);
  else parts.push(STATE_TEXT[f.state]);
  if (f.failedLast24h > 0) parts.push(`${plural(f.failedLast24h, 'delivery', 'deliveries')} given up`);
  return parts.join(', ');
}

export function Overview() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: OverviewQuery });
  const { resumed } = useLive();
  const [latest, setLatest] = useState<LiveVote[]>([]);
  const [arrivals, setArrivals] = useState<Arrivals>(NONE);
  useEffect(() => {
    if (data?.votes) setLatest(data.votes.votes);
  }, [data?.votes]);
  // Fresh counters already hold the votes that arrived live until then.
  if (useChanged(data?.dashboardStats, data?.organization)) setArrivals(NONE);
  // Back from a lost connection: what arrived meanwhile never reached the stream, so read it again.
  useEffect(() => {
    if (resumed > 0) refetch({ requestPolicy: 'network-only' });
  }, [resumed, refetch]);
  useSubscription({ query: LiveVotes }, (_previous: unknown, event) => {
    const vote = event.voteReceived;
    setLatest((current) => (current.some((v) => v.publicId === vote.publicId) ? current : [vote, ...current].slice(0, 50)));
    if (!vote.test) {
      const day = utcDay(vote.receivedAt);
      setArrivals((a) => ({
        total: a.total + 1,
        byProvider: { ...a.byProvider, [vote.providerKey]: { name: vote.providerName, count: (a.byProvider[vote.providerKey]?.count ?? 0) + 1 } },
        byDay: { ...a.byDay, [day]: (a.byDay[day] ?? 0) + 1 },
      }));
    }
    return event;
  });
  // The party as the stream last told it (it tells it on joining, then after votes); until then, as read. No party
  // set, no stream: the card is not shown.
  const [{ data: liveParty }] = useSubscription({ query: LiveParty, pause: !data?.voteParty?.enabled });

  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading the overview…
      </p>
    );
  if (!data?.organization)
    return (
      <p role="alert" className="error">
        {error?.message ?? 'The overview could not be loaded.'}
      </p>
    );
  const { organization, dashboardStats: stats } = data;
  const party = liveParty?.votePartyProgress ?? data.voteParty;
  const usage = organization.usage;
  const summary = stats?.summary;
  const arrived = arrivals.total;
  const counters: [string, number | undefined][] = [
    ['Today', summary && summary.today + arrived],
    ['This week', summary && summary.thisWeek + arrived],
    ['This month', summary && summary.thisMonth + arrived],
    ['All time', summary && summary.allTime + arrived],
  ];
  return (
    <>
      <h1>{organization.name}</h1>
      <QuietSites sites={data?.quietSites ?? []} />
      {stats ? (
        <section aria-label="Vote counters" className="counters">
          {counters.map(([label, value]) => (
            <div key={label} className="counter">
              <span className="counter-label">{label}</span>
              <span className="counter-value" data-testid={`counter-${label.toLowerCase().replace(' ', '-')}`}>
                {value?.toLocaleString()}
              </span>
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
            <TrendChart points={trendWith(stats.dailyTrend, arrivals.byDay)} label="Votes per day, last 30 days" />
          </section>
        )}
        {party?.enabled && (
          <PartyProgress
            party={party}
            site={party.provider ? (data.providers?.providers.find((p) => p.key === party.provider)?.name ?? party.provider) : null}
          />
        )}
        <section className="card" aria-labelledby="latest-title">
          <h2 id="latest-title">
            Latest votes <span className="live-dot" title="Live" aria-hidden="true" />
          </h2>
          {latest.length === 0 ? (
            <p className="muted">No votes yet. They appear here as they arrive.</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls (more than fits its 320 px), and a scrolling region must be reachable by keyboard (WCAG 2.1.1; axe's scrollable-region-focusable).
            <ul className="latest" aria-live="polite" aria-labelledby="latest-title" tabIndex={0} data-testid="latest-votes">
              {latest.map((vote) => (
                <li key={vote.publicId}>
                  <strong>{vote.voterName}</strong>{' '}
                  {vote.test && (
                    <span className="badge test-badge" title="A test vote: delivered marked as a test, counted nowhere">
                      test
                    </span>
                  )}{' '}
                  <span className="muted">on {vote.providerName}</span> <Time value={vote.receivedAt} />
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
              <ShareTable rows={sharesWith(stats.byProvider, arrivals.byProvider)} />
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
            <p className="muted">No callback attempt failed in the last 24 hours.</p>
          ) : (
            <ul className="failing" data-testid="failing-callbacks">
              {data.failingCallbacks.map((f) => (
                <li key={f.callback.id}>
                  <strong>{f.callback.name}</strong>:{' '}
                  {f.state === 'disabled' ? (
                    <>disabled: {f.lastError ?? 'no reason given'}</>
                  ) : (
                    <>
                      {failingSummary(f)}
                      {f.lastError && (
                        <>
                          {' '}
                          — last error <code className="wrap-anywhere">{f.lastError}</code>
                        </>
                      )}
                    </>
                  )}{' '}
                  <span className="muted">
                    (<Time value={f.lastFailedAt} />)
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

/** "Vote party: 63 of 100", a progress bar, and the parties so far; `site` is the counted provider's name. */
function PartyProgress({
  party,
  site,
}: {
  party: { every?: number | null; progress: number; remaining?: number | null; completed: number };
  site: string | null;
}) {
  const every = party.every ?? 0;
  const remaining = party.remaining ?? every - party.progress;
  return (
    <section className="card party" aria-labelledby="party-progress-title" data-testid="vote-party">
      <h2 id="party-progress-title">Vote party</h2>
      <p className="party-count">
        {party.progress.toLocaleString()} <span className="muted">of {every.toLocaleString()}</span>
      </p>
      <progress max={every} value={party.progress} aria-labelledby="party-progress-title" aria-describedby="party-next" />
      <p id="party-next" className="party-line">
        {plural(remaining, 'vote')} to the next party{site ? ` (only ${site}'s votes count)` : ''}.
      </p>
      <p className="party-line muted">{plural(party.completed, 'party', 'parties')} so far.</p>
    </section>
  );
}

function ShareTable({ rows }: { rows: { key: string; name: string; count: number }[] }) {
  const total = rows.reduce((sum, p) => sum + p.count, 0);
  return (
    <table data-testid="provider-shares">
      <tbody>
        {rows.map((p) => (
          <tr key={p.key}>
            <th scope="row">{p.name}</th>
            <td className="num">{plural(p.count, 'vote')}</td>
            <td className="num muted">{total > 0 ? `${Math.round((p.count / total) * 100)}%` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
