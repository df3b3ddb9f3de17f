// Providers: the list (enabled toggle, votes today/total) and a new provider from the template catalogue, whose
// webhook URL and secret are shown once, beside the site's own setup steps; for a site with a vote list (top.gg),
// the API token that recovers missed votes (write-only) and how recovery stands.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { READ_ONLY_REASON, useAccess } from '../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../field-errors';
import { Time } from '../time';

const ProvidersQuery = graphql(`
  query Providers {
    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }
    templates { id slug name description websiteUrl authMethod authKeySource setupInstructions }
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

const EditProviderMutation = graphql(`
  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {
    updateProvider(key: $key, input: $input) { id key name webhookUrl }
  }
`);

const SetApiToken = graphql(`
  mutation SetProviderApiToken($key: String!, $apiToken: String) {
    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }
  }
`);

const SendTestVote = graphql(`
  mutation SendTestVote($key: String!) {
    sendTestVote(key: $key) { received voteId duplicate test ignored }
  }
`);

const CreateCustom = graphql(`
  mutation CreateCustomProvider($input: CreateProviderInput!) {
    createProvider(input: $input) { id key name authValue webhookUrl }
  }
`);

const CreateVotifier = graphql(`
  mutation CreateVotifierProvider($input: CreateProviderInput!) {
    createProvider(input: $input) { id key name webhookUrl votifier { host port publicKey token } }
  }
`);

const CreateFromTemplate = graphql(`
  mutation CreateProviderFromTemplate($input: CreateProviderInput!) {
    createProvider(input: $input) { id key name authValue webhookUrl votifier { host port publicKey token } }
  }
`);

export function Providers() {
  const access = useAccess();
  const readOnly = access.scope !== 'full';
  const [{ data, fetching }, refetch] = useQuery({ query: ProvidersQuery });
  const [, setEnabled] = useMutation(SetEnabled);
  const [, regenerate] = useMutation(Regenerate);
  const [, remove] = useMutation(DeleteProvider);
  const [, sendTest] = useMutation(SendTestVote);
  const [secret, setSecret] = useState<{ name: string; authValue: string; webhookUrl: string; votifier?: VotifierSetup | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  if (fetching && !data) return <p className="loading" role="status">Loading providers…</p>;
  const list = data?.providers;
  return (
    <>
      <h1>Providers</h1>
      {list && (
        <p className="muted">
          {list.count} of {list.limit} providers on your plan.
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {secret && (
        <div className="once card" role="status">
          <p>New secret of <strong>{secret.name}</strong>, shown only now. The old one stopped working: give the site the new one.</p>
          {secret.votifier ? <VotifierFields setup={secret.votifier} webhookUrl={secret.webhookUrl} idPrefix="regenerated" /> : (
            <>
              <CopyField label="Webhook URL" value={secret.webhookUrl} />
              <CopyField label="Secret" value={secret.authValue} />
            </>
          )}
          <button onClick={() => setSecret(null)}>Done</button>
        </div>
      )}
      {list && list.providers.length === 0 && <p className="empty">No provider yet: add one from a template below.</p>}
      {list && list.providers.length > 0 && (
        <div className="table-wrap"><table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Auth</th>
              <th scope="col" className="num">Today</th>
              <th scope="col" className="num">Total</th>
              <th scope="col">Enabled</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.providers.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td><code>{p.key}</code></td>
                <td>
                  {p.votifier ? (
                    <details>
                      <summary>votifier</summary>
                      <VotifierFields setup={p.votifier} idPrefix={`provider-${p.key}`} />
                    </details>
                  ) : p.authMethod}
                </td>
                <td className="num">{p.votesToday}</td>
                <td className="num">{p.votesTotal}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${p.name} enabled`}
                    checked={p.enabled}
                    disabled={readOnly}
                    title={readOnly ? READ_ONLY_REASON : undefined}
                    onChange={(e) => void setEnabled({ key: p.key, enabled: e.target.checked }).then(reload)}
                  />
                </td>
                <td className="row">
                  {p.template && (
                    <button disabled={readOnly} title={writeTitle ?? "Sends the site's example delivery, signed as the site signs it: a real vote, delivered like any"}
                      onClick={() => void sendTest({ key: p.key }).then((r) => {
                        const answer = r.data?.sendTestVote;
                        setNotice(answer ? `${p.name}: ${answer.test ? 'received as a test ping' : answer.ignored ? 'received and ignored (not a vote event)' : answer.duplicate ? `a duplicate of ${answer.voteId} (the same delivery within the duplicate window: change the body to send another)` : `recorded as vote ${answer.voteId}`}` : `${p.name}: ${r.error?.graphQLErrors[0]?.message ?? r.error?.message}`);
                        reload();
                      })}>
                      Test vote
                    </button>
                  )}
                  <button disabled={readOnly} title={writeTitle} aria-expanded={editing === p.id} onClick={() => setEditing(editing === p.id ? null : p.id)}>
                    Edit
                  </button>
                  <button disabled={readOnly} title={writeTitle}
                    onClick={() => window.confirm(`Generate a new secret for ${p.name}? The old one stops working at once.`) &&
                      void regenerate({ key: p.key }).then((r) => r.data?.regenerateProviderSecret && setSecret({ name: p.name, ...r.data.regenerateProviderSecret }))}>
                    New secret
                  </button>
                  <button disabled={readOnly} title={writeTitle}
                    onClick={() => window.confirm(`Delete ${p.name} and its ${p.votesTotal.toLocaleString()} vote(s)? This cannot be undone; its webhook URL stops accepting votes.`) &&
                      void remove({ key: p.key }).then((r) => { if (r.data?.deleteProvider) setNotice(`${r.data.deleteProvider.message} (${r.data.deleteProvider.votesDeleted} votes deleted).`); reload(); })}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
      {list?.providers.map((p) => p.recovery && (
        <Recovery key={p.id} provider={{ key: p.key, name: p.name, recovery: p.recovery }} readOnly={readOnly} onChanged={reload} />
      ))}
      {editing && list?.providers.some((p) => p.id === editing) && (
        <EditProvider key={editing} provider={list.providers.find((p) => p.id === editing)!}
          onDone={(message) => { setEditing(null); if (message) setNotice(message); reload(); }} />
      )}
      {data?.templates && <NewProvider templates={data.templates} readOnly={readOnly} onCreated={reload} />}
      <VotifierProvider readOnly={readOnly} onCreated={reload} />
      <CustomProvider readOnly={readOnly} onCreated={reload} />
    </>
  );
}

