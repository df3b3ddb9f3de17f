// Vote roles (the discordRoleGrants query): the Discord roles discord_role callbacks gave, held ones first (soonest
// expiry first), with each one's state in words ("holds it until 2:00 PM tomorrow", "taken away", "not in the
// server"), the last error, filtered by state and paged. Shown on the Callbacks page under the list while the
// organization has a discord_role callback.
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { DiscordRoleGrantStatus } from '../../gql/graphql';
import { Pager } from '../../pager';

const RoleGrantsQuery = graphql(`
  query DiscordRoleGrants($page: Int, $status: DiscordRoleGrantStatus) {
    discordRoleGrants(page: $page, limit: 20, status: $status) {
      total page limit grants { voter discordId roleId callbackId status expiresAt lastError updatedAt }
    }
    organization { id settings { discordBotTokenSet discordGuildId } }
  }
`);

const STATUS_CHOICES: [DiscordRoleGrantStatus | '', string][] = [
  ['', 'all'],
  ['active', 'holding the role'],
  ['removed', 'taken away'],
  ['not_member', 'not in the server'],
];

/** A moment in words, in the browser's zone: "2:00 PM today", "2:00 PM tomorrow", "Mon, Mar 3, 2:00 PM". */
export function momentWords(value: string, now = new Date()): string {
  const date = new Date(value);
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  // Whole calendar days apart (local midnights, rounded: a daylight-saving day is 23 or 25 hours).
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((midnight(date) - midnight(now)) / 86_400_000);
  if (days === 0) return `${time} today`;
  if (days === 1) return `${time} tomorrow`;
  if (days === -1) return `${time} yesterday`;
  const day = date.toLocaleDateString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}),
  });
  return `${day}, ${time}`;
}

/** A moment in words, with the exact UTC instant on hover (like every time in the dashboard). */
function Moment({ value }: { value: string }) {
  const date = new Date(value);
  return (
    <time
      dateTime={date.toISOString()}
      title={date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}
    >
      {momentWords(value)}
    </time>
  );
}

function StatusWords({ status, expiresAt }: { status: DiscordRoleGrantStatus; expiresAt: string }) {
  switch (status) {
    case 'active':
      return (
        <span className="status sent">
          holds it until <Moment value={expiresAt} />
        </span>
      );
    case 'removed':
      return (
        <span>
          taken away{' '}
          <span className="muted">
            (expired <Moment value={expiresAt} />)
          </span>
        </span>
      );
    case 'not_member':
      return (
        <span className="status failed" title="The voter is not a member of your Discord server: no role was given">
          not in the server
        </span>
      );
  }
}

export function RoleGrants({ callbacks }: { callbacks: readonly { id: string; name: string }[] }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DiscordRoleGrantStatus | ''>('');
  const [{ data, error, fetching }] = useQuery({ query: RoleGrantsQuery, variables: { page, status: status || null }, requestPolicy: 'cache-and-network' });
  const list = data?.discordRoleGrants;
  const bot = data?.organization?.settings;
  const botReady = !!bot?.discordBotTokenSet && !!bot.discordGuildId;
  const nameOf = (id: string) => callbacks.find((c) => c.id === id)?.name;
  return (
    <section className="card role-grants" aria-labelledby="role-grants-title">
      <h2 id="role-grants-title">Vote roles</h2>
      <p className="muted">The Discord roles your Discord role callbacks gave: held ones first, soonest to expire first.</p>
      {bot && !botReady && (
        <p className="warn-text">
          No bot is set, so no role can be given: <Link to="/settings">set up your bot</Link> (its token and your server id) first.
        </p>
      )}
      <div className="row role-grants-filter">
        <label htmlFor="role-grants-status" style={{ margin: 0 }}>
          Show
        </label>
        <select
          id="role-grants-status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as DiscordRoleGrantStatus | '');
            setPage(1);
          }}
        >
          {STATUS_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {!list && !error && fetching && (
        <p className="loading" role="status">
          Loading the vote roles…
        </p>
      )}
      {list && list.grants.length === 0 && (
        <p className="empty">
          {status
            ? 'None in this state.'
            : "No vote role given yet. A voter gets the role when they vote on a site that sends their Discord id (a provider's discord_id_path; the Discord sites' templates set it) while they are in your server."}
        </p>
      )}
      {list && list.grants.length > 0 && (
        <div className="table-wrap">
          <table className="list role-grants-table" data-testid="role-grants">
            <thead>
              <tr>
                <th scope="col">Voter</th>
                <th scope="col">Discord id</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {list.grants.map((g) => (
                <tr key={`${g.callbackId}:${g.discordId}`}>
                  <td className="voter wrap-anywhere" data-label="Voter">
                    {g.voter}
                  </td>
                  <td className="discord-id" data-label="Discord id">
                    <code>{g.discordId}</code>
                  </td>
                  <td className="role" data-label="Role">
                    <code>{g.roleId}</code>
                    {nameOf(g.callbackId) && (
                      <>
                        {' '}
                        <span className="muted role-callback">from {nameOf(g.callbackId)}</span>
                      </>
                    )}
                  </td>
                  <td className="state" data-label="State">
                    <StatusWords status={g.status} expiresAt={g.expiresAt} />
                  </td>
                  <td className="last-error" data-label="Last error">
                    {/* A voter not in the server is the state itself, not a failure to fix. */}
                    {g.lastError ? <span className={g.status === 'not_member' ? 'muted' : 'error'}>{g.lastError}</span> : <span className="muted">none</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && list.total > list.limit && (
        <Pager page={list.page} pages={Math.ceil(list.total / list.limit)} total={list.total} onPage={setPage} noun="vote role" />
      )}
    </section>
  );
}
