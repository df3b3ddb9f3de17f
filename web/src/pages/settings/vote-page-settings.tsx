// The players' vote page (settings.votePage, README "Vote page"): on or off, its title, whether it lists the top
// voters, and its address to give players. Sites appear on it once they have a vote page URL (a provider's vote_url).
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';

const UpdateVotePage = graphql(`
  mutation UpdateVotePage($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { votePage { enabled title showLeaderboard } } }
  }
`);

export interface VotePageValue {
  enabled: boolean;
  title: string | null;
  showLeaderboard: boolean;
}

export function VotePageSettings({ readOnly, slug, page }: { readOnly: boolean; slug: string; page: VotePageValue | null }) {
  const [enabled, setEnabled] = useState(page?.enabled ?? false);
  const [title, setTitle] = useState(page?.title ?? '');
  const [showLeaderboard, setShowLeaderboard] = useState(page?.showLeaderboard ?? false);
  const [result, save] = useMutation(UpdateVotePage);
  const errors = fieldErrorsOf(result.error);
  const saved = result.data?.updateOrganization?.settings.votePage;
  const live = saved ? saved.enabled : (page?.enabled ?? false);
  const address = `${window.location.origin}/vote/${slug}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ input: { settings: { votePage: { enabled, title: title.trim() || null, showLeaderboard } } } });
  };
  return (
    <section className="card" aria-labelledby="vote-page-title">
      <h3 id="vote-page-title">Vote page</h3>
      <form onSubmit={submit}>
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Players have a vote page
        </label>
        <label htmlFor="vote-page-name">Page title</label>
        <input id="vote-page-name" value={title} maxLength={80} onChange={(e) => setTitle(e.target.value)} placeholder="Vote for …" autoComplete="off" />
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={showLeaderboard} onChange={(e) => setShowLeaderboard(e.target.checked)} /> List the top voters of the last 30 days
        </label>
        <p className="hint">
          Each site with a vote page URL gets a button; a player sees where they stand on each site, their streak and the votes their server received. Clicks
          show under Statistics.
        </p>
        {live && (
          <p className="hint">
            Give players <a href={address}>{address}</a> (add <code>?player=Name</code> from an in-game command).
          </p>
        )}
        <FieldErrors errors={errors} field="settings.vote_page" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save vote page
          </button>
          {saved && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
