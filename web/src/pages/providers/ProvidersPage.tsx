// Providers: the list (enabled toggle, votes today/total) with, per provider, a test vote, its request log, edit, a
// new secret (shown once) and delete; "Add provider" leads to the one add flow; for a site with a vote list
// (top.gg), the API token that recovers missed votes.
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON, useAccess } from '../../access';
import { CopyButton, CopyField } from '../../copy-field';
import { Breakable } from '../../breakable';
import { plural } from '../../plural';
import { EditProvider } from './EditProvider';
import { Recovery } from './Recovery';
import { TestVote } from './TestVote';
import { VotifierFields, type VotifierSetup } from './votifier-fields';
import { ReachWarning } from './reach-warning';

const ProvidersQuery = graphql(`
  query Providers {
    organization { hookAddressWarning votifierAddressWarning }
    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }
  }
`);

const SetEnabled = graphql(`
  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {
    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }
  }
`);

const Regenerate = graphql(`
  mutation RegenerateProviderSecret($key: String!) {
    regenerateProviderSecret(key: $key) { authValue webhookUrl votifier { host port publicKey token } }
  }
`);

const DeleteProvider = graphql(`
  mutation DeleteProvider($key: String!) {
    deleteProvider(key: $key) { message votesDeleted }
  }
`);

/** Which panel is open below the table: one at a time, for one provider. */
type Open = { panel: 'edit' | 'test'; id: string } | null;

