// A callback kind's settings as one list of fields, and everything derived from it: the service's input rules, how
// a row keeps them (one JSON column, `settingsJson`, with secrets sealed in it; the two kinds older than that column
// keep theirs), what reads show of them (a secret never: `has<Name>` says whether it is set, or a redacted form), and
// their REST names. GraphQL, REST, OpenAPI and the dashboard's form read the same list (callbacks.graphql.ts).
import { z } from 'zod';
import type { Callback } from '../../generated/sqlite/client.js';
import type { SecretBox } from '../../crypto/secret-box.js';

export type SettingType = 'string' | 'int' | 'boolean' | 'strings' | 'json';
export type SettingValues = Record<string, unknown>;

/** The columns the kinds from before `settingsJson` keep their settings in (json ones as JSON text, secrets sealed). */
export type LegacyColumn =
  | 'url'
  | 'host'
  | 'port'
  | 'serviceName'
  | 'votifierTokenEnc'
  | 'votifierPublicKey'
  | 'payloadTemplateJson'
  | 'authSecretEnc'
  | 'eventTemplatesJson';

export interface SettingField {
  /** camelCase: the GraphQL field and input name; REST uses its snake_case (restName). */
  name: string;
  type: SettingType;
  /** The rule a given value must pass (null is handled by `nullable`). */
  rule: z.ZodType;
  /** The dashboard form's label. */
  label: string;
  /** What it is, for the GraphQL description, the OpenAPI schema and the form's hint. */
  help: string;
  /** Must be given on create (unless it has a default). */
  required?: boolean;
  /** null clears it on update (and a read shows null). */
  nullable?: boolean;
  /** Its value on create when left out. */
  default?: unknown;
  /** Sealed at rest, never returned: reads say `has<Name>`, or show `shown` of it; logs never carry it. */
  secret?: boolean;
  /** A secret that reads may show redacted (a broker URL without its password). */
  shown?: (plain: string) => string;
  /** Kept in its own column rather than in settingsJson. */
  column?: LegacyColumn;
  /** How the dashboard asks for it (default: from the type; secrets get a password box). */
  widget?: 'text' | 'password' | 'number' | 'checkbox' | 'lines' | 'json' | 'textarea';
  placeholder?: string;
  /** A REST answer leaves it out while it is null (so answers of callbacks without it keep their documented shape). */
  restOmitWhenNull?: boolean;
}

export const restName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);

/** The output field that tells whether a secret is set (`token` → `hasToken`). */
export const hasFlagName = (field: SettingField) => `has${capitalized(field.name)}`;

/** A field's read side: its own name, or has<Name> for a secret that is never shown. */
export const isWriteOnly = (field: SettingField) => field.secret === true && !field.shown;

/** The zod rule of a field as input: optional, and null where it may be cleared. */
export function inputRule(field: SettingField): z.ZodType {
  return (field.nullable ? field.rule.nullable() : field.rule).optional();
}

/** Missing required fields of a create: every problem at once, with the REST name. */
export function missingOnCreate(kindName: string, fields: readonly SettingField[], input: SettingValues) {
  return fields
    .filter((f) => f.required && f.default === undefined && (input[f.name] === undefined || input[f.name] === null))
    .map((f) => ({ field: restName(f.name), message: `is required for a ${kindName} callback` }));
}

type Row = Pick<Callback, LegacyColumn | 'settingsJson'>;

function jsonSettings(row: Pick<Row, 'settingsJson'>): SettingValues {
  try {
    const parsed = JSON.parse(row.settingsJson ?? '{}') as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as SettingValues) : {};
  } catch {
    return {};
  }
}

function storedValue(field: SettingField, row: Row, json: SettingValues): unknown {
  if (!field.column) return json[field.name] ?? null;
  const value = row[field.column];
  if (value === null || value === undefined) return null;
  return field.type === 'json' && typeof value === 'string' ? JSON.parse(value) : value;
}

/** A row's settings of this kind as stored: secrets still sealed. */
export function storedSettings(fields: readonly SettingField[], row: Row): SettingValues {
  const json = jsonSettings(row);
  return Object.fromEntries(fields.map((f) => [f.name, storedValue(f, row, json)]));
}

