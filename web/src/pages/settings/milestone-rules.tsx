// Milestone rules (settings.milestones): a list editor, each rule shown in plain words above its fields. Saving sends
// the whole list (it replaces the saved one; none left removes them all), and an error the service gives for one rule
// (`settings.milestones[1].provider`) stands beside that rule, even after rules above it were added or removed.
import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { MilestoneRuleInput, MilestoneType } from '../../gql/graphql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { ruleInWords, type RuleShape } from './milestone-words';

const UpdateMilestones = graphql(`
  mutation UpdateMilestones($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { milestones { type every at provider } } }
  }
`);

/** A rule as typed: numbers stay text until saved, so what was typed is kept when it is refused. */
interface Row {
  key: number;
  type: MilestoneType;
  every: string;
  at: string;
  /** A provider key; '' is every site. */
  provider: string;
}

type Site = { key: string; name: string };

const INTEGER = /^-?\d+$/;
/** "3, 7, 30" (commas or spaces) as its numbers; null when one of them is not a whole number. */
const numbersIn = (text: string) => {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.every((p) => INTEGER.test(p)) ? parts.map(Number) : null;
};

/** The row as the rule it would save (what cannot be read as a number is left out: the row shows it unsaved). */
function shapeOf(row: Row): RuleShape {
  const every = INTEGER.test(row.every.trim()) ? Number(row.every) : null;
  return { type: row.type, every, at: numbersIn(row.at), provider: row.provider || null };
}

/** The row as the API takes it, or the problems (in the service's field names) that keep it from being sent. */
function inputOf(row: Row, index: number): { rule: MilestoneRuleInput; problems: FieldErrorMap } {
  const problems: FieldErrorMap = {};
  const field = `settings.milestones[${index}]`;
  const every = row.every.trim();
  const at = numbersIn(row.at);
  if (every && !INTEGER.test(every)) problems[`${field}.every`] = ['must be a whole number'];
  if (at === null) problems[`${field}.at`] = ['must be whole numbers separated by commas, e.g. 3, 7, 30'];
  return {
    rule: {
      type: row.type,
      ...(every && INTEGER.test(every) ? { every: Number(every) } : {}),
      ...(at?.length ? { at } : {}),
      ...(row.type === 'total' && row.provider ? { provider: row.provider } : {}),
    },
    problems,
  };
}

/** The errors that name the rule at `index` (`settings.milestones[1]`, `…[1].every`, `…[1].at[0]`). */
const errorsOfRule = (errors: FieldErrorMap, index: number) => {
  const prefix = `settings.milestones[${index}]`;
  return Object.keys(errors).filter((f) => f === prefix || f.startsWith(`${prefix}.`) || f.startsWith(`${prefix}[`));
};

