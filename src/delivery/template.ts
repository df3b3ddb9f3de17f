// Template rendering for chat messages and callback payloads: `{{name}}` and `{name}`; unknown names stay as written.
import { readPathAsText } from '../base/json-path.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../base/json-depth.js';

const VARIABLE = /\{\{\s*([A-Za-z_][\w.[\]-]*)\s*\}\}|\{([A-Za-z_][\w.[\]-]*)\}/g;

export interface VoteTemplateValues {
  voter_name: string;
  /** The voter's Discord user id where the provider's body has one (Provider.discordIdPath); empty otherwise. */
  voter_discord_id?: string;
  /** The voter the vote resolved to (README "Voters"); empty for a test vote that matched no voter. */
  voter_id?: string;
  /** The voter's Minecraft UUID, where a plugin reported one (POST /v1/plugin/players); empty otherwise. */
  voter_uuid?: string;
  provider_name: string;
  provider_key: string;
  vote_id: string;
  received_at: string;
  organization_slug: string;
  organization_name: string;
  /** The inbound body as received (JSON text or the form body as a JSON object). */
  raw_payload: string;
  /** A test vote (README "Test votes"); absent = a real vote. */
  test?: boolean;
  /**
   * The standing this vote made (README "Rewards"), as text; empty for a test vote (it counts nowhere) and for a
   * vote stored before standings were kept.
   */
  voter_total?: string;
  voter_month_total?: string;
  voter_streak_days?: string;
  voter_best_streak_days?: string;
  provider_voter_total?: string;
  /** ISO 8601; empty when the site's vote cooldown is unknown. */
  next_vote_at?: string;
}

/**
 * A variable's text; `typed`, where given, its JSON value for a variable whose value is not text (`test`: a
 * boolean), used when a JSON string is exactly that one variable.
 */
export type Lookup = ((name: string) => string | undefined) & { typed?: (name: string) => unknown };

/**
 * The vote's variables whose value is a whole number (GET /v1/callbacks/variables types them `integer`; a unit test
 * holds the two lists together). In a callback's JSON template a string that is exactly one of them is the JSON
 * number (null where it has no value: a test vote counts nowhere), as `{{test}}` is the JSON boolean.
 */
export const INTEGER_VARIABLES: ReadonlySet<string> = new Set([
  'received_at_unix',
  'voter_total',
  'voter_month_total',
  'voter_streak_days',
  'voter_best_streak_days',
  'provider_voter_total',
]);

/** A JSON string that is exactly one variable and nothing else: its name. */
const WHOLE_VARIABLE = /^(?:\{\{\s*([A-Za-z_][\w.[\]-]*)\s*\}\}|\{([A-Za-z_][\w.[\]-]*)\})$/;

/** Values of the template variables (the README's Connect a game server), including `payload.<path>` from the inbound body. */
export function voteLookup(values: VoteTemplateValues, payload?: unknown): Lookup {
  let parsed = payload;
  const lookup: Lookup = (name) => {
    switch (name) {
      case 'test':
        return values.test ? 'true' : 'false';
      case 'vote_public_id':
        return values.vote_id.replace(/^vt_/, '');
      case 'received_at_unix':
        return String(Math.floor(Date.parse(values.received_at) / 1000));
      default:
        if (Object.hasOwn(values, name)) return values[name as Exclude<keyof VoteTemplateValues, 'test'>] ?? '';
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
  // `"{{test}}"` is the JSON boolean, so a receiver checks `if (body.test)` (README "Test votes"), and a whole-number
  // variable alone is the JSON number (`"{{voter_total}}"` → 42); other variables keep their text.
  lookup.typed = (name) => {
    if (name === 'test') return values.test === true;
    if (!INTEGER_VARIABLES.has(name)) return undefined;
    const text = lookup(name);
    return text && /^-?\d+$/.test(text) ? Number(text) : null;
  };
  return lookup;
}

/** A stored template that cannot be rendered: no retry can change that, so its delivery fails at once. */
export class TemplateError extends Error {}

/** `encode` applies to each inserted value (URL fields take encodeURIComponent), never to the template's own text. */
export function renderText(template: string, lookup: Lookup, encode: (value: string) => string = (v) => v): string {
  if (typeof template !== 'string') throw new TemplateError('The template has a non-text value where text belongs');
  return template.replace(VARIABLE, (whole, doubled: string | undefined, single: string | undefined) => {
    const value = lookup((doubled ?? single) as string);
    return value === undefined ? whole : encode(value);
  });
}

function renderNode(template: unknown, lookup: Lookup): unknown {
  if (typeof template === 'string') {
    const whole = lookup.typed && WHOLE_VARIABLE.exec(template);
    const typed = whole ? lookup.typed!(whole[1] ?? whole[2]) : undefined;
    return typed !== undefined ? typed : renderText(template, lookup);
  }
  if (Array.isArray(template)) return template.map((item) => renderNode(item, lookup));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderNode(value, lookup)]));
  }
  return template;
}

/**
 * Renders every string inside a JSON template; keys and non-string values are kept. New templates are refused
 * deeper than MAX_JSON_DEPTH; one stored before that bound fails here instead of exhausting the stack.
 */
export function renderJson(template: unknown, lookup: Lookup): unknown {
  if (exceedsJsonDepth(template)) throw new TemplateError(`The template is nested deeper than ${MAX_JSON_DEPTH} levels; it cannot be rendered`);
  return renderNode(template, lookup);
}
