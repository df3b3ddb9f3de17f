// A provider's settings after creation: everything but its auth method and secret ("New secret" changes that).
// A new key moves the webhook URL, so the form says so before saving and shows the new URL after.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';
import { Breakable } from '../../breakable';
import { CopyField } from '../../copy-field';
import { AuthFields } from './auth-fields';
import type { PayloadSource } from '../../gql/graphql';

const EditProviderMutation = graphql(`
  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {
    updateProvider(key: $key, input: $input) { id key name webhookUrl }
  }
`);

type EditableProvider = {
  key: string;
  name: string;
  webhookUrl: string;
  authMethod: string;
  authField: string;
  authTimestampField?: string | null;
  signatureFormat?: string | null;
  payloadSource: string;
  voteePath: string;
  eventPath?: string | null;
  voteEvents?: string[] | null;
  testEvents?: string[] | null;
};

const listText = (list?: string[] | null) => (list ?? []).join(', ');
const textList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function EditProvider({ provider, onDone }: { provider: EditableProvider; onDone: (message?: ReactNode) => void }) {
  const [form, setForm] = useState({
    key: provider.key,
    name: provider.name,
    authField: provider.authField,
    authTimestampField: provider.authTimestampField ?? '',
    signatureFormat: provider.signatureFormat ?? 'plain',
    payloadSource: provider.payloadSource,
    voteePath: provider.voteePath,
    eventPath: provider.eventPath ?? '',
    voteEvents: listText(provider.voteEvents),
    testEvents: listText(provider.testEvents),
  });
  const [result, save] = useMutation(EditProviderMutation);
  const errors = fieldErrorsOf(result.error);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const hmac = provider.authMethod === 'hmac';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      ...(form.key !== provider.key ? { key: form.key } : {}),
      name: form.name,
      authField: form.authField,
      payloadSource: form.payloadSource as PayloadSource,
      voteePath: form.voteePath,
      ...(hmac ? { signatureFormat: form.signatureFormat as 'plain' | 'topgg', authTimestampField: form.authTimestampField || null } : {}),
      eventPath: form.eventPath || null,
      voteEvents: form.eventPath ? textList(form.voteEvents) : null,
      testEvents: form.eventPath ? textList(form.testEvents) : null,
    };
    const answer = await save({ key: provider.key, input });
    const saved = answer.data?.updateProvider;
    if (saved)
      onDone(
        saved.key !== provider.key ? (
          <>
            {saved.name} saved. Its webhook URL is now <Breakable text={saved.webhookUrl} />: give it to the site.
          </>
        ) : (
          `${saved.name} saved.`
        ),
      );
  };
  return (
    <section className="card" aria-labelledby="edit-provider-title">
      <h2 id="edit-provider-title">Edit {provider.name}</h2>
      <CopyField label="Webhook URL (what the site sends votes to)" value={provider.webhookUrl} idPrefix="edit-provider-url" />
      <form onSubmit={submit}>
        <label htmlFor="edit-provider-name">Name</label>
        <input id="edit-provider-name" value={form.name} onChange={set('name')} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        <label htmlFor="edit-provider-key">Key</label>
        <input id="edit-provider-key" value={form.key} onChange={set('key')} aria-invalid={!!errors.key} />
        {form.key !== provider.key && <p className="warn-text">A new key moves this provider's webhook URL: the site must be given the new one.</p>}
        <FieldErrors errors={errors} field="key" />
        {provider.authMethod === 'votifier' ? (
          <p className="muted">A Votifier provider authenticates with its key pair and token: "New secret" makes new ones.</p>
        ) : (
          <AuthFields id="edit-provider" method={provider.authMethod} form={form} set={set} errors={errors} />
        )}
        <label htmlFor="edit-provider-event">Event path (optional: where the site names the event, e.g. type)</label>
        <input id="edit-provider-event" value={form.eventPath} onChange={set('eventPath')} aria-invalid={!!errors.event_path} />
        <FieldErrors errors={errors} field="event_path" />
        {form.eventPath && (
          <>
            <label htmlFor="edit-provider-vote-events">Events that are votes (comma-separated)</label>
            <input id="edit-provider-vote-events" value={form.voteEvents} onChange={set('voteEvents')} aria-invalid={!!errors.vote_events} />
            <FieldErrors errors={errors} field="vote_events" />
            <label htmlFor="edit-provider-test-events">Events that are test pings (comma-separated)</label>
            <input id="edit-provider-test-events" value={form.testEvents} onChange={set('testEvents')} aria-invalid={!!errors.test_events} />
            <FieldErrors errors={errors} field="test_events" />
          </>
        )}
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={result.fetching}>
            Save provider
          </button>
          <button type="button" className="link" onClick={() => onDone()}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
