// The one callback form, for a new callback and for an edit. What every kind shares is fixed here (name, timeout on
// an edit, the providers it takes and its rate, its events); the kind's own part is drawn from the kind's settings
// (./setting-fields.tsx), so a kind added on the server needs no change here. A new callback picks its kind (by label;
// a kind cannot change afterwards) and starts from each setting's default; an edit starts from what the callback has
// (a secret only says whether it is set). Saving sends the kind's settings that were typed or changed, nothing else.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { CallbackEvent, CallbackKind, CreateCallbackInput, UpdateCallbackInput } from '../../gql/graphql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { beyondVotes, EventFields, eventsFor, perEventSettingsOf, type TemplateVariable } from './event-fields';
import {
  editDrafts,
  newDrafts,
  parseDraft,
  sentence,
  SettingField,
  settingsInput,
  type Drafts,
  type KindInfo,
  type SettingInfo,
  type ShownSettings,
} from './setting-fields';

const CreateCallback = graphql(`
  mutation CreateCallback($input: CreateCallbackInput!) {
    createCallback(input: $input) { signingSecret callback { id name kind } }
  }
`);
export const UpdateCallback = graphql(`
  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {
    updateCallback(id: $id, input: $input) { id name target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt }
  }
`);

/** A provider a callback may take: its key is what the API stores, its name what people read. */
export type ProviderOption = { key: string; name: string };

/** What an edit starts from besides the kind's settings: the fields every kind shares. */
export type EditedCallback = {
  id: string;
  name: string;
  kind: CallbackKind;
  timeoutMs: number;
  providers: string[];
  maxPerSecond?: number | null;
  events: CallbackEvent[];
};

