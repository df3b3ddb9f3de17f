// One hook request log entry as the API shows it (GraphQL `HookRequest`, REST `requests[]`, the live subscription),
// built from a stored row or, for the live subscription, from the row just written.
import { hookRequestHint } from './hints.js';
import type { HookLogRow } from '../../storage/hook-log.js';

/** A row as the API shows it: its headers parsed, and what to fix in words. */
export interface HookRequestEntry extends Omit<StoredHookRequest, 'headersJson' | 'receivedAt'> {
  /** A Date when read from the database; ISO text when it crossed instances through Redis (DateTime takes both). */
  receivedAt: Date | string;
  headers: Record<string, string>;
  hint: string | null;
}

/** What a hint needs to know of the organization's providers. */
export interface HintProvider {
  id: string;
  key: string;
  authMethod: string;
  authField: string;
  payloadSource: string;
}

/** A stored row as Prisma reads it (the row written, src/storage/hook-log.ts, with its time as a Date). */
export type StoredHookRequest = Omit<HookLogRow, 'receivedAt'> & { receivedAt: Date };

function headersOf(json: string): Record<string, string> {
  try {
    const parsed = JSON.parse(json) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The entry of a stored row, its hint read against the organization's providers as they are now. */
export function entryOf(row: StoredHookRequest, providers: readonly HintProvider[]): HookRequestEntry {
  const { headersJson, ...rest } = row;
  const provider = row.providerId ? (providers.find((p) => p.id === row.providerId) ?? null) : null;
  const hint = hookRequestHint({
    outcome: row.outcome,
    protocol: row.protocol,
    method: row.method,
    errorCode: row.errorCode,
    reason: row.reason,
    providerKey: row.providerKey,
    provider,
    providerKeys: providers.map((p) => p.key),
  });
  return { ...rest, headers: headersOf(headersJson), hint };
}
