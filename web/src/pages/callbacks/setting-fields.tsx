// A callback kind's own settings as form fields, drawn from the `callbackKinds` query (src/delivery/callback-kinds/
// on the server): one field per setting by its widget (text, password for a secret, number, checkbox, lines, json,
// textarea), its label, help as the hint, its placeholder, its default on a new callback, required marked. What was
// typed is kept as text (a checkbox's state) and turned into the setting's value on save: `settingsInput` sends only
// the settings given or changed, and says in words what does not parse. Nothing here names a kind.
import { graphql } from '../../gql';
import type { CallbackKindFieldsFragment, CallbackSettingFieldsFragment } from '../../gql/graphql';
import { FieldErrors, type FieldErrorMap } from '../../field-errors';
import type { TemplateVariable } from './event-fields';

export const CallbackSettingFields = graphql(`
  fragment CallbackSettingFields on CallbackSetting {
    name restName type label help required nullable secret readAs widget placeholder default
  }
`);

export const CallbackKindFields = graphql(`
  fragment CallbackKindFields on CallbackKindInfo {
    name label description events signed marksTests settings { ...CallbackSettingFields }
  }
`);

export type KindInfo = CallbackKindFieldsFragment;
export type SettingInfo = CallbackSettingFieldsFragment;

/** What was typed in each of a kind's fields, by setting name: text, or a checkbox's state. */
export type Drafts = Record<string, string | boolean>;

/** What a read of a callback shows of its settings, by Callback field (a setting's `readAs`). */
export type ShownSettings = Record<string, unknown>;

/** The kind's short name for sentences: its label before the colon ("Name" of "Name: what it sends"). */
export const shortLabel = (kind: Pick<KindInfo, 'label'>) => kind.label.split(':')[0].trim();

/**
 * A setting's help (a lower-case phrase), as a hint sentence: capitalized unless it starts with a name written as
 * code (rcon.port), and ended with a full stop.
 */
