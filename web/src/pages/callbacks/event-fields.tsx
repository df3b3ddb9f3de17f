// The events a callback takes (vote, milestone, vote_party, reminder; README "Rewards"), as checkboxes in the create
// and edit forms: only the events its kind carries (callbackKinds: events) are offered. A kind's per-event settings
// (a JSON setting named event<Something>, {milestone?, vote_party?, reminder?}: HTTP's eventTemplates, a payload per
// event) stand here, under the boxes, while an event beyond a vote is ticked, with the variables of the ticked events.
import type { CallbackEvent } from '../../gql/graphql';
import { FieldErrors, type FieldErrorMap } from '../../field-errors';
import { SettingField, shortLabel, type Drafts, type KindInfo, type SettingInfo } from './setting-fields';

export const CALLBACK_EVENTS: { event: CallbackEvent; text: string }[] = [
  { event: 'vote', text: 'each vote' },
  { event: 'milestone', text: 'a voter reaches a milestone (Settings → Rewards)' },
  { event: 'vote_party', text: 'each vote party (Settings → Rewards)' },
  { event: 'reminder', text: "a voter's cooldown ended and they have not voted again" },
];

/**
 * A kind's settings that hold something per event beyond a vote, keyed by event ({milestone?, vote_party?,
 * reminder?}): by the settings' naming, a JSON setting named event<Something> (eventTemplates: a payload per event).
 */
export const perEventSettingsOf = (kind: KindInfo): SettingInfo[] => kind.settings.filter((s) => s.type === 'json' && /^event[A-Z]/.test(s.name));

/** The events a callback of `kind` takes of those ticked (a box ticked under another kind is dropped). */
export const eventsFor = (kind: KindInfo, chosen: CallbackEvent[]) => chosen.filter((e) => kind.events.includes(e));

/** Whether an event beyond a vote is ticked (the per-event settings are asked for, and sent, only then). */
export const beyondVotes = (kind: KindInfo, chosen: CallbackEvent[]) => eventsFor(kind, chosen).some((e) => e !== 'vote');

export type TemplateVariable = { name: string; description: string; example: string; events: CallbackEvent[] };

/** "a, b and c" (or "a, b or c"). */
const listOf = (items: string[], last: string) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`);
const andList = (items: string[]) => listOf(items, 'and');
const orList = (items: string[]) => listOf(items, 'or');

export function EventFields({
  id,
  kind,
  kinds,
  chosen,
  setChosen,
  perEvent,
  drafts,
  setDraft,
  onBlur,
  editing,
  variables,
  errors,
}: {
  id: string;
  kind: KindInfo;
  /** Every kind: to say which take the events this one does not. */
  kinds: readonly KindInfo[];
  chosen: CallbackEvent[];
  setChosen: (events: CallbackEvent[]) => void;
  /** The kind's per-event settings (perEventSettingsOf), what was typed in them, and how a change is kept. */
  perEvent: SettingInfo[];
  drafts: Drafts;
  setDraft: (setting: SettingInfo, value: string | boolean) => void;
  onBlur: (setting: SettingInfo) => void;
  editing: boolean;
  variables: TemplateVariable[];
  errors: FieldErrorMap;
}) {
  const taken = eventsFor(kind, chosen);
  const beyond: CallbackEvent[] = taken.filter((e) => e !== 'vote');
  const known = CALLBACK_EVENTS.filter(({ event }) => kind.events.includes(event));
  const others = CALLBACK_EVENTS.map(({ event }) => event).filter((event) => !kind.events.includes(event));
  const takers = kinds.filter((k) => others.some((event) => k.events.includes(event))).map(shortLabel);
  return (
    <>
      <fieldset className="choices" aria-describedby={`${id}-events-summary`}>
        <legend>Events it takes</legend>
        {known.map(({ event, text }) => (
          <label key={event} className="row" style={{ fontWeight: 500 }}>
            <input
              type="checkbox"
              checked={taken.includes(event)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, event] : chosen.filter((c) => c !== event))}
            />
            <span>
              <code>{event}</code>: {text}
            </span>
          </label>
        ))}
        <p id={`${id}-events-summary`} className="muted" aria-live="polite">
          {taken.length === 0 ? 'None ticked: tick at least one.' : `It takes: ${taken.join(', ')}.`}
          {others.length > 0 &&
            ` A ${shortLabel(kind)} callback takes ${andList(known.map((k) => k.event))} only; ${andList(others)} need another kind${takers.length > 0 ? ` (${orList(takers)})` : ''}.`}
        </p>
        <FieldErrors errors={errors} field="events" />
      </fieldset>
      {perEvent.length > 0 && beyond.length > 0 && (
        <>
          {perEvent.map((setting) => (
            <SettingField
              key={`${kind.name}-${setting.name}`}
              idPrefix={id}
              setting={setting}
              draft={drafts[setting.name] ?? ''}
              onChange={(value) => setDraft(setting, value)}
              onBlur={() => onBlur(setting)}
              errors={errors}
              shown={editing ? {} : null}
              removed={false}
              setRemoved={() => undefined}
              variables={[]}
            />
          ))}
          <details>
            <summary>Event variables</summary>
            <ul>
              {variables
                .filter((v) => v.events.some((e) => beyond.includes(e)))
                .map((v) => (
                  <li key={v.name}>
                    <code>{`{{${v.name}}}`}</code> ({v.events.filter((e) => e !== 'vote').join(', ')}): {v.description}{' '}
                    <span className="muted">(e.g. {v.example})</span>
                  </li>
                ))}
            </ul>
          </details>
        </>
      )}
    </>
  );
}
