// Callbacks: HTTP callbacks (signed POSTs to a game server) and Votifier ones; create, enable/disable (with the
// reason when it was disabled automatically), priority, the providers and events each takes (./event-fields.tsx) and
// its rate, payload template with a preview from the test endpoint, rotate the signing secret (shown once), resend a
// window of votes, delete.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON, useAccess } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { Time } from '../../time';
import { plural } from '../../plural';
import { CopyField } from '../../copy-field';
import type { CallbackEvent, CallbackKind } from '../../gql/graphql';
import { EventFields, eventsFor, parseEventTemplates, type TemplateVariable } from './event-fields';

const CallbacksQuery = graphql(`
  query Callbacks {
    callbacks(includeDisabled: true) { count limit callbacks {
      id name kind url host port serviceName hasToken publicKey enabled priority timeoutMs payloadTemplate eventTemplates events providers allProviders maxPerSecond disabledReason disabledAt
    } }
    callbackVariables { name description example events }
    providers { providers { key name } }
  }
`);
const CreateCallback = graphql(`
  mutation CreateCallback($input: CreateCallbackInput!) {
    createCallback(input: $input) { signingSecret callback { id name } }
  }
`);
const UpdateCallback = graphql(`
  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {
    updateCallback(id: $id, input: $input) { id enabled priority events eventTemplates providers allProviders maxPerSecond disabledReason disabledAt }
  }
`);
const DeleteCallback = graphql(`
  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }
`);
const RotateSecret = graphql(`
  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }
`);
const TestCallback = graphql(`
  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload } }
`);
const ReplayCallback = graphql(`
  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {
    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }
  }
`);

const DEFAULT_TEMPLATE =
  '{\n  "event": "vote",\n  "vote_id": "{{vote_id}}",\n  "voter_name": "{{voter_name}}",\n  "provider": "{{provider_key}}",\n  "received_at": "{{received_at}}"\n}';

/** The payload template as typed: its value, or the problem shown beside the field (nothing is sent then). */
function parseTemplate(text: string): { value: unknown; problem: null } | { value?: undefined; problem: string } {
  try {
    return { value: JSON.parse(text), problem: null };
  } catch {
    return { problem: 'payload_template: is not valid JSON' };
  }
}

/** A provider a callback may take: its key is what the API stores, its name what people read. */
type ProviderOption = { key: string; name: string };

