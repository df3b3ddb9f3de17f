// Game servers behind NAT: plugin tokens that poll GET /v1/plugin/votes (create shows the token once, revoke,
// connection state, votes waiting).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { READ_ONLY_REASON, useAccess } from '../access';
import { FieldErrors, fieldErrorsOf } from '../field-errors';
import { Time } from '../time';
import { plural } from '../plural';
import { CopyField } from '../copy-field';

const TokensQuery = graphql(`
  query PluginTokens { pluginTokens { waiting tokens { id name prefix connection lastPollAt createdAt } } }
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
      {list && <p>{plural(list.waiting, 'vote')} waiting to be pulled.</p>}
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