export function Providers() {
  const access = useAccess();
  const readOnly = access.scope !== 'full';
  const [{ data, fetching }, refetch] = useQuery({ query: ProvidersQuery });
  const [, setEnabled] = useMutation(SetEnabled);
  const [, regenerate] = useMutation(Regenerate);
  const [, remove] = useMutation(DeleteProvider);
  const [secret, setSecret] = useState<{ name: string; authValue: string; webhookUrl: string; votifier?: VotifierSetup | null } | null>(null);
  const [notice, setNotice] = useState<ReactNode>(null);
  const [open, setOpen] = useState<Open>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  const toggle = (panel: 'edit' | 'test', id: string) => setOpen(open?.panel === panel && open.id === id ? null : { panel, id });
  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading providers…
      </p>
    );
  const list = data?.providers;
  const opened = open && list?.providers.find((p) => p.id === open.id);
  return (
    <>
      <h1>Providers</h1>
      <div className="row page-actions">
        <Link to="/providers/new" className="button">
          Add provider
        </Link>
        <Link to="/providers/unmatched">Requests that matched no provider</Link>
      </div>
      {list && (
        <p className="muted">
          {list.count} of {plural(list.limit, 'provider')} on your plan.
        </p>
      )}
      {list && list.providers.length > 0 && (
        <ReachWarning
          warnings={{ hooks: data?.organization?.hookAddressWarning ?? null, votifier: data?.organization?.votifierAddressWarning ?? null }}
          votifier={list.providers.some((p) => p.votifier)}
          subject="these providers' addresses"
        />
      )}
      {notice && <p role="status">{notice}</p>}
      {secret && (
        <div className="once card" role="status">
          <p>
            New secret of <strong>{secret.name}</strong>, shown only now. The old one stopped working: give the site the new one.
          </p>
          {secret.votifier ? (
            <VotifierFields setup={secret.votifier} webhookUrl={secret.webhookUrl} idPrefix="regenerated" />
          ) : (
            <>
              <CopyField label="Webhook URL" value={secret.webhookUrl} />
              <CopyField label="Secret" value={secret.authValue} />
            </>
          )}
          <button type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      {list && list.providers.length === 0 && (
        <p className="empty">
          No provider yet: <Link to="/providers/new">add the first one</Link> (pick the voting site, and the page says what to paste where).
        </p>
      )}
      {list && list.providers.length > 0 && (
        <div className="table-wrap">
          <table className="list providers-table phone-cards" data-testid="providers-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Auth</th>
                <th scope="col" className="num">
                  Today
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">Enabled</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.providers.map((p) => (
                <tr key={p.id}>
                  {/* With its webhook URL: a whole line of the card on a phone. */}
                  <td className={p.votifier ? undefined : 'full'} data-label="Name">
                    {p.name}
                    {!p.votifier && (
                      <details className="hook-url">
                        <summary>Webhook URL</summary>
                        <div className="hook-url-value">
                          {/* A part too long for a phone's width (a secret in the path) scrolls in this box, which the keyboard reaches. */}
                          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard (WCAG 2.1.1) */}
                          <section className="hook-url-box" aria-label={`${p.name}'s webhook URL`} tabIndex={0}>
                            <code data-testid={`webhook-url-${p.key}`}>
                              <Breakable text={p.webhookUrl} />
                            </code>
                          </section>
                          <CopyButton value={p.webhookUrl} label={`Copy ${p.name}'s webhook URL`} className="secondary" />
                        </div>
                      </details>
                    )}
                  </td>
                  <td data-label="Key">
                    <code>{p.key}</code>
                  </td>
                  <td data-label="Auth">
                    {p.votifier ? (
                      <details>
                        <summary>votifier</summary>
                        <VotifierFields setup={p.votifier} idPrefix={`provider-${p.key}`} />
                      </details>
                    ) : (
                      p.authMethod
                    )}
                  </td>
                  <td className="num" data-label="Today">
                    {p.votesToday}
                  </td>
                  <td className="num" data-label="Total">
                    {p.votesTotal}
                  </td>
                  <td data-label="Enabled">
                    <input
                      type="checkbox"
                      aria-label={`${p.name} enabled`}
                      checked={p.enabled}
                      disabled={readOnly}
                      title={writeTitle}
                      onChange={(e) => void setEnabled({ key: p.key, enabled: e.target.checked }).then(reload)}
                    />
                  </td>
                  <td className="full">
                    <div className="actions">
                      <button
                        type="button"
                        disabled={readOnly}
                        title={writeTitle ?? `Send a test vote through ${p.name}'s webhook (recorded as a test, no reward)`}
                        aria-expanded={open?.panel === 'test' && open.id === p.id}
                        onClick={() => toggle('test', p.id)}
                      >
                        Test vote
                      </button>
                      <Link to={`/providers/${encodeURIComponent(p.key)}/requests`} className="button secondary">
                        Requests
                      </Link>
                      <button
                        type="button"
                        className="secondary"
                        disabled={readOnly}
                        title={writeTitle}
                        aria-expanded={open?.panel === 'edit' && open.id === p.id}
                        onClick={() => toggle('edit', p.id)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        disabled={readOnly}
                        title={writeTitle}
                        onClick={() =>
                          window.confirm(`Generate a new secret for ${p.name}? The old one stops working at once.`) &&
                          void regenerate({ key: p.key }).then(
                            (r) => r.data?.regenerateProviderSecret && setSecret({ name: p.name, ...r.data.regenerateProviderSecret }),
                          )
                        }
                      >
                        New secret
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        disabled={readOnly}
                        title={writeTitle}
                        onClick={() =>
                          window.confirm(
                            `Delete ${p.name} and its ${plural(p.votesTotal, 'vote')}? This cannot be undone; its webhook URL stops accepting votes.`,
                          ) &&
                          void remove({ key: p.key }).then((r) => {
                            if (r.data?.deleteProvider)
                              setNotice(`${r.data.deleteProvider.message} (${plural(r.data.deleteProvider.votesDeleted, 'vote')} deleted).`);
                            reload();
                          })
                        }
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="stack">
        {opened && open?.panel === 'test' && <TestVote key={opened.id} provider={opened} readOnly={readOnly} onClose={() => setOpen(null)} onSent={reload} />}
        {opened && open?.panel === 'edit' && (
          <EditProvider
            key={opened.id}
            provider={opened}
            onDone={(message) => {
              setOpen(null);
              if (message) setNotice(message);
              reload();
            }}
          />
        )}
        {list?.providers.map(
          (p) => p.recovery && <Recovery key={p.id} provider={{ key: p.key, name: p.name, recovery: p.recovery }} readOnly={readOnly} onChanged={reload} />,
        )}
      </div>
    </>
  );
}
