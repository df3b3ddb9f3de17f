// The vote party (settings.votePartyEvery, settings.votePartyProvider): every N counted votes, one vote_party event.
// Changing the number or the site starts the count over (the service resets it), so the page says so before saving.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { plural } from '../../plural';

const UpdateVoteParty = graphql(`
  mutation UpdateVoteParty($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { votePartyEvery votePartyProvider } }
  }
`);

type Site = { key: string; name: string };
/** Where the party stands now, for the warning that a change starts it over. */
type Standing = { enabled: boolean; progress: number; every?: number | null; completed: number } | null | undefined;

const DEFAULT_EVERY = '100';

export function VotePartySettings({
  readOnly,
  every,
  provider,
  sites,
  standing,
}: {
  readOnly: boolean;
  every: number | null | undefined;
  provider: string | null | undefined;
  sites: Site[];
  standing: Standing;
}) {
  const [on, setOn] = useState(every != null);
  const [size, setSize] = useState(every != null ? String(every) : DEFAULT_EVERY);
  const [site, setSite] = useState(provider ?? '');
  const [problems, setProblems] = useState<FieldErrorMap>({});
  const [result, save] = useMutation(UpdateVoteParty);
  const errors = { ...fieldErrorsOf(result.error), ...problems };
  const changed = on !== (every != null) || (on && (size.trim() !== String(every) || site !== (provider ?? '')));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = size.trim();
    if (on && !/^-?\d+$/.test(n)) {
      setProblems({ 'settings.vote_party_every': ['must be a whole number (at least 2)'] });
      return;
    }
    setProblems({});
    void save({ input: { settings: on ? { votePartyEvery: Number(n), votePartyProvider: site || null } : { votePartyEvery: null, votePartyProvider: null } } });
  };
  const now =
    standing?.enabled && standing.every
      ? ` (now ${standing.progress.toLocaleString()} of ${standing.every.toLocaleString()}, ${plural(standing.completed, 'party', 'parties')} so far)`
      : '';
  return (
    <section className="card" aria-labelledby="party-title">
      <h3 id="party-title">Vote party</h3>
      <p className="muted">
        Every so many counted votes (test votes never count), one <code>vote_party</code> event goes to the callbacks that take vote parties.
      </p>
      <form onSubmit={submit}>
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> Hold a vote party
        </label>
        {on && (
          <div className="rule-fields">
            <div>
              <label htmlFor="party-every">Votes per party</label>
              <input
                id="party-every"
                type="number"
                inputMode="numeric"
                className="rule-every"
                value={size}
                onChange={(e) => setSize(e.target.value)}
                aria-invalid={!!errors['settings.vote_party_every']}
              />
            </div>
            <div>
              <label htmlFor="party-site">Votes that count</label>
              <select id="party-site" value={site} onChange={(e) => setSite(e.target.value)} aria-invalid={!!errors['settings.vote_party_provider']}>
                <option value="">every site's</option>
                {sites.map((s) => (
                  <option key={s.key} value={s.key}>
                    only {s.name}'s
                  </option>
                ))}
                {site && !sites.some((s) => s.key === site) && <option value={site}>{site} (no such provider)</option>}
              </select>
            </div>
          </div>
        )}
        <FieldErrors errors={errors} field="settings.vote_party_every" />
        <FieldErrors errors={errors} field="settings.vote_party_provider" />
        <p className={changed ? 'warn-text' : 'hint'}>Changing the number of votes or the site starts the count over{changed ? now : ''}.</p>
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save vote party
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
