// Callbacks: where each vote (and event) is sent. The list (each callback's target, providers, events, rate,
// priority and whether it is enabled, with the reason when it was disabled automatically), a preview of what a
// delivery would send, "Resend since…", rotating the signing secret of a kind that signs (shown once), delete; and one
// form for a new callback and for an edit (./callback-form.tsx) whose kind-specific part is drawn from the kinds'
// settings (the callbackKinds query), so no kind is named here. While the organization has a discord_role callback,
// the vote roles it gave are listed under the list (./role-grants.tsx).
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON, useAccess } from '../../access';
import { Breakable } from '../../breakable';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { Time } from '../../time';
import { plural } from '../../plural';
import { CopyField } from '../../copy-field';
import { CallbackForm, UpdateCallback, type EditedCallback, type ProviderOption } from './callback-form';
import type { TemplateVariable } from './event-fields';
import { settingsQueryOf, shortLabel, type KindInfo, type ShownSettings } from './setting-fields';
import { RoleGrants } from './role-grants';

const CallbacksQuery = graphql(`
  query Callbacks {
    callbacks(includeDisabled: true) { count limit callbacks {
      id name kind target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt
    } }
    callbackKinds { ...CallbackKindFields }
    callbackVariables { name description example events }
    providers { providers { key name } }
  }
`);
const DeleteCallback = graphql(`
  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }
`);
const RotateSecret = graphql(`
  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }
`);
const TestCallback = graphql(`
  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload sent message } }
`);
const ReplayCallback = graphql(`
  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {
    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }
  }
`);

/** A comma-separated list of codes (provider keys, events). */
function Codes({ items }: { items: readonly string[] }) {
  return (
    <>
      {items.map((item, i) => (
        <span key={item}>
          {i > 0 && ', '}
          <code>{item}</code>
        </span>
      ))}
    </>
  );
}

