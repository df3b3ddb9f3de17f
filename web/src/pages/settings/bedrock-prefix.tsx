// Bedrock players (settings.bedrockPrefix): the prefix Floodgate puts before a Bedrock player's name, so that RCON
// commands accept such names as player names; empty: none.
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';

const UpdateBedrockPrefix = graphql(`
  mutation UpdateBedrockPrefix($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { bedrockPrefix } }
  }
`);

export function BedrockPrefix({ readOnly, prefix: current }: { readOnly: boolean; prefix: string | null }) {
  const [prefix, setPrefix] = useState(current ?? '');
  const [result, save] = useMutation(UpdateBedrockPrefix);
  const errors = fieldErrorsOf(result.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ input: { settings: { bedrockPrefix: prefix.trim() || null } } });
  };
  return (
    <section className="card" aria-labelledby="bedrock-title">
      <h3 id="bedrock-title">Bedrock players</h3>
      <form onSubmit={submit}>
        <label htmlFor="bedrock-prefix">Bedrock name prefix (Floodgate)</label>
        <input
          id="bedrock-prefix"
          className="rule-every"
          value={prefix}
          onChange={(e) => setPrefix(e.target.value)}
          placeholder="none"
          autoComplete="off"
          spellCheck={false}
          aria-describedby="bedrock-what"
          aria-invalid={!!errors['settings.bedrock_prefix']}
        />
        <p id="bedrock-what" className="hint">
          Floodgate puts it before Bedrock players' names (often <code>.</code>): RCON callbacks then accept those names in their commands. Empty: no Bedrock
          players.
        </p>
        <FieldErrors errors={errors} field="settings.bedrock_prefix" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save prefix
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