export const sentence = (text: string) => {
  if (!text) return text;
  const first = text.split(' ')[0];
  const start = /^[a-z][a-z’']*[,:;]?$/.test(first) ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
  return /[.!?]$/.test(start) ? start : `${start}.`;
};

const isCheckbox = (setting: SettingInfo) => setting.widget === 'checkbox' || setting.type === 'boolean';

/** A secret a read never shows: its readAs is the has<Name> flag. */
export const isWriteOnly = (setting: SettingInfo) => setting.secret && setting.readAs !== setting.name;

/** The text a field shows for a value (a JSON value pretty-printed, a list one item a line). */
export function draftOf(setting: SettingInfo, value: unknown): string | boolean {
  if (isCheckbox(setting)) return value === true;
  if (value === null || value === undefined) return '';
  if (setting.type === 'json') return JSON.stringify(value, null, 2);
  if (setting.type === 'strings' && Array.isArray(value)) return value.join('\n');
  return String(value);
}

/** A new callback's fields: each setting's default, or empty. */
export const newDrafts = (kind: KindInfo): Drafts => Object.fromEntries(kind.settings.map((s) => [s.name, draftOf(s, s.default)]));

/** An existing callback's fields: what a read shows of each setting; a secret's field starts empty (empty keeps it). */
export const editDrafts = (kind: KindInfo, shown: ShownSettings): Drafts =>
  Object.fromEntries(kind.settings.map((s) => [s.name, s.secret ? '' : draftOf(s, shown[s.readAs])]));

type Parsed = { empty: true } | { empty?: false; value: unknown } | { empty?: false; problem: string };

/** What was typed as the setting's value: nothing, a value, or what is wrong with it in words. */
export function parseDraft(setting: SettingInfo, draft: string | boolean): Parsed {
  if (typeof draft === 'boolean') return { value: draft };
  if (!draft.trim()) return { empty: true };
  switch (setting.type) {
    case 'boolean':
      return { value: draft === 'true' };
    case 'int':
      return /^\s*[-+]?\d+\s*$/.test(draft) ? { value: Number(draft) } : { problem: 'must be a whole number' };
    case 'strings': {
      const items = draft
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      return items.length > 0 ? { value: items } : { empty: true };
    }
    case 'json':
      try {
        return { value: JSON.parse(draft) };
      } catch (e) {
        return { problem: `is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
      }
    default:
      // A one-line field is trimmed (a pasted host or URL often ends in a space); a secret or a text block is kept as typed.
      return { value: setting.widget === 'text' ? draft.trim() : draft };
  }
}

/**
 * The settings to send: on a new callback, those typed or changed from their default (a default left as it is is the
 * server's to fill); on an edit, only those changed (a secret: only when typed; `removed` secrets are sent as null; a
 * cleared field that may be empty is sent as null). Problems are keyed by REST field, like the server's.
 */
export function settingsInput(
  settings: readonly SettingInfo[],
  drafts: Drafts,
  initial: Drafts,
  editing: boolean,
  removed: ReadonlySet<string>,
): { input: Record<string, unknown>; problems: FieldErrorMap } {
  const input: Record<string, unknown> = {};
  const problems: FieldErrorMap = {};
  for (const setting of settings) {
    if (removed.has(setting.name)) {
      input[setting.name] = null;
      continue;
    }
    const draft = drafts[setting.name] ?? draftOf(setting, null);
    if (draft === (initial[setting.name] ?? draftOf(setting, null))) continue;
    const parsed = parseDraft(setting, draft);
    if ('problem' in parsed) problems[setting.restName] = [parsed.problem];
    else if (!parsed.empty) input[setting.name] = parsed.value;
    else if (!editing || setting.secret) continue;
    else if (setting.nullable) input[setting.name] = null;
    else problems[setting.restName] = ['cannot be left empty: type a value, or leave it as it was'];
  }
  return { input, problems };
}

/**
 * The GraphQL read of one callback's settings of `kind`: the fields are the kind's (each setting's readAs), so a kind
 * added on the server is read without a change here. Field names come from the schema's own answer and are checked.
 */
export function settingsQueryOf(kind: KindInfo): string {
  const fields = [...new Set(kind.settings.map((s) => s.readAs))].filter((f) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(f));
  return `query CallbackSettings($id: ID!) { callback(id: $id) { id ${fields.join(' ')} } }`;
}

/** Whether the setting is a template that takes {{variables}} (its help says so). */
const takesVariables = (setting: SettingInfo) => setting.help.includes('{{');

/** The template variables of a vote, listed under a template setting. */
export function VoteVariables({ variables }: { variables: TemplateVariable[] }) {
  return (
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
  );
}

/**
 * One setting as a field. On an edit, a secret says whether it is set (from its has-flag, or the redacted form a read
 * shows) and stays as it is unless something is typed; a secret that may be removed has a box for that.
 */
export function SettingField({
  idPrefix,
  setting,
  draft,
  onChange,
  onBlur,
  errors,
  shown,
  removed,
  setRemoved,
  variables,
}: {
  idPrefix: string;
  setting: SettingInfo;
  draft: string | boolean;
  onChange: (draft: string | boolean) => void;
  onBlur?: () => void;
  errors: FieldErrorMap;
  /** An edit's current settings (null on a new callback). */
  shown: ShownSettings | null;
  removed: boolean;
  setRemoved: (removed: boolean) => void;
  variables: TemplateVariable[];
}) {
  const id = `${idPrefix}-${setting.name}`;
  const hintId = `${id}-hint`;
  const invalid = !!errors[setting.restName];
  const required = setting.required && !shown;
  const current = shown && setting.secret ? shown[setting.readAs] : undefined;
  // A secret's state on an edit: the has-flag, or the redacted form a read shows (e.g. a URL without its password).
  const isSet = shown && setting.secret ? (isWriteOnly(setting) ? current === true : current !== null && current !== undefined) : false;
  const hint = (
    <p id={hintId} className="hint">
      {sentence(setting.help)}
      {setting.type === 'strings' && ' One a line.'}
      {shown && setting.secret && (isSet ? ' Leave it empty to keep the one it has.' : '')}
      {shown && setting.secret && isSet && !isWriteOnly(setting) && typeof current === 'string' && (
        <>
          {' '}
          Now: <code>{current}</code>
        </>
      )}
    </p>
  );
  const status =
    shown && setting.secret ? (
      <span className={isSet ? 'badge secret-set' : 'badge'}>{isSet ? 'set' : 'not set'}</span>
    ) : required ? (
      <span className="badge required">required</span>
    ) : null;
  if (isCheckbox(setting)) {
    return (
      <div className="setting">
        <label className="row check-setting">
          <input
            id={id}
            type="checkbox"
            checked={draft === true}
            onChange={(e) => onChange(e.target.checked)}
            aria-describedby={hintId}
            aria-invalid={invalid}
          />
          {setting.label}
        </label>
        {hint}
        <FieldErrors errors={errors} field={setting.restName} />
      </div>
    );
  }
  const text = typeof draft === 'string' ? draft : '';
  const common = {
    id,
    value: text,
    placeholder: setting.placeholder ?? (shown && isSet ? 'unchanged' : undefined),
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    onBlur,
    'aria-invalid': invalid,
    'aria-describedby': hintId,
    'aria-required': required || undefined,
    disabled: removed,
  };
  let control;
  switch (setting.widget) {
    case 'password':
      control = <input {...common} type="password" autoComplete="new-password" className="setting-text" />;
      break;
    case 'number':
      control = <input {...common} type="number" inputMode="numeric" className="setting-number" />;
      break;
    case 'lines':
      // One value a line: a long line scrolls rather than seeming to be two values.
      control = <textarea {...common} className="short" wrap="off" spellCheck={false} />;
      break;
    case 'json':
      // As tall as its text (within reason): a template is read whole.
      control = <textarea {...common} rows={Math.min(16, Math.max(5, text.split('\n').length + 1))} wrap="off" spellCheck={false} />;
      break;
    case 'textarea':
      control = <textarea {...common} className="short" spellCheck={false} />;
      break;
    default:
      control = <input {...common} type="text" autoComplete="off" className="setting-text" spellCheck={false} />;
  }
  return (
    <div className="setting">
      <label htmlFor={id}>
        {setting.label} {status}
      </label>
      {control}
      {hint}
      {shown && setting.secret && setting.nullable && isSet && (
        <label className="row check-setting">
          <input type="checkbox" checked={removed} onChange={(e) => setRemoved(e.target.checked)} aria-label={`Remove ${setting.label}`} /> Remove it
        </label>
      )}
      <FieldErrors errors={errors} field={setting.restName} />
      {takesVariables(setting) && <VoteVariables variables={variables} />}
    </div>
  );
}
