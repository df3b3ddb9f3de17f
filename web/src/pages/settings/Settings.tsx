// Settings: name and slug (a slug change moves every hook URL), the chat webhook with a test message, the simple
// message template, Discord (the organization's own bot and the leaderboard posts: ./discord-settings.tsx), admin
// alerts, API keys (create shows the key once, revoke, last used; Growth+), and rewards (./Rewards.tsx).
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { Scope } from '../../gql/graphql';
import { READ_ONLY_REASON, UpgradeBadge, planAtLeast, useAccess } from '../../access';
import { FieldErrors, fieldErrorsOf } from '../../field-errors';
import { Time } from '../../time';
import { CopyField } from '../../copy-field';
import { EmbedEditor, EmbedPreview, withSamples, type Embed } from '../../EmbedEditor';
import { DiscordMarkdown } from '../../discord-markdown';
import { Rewards } from './Rewards';
import { DiscordSettings } from './discord-settings';

const SettingsQuery = graphql(`
  query Settings {
    organization { name slug plan settings {
      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate
      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings
    } }
  }
`);
const UpdateOrganization = graphql(`
  mutation UpdateOrganization($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { name slug settings {
      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate
      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings
    } }
  }
`);
const TestChat = graphql(`
  mutation TestChatWebhook($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }
`);
const ApiKeysQuery = graphql(`
  query ApiKeys { apiKeys { id name prefix scope lastUsedAt createdAt } }
`);
const CreateApiKey = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key scope } }
`);
const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }
`);

export function Settings() {
  const access = useAccess();
  const readOnly = access.scope !== 'full';
  const [{ data }] = useQuery({ query: SettingsQuery });
  const org = data?.organization;
  if (!org)
    return (
      <p className="loading" role="status">
        Loading settings…
      </p>
    );
  return (
    <div className="stack">
      <h1>Settings</h1>
      <General readOnly={readOnly} name={org.name} slug={org.slug} />
      <Chat readOnly={readOnly} settings={org.settings} embedAllowed={planAtLeast(access.plan, 'growth')} />
      <DiscordSettings readOnly={readOnly} />
      {planAtLeast(access.plan, 'growth') ? (
        <AdminAlerts readOnly={readOnly} settings={org.settings} />
      ) : (
        <UpgradeBadge plan="growth">Admin alerts and summaries need the growth plan or higher.</UpgradeBadge>
      )}
      {planAtLeast(access.plan, 'growth') ? (
        <ApiKeys readOnly={readOnly} />
      ) : (
        <UpgradeBadge plan="growth">API keys are managed here from the growth plan on (the operator CLI creates them on any plan).</UpgradeBadge>
      )}
      <Rewards readOnly={readOnly} />
    </div>
  );
}

function General({ readOnly, name: currentName, slug: currentSlug }: { readOnly: boolean; name: string; slug: string }) {
  const [name, setName] = useState(currentName);
  const [slug, setSlug] = useState(currentSlug);
  const [result, save] = useMutation(UpdateOrganization);
  const errors = fieldErrorsOf(result.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ input: { ...(name !== currentName ? { name } : {}), ...(slug !== currentSlug ? { slug } : {}) } });
  };
  return (
    <section className="card" aria-labelledby="general-title">
      <h2 id="general-title">Organization</h2>
      <form onSubmit={submit}>
        <label htmlFor="org-name">Name</label>
        <input id="org-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        <FieldErrors errors={errors} field="name" />
        <label htmlFor="org-slug">Slug</label>
        <input id="org-slug" value={slug} onChange={(e) => setSlug(e.target.value)} aria-invalid={!!errors.slug} />
        {slug !== currentSlug && <p className="warn-text">Changing the slug moves every hook URL: each voting site must be given its new webhook URL.</p>}
        <FieldErrors errors={errors} field="slug" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}

type ChatSettings = {
  chatWebhookUrl?: string | null;
  chatNotificationsEnabled: boolean;
  chatMessageType: string;
  chatMessageTemplate: string;
  chatEmbedTemplate?: unknown;
};

const DEFAULT_EMBED = {
  title: 'New vote!',
  description: '**{{voter_name}}** voted on **{{provider_name}}**',
  color: 5814783,
  footer: { text: 'Vote Relay' },
  timestamp: '{{received_at}}',
};

