// The events a callback takes (vote, milestone, vote_party, reminder; README "Rewards"), as checkboxes in the create
// and edit forms: a Votifier server takes votes only, so its other boxes are disabled. An HTTP callback may give an
// event its own payload (eventTemplates, JSON); left empty, each event sends its default payload.
import type { CallbackEvent, CallbackKind } from '../../gql/graphql';
import { FieldErrors, type FieldErrorMap } from '../../field-errors';

export const CALLBACK_EVENTS: { event: CallbackEvent; text: string }[] = [
  { event: 'vote', text: 'each vote' },
  { event: 'milestone', text: 'a voter reaches a milestone (Settings → Rewards)' },
  { event: 'vote_party', text: 'each vote party (Settings → Rewards)' },
  { event: 'reminder', text: "a voter's cooldown ended and they have not voted again" },
];

/** The events a callback of `kind` can take: a Votifier vote is all a Votifier server understands. */
export const eventsFor = (kind: CallbackKind, chosen: CallbackEvent[]) => (kind === 'votifier' ? chosen.filter((e) => e === 'vote') : chosen);

export type TemplateVariable = { name: string; description: string; example: string; events: CallbackEvent[] };

/** The event payloads as typed: their value (null when empty: the defaults), or the problem shown beside the field. */
export function parseEventTemplates(text: string): { value: unknown; problem: null } | { value?: undefined; problem: string } {
  if (!text.trim()) return { value: null, problem: null };
  try {
    return { value: JSON.parse(text), problem: null };
  } catch {
    return { problem: 'event_templates: is not valid JSON' };
  }
}

const TEMPLATES_EXAMPLE = '{\n  "milestone": { "player": "{{voter_name}}", "reached": "{{milestone_value}}" }\n}';

export function EventFields({
  id,
  kind,
  chosen,
  setChosen,
  templates,
  setTemplates,
  templatesProblem,
  variables,
  errors,
}: {
  id: string;
  kind: CallbackKind;
  chosen: CallbackEvent[];
  setChosen: (events: CallbackEvent[]) => void;
  templates: string;
  setTemplates: (text: string) => void;
  templatesProblem: string | null;
  variables: TemplateVariable[];
  errors: FieldErrorMap;
}) {
  const votifier = kind === 'votifier';
  const taken = eventsFor(kind, chosen);
  const beyondVotes: CallbackEvent[] = taken.filter((e) => e !== 'vote');
  return (
    <>
      <fieldset className="choices" aria-describedby={`${id}-events-summary`}>
        <legend>Events it takes</legend>
        {CALLBACK_EVENTS.map(({ event, text }) => {
          const off = votifier && event !== 'vote';
          return (
            <label key={event} className="row" style={{ fontWeight: 500 }} title={off ? 'A Votifier server takes votes only' : undefined}>
              <input
                type="checkbox"
                checked={taken.includes(event)}
                disabled={off}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, event] : chosen.filter((c) => c !== event))}
              />
              <span>
                <code>{event}</code>: {text}
              </span>
            </label>
          );
        })}
        <p id={`${id}-events-summary`} className="muted" aria-live="polite">
          {votifier
            ? 'A Votifier server takes votes only: milestones, parties and reminders need an HTTP callback.'
            : taken.length === 0
              ? 'None ticked: tick at least one.'
              : `It takes: ${taken.join(', ')}.`}
        </p>
        <FieldErrors errors={errors} field="events" />
      </fieldset>
      {!votifier && beyondVotes.length > 0 && (
        <>
          <label htmlFor={`${id}-event-templates`}>Event payloads (JSON, optional; empty: each event's default payload)</label>
          <textarea
            id={`${id}-event-templates`}
            value={templates}
            placeholder={TEMPLATES_EXAMPLE}
            onChange={(e) => setTemplates(e.target.value)}
            aria-invalid={!!(templatesProblem || errors.event_templates)}
          />
          {templatesProblem && (
            <p className="field-error" role="alert">
              {templatesProblem}
            </p>
          )}
          <FieldErrors errors={errors} field="event_templates" />
          <details>
            <summary>Event variables</summary>
            <ul>
              {variables
                .filter((v) => v.events.some((e) => beyondVotes.includes(e)))
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
