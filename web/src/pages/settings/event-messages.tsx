// Chat messages for milestones and vote parties (settings.chatMilestoneTemplate, settings.chatVotePartyTemplate):
// off by default (null: not posted); each previewed as Discord shows it, with the API's own example values.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { DiscordMarkdown } from '../../discord-markdown';

const UpdateEventMessages = graphql(`
  mutation UpdateEventMessages($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { chatMilestoneTemplate chatVotePartyTemplate } }
  }
`);

/** A template variable as `callbackVariables` lists it: its example stands in for it in the preview. */
type Variable = { name: string; example: string };

const MESSAGES = [
  {
    id: 'milestone',
    setting: 'chatMilestoneTemplate',
    field: 'settings.chat_milestone_template',
    toggle: 'Post a message when a voter reaches a milestone',
    label: 'Milestone message',
    variables: ['voter_name', 'milestone_type', 'milestone_value', 'voter_total', 'voter_streak_days', 'provider_name'],
    suggested: '**{{voter_name}}** reached a milestone: {{milestone_value}} ({{milestone_type}}). Thank you!',
  },
  {
    id: 'party',
    setting: 'chatVotePartyTemplate',
    field: 'settings.chat_vote_party_template',
    toggle: 'Post a message at each vote party',
    label: 'Vote party message',
    variables: ['party_count', 'party_every', 'party_number', 'voter_name'],
    suggested: 'Vote party #{{party_number}}! {{party_count}} votes in all; **{{voter_name}}** cast the last one.',
  },
] as const;

type Setting = (typeof MESSAGES)[number]['setting'];

/** The text with each {{variable}} replaced by the API's example for it (an unknown one stays as typed). */
const withExamples = (text: string, variables: Variable[]) =>
  text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => variables.find((v) => v.name === name)?.example ?? whole);

export function EventMessages({
  readOnly,
  templates,
  chatReady,
  variables,
}: {
  readOnly: boolean;
  templates: Record<Setting, string | null | undefined>;
  /** A chat webhook is set and chat notifications are on: without both, nothing is posted. */
  chatReady: boolean;
  variables: Variable[];
}) {
  const [on, setOn] = useState(() => Object.fromEntries(MESSAGES.map((m) => [m.setting, templates[m.setting] != null])) as Record<Setting, boolean>);
  const [text, setText] = useState(() => Object.fromEntries(MESSAGES.map((m) => [m.setting, templates[m.setting] ?? m.suggested])) as Record<Setting, string>);
  const [result, save] = useMutation(UpdateEventMessages);
  const errors: FieldErrorMap = fieldErrorsOf(result.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = (setting: Setting) => (on[setting] ? text[setting] : null);
    void save({ input: { settings: { chatMilestoneTemplate: value('chatMilestoneTemplate'), chatVotePartyTemplate: value('chatVotePartyTemplate') } } });
  };
  return (
    <section className="card" aria-labelledby="event-messages-title">
      <h3 id="event-messages-title">Chat messages for milestones and parties</h3>
      <p className={chatReady ? 'muted' : 'warn-text'}>
        {chatReady
          ? 'Posted to the chat webhook above, whether or not every vote gets a message.'
          : 'Posted to the chat webhook above: set the webhook first (nothing is posted without one).'}
      </p>
      <form onSubmit={submit}>
        {MESSAGES.map((m) => (
          <div key={m.id} className="event-message">
            <label className="row" style={{ fontWeight: 500 }}>
              <input type="checkbox" checked={on[m.setting]} onChange={(e) => setOn({ ...on, [m.setting]: e.target.checked })} /> {m.toggle}
            </label>
            {on[m.setting] && (
              <>
                <label htmlFor={`${m.id}-template`}>{m.label}</label>
                <textarea
                  id={`${m.id}-template`}
                  className="short"
                  value={text[m.setting]}
                  onChange={(e) => setText({ ...text, [m.setting]: e.target.value })}
                  aria-describedby={`${m.id}-variables`}
                  aria-invalid={!!errors[m.field]}
                />
                <p id={`${m.id}-variables`} className="hint">
                  Variables:{' '}
                  {m.variables.map((name, i) => (
                    <span key={name}>
                      {i > 0 && ', '}
                      <code>{`{{${name}}}`}</code>
                    </span>
                  ))}
                </p>
                <FieldErrors errors={errors} field={m.field} />
                <figure className="chat-preview" aria-label={`${m.label}, as Discord shows it`}>
                  <DiscordMarkdown text={withExamples(text[m.setting], variables)} />
                </figure>
              </>
            )}
          </div>
        ))}
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save chat messages
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