export function Callbacks() {
  const readOnly = useAccess().scope !== 'full';
  const [{ data, fetching, error }, refetch] = useQuery({ query: CallbacksQuery });
  const [, update] = useMutation(UpdateCallback);
  const [, remove] = useMutation(DeleteCallback);
  const [, rotate] = useMutation(RotateSecret);
  const [test, runTest] = useMutation(TestCallback);
  // A new callback or secret: a signing kind's secret is shown once; a kind that does not sign has none.
  const [secret, setSecret] = useState<{ name: string; kind: string; value: string | null } | null>(null);
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
  const kinds = data?.callbackKinds ?? [];
  const kindOf = (name: string) => kinds.find((k) => k.name === name);
  const providers = data?.providers?.providers ?? [];
  const variables = data?.callbackVariables ?? [];
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  const setEnabled = async (id: string, enabled: boolean) => {
    const answer = await update({ id, input: { enabled } });
    setToggleErrors((current) => ({ ...current, [id]: fieldErrorsOf(answer.error) }));
    reload();
  };
  const replayed = replaying ? list?.callbacks.find((c) => c.id === replaying) : undefined;
  const edited = editing ? list?.callbacks.find((c) => c.id === editing) : undefined;
  const editedKind = edited ? kindOf(edited.kind) : undefined;
  return (
    <div className="stack">
      <h1>Callbacks</h1>
      {error && !data && <FieldErrors errors={fieldErrorsOf(error)} field="*" />}
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
              <strong>{secret.name}</strong> is ready. A {secret.kind} callback is not signed: it has no signing secret.
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
          <table className="list callbacks-table" data-testid="callbacks-table">
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
                  <td className="name" data-label="Name">
                    {c.name}
                  </td>
                  <td className="kind" data-label="Kind" title={kindOf(c.kind)?.label}>
                    {kindOf(c.kind) ? shortLabel(kindOf(c.kind)!) : c.kind}
                  </td>
                  <td className="target" data-label="Target">
                    <Breakable text={c.target} />
                  </td>
                  <td className="providers" data-label="Providers">
                    {c.allProviders ? 'All providers' : c.providers.length === 0 ? 'None (its providers were deleted)' : <Codes items={c.providers} />}
                  </td>
                  <td className="events" data-label="Events">
                    <Codes items={c.events} />
                  </td>
                  <td className="num rate" data-label="Rate">
                    {c.maxPerSecond ? `${c.maxPerSecond}/s` : <span className="muted">no limit</span>}
                  </td>
                  <td className="num priority" data-label="Priority">
                    <input
                      type="number"
                      className="priority-input"
                      aria-label={`${c.name} priority`}
                      defaultValue={c.priority}
                      disabled={readOnly}
                      title={writeTitle}
                      onBlur={(e) =>
                        Number(e.target.value) !== c.priority && void update({ id: c.id, input: { priority: Number(e.target.value) } }).then(reload)
                      }
                    />
                  </td>
                  <td className={c.disabledReason ? 'enabled reason' : 'enabled'} data-label="Enabled">
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
                  <td className="callback-actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        disabled={readOnly}
                        title={writeTitle ?? 'What a delivery would send, with sample values (no vote is delivered)'}
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
                          className="secondary"
                          aria-expanded={replaying === c.id}
                          title="Deliver the votes of a time window to this callback again"
                          onClick={() => setReplaying(replaying === c.id ? null : c.id)}
                        >
                          Resend since…
                        </button>
                      )}
                      {kindOf(c.kind)?.signed && (
                        <button
                          type="button"
                          className="secondary"
                          disabled={readOnly}
                          title={writeTitle ?? 'A new signing secret (shown once); the one it replaces is still accepted for a while'}
                          onClick={() =>
                            void rotate({ id: c.id }).then(
                              (r) =>
                                r.data?.rotateCallbackSecret &&
                                setSecret({ name: c.name, kind: shortLabel(kindOf(c.kind)!), value: r.data.rotateCallbackSecret.signingSecret }),
                            )
                          }
                        >
                          Rotate secret
                        </button>
                      )}
                      <button
                        type="button"
                        className="secondary"
                        disabled={readOnly}
                        title={writeTitle}
                        onClick={() =>
                          window.confirm(`Delete the callback ${c.name}? Votes already sent stay in the delivery log.`) &&
                          void remove({ id: c.id }).then(reload)
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
      {edited && editedKind && (
        <EditCallback
          key={edited.id}
          callback={edited}
          kind={editedKind}
          kinds={kinds}
          providers={providers}
          variables={variables}
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
            {test.data.testCallback.sent ? 'Test' : 'Preview'}: {test.data.testCallback.method} <Breakable text={test.data.testCallback.url} />
          </h2>
          {test.data.testCallback.message && <p role="status">{test.data.testCallback.message}</p>}
          <pre data-testid="callback-preview" className="preview-payload">
            {JSON.stringify(test.data.testCallback.payload, null, 2)}
          </pre>
        </section>
      )}
      <FieldErrors errors={fieldErrorsOf(test.error)} field="*" />
      {list?.callbacks.some((c) => c.kind === 'discord_role') && <RoleGrants callbacks={list.callbacks} />}
      {kinds.length > 0 && (
        <CallbackForm
          kinds={kinds}
          readOnly={readOnly}
          variables={variables}
          providers={providers}
          onCreated={(name, kind, value) => {
            setSecret({ name, kind: shortLabel(kind), value });
            reload();
          }}
        />
      )}
    </div>
  );
}

/**
 * An edit: the callback's settings are read first (the fields of its kind, from the kind's own list, so a kind added
 * on the server is read as it is), then the form starts from them. It comes into view when opened.
 */
function EditCallback({
  callback,
  kind,
  kinds,
  providers,
  variables,
  onDone,
}: {
  callback: EditedCallback;
  kind: KindInfo;
  kinds: readonly KindInfo[];
  providers: ProviderOption[];
  variables: TemplateVariable[];
  onDone: () => void;
}) {
  const query = useMemo(() => settingsQueryOf(kind), [kind]);
  const [{ data, error }] = useQuery<{ callback: ShownSettings | null }, { id: string }>({
    query,
    variables: { id: callback.id },
    requestPolicy: 'network-only',
  });
  const ref = useRef<HTMLDivElement>(null);
  const shown = data?.callback;
  useEffect(() => {
    if (shown) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  return (
    <div ref={ref}>
      {shown ? (
        <CallbackForm kinds={kinds} providers={providers} variables={variables} readOnly={false} editing={{ callback, shown }} onDone={onDone} />
      ) : (
        <section className="card" aria-label={`Edit ${callback.name}`}>
          {error ? <FieldErrors errors={fieldErrorsOf(error)} field="*" /> : <p className="loading">Loading {callback.name}…</p>}
        </section>
      )}
    </div>
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