type RecoveryState = { enabled: boolean; checkedAt?: string | null; since?: string | null; error?: string | null };

/**
 * Missed votes of a site with a vote list (top.gg): the project's API token lets the service read that list back
 * after an outage. The token is write-only: the field starts empty, and saving sets or replaces it.
 */
function Recovery({ provider, readOnly, onChanged }: { provider: { key: string; name: string; recovery: RecoveryState }; readOnly: boolean; onChanged: () => void }) {
  const [token, setToken] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [result, save] = useMutation(SetApiToken);
  const errors = fieldErrorsOf(result.error);
  const { recovery } = provider;
  const id = `api-token-${provider.key}`;
  const change = async (apiToken: string | null) => {
    setNotice(null);
    const answer = await save({ key: provider.key, apiToken });
    if (answer.data?.updateProvider) {
      setToken('');
      setNotice(apiToken ? 'API token saved: missed votes are recovered from now on.' : 'API token removed: missed votes are no longer recovered.');
      onChanged();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change(token);
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Missed votes: {provider.name}</h2>
      <p className="muted">With the project's API token from the site, votes its webhook could not deliver (an outage) are read back from its vote list and delivered as recovered votes. The token is never shown again.</p>
      <dl className="facts" aria-label={`Recovery of ${provider.name}`}>
        <dt>Recovery</dt><dd>{recovery.enabled ? <span className="status sent">on</span> : 'off (no API token)'}</dd>
        <dt>Last checked</dt><dd><Time value={recovery.checkedAt} /></dd>
        <dt>Reads votes since</dt><dd><Time value={recovery.since} /></dd>
        <dt>Last error</dt><dd>{recovery.error ? <span className="error">{recovery.error}</span> : <span className="muted">none</span>}</dd>
      </dl>
      <form onSubmit={submit}>
        <label htmlFor={id}>{recovery.enabled ? `New ${provider.name} API token (replaces the current one)` : `${provider.name} API token`}</label>
        <input id={id} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} aria-invalid={!!errors.api_token} />
        <FieldErrors errors={errors} field="api_token" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching || !token.trim()} title={readOnly ? READ_ONLY_REASON : undefined}>Save API token</button>
          {recovery.enabled && (
            <button type="button" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined} onClick={() => void change(null)}>Remove API token</button>
          )}
        </div>
      </form>
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}