export function MilestoneRules({ readOnly, rules, sites }: { readOnly: boolean; rules: RuleShape[]; sites: Site[] }) {
  const nextKey = useRef(rules.length);
  const [rows, setRows] = useState<Row[]>(() =>
    rules.map((r, key) => ({ key, type: r.type, every: r.every == null ? '' : String(r.every), at: (r.at ?? []).join(', '), provider: r.provider ?? '' })),
  );
  // The rows as they were sent, by key: an error's index names the rule it was about, wherever that rule is now.
  const [outcome, setOutcome] = useState<{ sent: number[]; errors: FieldErrorMap; saved: boolean } | null>(null);
  const [result, save] = useMutation(UpdateMilestones);
  const siteName = (key: string) => sites.find((s) => s.key === key)?.name ?? key;
  const change = (key: number, patch: Partial<Row>) => setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () => setRows((current) => [...current, { key: nextKey.current++, type: 'total', every: '', at: '', provider: '' }]);
  const remove = (key: number) => setRows((current) => current.filter((r) => r.key !== key));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const sent = rows.map((r) => r.key);
    const inputs = rows.map(inputOf);
    const problems = Object.assign({}, ...inputs.map((i) => i.problems)) as FieldErrorMap;
    if (Object.keys(problems).length > 0) {
      setOutcome({ sent, errors: problems, saved: false });
      return;
    }
    const answer = await save({ input: { settings: { milestones: inputs.map((i) => i.rule) } } });
    setOutcome({ sent, errors: fieldErrorsOf(answer.error), saved: !!answer.data?.updateOrganization && !answer.error });
  };

  const errors = outcome?.errors ?? {};
  const claimed = new Set(outcome ? outcome.sent.flatMap((_key, index) => errorsOfRule(errors, index)) : []);
  const unclaimed = Object.keys(errors).filter((f) => !claimed.has(f));
  return (
    <section className="card" aria-labelledby="milestones-title">
      <h3 id="milestones-title">Milestones</h3>
      <p className="muted">
        A vote that reaches a rule sends one <code>milestone</code> event to the callbacks that take milestones. <em>Votes</em> counts a voter's votes (on every
        site, or on one); <em>days in a row</em> counts consecutive days with a vote. Test votes never count.
      </p>
      <form onSubmit={submit}>
        {rows.length === 0 && <p className="empty">No rule: no milestone events are sent.</p>}
        {rows.map((row, position) => {
          const index = outcome ? outcome.sent.indexOf(row.key) : -1;
          const own = index >= 0 ? errorsOfRule(errors, index) : [];
          const invalid = (name: string) => own.some((f) => f.startsWith(`settings.milestones[${index}].${name}`));
          const id = `rule-${row.key}`;
          return (
            <fieldset key={row.key} className={own.length > 0 ? 'rule invalid' : 'rule'}>
              <legend>
                Rule {position + 1}: <span className="rule-words">{ruleInWords(shapeOf(row), siteName)}</span>
              </legend>
              <div className="rule-fields">
                <div>
                  <label htmlFor={`${id}-type`}>Counts</label>
                  <select
                    id={`${id}-type`}
                    value={row.type}
                    onChange={(e) => change(row.key, { type: e.target.value as MilestoneType })}
                    aria-invalid={invalid('type')}
                  >
                    <option value="total">votes</option>
                    <option value="streak">days in a row</option>
                  </select>
                </div>
                <div>
                  <label htmlFor={`${id}-every`}>Every</label>
                  <input
                    id={`${id}-every`}
                    type="number"
                    inputMode="numeric"
                    className="rule-every"
                    value={row.every}
                    onChange={(e) => change(row.key, { every: e.target.value })}
                    aria-invalid={invalid('every')}
                  />
                </div>
                <div>
                  <label htmlFor={`${id}-at`}>At</label>
                  <input
                    id={`${id}-at`}
                    className="rule-at"
                    value={row.at}
                    placeholder="e.g. 3, 7, 30"
                    onChange={(e) => change(row.key, { at: e.target.value })}
                    aria-invalid={invalid('at')}
                  />
                </div>
                {row.type === 'total' && (
                  <div>
                    <label htmlFor={`${id}-site`}>On</label>
                    <select
                      id={`${id}-site`}
                      value={row.provider}
                      onChange={(e) => change(row.key, { provider: e.target.value })}
                      aria-invalid={invalid('provider')}
                    >
                      <option value="">every site</option>
                      {sites.map((s) => (
                        <option key={s.key} value={s.key}>
                          {s.name}
                        </option>
                      ))}
                      {row.provider && !sites.some((s) => s.key === row.provider) && <option value={row.provider}>{row.provider} (no such provider)</option>}
                    </select>
                  </div>
                )}
                <button type="button" className="secondary" aria-label={`Remove rule ${position + 1}`} onClick={() => remove(row.key)}>
                  Remove
                </button>
              </div>
              {own.map((field) => (
                <FieldErrors key={field} errors={errors} field={field} />
              ))}
            </fieldset>
          );
        })}
        {unclaimed.map((field) => (
          <FieldErrors key={field} errors={errors} field={field} />
        ))}
        <div className="row">
          <button type="button" className="secondary" onClick={add}>
            Add a rule
          </button>
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : 'Replaces the saved rules with these'}>
            Save milestones
          </button>
          {outcome?.saved && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