/** A row's settings with its secrets opened: for a send or a test, never for a read. */
export function openSettings(fields: readonly SettingField[], row: Row, secrets: Pick<SecretBox, 'open'>): SettingValues {
  const values = storedSettings(fields, row);
  for (const f of fields) if (f.secret && typeof values[f.name] === 'string') values[f.name] = secrets.open(values[f.name] as string);
  return values;
}

/** What a read shows of a row's settings: each field by name, a write-only secret as its has-flag. */
export function shownSettings(fields: readonly SettingField[], row: Row, secrets: Pick<SecretBox, 'open'>): SettingValues {
  const stored = storedSettings(fields, row);
  const shown: SettingValues = {};
  for (const f of fields) {
    const value = stored[f.name];
    if (isWriteOnly(f)) shown[hasFlagName(f)] = value !== null && value !== undefined;
    else if (f.secret && f.shown) shown[f.name] = typeof value === 'string' ? f.shown(secrets.open(value)) : null;
    else shown[f.name] = value ?? null;
  }
  return shown;
}

/**
 * The row columns for given settings (a create's, with defaults filled; an update's, only those given): legacy
 * columns set directly, the rest merged into settingsJson over `existing`'s. Secrets are sealed here.
 */
export function settingsColumns(
  fields: readonly SettingField[],
  given: SettingValues,
  secrets: Pick<SecretBox, 'seal'>,
  existing: Pick<Row, 'settingsJson'> | null,
): Partial<Row> {
  const columns: Record<string, unknown> = {};
  const json = existing ? jsonSettings(existing) : {};
  let jsonChanged = existing === null;
  for (const f of fields) {
    let value = given[f.name];
    if (value === undefined && existing === null) value = f.default;
    if (value === undefined) continue;
    let stored: unknown = value;
    if (value !== null && f.secret) stored = secrets.seal(String(value));
    else if (value !== null && f.type === 'json' && f.column) stored = JSON.stringify(value);
    if (f.column) columns[f.column] = stored;
    else {
      if (stored === null) delete json[f.name];
      else json[f.name] = stored;
      jsonChanged = true;
    }
  }
  if (jsonChanged) columns.settingsJson = JSON.stringify(json);
  return columns as Partial<Row>;
}

/** The settings a test render or send reads as a typed value (a field the kind declares, so its rule held when saved). */
export const setting = <T>(values: SettingValues, name: string): T => values[name] as T;

/** One setting name across the kinds: its type, and each kind's own field of that name. */
export interface SharedSetting {
  name: string;
  type: SettingType;
  writeOnly: boolean;
  byKind: { kind: string; field: SettingField }[];
  /** Each kind's help, named: "http: where each delivery is POSTed; rcon: …". */
  description: string;
}

/** Every setting name across the kinds: two kinds may share a name only with the same type and the same secrecy. */
export function unionOfFields(kinds: readonly { name: string; settings: readonly SettingField[] }[]): SharedSetting[] {
  const byName = new Map<string, SharedSetting>();
  for (const kind of kinds) {
    for (const field of kind.settings) {
      const seen = byName.get(field.name);
      if (seen && (seen.type !== field.type || seen.writeOnly !== isWriteOnly(field))) {
        throw new Error(`callback kinds disagree on setting ${field.name}: ${seen.type} and ${field.type} (kind ${kind.name})`);
      }
      const shared = seen ?? { name: field.name, type: field.type, writeOnly: isWriteOnly(field), byKind: [], description: '' };
      shared.byKind.push({ kind: kind.name, field });
      byName.set(field.name, shared);
    }
  }
  for (const shared of byName.values()) shared.description = shared.byKind.map(({ kind, field }) => `${kind}: ${field.help}`).join('; ');
  return [...byName.values()];
}

/** A zod rule that keeps each value of a string list safe and short (commands, ids). */
export const stringList = (item: z.ZodString, max: number) => z.array(item).max(max, `must list at most ${max}`);
