// The settings a custom provider's auth method reads (the same in the add flow and the edit form), each with its
// error beside it.
import { FieldErrors, type FieldErrorMap } from '../../field-errors';
import type { AuthMethod as SchemaAuthMethod } from '../../gql/graphql';

/** The methods a custom provider's form offers (the schema's AuthMethod; a Votifier provider is set up apart). */
export type AuthMethod = Exclude<SchemaAuthMethod, 'votifier'>;
export type AuthForm = { authField: string; signatureFormat: string; authTimestampField: string; payloadSource: string; voteePath: string };

const AUTH_FIELD_LABEL: Record<string, string> = {
  query: 'Query parameter carrying the secret',
  url_path: 'Name of the secret (shown only)',
  hmac: 'Signature header',
  header: 'Header carrying the secret',
};

/** What each method's field starts as when the method is chosen (the most common name on voting sites). */
export const DEFAULT_AUTH_FIELD: Record<AuthMethod, string> = { header: 'Authorization', query: 'secret', url_path: 'secret', hmac: 'X-Signature' };

export function AuthFields({
  id,
  method,
  form,
  set,
  errors,
}: {
  id: string;
  method: string;
  form: AuthForm;
  set: (name: keyof AuthForm) => (e: { target: { value: string } }) => void;
  errors: FieldErrorMap;
}) {
  const hmac = method === 'hmac';
  return (
    <>
      <label htmlFor={`${id}-field`}>{AUTH_FIELD_LABEL[method] ?? 'Auth field'}</label>
      <input id={`${id}-field`} value={form.authField} onChange={set('authField')} aria-invalid={!!errors.auth_field} />
      <FieldErrors errors={errors} field="auth_field" />
      {hmac && (
        <>
          <label htmlFor={`${id}-format`}>Signature format</label>
          <select id={`${id}-format`} value={form.signatureFormat} onChange={set('signatureFormat')}>
            <option value="plain">HMAC of the body (hex or base64, optional sha256=)</option>
            <option value="topgg">top.gg style: t=&lt;unix&gt;,v1=&lt;hex&gt;</option>
          </select>
          <FieldErrors errors={errors} field="signature_format" />
          {form.signatureFormat === 'plain' && (
            <>
              <label htmlFor={`${id}-ts`}>Timestamp header (optional; then &lt;timestamp&gt;.&lt;body&gt; is signed and the header is required)</label>
              <input id={`${id}-ts`} value={form.authTimestampField} onChange={set('authTimestampField')} aria-invalid={!!errors.auth_timestamp_field} />
              <FieldErrors errors={errors} field="auth_timestamp_field" />
            </>
          )}
        </>
      )}
      <label htmlFor={`${id}-source`}>Votes are read from</label>
      <select id={`${id}-source`} value={form.payloadSource} onChange={set('payloadSource')}>
        <option value="json">a JSON body (POST)</option>
        <option value="form">a form body (POST)</option>
        {!hmac && <option value="query">the query string (GET)</option>}
      </select>
      <FieldErrors errors={errors} field="payload_source" />
      <label htmlFor={`${id}-votee`}>Voter name path</label>
      <input id={`${id}-votee`} value={form.voteePath} onChange={set('voteePath')} placeholder="user.name" aria-invalid={!!errors.votee_path} />
      <FieldErrors errors={errors} field="votee_path" />
    </>
  );
}