type Template = { id: string; slug: string; name: string; description: string; websiteUrl: string; authMethod: string; authKeySource?: string | null; setupInstructions: string };

function NewProvider({ templates, readOnly, onCreated }: { templates: Template[]; readOnly: boolean; onCreated: () => void }) {
  const [slug, setSlug] = useState(templates[0]?.slug ?? '');
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const [result, create] = useMutation(CreateFromTemplate);
  const [created, setCreated] = useState<{ name: string; authValue: string; webhookUrl: string; steps: string; votifier?: VotifierSetup | null } | null>(null);
  const template = templates.find((t) => t.slug === slug);
  const siteIssues = template && !template.authKeySource;
  const errors = fieldErrorsOf(result.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) return;
    const input = { template: template.slug, ...(key ? { key } : {}), ...(siteIssues ? { authValue: secret } : {}) };
    const answer = await create({ input });
    const made = answer.data?.createProvider;
    if (made) {
      setCreated({ name: made.name, authValue: made.authValue, webhookUrl: made.webhookUrl, steps: template.setupInstructions, votifier: made.votifier });
      setKey('');
      setSecret('');
      onCreated();
    }
  };
  return (
    <section className="card" aria-labelledby="new-provider-title">
      <h2 id="new-provider-title">Add a provider</h2>
      {created ? (
        <div className="once" role="status">
          <p>
            <strong>{created.name}</strong> is ready. Copy these now: the secret is shown only once.
          </p>
          {created.votifier ? <VotifierFields setup={created.votifier} webhookUrl={created.webhookUrl} idPrefix="template-created" /> : (
            <>
              <CopyField label="Webhook URL" value={created.webhookUrl} />
              <CopyField label="Secret" value={created.authValue} />
            </>
          )}
          <h3>Set it up on the site</h3>
          <p className="steps">{created.steps}</p>
          <button onClick={() => setCreated(null)}>Done</button>
        </div>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor="template">Voting site</label>
          <select id="template" value={slug} onChange={(e) => setSlug(e.target.value)}>
            {templates.map((t) => (
              <option key={t.slug} value={t.slug}>{t.name}</option>
            ))}
          </select>
          {template && <p className="muted">{template.description}</p>}
          <label htmlFor="provider-key">Key (optional, defaults to {template?.slug})</label>
          <input id="provider-key" value={key} onChange={(e) => setKey(e.target.value)} aria-invalid={!!errors.key} />
          <FieldErrors errors={errors} field="key" />
          {siteIssues && (
            <>
              <label htmlFor="provider-secret">Secret that {template?.name} gives you</label>
              <input id="provider-secret" value={secret} onChange={(e) => setSecret(e.target.value)} aria-invalid={!!errors.auth_value} />
              <FieldErrors errors={errors} field="auth_value" />
            </>
          )}
          <FieldErrors errors={errors} field="*" />
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Create provider
          </button>
          {readOnly && <p className="muted">{READ_ONLY_REASON}</p>}
        </form>
      )}
    </section>
  );
}

