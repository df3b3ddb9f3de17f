// Template rendering for chat messages and callback payloads: `{{name}}` and `{name}`; unknown names stay as written.
import { readPathAsText } from '../json-path.js';

const VARIABLE = /\{\{\s*([A-Za-z_][\w.[\]-]*)\s*\}\}|\{([A-Za-z_][\w.[\]-]*)\}/g;

export interface VoteTemplateValues {
  voter_name: string;
  provider_name: string;
  provider_key: string;
  vote_id: string;
  received_at: string;
  organization_slug: string;
  organization_name: string;
  /** The inbound body as received (JSON text or the form body as a JSON object). */
  raw_payload: string;
}

export type Lookup = (name: string) => string | undefined;

/** Values of decisions.md §5's variables, including `payload.<path>` from the inbound body. */
export function voteLookup(values: VoteTemplateValues, payload?: unknown): Lookup {
  let parsed = payload;
  return (name) => {
    switch (name) {
      case 'vote_public_id':
        return values.vote_id.replace(/^vt_/, '');
      case 'received_at_unix':
        return String(Math.floor(Date.parse(values.received_at) / 1000));
      default:
        if (Object.prototype.hasOwnProperty.call(values, name)) return values[name as keyof VoteTemplateValues];
        if (name.startsWith('payload.')) {
          if (parsed === undefined) {
            try {
              parsed = JSON.parse(values.raw_payload);
            } catch {
              parsed = null;
            }
          }
          return readPathAsText(parsed, name.slice('payload.'.length));
        }
        return undefined;
    }
  };
}

export function renderText(template: string, lookup: Lookup): string {
  return template.replace(VARIABLE, (whole, doubled: string | undefined, single: string | undefined) => {
    const value = lookup((doubled ?? single) as string);
    return value === undefined ? whole : value;
  });
}

/** Renders every string inside a JSON template; keys and non-string values are kept. */
export function renderJson(template: unknown, lookup: Lookup): unknown {
  if (typeof template === 'string') return renderText(template, lookup);
  if (Array.isArray(template)) return template.map((item) => renderJson(item, lookup));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderJson(value, lookup)]));
  }
  return template;
}
