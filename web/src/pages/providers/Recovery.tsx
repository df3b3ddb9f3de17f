// A top.gg provider's missed votes: the project's API token lets the service read the site's vote list back after
// an outage. The token is write-only: the field starts empty, and saving sets or replaces it.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';
import { Time } from '../../time';

const SetApiToken = graphql(`
  mutation SetProviderApiToken($key: String!, $apiToken: String) {
    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }
  }
`);

type RecoveryState = { enabled: boolean; checkedAt?: string | null; since?: string | null; error?: string | null };

export function Recovery({
  provider,
  readOnly,
  onChanged,
}: {
  provider: { key: string; name: string; recovery: RecoveryState };
  readOnly: boolean;
  onChanged: () => void;
}) {
  const [token, setToken] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [result, save] = useMutation(SetApiToken);
  const errors = fieldErrorsOf(result.error);
  const { recovery } = provider;
  const id = `api-token-${provider.key}`;
  const change = async (apiToken: string | null) => {
    setNotice(null);
    const answer = await save({ key: provider.key, apiToken });
    if (answer.data?.updateProvider) {
      setToken('');
      setNotice(apiToken ? 'API token saved: missed votes are recovered from now on.' : 'API token removed: missed votes are no longer recovered.');
      onChanged();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change(token);
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Missed votes: {provider.name}</h2>
      <p className="muted">
        With the project's API token from the site, votes its webhook could not deliver (an outage) are read back from its vote list and delivered as recovered
        votes. The token is never shown again.
      </p>
      <dl className="facts" aria-label={`Recovery of ${provider.name}`}>
        <dt>Recovery</dt>
        <dd>{recovery.enabled ? <span className="status sent">on</span> : 'off (no API token)'}</dd>
        <dt>Last checked</dt>
        <dd>
          <Time value={recovery.checkedAt} />
        </dd>
        <dt>Reads votes since</dt>
        <dd>
          <Time value={recovery.since} />
        </dd>
        <dt>Last error</dt>
        <dd>{recovery.error ? <span className="error">{recovery.error}</span> : <span className="muted">none</span>}</dd>
      </dl>
      <form onSubmit={submit}>
        <label htmlFor={id}>{recovery.enabled ? `New ${provider.name} API token (replaces the current one)` : `${provider.name} API token`}</label>
        <input id={id} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} aria-invalid={!!errors.api_token} />
        <FieldErrors errors={errors} field="api_token" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching || !token.trim()} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save API token
          </button>
          {recovery.enabled && (
            <button type="button" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined} onClick={() => void change(null)}>
              Remove API token
            </button>
          )}
        </div>
      </form>
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