function Chat({ readOnly, settings, embedAllowed }: { readOnly: boolean; settings: ChatSettings; embedAllowed: boolean }) {
  const [url, setUrl] = useState(settings.chatWebhookUrl ?? '');
  const [enabled, setEnabled] = useState(settings.chatNotificationsEnabled);
  const [template, setTemplate] = useState(settings.chatMessageTemplate);
  const [type, setType] = useState(settings.chatMessageType === 'embed' && embedAllowed ? 'embed' : 'simple');
  // null while the JSON view holds text that is not an embed object.
  const [embed, setEmbed] = useState<Embed | null>(() => (settings.chatEmbedTemplate as Embed | null) ?? DEFAULT_EMBED);
  const [lastEmbed, setLastEmbed] = useState<Embed>(embed ?? DEFAULT_EMBED);
  const [embedProblem, setEmbedProblem] = useState<string | null>(null);
  const [saved, save] = useMutation(UpdateOrganization);
  const [tested, test] = useMutation(TestChat);
  useEffect(() => setUrl(settings.chatWebhookUrl ?? ''), [settings.chatWebhookUrl]);
  const errors = fieldErrorsOf(saved.error);
  const testErrors = fieldErrorsOf(tested.error);
  const preview = withSamples(template);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (type === 'embed' && !embed) {
      setEmbedProblem('settings.chat_embed_template: is not valid JSON');
      return;
    }
    setEmbedProblem(null);
    const embedSettings = type === 'embed' ? { chatMessageType: 'embed' as const, chatEmbedTemplate: embed } : { chatMessageType: 'simple' as const };
    void save({ input: { settings: { chatWebhookUrl: url || null, chatNotificationsEnabled: enabled, chatMessageTemplate: template, ...embedSettings } } });
  };
  const testReason = (tested.error?.graphQLErrors[0]?.extensions?.details as { error?: string } | undefined)?.error ?? tested.error?.graphQLErrors[0]?.message;
  return (
    <section className="card" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat notifications</h2>
      <form onSubmit={submit}>
        <label htmlFor="chat-url">Chat webhook URL (Discord-compatible)</label>
        <input
          id="chat-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://discord.com/api/webhooks/…"
          style={{ width: '100%' }}
          aria-invalid={!!errors['settings.chat_webhook_url']}
        />
        <FieldErrors errors={errors} field="settings.chat_webhook_url" />
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Post a message for every vote
        </label>
        <label htmlFor="chat-type">Message type</label>
        <select id="chat-type" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="simple">simple: a text message</option>
          <option value="embed" disabled={!embedAllowed}>
            embed: a rich embed{embedAllowed ? '' : ' (growth plan)'}
          </option>
        </select>
        {type === 'simple' ? (
          <>
            <label htmlFor="chat-template">
              Message ({'{{voter_name}}'}, {'{{provider_name}}'}, {'{{vote_id}}'}, {'{{received_at}}'})
            </label>
            <textarea
              id="chat-template"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
              aria-invalid={!!errors['settings.chat_message_template']}
            />
            <FieldErrors errors={errors} field="settings.chat_message_template" />
            <p className="muted">Preview (as Discord shows it):</p>
            <figure className="chat-preview" aria-label="Message preview">
              <DiscordMarkdown text={preview} />
            </figure>
          </>
        ) : (
          <>
            <EmbedEditor
              value={lastEmbed}
              invalid={!!(embedProblem || errors['settings.chat_embed_template'])}
              onChange={(next) => {
                setEmbed(next);
                if (next) setLastEmbed(next);
              }}
            />
            {embedProblem && (
              <p className="field-error" role="alert">
                {embedProblem}
              </p>
            )}
            <FieldErrors errors={errors} field="settings.chat_embed_template" />
            {embed && <EmbedPreview embed={embed} />}
          </>
        )}
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || saved.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save
          </button>
          <button
            type="button"
            disabled={readOnly || tested.fetching || !url}
            title={readOnly ? READ_ONLY_REASON : 'Sends a [TEST] message with sample values'}
            onClick={() =>
              void test({
                input:
                  type === 'embed' && embed
                    ? { webhookUrl: url, messageType: 'embed', embedTemplate: embed }
                    : { webhookUrl: url, messageType: 'simple', messageTemplate: template },
              })
            }
          >
            Send test message
          </button>
          {saved.data?.updateOrganization && !saved.error && <span role="status">Saved.</span>}
          {tested.data?.testChatWebhook && <span role="status">{tested.data.testChatWebhook.message}</span>}
          {tested.error && (
            <span role="alert" className="error">
              {testReason}
            </span>
          )}
        </div>
        <FieldErrors errors={testErrors} field="webhook_url" />
      </form>
    </section>
  );
}

