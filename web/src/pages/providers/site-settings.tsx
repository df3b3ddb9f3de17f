// Step 2 of adding a provider: only the fields the chosen site needs. A template fills everything but the key and
// name; a secret the site makes is pasted (after giving the site the webhook URL, which it asks for first), one the
// relay makes is generated. A custom webhook asks for its auth settings; a Votifier list for a key and a name.
import { useState, type FormEvent, type ReactNode } from 'react';
import { READ_ONLY_REASON } from '../../access';
import { CopyField } from '../../copy-field';
import { FieldErrors, type FieldErrorMap } from '../../field-errors';
import { AuthFields, DEFAULT_AUTH_FIELD, type AuthMethod } from './auth-fields';
import type { PayloadSource } from '../../gql/graphql';
import { templateSteps, withReach, type AddressWarnings } from './setup-steps';
import { ReachWarning } from './reach-warning';
import type { SiteTemplate } from './site-picker';

/** What createProvider is given; each form sends only what its site needs. */
export type NewProviderInput = {
  template?: string;
  key?: string;
  name?: string;
  authValue?: string;
  authMethod?: AuthMethod | 'votifier';
  authField?: string;
  voteePath?: string;
  payloadSource?: PayloadSource;
  signatureFormat?: 'plain' | 'topgg';
  authTimestampField?: string;
};

interface FormProps {
  errors: FieldErrorMap;
  busy: boolean;
  readOnly: boolean;
  onCreate: (input: NewProviderInput) => void;
}

/** The key: it becomes the last part of the webhook URL, so the form says so as it is typed. */
function KeyField({ id, value, onChange, errors }: { id: string; value: string; onChange: (v: string) => void; errors: FieldErrorMap }) {
  return (
    <>
      <label htmlFor={id}>Key</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!errors.key} aria-describedby={`${id}-hint`} autoComplete="off" />
      <FieldErrors errors={errors} field="key" />
      <p id={`${id}-hint`} className="hint">
        Lowercase letters, digits and dashes: the last part of the webhook URL.
      </p>
    </>
  );
}

function NameField({ id, value, onChange, errors }: { id: string; value: string; onChange: (v: string) => void; errors: FieldErrorMap }) {
  return (
    <>
      <label htmlFor={id}>Name</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={!!errors.name} autoComplete="off" />
      <FieldErrors errors={errors} field="name" />
    </>
  );
}

function Submit({ busy, readOnly, children }: { busy: boolean; readOnly: boolean; children?: ReactNode }) {
  return (
    <div className="row">
      <button type="submit" disabled={readOnly || busy} title={readOnly ? READ_ONLY_REASON : undefined}>
        {busy ? 'Creating…' : 'Create provider'}
      </button>
      {children}
      {readOnly && <p className="muted">{READ_ONLY_REASON}</p>}
    </div>
  );
}

/**
 * A site from the catalogue. When the site makes the secret, it first needs the webhook URL: the URL is shown here
 * before the provider exists (`hookUrlFor`), with the site's own steps for getting the secret, then the secret field.
 */
export function TemplateSettings({
  template,
  hookUrlFor,
  warnings,
  errors,
  busy,
  readOnly,
  onCreate,
}: FormProps & { template: SiteTemplate; hookUrlFor: (key: string) => string; warnings: AddressWarnings }) {
  const [key, setKey] = useState(template.slug);
  const [name, setName] = useState(template.name);
  const [secret, setSecret] = useState('');
  const siteMakesSecret = !template.authKeySource;
  const votifier = template.authMethod === 'votifier';
  const before = withReach(templateSteps(template, name).before, warnings);
  const secretLabel = votifier ? `${template.name} Votifier token` : `${template.name} secret`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCreate({ template: template.slug, key: key.trim(), name: name.trim(), ...(siteMakesSecret ? { authValue: secret.trim() } : {}) });
  };
  return (
    <form onSubmit={submit} aria-label={`${template.name} settings`}>
      <KeyField id="new-provider-key" value={key} onChange={setKey} errors={errors} />
      <NameField id="new-provider-name" value={name} onChange={setName} errors={errors} />
      {siteMakesSecret ? (
        <>
          <h3 className="step-title">
            Get the {votifier ? 'token' : 'secret'} from {template.name}
          </h3>
          <p className="muted">
            {template.name} makes it itself{votifier ? '' : ', once you give it the webhook URL'}.
          </p>
          <ol className="steps">
            {before.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          {!votifier && <ReachWarning warnings={warnings} votifier={false} />}
          {!votifier && <CopyField label={`Webhook URL to give ${template.name}`} value={hookUrlFor(key.trim() || template.slug)} idPrefix="new-provider" />}
          <label htmlFor="new-provider-secret">{secretLabel}</label>
          <input
            id="new-provider-secret"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            aria-invalid={!!errors.auth_value}
            autoComplete="off"
            spellCheck={false}
          />
          <FieldErrors errors={errors} field="auth_value" />
        </>
      ) : (
        <p className="muted">
          Vote Relay makes the {votifier ? 'key pair and token' : 'secret'}: the next step shows {votifier ? 'them' : 'it'} with what to paste where on{' '}
          {template.name}.
        </p>
      )}
      <FieldErrors errors={errors} field="*" />
      <Submit busy={busy} readOnly={readOnly} />
    </form>
  );
}

