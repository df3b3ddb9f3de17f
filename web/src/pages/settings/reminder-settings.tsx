// Reminders (settings.remindersEnabled) and the voters who turned them off (reminderOptOuts, paged): a voter's
// reminders are turned off by name, and back on from their row (setVoterReminders).
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';
import { Pager } from '../../pager';
import { Time } from '../../time';

const UpdateReminders = graphql(`
  mutation UpdateReminders($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { remindersEnabled } }
  }
`);
const OptOutsQuery = graphql(`
  query ReminderOptOuts($page: Int) {
    reminderOptOuts(page: $page, limit: 20) { total page limit optOuts { voterName createdAt } }
  }
`);
const SetVoterReminders = graphql(`
  mutation SetVoterReminders($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) { voterName enabled } }
`);

export function ReminderSettings({ readOnly, enabled: current }: { readOnly: boolean; enabled: boolean }) {
  const [enabled, setEnabled] = useState(current);
  const [result, save] = useMutation(UpdateReminders);
  const errors = fieldErrorsOf(result.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ input: { settings: { remindersEnabled: enabled } } });
  };
  return (
    <section className="card" aria-labelledby="reminders-title">
      <h3 id="reminders-title">Reminders</h3>
      <form onSubmit={submit}>
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} aria-describedby="reminders-what" /> Send reminders
        </label>
        <p id="reminders-what" className="hint">
          When a voter's cooldown on a site ends and they have not voted there again, one <code>reminder</code> event goes to the callbacks that take reminders
          (tick <code>reminder</code> in a callback's events on the Callbacks page).
        </p>
        <FieldErrors errors={errors} field="settings.reminders_enabled" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save reminders
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
      <OptOuts readOnly={readOnly} />
    </section>
  );
}

/** The voters who asked for no reminders, newest first, each with a button that turns theirs back on. */
function OptOuts({ readOnly }: { readOnly: boolean }) {
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: OptOutsQuery, variables: { page } });
  const [changed, change] = useMutation(SetVoterReminders);
  const [name, setName] = useState('');
  const errors = fieldErrorsOf(changed.error);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const set = async (voterName: string, enabled: boolean) => {
    const answer = await change({ voterName, enabled });
    if (answer.data?.setVoterReminders) {
      if (!enabled) setName('');
      reload();
    }
  };
  const list = data?.reminderOptOuts;
  // The last voter of a later page turned back on: show the page before it.
  useEffect(() => {
    if (list && list.optOuts.length === 0 && list.page > 1) setPage(list.page - 1);
  }, [list]);
  const done = changed.data?.setVoterReminders;
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  return (
    <div className="stack opt-outs">
      <h4 id="opt-outs-title">Voters who turned reminders off</h4>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {list && list.optOuts.length === 0 && <p className="empty">No voter turned them off.</p>}
      {list && list.optOuts.length > 0 && (
        <ul className="opt-out-list" aria-labelledby="opt-outs-title" data-testid="reminder-opt-outs">
          {list.optOuts.map((o) => (
            <li key={o.voterName} className="opt-out">
              <strong className="wrap-anywhere">{o.voterName}</strong>
              <span className="muted">
                since <Time value={o.createdAt} />
              </span>
              <button
                type="button"
                className="secondary"
                disabled={readOnly || changed.fetching}
                title={writeTitle}
                onClick={() => void set(o.voterName, true)}
              >
                Turn back on<span className="sr-only"> for {o.voterName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {list && list.total > list.limit && (
        <Pager page={list.page} pages={Math.ceil(list.total / list.limit)} total={list.total} onPage={setPage} noun="voter" />
      )}
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          void set(name, false);
        }}
      >
        <label htmlFor="opt-out-name" style={{ margin: 0 }}>
          Turn reminders off for
        </label>
        <input id="opt-out-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="voter's name" aria-invalid={!!errors.voter_name} />
        <button type="submit" disabled={readOnly || changed.fetching} title={writeTitle}>
          Turn off
        </button>
      </form>
      <FieldErrors errors={errors} field="voter_name" />
      <FieldErrors errors={errors} field="*" />
      {done && !changed.error && (
        <p role="status">
          Reminders are {done.enabled ? 'on again' : 'off'} for {done.voterName}.
        </p>
      )}
    </div>
  );
}