type AlertSettings = {
  chatAdminWebhookUrl?: string | null;
  adminDailySummary: boolean;
  adminWeeklySummary: boolean;
  adminVoteSpikeAlerts: boolean;
  adminPermanentFailAlerts: boolean;
  adminUsageWarnings: boolean;
};

const ALERTS: [keyof Omit<AlertSettings, 'chatAdminWebhookUrl'>, string][] = [
  ['adminDailySummary', 'Daily summary (yesterday, UTC)'],
  ['adminWeeklySummary', 'Weekly summary (the previous ISO week)'],
  ['adminVoteSpikeAlerts', 'Vote spikes'],
  ['adminPermanentFailAlerts', 'A callback that failed for good'],
  ['adminUsageWarnings', 'Usage at 80% and 100% of the plan'],
];

/** Admin alerts and summaries, posted to their own chat webhook (Growth+). */
function AdminAlerts({ readOnly, settings }: { readOnly: boolean; settings: AlertSettings }) {
  const [url, setUrl] = useState(settings.chatAdminWebhookUrl ?? '');
  const [flags, setFlags] = useState(() => Object.fromEntries(ALERTS.map(([k]) => [k, settings[k]])) as Record<string, boolean>);
  const [saved, save] = useMutation(UpdateOrganization);
  const errors = fieldErrorsOf(saved.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save({ input: { settings: { chatAdminWebhookUrl: url || null, ...flags } } });
  };
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Admin alerts</h2>
      <form onSubmit={submit}>
        <label htmlFor="admin-url">Admin chat webhook URL</label>
        <input
          id="admin-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          style={{ width: '100%' }}
          aria-invalid={!!errors['settings.chat_admin_webhook_url']}
        />
        <FieldErrors errors={errors} field="settings.chat_admin_webhook_url" />
        {ALERTS.map(([key, label]) => (
          <label key={key} className="row" style={{ fontWeight: 500 }}>
            <input type="checkbox" checked={flags[key]} onChange={(e) => setFlags({ ...flags, [key]: e.target.checked })} /> {label}
          </label>
        ))}
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || saved.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save alerts
          </button>
          {saved.data?.updateOrganization && !saved.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}

function ApiKeys({ readOnly }: { readOnly: boolean }) {
  const [{ data }, refetch] = useQuery({ query: ApiKeysQuery });
  const [created, create] = useMutation(CreateApiKey);
  const [, revoke] = useMutation(RevokeApiKey);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [shown, setShown] = useState<string | null>(null);
  const errors = fieldErrorsOf(created.error);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ input: { name, scope } });
    if (answer.data?.createApiKey) {
      setShown(answer.data.createApiKey.key);
      setName('');
      reload();
    }
  };
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      {shown && (
        <div className="once" role="status">
          <p>The new key, shown only now:</p>
          <CopyField label="API key" value={shown} />
          <button type="button" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      <div className="table-wrap">
        <table className="list phone-cards" data-testid="api-keys-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scope</th>
              <th scope="col">Last used</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data?.apiKeys?.map((k) => (
              <tr key={k.id}>
                <td data-label="Name">{k.name}</td>
                <td data-label="Prefix">
                  <code>{k.prefix}…</code>
                </td>
                <td data-label="Scope">{k.scope}</td>
                <td className="full" data-label="Last used">
                  <Time value={k.lastUsedAt} />
                </td>
                <td className="full" data-label="Created">
                  <Time value={k.createdAt} />
                </td>
                <td className="full">
                  <button
                    type="button"
                    disabled={readOnly}
                    title={readOnly ? READ_ONLY_REASON : undefined}
                    onClick={() => window.confirm(`Revoke ${k.name}? It stops working at once.`) && void revoke({ id: k.id }).then(reload)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form onSubmit={submit} className="row">
        <label htmlFor="key-name" style={{ margin: 0 }}>
          New key
        </label>
        <input id="key-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="name" aria-invalid={!!errors.name} />
        <select aria-label="Scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
          <option value="read">read</option>
          <option value="full">full</option>
        </select>
        <button type="submit" disabled={readOnly || created.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
          Create key
        </button>
      </form>
      <FieldErrors errors={errors} field="name" />
      <FieldErrors errors={errors} field="*" />
    </section>
  );
}