export function CopyField({ label, value, idPrefix = 'copy' }: { label: string; value: string; idPrefix?: string }) {
  const [copied, setCopied] = useState(false);
  const id = `${idPrefix}-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className="copy">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} />
      <button type="button" onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

type VotifierSetup = { host: string; port: number; publicKey: string; token?: string | null };

/** What a Votifier list asks for, each with a copy button; the token only where it is shown (creation, new secret). */
function VotifierFields({ setup, webhookUrl, idPrefix }: { setup: VotifierSetup; webhookUrl?: string; idPrefix: string }) {
  return (
    <>
      <CopyField label="Host" value={setup.host} idPrefix={idPrefix} />
      <CopyField label="Port" value={String(setup.port)} idPrefix={idPrefix} />
      <CopyField label="Public key (protocol v1)" value={setup.publicKey} idPrefix={idPrefix} />
      {setup.token && <CopyField label="Token (protocol v2)" value={setup.token} idPrefix={idPrefix} />}
      {webhookUrl && <CopyField label="Votifier over HTTP URL" value={webhookUrl} idPrefix={idPrefix} />}
    </>
  );
}

/**
 * A provider for Votifier lists (most Minecraft and several Hytale lists): the key pair and token are made by the
 * service; the list is given host, port, and the public key (v1) or the token (v2), shown here with copy buttons.
 */
function VotifierProvider({ readOnly, onCreated }: { readOnly: boolean; onCreated: () => void }) {
  const [form, setForm] = useState({ key: 'votifier', name: 'Votifier lists' });
  const [result, create] = useMutation(CreateVotifier);
  const [created, setCreated] = useState<{ name: string; webhookUrl: string; votifier: VotifierSetup } | null>(null);
  const errors = fieldErrorsOf(result.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const made = (await create({ input: { key: form.key, name: form.name, authMethod: 'votifier' } })).data?.createProvider;
    if (made?.votifier) {
      setCreated({ name: made.name, webhookUrl: made.webhookUrl, votifier: made.votifier });
      onCreated();
    }
  };
  return (
    <section className="card" aria-labelledby="votifier-provider-title">
      <h2 id="votifier-provider-title">Add a Votifier provider (Minecraft and Hytale lists)</h2>
      {created ? (
        <div className="once" role="status">
          <p><strong>{created.name}</strong> is ready. Type the host and port into each list, with the public key (protocol v1) or the token (v2). Copy the token now: it is shown only once.</p>
          <VotifierFields setup={created.votifier} webhookUrl={created.webhookUrl} idPrefix="votifier-created" />
          <button onClick={() => setCreated(null)}>Done</button>
        </div>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor="votifier-key">Votifier provider key</label>
          <input id="votifier-key" value={form.key} onChange={(e) => setForm({ ...form, key: e.target.value })} aria-invalid={!!errors.key} />
          <FieldErrors errors={errors} field="key" />
          <label htmlFor="votifier-name">Votifier provider name</label>
          <input id="votifier-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={!!errors.name} />
          <FieldErrors errors={errors} field="name" />
          <FieldErrors errors={errors} field="*" />
          <div className="row">
            <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>Create Votifier provider</button>
          </div>
        </form>
      )}
    </section>
  );
}

type AuthMethod = 'header' | 'query' | 'url_path' | 'hmac';
type AuthForm = { authField: string; signatureFormat: string; authTimestampField: string; payloadSource: string; voteePath: string };

const AUTH_FIELD_LABEL: Record<string, string> = {
  query: 'Query parameter carrying the secret',
  url_path: 'Name of the secret (shown only)',
  hmac: 'Signature header',
  header: 'Header carrying the secret',
};

/** The settings a provider's auth method reads (the same in the create and edit forms), each with its error. */
function AuthFields({ id, method, form, set, errors }: {
  id: string;
  method: string;
  form: AuthForm;
  set: (name: keyof AuthForm) => (e: { target: { value: string } }) => void;
  errors: FieldErrorMap;
}) {
  const hmac = method === 'hmac';
  return (
    <>
      <label htmlFor={`${id}-field`}>{AUTH_FIELD_LABEL[method] ?? 'Auth field'}</label>
      <input id={`${id}-field`} value={form.authField} onChange={set('authField')} aria-invalid={!!errors.auth_field} />
      <FieldErrors errors={errors} field="auth_field" />
      {hmac && (
        <>
          <label htmlFor={`${id}-format`}>Signature format</label>
          <select id={`${id}-format`} value={form.signatureFormat} onChange={set('signatureFormat')}>
            <option value="plain">HMAC of the body (hex or base64, optional sha256=)</option>
            <option value="topgg">top.gg style: t=&lt;unix&gt;,v1=&lt;hex&gt;</option>
          </select>
          <FieldErrors errors={errors} field="signature_format" />
          {form.signatureFormat === 'plain' && (
            <>
              <label htmlFor={`${id}-ts`}>Timestamp header (optional; then &lt;timestamp&gt;.&lt;body&gt; is signed and the header is required)</label>
              <input id={`${id}-ts`} value={form.authTimestampField} onChange={set('authTimestampField')} aria-invalid={!!errors.auth_timestamp_field} />
              <FieldErrors errors={errors} field="auth_timestamp_field" />
            </>
          )}
        </>
      )}
      <label htmlFor={`${id}-source`}>Votes are read from</label>
      <select id={`${id}-source`} value={form.payloadSource} onChange={set('payloadSource')}>
        <option value="json">a JSON body (POST)</option>
        <option value="form">a form body (POST)</option>
        {!hmac && <option value="query">the query string (GET)</option>}
      </select>
      <FieldErrors errors={errors} field="payload_source" />
      <label htmlFor={`${id}-votee`}>Voter name path</label>
      <input id={`${id}-votee`} value={form.voteePath} onChange={set('voteePath')} placeholder="user.name" aria-invalid={!!errors.votee_path} />
      <FieldErrors errors={errors} field="votee_path" />
    </>
  );
}
type EditableProvider = {
  key: string; name: string; authMethod: string; authField: string; authTimestampField?: string | null; signatureFormat?: string | null;
  payloadSource: string; voteePath: string; eventPath?: string | null; voteEvents?: string[] | null; testEvents?: string[] | null;
};

const listText = (list?: string[] | null) => (list ?? []).join(', ');
const textList = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * A provider's settings after creation: everything but its auth method and secret ("New secret" changes that).
 * A new key moves the webhook URL, so the form says so before saving.
 */
function EditProvider({ provider, onDone }: { provider: EditableProvider; onDone: (message?: string) => void }) {
  const [form, setForm] = useState({
    key: provider.key, name: provider.name, authField: provider.authField, authTimestampField: provider.authTimestampField ?? '',
    signatureFormat: provider.signatureFormat ?? 'plain', payloadSource: provider.payloadSource, voteePath: provider.voteePath,
    eventPath: provider.eventPath ?? '', voteEvents: listText(provider.voteEvents), testEvents: listText(provider.testEvents),
  });
  const [result, save] = useMutation(EditProviderMutation);
  const errors = fieldErrorsOf(result.error);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const hmac = provider.authMethod === 'hmac';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      ...(form.key !== provider.key ? { key: form.key } : {}),
      name: form.name,
      authField: form.authField,
      payloadSource: form.payloadSource as PayloadSource,
      voteePath: form.voteePath,
      ...(hmac ? { signatureFormat: form.signatureFormat as 'plain' | 'topgg', authTimestampField: form.authTimestampField || null } : {}),
      eventPath: form.eventPath || null,
      voteEvents: form.eventPath ? textList(form.voteEvents) : null,
      testEvents: form.eventPath ? textList(form.testEvents) : null,
    };
    const answer = await save({ key: provider.key, input });
    const saved = answer.data?.updateProvider;
    if (saved) onDone(saved.key !== provider.key ? `${saved.name} saved. Its webhook URL is now ${saved.webhookUrl}: give it to the site.` : `${saved.name} saved.`);
  };
  return (
    <section className="card" aria-labelledby="edit-provider-title">
      <h2 id="edit-provider-title">Edit {provider.name}</h2>
      <form onSubmit={submit}>
        <label htmlFor="edit-provider-name">Name</label>
        <input id="edit-provider-name" value={form.name} onChange={set('name')} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        <label htmlFor="edit-provider-key">Key</label>
        <input id="edit-provider-key" value={form.key} onChange={set('key')} aria-invalid={!!errors.key} />
        {form.key !== provider.key && <p className="warn-text">A new key moves this provider's webhook URL: the site must be given the new one.</p>}
        <FieldErrors errors={errors} field="key" />
        {provider.authMethod === 'votifier' ? (
          <p className="muted">A Votifier provider authenticates with its key pair and token: "New secret" makes new ones.</p>
        ) : (
          <AuthFields id="edit-provider" method={provider.authMethod} form={form} set={set} errors={errors} />
        )}
        <label htmlFor="edit-provider-event">Event path (optional: where the site names the event, e.g. type)</label>
        <input id="edit-provider-event" value={form.eventPath} onChange={set('eventPath')} aria-invalid={!!errors.event_path} />
        <FieldErrors errors={errors} field="event_path" />
        {form.eventPath && (
          <>
            <label htmlFor="edit-provider-vote-events">Events that are votes (comma-separated)</label>
            <input id="edit-provider-vote-events" value={form.voteEvents} onChange={set('voteEvents')} aria-invalid={!!errors.vote_events} />
            <FieldErrors errors={errors} field="vote_events" />
            <label htmlFor="edit-provider-test-events">Events that are test pings (comma-separated)</label>
            <input id="edit-provider-test-events" value={form.testEvents} onChange={set('testEvents')} aria-invalid={!!errors.test_events} />
            <FieldErrors errors={errors} field="test_events" />
          </>
        )}
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={result.fetching}>Save provider</button>
          <button type="button" className="link" onClick={() => onDone()}>Cancel</button>
        </div>
      </form>
    </section>
  );
}

type PayloadSource = 'json' | 'form' | 'query';

/** A provider for a site without a template: every auth setting by hand, with each field's rule beside it. */
function CustomProvider({ readOnly, onCreated }: { readOnly: boolean; onCreated: () => void }) {
  const [form, setForm] = useState({ key: '', name: '', authMethod: 'header' as AuthMethod, authField: 'Authorization', voteePath: '', payloadSource: 'json' as PayloadSource, signatureFormat: 'plain' as 'plain' | 'topgg', authTimestampField: '', authValue: '' });
  const [result, create] = useMutation(CreateCustom);
  const [created, setCreated] = useState<{ name: string; authValue: string; webhookUrl: string } | null>(null);
  const errors = fieldErrorsOf(result.error);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const hmac = form.authMethod === 'hmac';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      key: form.key,
      name: form.name,
      authMethod: form.authMethod,
      authField: form.authField,
      voteePath: form.voteePath,
      payloadSource: form.payloadSource,
      ...(hmac ? { signatureFormat: form.signatureFormat, ...(form.authTimestampField ? { authTimestampField: form.authTimestampField } : {}) } : {}),
      authValue: form.authValue || 'auto',
    };
    const answer = await create({ input });
    const made = answer.data?.createProvider;
    if (made) {
      setCreated({ name: made.name, authValue: made.authValue, webhookUrl: made.webhookUrl });
      onCreated();
    }
  };
  return (
    <section className="card" aria-labelledby="custom-provider-title">
      <h2 id="custom-provider-title">Add a custom provider</h2>
      {created ? (
        <div className="once" role="status">
          <p><strong>{created.name}</strong> is ready. Copy these now: the secret is shown only once.</p>
          <CopyField label="Webhook URL" value={created.webhookUrl} />
          <CopyField label="Secret" value={created.authValue} />
          <button onClick={() => setCreated(null)}>Done</button>
        </div>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor="custom-key">Key</label>
          <input id="custom-key" value={form.key} onChange={set('key')} aria-invalid={!!errors.key} placeholder="my-list" />
          <FieldErrors errors={errors} field="key" />
          <label htmlFor="custom-name">Name</label>
          <input id="custom-name" value={form.name} onChange={set('name')} aria-invalid={!!errors.name} />
          <FieldErrors errors={errors} field="name" />
          <label htmlFor="custom-method">Authentication</label>
          <select id="custom-method" value={form.authMethod} onChange={(e) => {
            const authMethod = e.target.value as AuthMethod;
            setForm({ ...form, authMethod, payloadSource: authMethod === 'query' ? 'query' : 'json', authField: authMethod === 'hmac' ? 'X-Signature' : authMethod === 'query' ? 'secret' : authMethod === 'url_path' ? 'secret' : 'Authorization' });
          }}>
            <option value="header">a secret in a header</option>
            <option value="query">a secret in the URL's query</option>
            <option value="url_path">a secret as the URL's last segment</option>
            <option value="hmac">an HMAC-SHA256 signature</option>
          </select>
          <AuthFields id="custom" method={form.authMethod} form={form} set={set} errors={errors} />
          <label htmlFor="custom-secret">Secret (leave empty to generate one)</label>
          <input id="custom-secret" value={form.authValue} onChange={set('authValue')} aria-invalid={!!errors.auth_value} />
          <FieldErrors errors={errors} field="auth_value" />
          <FieldErrors errors={errors} field="*" />
          <div className="row">
            <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>Create custom provider</button>
          </div>
        </form>
      )}
    </section>
  );
}
