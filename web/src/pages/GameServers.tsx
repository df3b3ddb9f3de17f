// Game servers behind NAT: plugin tokens that poll GET /v1/plugin/votes (create shows the token once, revoke,
// connection state, votes waiting, and the votes each token parked for offline players, with the players' names).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { READ_ONLY_REASON, useAccess } from '../access';
import { FieldErrors, fieldErrorsOf } from '../field-errors';
import { Time } from '../time';
import { plural } from '../plural';
import { CopyField } from '../copy-field';
import { Pager } from '../pager';

const TokensQuery = graphql(`
  query PluginTokens { pluginTokens { waiting parked tokens { id name prefix connection lastPollAt createdAt parked } } }
`);
const ParkedQuery = graphql(`
  query ParkedVotes($tokenId: ID!, $page: Int) {
    parkedVotes(tokenId: $tokenId, page: $page, limit: 50) { page pages total votes { id voterName providerName receivedAt parkedAt test } }
  }
`);
const CreateToken = graphql(`
  mutation CreatePluginToken($name: String!) { createPluginToken(name: $name) { id name token } }
`);
const RevokeToken = graphql(`
  mutation RevokePluginToken($id: ID!) { revokePluginToken(id: $id) { id } }
`);

export function GameServers() {
  const readOnly = useAccess().scope !== 'full';
  const [{ data }, refetch] = useQuery({ query: TokensQuery });
  const [created, create] = useMutation(CreateToken);
  const [, revoke] = useMutation(RevokeToken);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const errors = fieldErrorsOf(created.error);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ name });
    if (answer.data?.createPluginToken) {
      setShown(answer.data.createPluginToken.token);
      setName('');
      reload();
    }
  };
  const list = data?.pluginTokens;
  return (
    <div className="stack">
      <h1>Game servers</h1>
      <p className="muted">
        A server behind NAT polls <code>GET /v1/plugin/votes</code> with a plugin token and claims each vote once its reward is given.
      </p>
      {list && (
        <p>
          {plural(list.waiting, 'vote')} waiting to be pulled
          {list.parked > 0 ? `; ${plural(list.parked, 'vote')} parked for players who were offline (returned when they join)` : ''}.
        </p>
      )}
      {shown && (
        <div className="once card" role="status">
          <p>The plugin token, shown only now: put it in the server's plugin configuration.</p>
          <CopyField label="Plugin token" value={shown} />
          <button type="button" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      {list && list.tokens.length === 0 && <p className="empty">No plugin token yet.</p>}
      {list && list.tokens.length > 0 && (
        <div className="table-wrap">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Connection</th>
                <th scope="col">Last poll</th>
                <th scope="col" className="num">
                  Parked
                </th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>
                    <span className={`status ${t.connection === 'connected' ? 'sent' : t.connection === 'intermittent' ? 'retrying' : 'failed'}`}>
                      {t.connection}
                    </span>
                  </td>
                  <td>
                    <Time value={t.lastPollAt} />
                  </td>
                  <td className="num">
                    {t.parked === 0 ? (
                      '0'
                    ) : (
                      <button type="button" className="link" aria-expanded={open === t.id} onClick={() => setOpen(open === t.id ? null : t.id)}>
                        {plural(t.parked, 'vote')}
                      </button>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      disabled={readOnly}
                      title={readOnly ? READ_ONLY_REASON : undefined}
                      onClick={() => window.confirm(`Revoke ${t.name}? The server stops receiving votes.`) && void revoke({ id: t.id }).then(reload)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && list?.tokens.some((t) => t.id === open) && <ParkedVotes tokenId={open} tokenName={list.tokens.find((t) => t.id === open)!.name} />}
      <form className="row" onSubmit={submit}>
        <label htmlFor="token-name" style={{ margin: 0 }}>
          New token for
        </label>
        <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="server name" aria-invalid={!!errors.name} />
        <button type="submit" disabled={readOnly || created.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
          Create token
        </button>
      </form>
      <FieldErrors errors={errors} field="name" />
      <FieldErrors errors={errors} field="*" />
    </div>
  );
}

/** The votes one token's plugin parked for offline players: each waits for its player's next join. */
function ParkedVotes({ tokenId, tokenName }: { tokenId: string; tokenName: string }) {
  const [page, setPage] = useState(1);
  const [{ data, error }] = useQuery({ query: ParkedQuery, variables: { tokenId, page } });
  const parked = data?.parkedVotes;
  return (
    <section className="card stack" aria-label={`Votes parked by ${tokenName}`}>
      <h2>Parked by {tokenName}</h2>
      <p className="muted">
        The plugin reported these players offline (<code>player_offline</code>). Each vote waits, without retries, until the plugin asks for that player's votes
        when they join (<code>GET /v1/plugin/votes?player=…</code>).
      </p>
      {error && <p role="alert">{error.message}</p>}
      {parked && parked.votes.length === 0 && <p className="empty">Nothing parked now.</p>}
      {parked && parked.votes.length > 0 && (
        <div className="table-wrap">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Player</th>
                <th scope="col">Site</th>
                <th scope="col">Voted</th>
                <th scope="col" className="num">
                  Parked
                </th>
              </tr>
            </thead>
            <tbody>
              {parked.votes.map((v) => (
                <tr key={v.id}>
                  <td>
                    {v.voterName}
                    {v.test && <span className="badge test-badge">test</span>}
                  </td>
                  <td>{v.providerName}</td>
                  <td>
                    <Time value={v.receivedAt} />
                  </td>
                  <td>
                    <Time value={v.parkedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {parked && parked.pages > 1 && <Pager page={parked.page} pages={parked.pages} total={parked.total} onPage={setPage} />}
    </section>
  );
}
