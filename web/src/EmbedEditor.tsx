// The chat embed, edited field by field (title, description, colour, fields, footer, timestamp) with a rendered
// preview, or as JSON for keys the form does not show. Keys the form does not know are kept as they are. The
// preview renders Discord markdown where Discord does (title, description, field names and values; not the footer).
import { useId, useState } from 'react';
import { DiscordMarkdown } from './discord-markdown';

export type EmbedField = { name: string; value: string; inline?: boolean };
export type Embed = {
  title?: string;
  description?: string;
  color?: number;
  fields?: EmbedField[];
  footer?: { text?: string };
  timestamp?: string;
  [other: string]: unknown;
};

const SAMPLE: Record<string, string> = {
  voter_name: 'Steve',
  provider_name: 'Top.gg',
  provider_key: 'topgg',
  vote_id: 'vt_sample',
  received_at: new Date().toISOString(),
};
/** The sample values a preview shows in place of {{variables}}. */
export const withSamples = (text: unknown) =>
  typeof text === 'string' ? text.replace(/\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g, (whole, a, b) => SAMPLE[a ?? b] ?? whole) : '';

const hex = (color: number | undefined) => `#${(color ?? 0x5865f2).toString(16).padStart(6, '0')}`;
/** Drops keys whose value is empty, so a cleared field is left out of the saved embed. */
const compact = (embed: Embed): Embed =>
  Object.fromEntries(Object.entries(embed).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))) as Embed;

export function EmbedEditor({ value, onChange, invalid }: { value: Embed; onChange: (embed: Embed | null) => void; invalid: boolean }) {
  const id = useId();
  const [mode, setMode] = useState<'fields' | 'json'>('fields');
  const [json, setJson] = useState(() => JSON.stringify(value, null, 2));
  const set = (patch: Partial<Embed>) => onChange(compact({ ...value, ...patch }));
  const fields = value.fields ?? [];
  const setField = (index: number, patch: Partial<EmbedField>) => set({ fields: fields.map((f, i) => (i === index ? { ...f, ...patch } : f)) });
  return (
    <fieldset className="embed-editor">
      <legend>Embed (the same variables as the message)</legend>
      <fieldset className="row embed-mode" aria-label="Embed editor mode">
        <button type="button" aria-pressed={mode === 'fields'} onClick={() => setMode('fields')}>
          Fields
        </button>
        <button
          type="button"
          aria-pressed={mode === 'json'}
          onClick={() => {
            setJson(JSON.stringify(value, null, 2));
            setMode('json');
          }}
        >
          JSON
        </button>
      </fieldset>
      {mode === 'json' ? (
        <>
          <label htmlFor={`${id}-json`}>Embed JSON</label>
          <textarea
            id={`${id}-json`}
            value={json}
            aria-invalid={invalid}
            onChange={(e) => {
              setJson(e.target.value);
              try {
                const parsed: unknown = JSON.parse(e.target.value);
                onChange(parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Embed) : null);
              } catch {
                onChange(null);
              }
            }}
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} value={value.title ?? ''} onChange={(e) => set({ title: e.target.value })} />
          <label htmlFor={`${id}-description`}>Description</label>
          <textarea id={`${id}-description`} value={value.description ?? ''} onChange={(e) => set({ description: e.target.value })} />
          <label htmlFor={`${id}-color`}>Colour</label>
          <input id={`${id}-color`} type="color" value={hex(value.color)} onChange={(e) => set({ color: Number.parseInt(e.target.value.slice(1), 16) })} />
          <h3>Fields</h3>
          {fields.length === 0 && <p className="muted">No field.</p>}
          {fields.map((field, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an embed field has no identity but its place (the labels and ids say "Field 2"), and its inputs are controlled, so a removed field's row takes the next one's values.
            <fieldset className="embed-field" key={index} aria-label={`Field ${index + 1}`}>
              <label htmlFor={`${id}-f${index}-name`}>Field {index + 1} name</label>
              <input id={`${id}-f${index}-name`} value={field.name} onChange={(e) => setField(index, { name: e.target.value })} />
              <label htmlFor={`${id}-f${index}-value`}>Field {index + 1} value</label>
              <input id={`${id}-f${index}-value`} value={field.value} onChange={(e) => setField(index, { value: e.target.value })} />
              <label className="row">
                <input type="checkbox" checked={field.inline ?? false} onChange={(e) => setField(index, { inline: e.target.checked })} /> Inline
              </label>
              <button type="button" onClick={() => set({ fields: fields.filter((_, i) => i !== index) })}>
                Remove field {index + 1}
              </button>
            </fieldset>
          ))}
          <button type="button" disabled={fields.length >= 25} onClick={() => set({ fields: [...fields, { name: '', value: '', inline: false }] })}>
            Add field
          </button>
          <label htmlFor={`${id}-footer`}>Footer</label>
          <input
            id={`${id}-footer`}
            value={value.footer?.text ?? ''}
            onChange={(e) => set({ footer: e.target.value ? { ...value.footer, text: e.target.value } : undefined })}
          />
          <label className="row">
            <input
              type="checkbox"
              checked={value.timestamp !== undefined}
              onChange={(e) => set({ timestamp: e.target.checked ? '{{received_at}}' : undefined })}
            />{' '}
            Show the vote's time
          </label>
        </>
      )}
    </fieldset>
  );
}

const shownTime = (text: string) => (Number.isNaN(Date.parse(text)) ? text : new Date(text).toLocaleString());

/** The embed as a chat client would show it, with sample values. */
export function EmbedPreview({ embed }: { embed: Embed }) {
  return (
    <figure className="embed-preview" aria-label="Embed preview" style={{ borderLeftColor: hex(embed.color) }}>
      {embed.title && (
        <strong className="embed-title">
          <DiscordMarkdown text={withSamples(embed.title)} />
        </strong>
      )}
      {embed.description && (
        <p>
          <DiscordMarkdown text={withSamples(embed.description)} />
        </p>
      )}
      {embed.fields && embed.fields.length > 0 && (
        <dl className="embed-fields">
          {embed.fields.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a rendered copy of the fields in their order, with nothing of their own to keep (no state, no input); two fields may have the same name and value.
            <div key={i} className={f.inline ? 'inline' : undefined}>
              <dt>
                <DiscordMarkdown text={withSamples(f.name)} />
              </dt>
              <dd>
                <DiscordMarkdown text={withSamples(f.value)} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {(embed.footer?.text || embed.timestamp) && (
        <small className="muted">
          {withSamples(embed.footer?.text)}
          {embed.footer?.text && embed.timestamp ? ' • ' : ''}
          {embed.timestamp ? shownTime(withSamples(embed.timestamp)) : ''}
        </small>
      )}
    </figure>
  );
}