/** A list that delivers by the Votifier protocol: the relay makes the key pair and the token. */
export function VotifierSettings({ errors, busy, readOnly, onCreate }: FormProps) {
  const [key, setKey] = useState('votifier');
  const [name, setName] = useState('Votifier lists');
  return (
    <form
      aria-label="Votifier list settings"
      onSubmit={(e) => {
        e.preventDefault();
        onCreate({ key: key.trim(), name: name.trim(), authMethod: 'votifier' });
      }}
    >
      <p className="muted">
        One Votifier provider serves every list that sends votes to your host and port. Vote Relay makes the key pair and the token: the next step shows what to
        type into each list.
      </p>
      <KeyField id="new-provider-key" value={key} onChange={setKey} errors={errors} />
      <NameField id="new-provider-name" value={name} onChange={setName} errors={errors} />
      <FieldErrors errors={errors} field="*" />
      <Submit busy={busy} readOnly={readOnly} />
    </form>
  );
}

/** A site without a template: every auth setting by hand, with each field's rule beside it. */
export function CustomSettings({ errors, busy, readOnly, onCreate }: FormProps) {
  const [form, setForm] = useState({
    key: '',
    name: '',
    authMethod: 'header' as AuthMethod,
    authField: 'Authorization',
    voteePath: '',
    payloadSource: 'json' as string,
    signatureFormat: 'plain',
    authTimestampField: '',
    authValue: '',
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const hmac = form.authMethod === 'hmac';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCreate({
      key: form.key.trim(),
      name: form.name.trim(),
      authMethod: form.authMethod,
      authField: form.authField,
      voteePath: form.voteePath,
      payloadSource: form.payloadSource as PayloadSource,
      ...(hmac
        ? {
            signatureFormat: form.signatureFormat as 'plain' | 'topgg',
            ...(form.authTimestampField && form.signatureFormat === 'plain' ? { authTimestampField: form.authTimestampField } : {}),
          }
        : {}),
      authValue: form.authValue || 'auto',
    });
  };
  return (
    <form onSubmit={submit} aria-label="Custom webhook settings">
      <KeyField id="new-provider-key" value={form.key} onChange={(key) => setForm({ ...form, key })} errors={errors} />
      <NameField id="new-provider-name" value={form.name} onChange={(name) => setForm({ ...form, name })} errors={errors} />
      <label htmlFor="custom-method">How the site proves a delivery is its own</label>
      <select
        id="custom-method"
        value={form.authMethod}
        onChange={(e) => {
          const authMethod = e.target.value as AuthMethod;
          setForm({ ...form, authMethod, payloadSource: authMethod === 'query' ? 'query' : 'json', authField: DEFAULT_AUTH_FIELD[authMethod] });
        }}
      >
        <option value="header">a secret in a header</option>
        <option value="query">a secret in the URL's query</option>
        <option value="url_path">a secret as the URL's last segment</option>
        <option value="hmac">an HMAC-SHA256 signature</option>
      </select>
      <FieldErrors errors={errors} field="auth_method" />
      <AuthFields id="custom" method={form.authMethod} form={form} set={set} errors={errors} />
      <label htmlFor="custom-secret">Secret (leave empty and Vote Relay makes one)</label>
      <input id="custom-secret" value={form.authValue} onChange={set('authValue')} aria-invalid={!!errors.auth_value} autoComplete="off" spellCheck={false} />
      <FieldErrors errors={errors} field="auth_value" />
      <FieldErrors errors={errors} field="*" />
      <Submit busy={busy} readOnly={readOnly} />
    </form>
  );
}