export function Callbacks() {
  const readOnly = useAccess().scope !== 'full';
  const [{ data, fetching }, refetch] = useQuery({ query: CallbacksQuery });
  const [, update] = useMutation(UpdateCallback);
  const [, remove] = useMutation(DeleteCallback);
  const [, rotate] = useMutation(RotateSecret);
  const [test, runTest] = useMutation(TestCallback);
  // A new callback or secret: an HTTP callback's signing secret is shown once; a Votifier one has none.
  const [secret, setSecret] = useState<{ name: string; value: string | null } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  // An enable or disable the service refused (enabling one whose providers were deleted asks for its providers).
  const [toggleErrors, setToggleErrors] = useState<Record<string, FieldErrorMap>>({});
  const reload = () => refetch({ requestPolicy: 'network-only' });
  if (fetching && !data)
    return (
      <p className="loading" role="status">
        Loading callbacks…
      </p>
    );
  const list = data?.callbacks;
  const providers = data?.providers?.providers ?? [];
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  const setEnabled = async (id: string, enabled: boolean) => {
    const answer = await update({ id, input: { enabled } });
    setToggleErrors((current) => ({ ...current, [id]: fieldErrorsOf(answer.error) }));
    reload();
  };
  const replayed = replaying ? list?.callbacks.find((c) => c.id === replaying) : undefined;
  return (
    <div className="stack">
      <h1>Callbacks</h1>
      {list && (
        <p className="muted">
          {list.count} of {list.limit} callbacks on your plan. Each vote is sent to every enabled callback that takes its provider, lowest priority first.
        </p>
      )}
      {secret && (
        <div className="once card" role="status">
          {secret.value ? (
            <>
              <p>
                New signing secret of <strong>{secret.name}</strong> (shown once; verify deliveries with any Standard Webhooks library):
              </p>
              <CopyField label="Signing secret" value={secret.value} />
            </>
          ) : (
            <p>
              <strong>{secret.name}</strong> is ready. A Votifier callback is not signed: it has no signing secret.
            </p>
          )}
          <button type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      {list && list.callbacks.length === 0 && <p className="empty">No callback yet.</p>}
      {list && list.callbacks.length > 0 && (
        <div className="table-wrap">
          <table className="list" data-testid="callbacks-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Target</th>
                <th scope="col">Providers</th>
                <th scope="col">Events</th>
                <th scope="col" className="num">
                  Rate
                </th>
                <th scope="col" className="num">
                  Priority
                </th>
                <th scope="col">Enabled</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.callbacks.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{c.kind}</td>
                  <td className="target">{c.kind === 'votifier' ? `${c.host}:${c.port}` : c.url}</td>
                  <td>
                    {c.allProviders
                      ? 'All providers'
                      : c.providers.length === 0
                        ? 'None (its providers were deleted)'
                        : c.providers.map((key, i) => (
                            <span key={key}>
                              {i > 0 && ', '}
                              <code>{key}</code>
                            </span>
                          ))}
                  </td>
                  <td>
                    {c.events.map((event, i) => (
                      <span key={event}>
                        {i > 0 && ', '}
                        <code>{event}</code>
                      </span>
                    ))}
                  </td>
                  <td className="num">{c.maxPerSecond ? `${c.maxPerSecond}/s` : <span className="muted">no limit</span>}</td>
                  <td className="num">
                    <input
                      type="number"
                      aria-label={`${c.name} priority`}
                      defaultValue={c.priority}
                      disabled={readOnly}
                      title={writeTitle}
                      style={{ width: '5rem' }}
                      onBlur={(e) =>
                        Number(e.target.value) !== c.priority && void update({ id: c.id, input: { priority: Number(e.target.value) } }).then(reload)
                      }
                    />
                  </td>
                  <td className={c.disabledReason ? 'reason' : undefined}>
                    <input
                      type="checkbox"
                      aria-label={`${c.name} enabled`}
                      checked={c.enabled}
                      disabled={readOnly}
                      title={writeTitle}
                      onChange={(e) => void setEnabled(c.id, e.target.checked)}
                    />
                    {!c.enabled && c.disabledReason && (
                      <>
                        <p className="warn-text">
                          Disabled automatically
                          {c.disabledAt && (
                            <>
                              {' '}
                              on <Time value={c.disabledAt} />
                            </>
                          )}
                          : {c.disabledReason}
                        </p>
                        <button
                          type="button"
                          disabled={readOnly}
                          title={writeTitle ?? 'Its held votes are sent again'}
                          onClick={() => void setEnabled(c.id, true)}
                        >
                          Enable again
                        </button>
                      </>
                    )}
                    {Object.keys(toggleErrors[c.id] ?? {}).map((field) => (
                      <FieldErrors key={field} errors={toggleErrors[c.id]} field={field} />
                    ))}
                  </td>
                  <td className="row">
                    <button
                      type="button"
                      disabled={readOnly}
                      title={writeTitle ?? 'The request a vote would send, with sample values (nothing is sent)'}
                      onClick={() => void runTest({ id: c.id })}
                    >
                      Preview
                    </button>
                    <button
                      type="button"
                      disabled={readOnly}
                      title={writeTitle}
                      aria-expanded={editing === c.id}
                      onClick={() => setEditing(editing === c.id ? null : c.id)}
                    >
                      Edit
                    </button>
                    {/* A replay sends real deliveries: a read key is not offered it at all. */}
                    {!readOnly && (
                      <button
                        type="button"
                        aria-expanded={replaying === c.id}
                        title="Deliver the votes of a time window to this callback again"
                        onClick={() => setReplaying(replaying === c.id ? null : c.id)}
                      >
                        Resend since…
                      </button>
                    )}
                    {c.kind === 'http' && (
                      <button
                        type="button"
                        disabled={readOnly}
                        title={writeTitle}
                        onClick={() =>
                          void rotate({ id: c.id }).then(
                            (r) => r.data?.rotateCallbackSecret && setSecret({ name: c.name, value: r.data.rotateCallbackSecret.signingSecret }),
                          )
                        }
                      >
                        Rotate secret
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={readOnly}
                      title={writeTitle}
                      onClick={() =>
                        window.confirm(`Delete the callback ${c.name}? Votes already sent stay in the delivery log.`) && void remove({ id: c.id }).then(reload)
                      }
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && list?.callbacks.some((c) => c.id === editing) && (
        <EditCallback
          key={editing}
          callback={list.callbacks.find((c) => c.id === editing)!}
          providers={providers}
          variables={data?.callbackVariables ?? []}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {!readOnly && replayed && <ResendCallback key={replayed.id} callback={replayed} onClose={() => setReplaying(null)} />}
      {test.data?.testCallback && (
        <section className="card" aria-label="Preview">
          <h2>
            Preview: {test.data.testCallback.method} {test.data.testCallback.url}
          </h2>
          <pre data-testid="callback-preview">{JSON.stringify(test.data.testCallback.payload, null, 2)}</pre>
        </section>
      )}
      <NewCallback
        readOnly={readOnly}
        variables={data?.callbackVariables ?? []}
        providers={providers}
        onCreated={(name, value) => {
          setSecret({ name, value });
          reload();
        }}
      />
    </div>
  );
}

/**
 * The providers a callback takes, as checkboxes (none ticked: every provider, those added later too), and its
 * optional rate; the same in the create and edit forms.
 */
function RoutingFields({
  id,
  providers,
  chosen,
  setChosen,
  rate,
  setRate,
  errors,
}: {
  id: string;
  providers: ProviderOption[];
  chosen: string[];
  setChosen: (keys: string[]) => void;
  rate: string;
  setRate: (rate: string) => void;
  errors: FieldErrorMap;
}) {
  return (
    <>
      <fieldset className="choices" aria-describedby={`${id}-providers-summary`}>
        <legend>Providers it takes</legend>
        {providers.map((p) => (
          <label key={p.key} className="row" style={{ fontWeight: 500 }}>
            <input
              type="checkbox"
              checked={chosen.includes(p.key)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, p.key] : chosen.filter((key) => key !== p.key))}
            />
            {p.name} <code>{p.key}</code>
          </label>
        ))}
        <p id={`${id}-providers-summary`} className="muted" aria-live="polite">
          {chosen.length === 0
            ? 'All providers: none is ticked, so it takes every vote (from providers added later too).'
            : `Only votes from ${chosen.join(', ')}.`}
        </p>
        <FieldErrors errors={errors} field="providers" />
      </fieldset>
      <label htmlFor={`${id}-rate`}>Max deliveries per second (optional, 1 to 1000; empty: no limit)</label>
      <input
        id={`${id}-rate`}
        type="number"
        inputMode="numeric"
        value={rate}
        onChange={(e) => setRate(e.target.value)}
        aria-invalid={!!errors.max_per_second}
        style={{ width: '8rem' }}
      />
      <FieldErrors errors={errors} field="max_per_second" />
    </>
  );
}

/** A local date-time input's value (the browser's zone) as the ISO 8601 instant the API takes; empty stays empty. */
const isoFromLocal = (value: string) => (value ? new Date(value).toISOString() : '');

/**
 * "Resend since…": every vote received in [since, until) is queued to this callback again (each a new delivery,
 * paced like any other), or only those whose last delivery to it failed.
 */
function ResendCallback({ callback, onClose }: { callback: { id: string; name: string; providers: string[]; enabled: boolean }; onClose: () => void }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [result, replay] = useMutation(ReplayCallback);
  const errors = fieldErrorsOf(result.error);
  const queued = result.data?.replayCallback?.queued;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void replay({ id: callback.id, since: isoFromLocal(since), until: until ? isoFromLocal(until) : null, onlyFailed });
  };
  return (
    <section className="card" aria-labelledby="resend-callback-title">
      <h2 id="resend-callback-title">Resend votes to {callback.name}</h2>
      <p className="muted">
        Every vote received in the window{callback.providers.length > 0 ? ` from ${callback.providers.join(', ')}` : ''} is delivered to this callback again,
        each as a new delivery. Times are in your time zone.
      </p>
      {!callback.enabled && <p className="warn-text">{callback.name} is disabled: enable it first (its held votes resume then).</p>}
      <form onSubmit={submit}>
        <label htmlFor="resend-since">Since</label>
        <input id="resend-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} aria-invalid={!!errors.since} />
        <FieldErrors errors={errors} field="since" />
        <label htmlFor="resend-until">Until (optional; empty: now)</label>
        <input id="resend-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} aria-invalid={!!errors.until} />
        <FieldErrors errors={errors} field="until" />
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={onlyFailed} onChange={(e) => setOnlyFailed(e.target.checked)} /> Only failed deliveries (votes whose last delivery to
          it failed)
        </label>
        <FieldErrors errors={errors} field="only_failed" />
        <FieldErrors errors={errors} field="enabled" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={result.fetching || !callback.enabled}>
            Resend votes
          </button>
          <button type="button" className="link" onClick={onClose}>
            Close
          </button>
        </div>
        {queued !== undefined && !result.error && (
          <p role="status">
            {plural(queued, 'vote')} queued{queued > 0 ? `: ${callback.name} receives them again shortly.` : ' (none in that window).'}
          </p>
        )}
      </form>
    </section>
  );
}

function NewCallback({
  readOnly,
  variables,
  providers,
  onCreated,
}: {
  readOnly: boolean;
  variables: TemplateVariable[];
  providers: ProviderOption[];
  onCreated: (name: string, secret: string | null) => void;
}) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<CallbackKind>('http');
  const [url, setUrl] = useState('');
  const [votifier, setVotifier] = useState({ host: '', port: '8192', serviceName: 'VoteRelay', token: '', publicKey: '' });
  const [template, setTemplate] = useState(DEFAULT_TEMPLATE);
  const [templateProblem, setTemplateProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [rate, setRate] = useState('');
  const [events, setEvents] = useState<CallbackEvent[]>(['vote']);
  const [eventTemplates, setEventTemplates] = useState('');
  const [eventTemplatesProblem, setEventTemplatesProblem] = useState<string | null>(null);
  const [result, create] = useMutation(CreateCallback);
  const errors = fieldErrorsOf(result.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const routing = {
      ...(chosen.length > 0 ? { providers: chosen } : {}),
      ...(rate.trim() ? { maxPerSecond: Number(rate) } : {}),
      events: eventsFor(kind, events),
    };
    let input;
    if (kind === 'votifier') {
      input = {
        ...routing,
        name,
        kind,
        host: votifier.host,
        port: Number(votifier.port),
        serviceName: votifier.serviceName,
        ...(votifier.token ? { token: votifier.token } : {}),
        ...(votifier.publicKey ? { publicKey: votifier.publicKey } : {}),
      };
    } else {
      const parsed = parseTemplate(template);
      const parsedEvents = parseEventTemplates(events.some((e) => e !== 'vote') ? eventTemplates : '');
      setTemplateProblem(parsed.problem);
      setEventTemplatesProblem(parsedEvents.problem);
      if (parsed.problem !== null || parsedEvents.problem !== null) return;
      input = { ...routing, name, url, payloadTemplate: parsed.value, ...(parsedEvents.value ? { eventTemplates: parsedEvents.value } : {}) };
    }
    const answer = await create({ input });
    const made = answer.data?.createCallback;
    if (made) {
      setName('');
      setUrl('');
      setChosen([]);
      setRate('');
      setEvents(['vote']);
      setEventTemplates('');
      onCreated(made.callback.name, made.signingSecret);
    }
  };
  return (
    <section className="card" aria-labelledby="new-callback-title">
      <h2 id="new-callback-title">Add a callback</h2>
      <form onSubmit={submit}>
        <label htmlFor="callback-name">Name</label>
        <input id="callback-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        <label htmlFor="callback-kind">Kind</label>
        <select id="callback-kind" value={kind} onChange={(e) => setKind(e.target.value as CallbackKind)}>
          <option value="http">HTTP: a signed POST to your server</option>
          <option value="votifier">Votifier: to a NuVotifier / Votifier port</option>
        </select>
        {kind === 'votifier' ? (
          <>
            <label htmlFor="votifier-host">Host</label>
            <input id="votifier-host" value={votifier.host} onChange={(e) => setVotifier({ ...votifier, host: e.target.value })} aria-invalid={!!errors.host} />
            <FieldErrors errors={errors} field="host" />
            <label htmlFor="votifier-port">Port</label>
            <input
              id="votifier-port"
              type="number"
              value={votifier.port}
              onChange={(e) => setVotifier({ ...votifier, port: e.target.value })}
              aria-invalid={!!errors.port}
            />
            <FieldErrors errors={errors} field="port" />
            <label htmlFor="votifier-service">Service name (the server's tokens: entry)</label>
            <input id="votifier-service" value={votifier.serviceName} onChange={(e) => setVotifier({ ...votifier, serviceName: e.target.value })} />
            <FieldErrors errors={errors} field="service_name" />
            <label htmlFor="votifier-token">Token (protocol v2, from NuVotifier's config.yml)</label>
            <input
              id="votifier-token"
              value={votifier.token}
              onChange={(e) => setVotifier({ ...votifier, token: e.target.value })}
              aria-invalid={!!errors.token}
            />
            <FieldErrors errors={errors} field="token" />
            <label htmlFor="votifier-key">or public key (protocol v1, rsa/public.key; v1 has no acknowledgement)</label>
            <textarea
              id="votifier-key"
              value={votifier.publicKey}
              onChange={(e) => setVotifier({ ...votifier, publicKey: e.target.value })}
              aria-invalid={!!errors.public_key}
            />
            <FieldErrors errors={errors} field="public_key" />
          </>
        ) : (
          <>
            <label htmlFor="callback-url">URL</label>
            <input
              id="callback-url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://mc.example.com/vote"
              aria-invalid={!!errors.url}
              style={{ width: '100%' }}
            />
            <FieldErrors errors={errors} field="url" />
            <label htmlFor="callback-template">Payload template (JSON)</label>
            <textarea
              id="callback-template"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
              aria-invalid={!!(templateProblem || errors.payload_template)}
            />
            {templateProblem && (
              <p className="field-error" role="alert">
                {templateProblem}
              </p>
            )}
            <FieldErrors errors={errors} field="payload_template" />
            <details>
              <summary>Variables</summary>
              <ul>
                {variables
                  .filter((v) => v.events.includes('vote'))
                  .map((v) => (
                    <li key={v.name}>
                      <code>{`{{${v.name}}}`}</code>: {v.description} <span className="muted">(e.g. {v.example})</span>
                    </li>
                  ))}
              </ul>
            </details>
          </>
        )}
        <RoutingFields id="callback" providers={providers} chosen={chosen} setChosen={setChosen} rate={rate} setRate={setRate} errors={errors} />
        <EventFields
          id="callback"
          kind={kind}
          chosen={events}
          setChosen={setEvents}
          templates={eventTemplates}
          setTemplates={setEventTemplates}
          templatesProblem={eventTemplatesProblem}
          variables={variables}
          errors={errors}
        />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Create callback
          </button>
        </div>
      </form>
    </section>
  );
}

type EditableCallback = {
  id: string;
  name: string;
  kind: string;
  url?: string | null;
  timeoutMs: number;
  payloadTemplate: unknown;
  host?: string | null;
  port?: number | null;
  serviceName?: string | null;
  hasToken: boolean;
  publicKey?: string | null;
  providers: string[];
  maxPerSecond?: number | null;
  events: CallbackEvent[];
  eventTemplates?: unknown;
};

/**
 * A callback's settings changed in place, errors beside each field: an HTTP callback's name, URL, timeout and
 * payload template; a Votifier callback's name, host, port, service name, timeout and its v2 token or v1 public
 * key (a new one replaces the other; the token is never shown, so an empty field keeps it); for both, the
 * providers and events it takes and its rate (an HTTP one's event payloads too). The providers are always sent:
 * saving with none ticked is choosing all of them (which is what a callback whose providers were all deleted needs
 * before it can be enabled again).
 */
function EditCallback({
  callback,
  providers,
  variables,
  onDone,
}: {
  callback: EditableCallback;
  providers: ProviderOption[];
  variables: TemplateVariable[];
  onDone: () => void;
}) {
  const votifier = callback.kind === 'votifier';
  const [name, setName] = useState(callback.name);
  const [url, setUrl] = useState(callback.url ?? '');
  const [timeoutMs, setTimeoutMs] = useState(String(callback.timeoutMs));
  const [template, setTemplate] = useState(JSON.stringify(callback.payloadTemplate, null, 2));
  const [target, setTarget] = useState({
    host: callback.host ?? '',
    port: String(callback.port ?? 8192),
    serviceName: callback.serviceName ?? '',
    token: '',
    publicKey: callback.publicKey ?? '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>(callback.providers);
  const [rate, setRate] = useState(callback.maxPerSecond ? String(callback.maxPerSecond) : '');
  const [events, setEvents] = useState<CallbackEvent[]>(callback.events);
  const [eventTemplates, setEventTemplates] = useState(callback.eventTemplates ? JSON.stringify(callback.eventTemplates, null, 2) : '');
  const [eventTemplatesProblem, setEventTemplatesProblem] = useState<string | null>(null);
  const [result, update] = useMutation(UpdateCallback);
  const errors = fieldErrorsOf(result.error);
  const kind: CallbackKind = votifier ? 'votifier' : 'http';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const routing = { providers: chosen, maxPerSecond: rate.trim() ? Number(rate) : null, events: eventsFor(kind, events) };
    let input;
    if (votifier) {
      input = {
        ...routing,
        name,
        timeoutMs: Number(timeoutMs),
        host: target.host,
        port: Number(target.port),
        serviceName: target.serviceName,
        ...(target.token ? { token: target.token } : {}),
        ...(!target.token && target.publicKey && target.publicKey !== callback.publicKey ? { publicKey: target.publicKey } : {}),
      };
    } else {
      const parsed = parseTemplate(template);
      // With only votes ticked the event payloads are hidden, and left as they are.
      const beyondVotes = events.some((e) => e !== 'vote');
      const parsedEvents = parseEventTemplates(beyondVotes ? eventTemplates : '');
      setProblem(parsed.problem);
      setEventTemplatesProblem(parsedEvents.problem);
      if (parsed.problem !== null || parsedEvents.problem !== null) return;
      input = {
        ...routing,
        name,
        url,
        timeoutMs: Number(timeoutMs),
        payloadTemplate: parsed.value,
        ...(beyondVotes ? { eventTemplates: parsedEvents.value } : {}),
      };
    }
    const answer = await update({ id: callback.id, input });
    if (answer.data?.updateCallback) onDone();
  };
  return (
    <section className="card" aria-labelledby="edit-callback-title">
      <h2 id="edit-callback-title">Edit {callback.name}</h2>
      <form onSubmit={submit}>
        <label htmlFor="edit-name">Name</label>
        <input id="edit-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        {votifier ? (
          <>
            <label htmlFor="edit-host">Host</label>
            <input id="edit-host" value={target.host} onChange={(e) => setTarget({ ...target, host: e.target.value })} aria-invalid={!!errors.host} />
            <FieldErrors errors={errors} field="host" />
            <label htmlFor="edit-port">Port</label>
            <input
              id="edit-port"
              type="number"
              value={target.port}
              onChange={(e) => setTarget({ ...target, port: e.target.value })}
              aria-invalid={!!errors.port}
            />
            <FieldErrors errors={errors} field="port" />
            <label htmlFor="edit-service">Service name</label>
            <input
              id="edit-service"
              value={target.serviceName}
              onChange={(e) => setTarget({ ...target, serviceName: e.target.value })}
              aria-invalid={!!errors.service_name}
            />
            <FieldErrors errors={errors} field="service_name" />
            <label htmlFor="edit-token">{callback.hasToken ? 'New v2 token (empty keeps the current one)' : 'v2 token (replaces the public key)'}</label>
            <input
              id="edit-token"
              value={target.token}
              onChange={(e) => setTarget({ ...target, token: e.target.value })}
              aria-invalid={!!errors.token}
              autoComplete="off"
            />
            <FieldErrors errors={errors} field="token" />
            <label htmlFor="edit-public-key">v1 public key{callback.hasToken ? ' (replaces the token)' : ''}</label>
            <textarea
              id="edit-public-key"
              value={target.publicKey}
              onChange={(e) => setTarget({ ...target, publicKey: e.target.value })}
              aria-invalid={!!errors.public_key}
            />
            <FieldErrors errors={errors} field="public_key" />
          </>
        ) : (
          <>
            <label htmlFor="edit-url">URL</label>
            <input id="edit-url" value={url} onChange={(e) => setUrl(e.target.value)} style={{ width: '100%' }} aria-invalid={!!errors.url} />
            <FieldErrors errors={errors} field="url" />
          </>
        )}
        <label htmlFor="edit-timeout">Timeout (ms)</label>
        <input id="edit-timeout" type="number" value={timeoutMs} onChange={(e) => setTimeoutMs(e.target.value)} aria-invalid={!!errors.timeout_ms} />
        <FieldErrors errors={errors} field="timeout_ms" />
        {!votifier && (
          <>
            <label htmlFor="edit-template">Payload template (JSON)</label>
            <textarea id="edit-template" value={template} onChange={(e) => setTemplate(e.target.value)} aria-invalid={!!(problem || errors.payload_template)} />
            {problem && (
              <p className="field-error" role="alert">
                {problem}
              </p>
            )}
            <FieldErrors errors={errors} field="payload_template" />
          </>
        )}
        <RoutingFields id="edit" providers={providers} chosen={chosen} setChosen={setChosen} rate={rate} setRate={setRate} errors={errors} />
        <EventFields
          id="edit"
          kind={kind}
          chosen={events}
          setChosen={setEvents}
          templates={eventTemplates}
          setTemplates={setEventTemplates}
          templatesProblem={eventTemplatesProblem}
          variables={variables}
          errors={errors}
        />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={result.fetching}>
            Save
          </button>
          <button type="button" className="link" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