/**
 * The providers a callback takes, as checkboxes (none ticked: every provider, those added later too), and its
 * optional rate.
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
            <span>
              {p.name} <code>{p.key}</code>
            </span>
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
        className="setting-number"
      />
      <FieldErrors errors={errors} field="max_per_second" />
    </>
  );
}

export function CallbackForm({
  kinds,
  providers,
  variables,
  readOnly,
  editing,
  onCreated,
  onDone,
}: {
  kinds: readonly KindInfo[];
  providers: ProviderOption[];
  variables: TemplateVariable[];
  readOnly: boolean;
  /** The callback edited and what a read shows of its settings; absent: a new callback. */
  editing?: { callback: EditedCallback; shown: ShownSettings };
  onCreated?: (name: string, kind: KindInfo, signingSecret: string | null) => void;
  /** An edit saved or cancelled. */
  onDone?: () => void;
}) {
  const id = editing ? 'edit' : 'callback';
  const [kindName, setKindName] = useState<CallbackKind>(editing?.callback.kind ?? kinds[0].name);
  const kind = kinds.find((k) => k.name === kindName) ?? kinds[0];
  const initialOf = (k: KindInfo): Drafts => (editing ? editDrafts(k, editing.shown) : newDrafts(k));
  const initial = initialOf(kind);
  // What does not parse (JSON, a whole number), found here before anything is sent; keyed by REST field like the server's.
  const [problems, setProblems] = useState<FieldErrorMap>({});
  // What was typed, per kind: picking another kind and back keeps it.
  const [drafts, setDrafts] = useState<Partial<Record<CallbackKind, Drafts>>>({});
  const kindDrafts = drafts[kind.name] ?? initial;
  // What is typed drops the field's problem at once (so leaving the field moves nothing under the pointer).
  const setDraft = (setting: SettingInfo, value: string | boolean) => {
    setDrafts((all) => ({ ...all, [kind.name]: { ...(all[kind.name] ?? initial), [setting.name]: value } }));
    if (problems[setting.restName]) setProblems(({ [setting.restName]: _fixed, ...rest }) => rest);
  };
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [name, setName] = useState(editing?.callback.name ?? '');
  const [timeoutMs, setTimeoutMs] = useState(String(editing?.callback.timeoutMs ?? ''));
  const [chosen, setChosen] = useState<string[]>(editing?.callback.providers ?? []);
  const [rate, setRate] = useState(editing?.callback.maxPerSecond ? String(editing.callback.maxPerSecond) : '');
  const [events, setEvents] = useState<CallbackEvent[]>(editing?.callback.events ?? ['vote']);
  const [created, create] = useMutation(CreateCallback);
  const [updated, update] = useMutation(UpdateCallback);
  const result = editing ? updated : created;
  const errors: FieldErrorMap = { ...fieldErrorsOf(result.error), ...problems };
  // The per-event settings (a payload per event) stand under the events, asked for (and sent) only while an event
  // beyond a vote is ticked; left hidden, they stay as they are.
  const perEvent = perEventSettingsOf(kind);
  const own = kind.settings.filter((s) => !perEvent.includes(s));
  const sent = beyondVotes(kind, events) ? [...own, ...perEvent] : own;

  /** A JSON field says what is wrong with it as soon as it is left. */
  const checkOne = (setting: SettingInfo) => {
    const draft = kindDrafts[setting.name];
    const parsed = draft === undefined || draft === initial[setting.name] ? null : parseDraft(setting, draft);
    if (parsed && 'problem' in parsed) setProblems((now) => ({ ...now, [setting.restName]: [parsed.problem] }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { input: settings, problems: found } = settingsInput(sent, kindDrafts, initial, !!editing, removed);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const taken = eventsFor(kind, events);
    if (editing) {
      const input: UpdateCallbackInput = {
        ...(settings as Partial<UpdateCallbackInput>),
        name,
        timeoutMs: Number(timeoutMs),
        providers: chosen,
        maxPerSecond: rate.trim() ? Number(rate) : null,
        events: taken,
      };
      const answer = await update({ id: editing.callback.id, input });
      if (answer.data?.updateCallback) onDone?.();
      return;
    }
    const input: CreateCallbackInput = {
      ...(settings as Partial<CreateCallbackInput>),
      name,
      kind: kind.name,
      events: taken,
      ...(chosen.length > 0 ? { providers: chosen } : {}),
      ...(rate.trim() ? { maxPerSecond: Number(rate) } : {}),
    };
    const answer = await create({ input });
    const made = answer.data?.createCallback;
    if (made) {
      setName('');
      setDrafts({});
      setChosen([]);
      setRate('');
      setEvents(['vote']);
      onCreated?.(made.callback.name, kind, made.signingSecret ?? null);
    }
  };

  const field = (setting: SettingInfo) => (
    <SettingField
      key={`${kind.name}-${setting.name}`}
      idPrefix={id}
      setting={setting}
      draft={kindDrafts[setting.name] ?? ''}
      onChange={(value) => setDraft(setting, value)}
      onBlur={setting.type === 'json' ? () => checkOne(setting) : undefined}
      errors={errors}
      shown={editing?.shown ?? null}
      removed={removed.has(setting.name)}
      setRemoved={(on) =>
        setRemoved((now) => {
          const next = new Set(now);
          if (on) next.add(setting.name);
          else next.delete(setting.name);
          return next;
        })
      }
      variables={variables}
    />
  );

  const title = editing ? `Edit ${editing.callback.name}` : 'Add a callback';
  return (
    <section className="card callback-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <form onSubmit={submit} noValidate>
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} className="setting-text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        {editing ? (
          <p className="muted kind-fixed">
            Kind: <strong>{kind.label}</strong> (a callback keeps its kind)
          </p>
        ) : (
          <>
            <label htmlFor={`${id}-kind`}>Kind</label>
            <select id={`${id}-kind`} value={kind.name} onChange={(e) => setKindName(e.target.value as CallbackKind)} aria-describedby={`${id}-kind-hint`}>
              {kinds.map((k) => (
                <option key={k.name} value={k.name}>
                  {k.label}
                </option>
              ))}
            </select>
            <p id={`${id}-kind-hint`} className="hint">
              {sentence(kind.description)}
            </p>
            <FieldErrors errors={errors} field="kind" />
          </>
        )}
        {own.map(field)}
        {editing && (
          <>
            <label htmlFor={`${id}-timeout`}>Timeout (ms)</label>
            <input
              id={`${id}-timeout`}
              type="number"
              inputMode="numeric"
              className="setting-number"
              value={timeoutMs}
              onChange={(e) => setTimeoutMs(e.target.value)}
              aria-invalid={!!errors.timeout_ms}
            />
            <FieldErrors errors={errors} field="timeout_ms" />
          </>
        )}
        <RoutingFields id={id} providers={providers} chosen={chosen} setChosen={setChosen} rate={rate} setRate={setRate} errors={errors} />
        <EventFields
          id={id}
          kind={kind}
          kinds={kinds}
          chosen={events}
          setChosen={setEvents}
          perEvent={perEvent}
          drafts={kindDrafts}
          setDraft={setDraft}
          onBlur={checkOne}
          editing={!!editing}
          variables={variables}
          errors={errors}
        />
        <FieldErrors errors={errors} field="*" />
        <div className="row form-actions">
          {editing ? (
            <>
              <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
                Save
              </button>
              <button type="button" className="link" onClick={onDone}>
                Cancel
              </button>
            </>
          ) : (
            <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
              Create callback
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
