// Reads of the hook request log (README "Hook request log"): a provider's entries or the organization-level ones
// (a key no provider had), newest first, as numbered pages (REST) or cursor pages (GraphQL), with the counts of
// refused requests that were not kept.
import type { AppDeps } from '../../app/deps.js';
import { notFound } from '../../base/errors.js';
import { parseRange } from '../../base/date-range.js';
import { entryOf, type HintProvider, type HookRequestEntry } from './entry.js';
import type { HookOutcome } from './observation.js';
import { MAX_DROP_ROWS } from '../../storage/hook-log.js';
import { pageOf } from '../../base/validation.js';
import { checkConnectionSize, keysetWindow, type CursorWindow } from '../../base/keyset.js';

export interface HookRequestFilter {
  outcome?: HookOutcome | null;
  from?: string | null;
  to?: string | null;
}

export interface HookRequestDropEntry {
  clientIp: string;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

/** Drop counts shown per scope, the most first: every row the write keeps (its senders and "other senders"). */
const MAX_DROPS_SHOWN = MAX_DROP_ROWS + 1;

export function createHookRequestService(deps: AppDeps) {
  const { prisma } = deps.db;

  const hintProviders = (organizationId: string): Promise<HintProvider[]> =>
    prisma.provider.findMany({
      where: { organizationId },
      select: { id: true, key: true, authMethod: true, authField: true, payloadSource: true },
      orderBy: { key: 'asc' },
    });

  /** The provider with this key in the organization (NOT_FOUND otherwise, another organization's too). */
  async function providerId(organizationId: string, key: string): Promise<string> {
    const provider = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key } }, select: { id: true } });
    if (!provider) throw notFound(`Provider ${key}`);
    return provider.id;
  }

  function where(organizationId: string, scopeProviderId: string | null, filter: HookRequestFilter) {
    const range = parseRange(filter, { from: null, to: null });
    return {
      organizationId,
      providerId: scopeProviderId,
      ...(filter.outcome ? { outcome: filter.outcome } : {}),
      ...(range.from || range.toExclusive
        ? { receivedAt: { ...(range.from ? { gte: range.from } : {}), ...(range.toExclusive ? { lt: range.toExclusive } : {}) } }
        : {}),
    };
  }

  async function withHints(organizationId: string, rows: Parameters<typeof entryOf>[0][]): Promise<HookRequestEntry[]> {
    if (rows.length === 0) return [];
    const providers = await hintProviders(organizationId);
    return rows.map((row) => entryOf(row, providers));
  }

  async function drops(organizationId: string, scopeProviderId: string | null): Promise<HookRequestDropEntry[]> {
    return prisma.hookRequestDrop.findMany({
      where: { organizationId, scope: scopeProviderId ?? `org:${organizationId}` },
      select: { clientIp: true, count: true, firstAt: true, lastAt: true },
      orderBy: [{ count: 'desc' }, { clientIp: 'asc' }],
      take: MAX_DROPS_SHOWN,
    });
  }

  /** A numbered page, as the vote list pages (page from 1, limit 1–100, default 50). providerKey null: the organization-level log. */
  async function page(organizationId: string, providerKey: string | null, input: HookRequestFilter & { page?: number | null; limit?: number | null }) {
    const { page: pageNo, limit } = pageOf(input, 50);
    const scope = providerKey === null ? null : await providerId(organizationId, providerKey);
    const filter = where(organizationId, scope, input);
    const [total, rows, dropped] = await Promise.all([
      prisma.hookRequest.count({ where: filter }),
      prisma.hookRequest.findMany({ where: filter, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }], skip: (pageNo - 1) * limit, take: limit }),
      drops(organizationId, scope),
    ]);
    return { requests: await withHints(organizationId, rows), page: pageNo, limit, total, pages: Math.ceil(total / limit), dropped };
  }

  /** The filter of a cursor page (Relay; newest first, keyset over (receivedAt, id)), its sizes checked. Its rows come from `window`. */
  function connectionWhere(organizationId: string, scopeProviderId: string | null, input: HookRequestFilter & { first?: number | null; last?: number | null }) {
    checkConnectionSize(input);
    return where(organizationId, scopeProviderId, input);
  }

  /** The entries of a cursor page's window, with their hints. */
  async function window(organizationId: string, filter: ReturnType<typeof where>, cursors: CursorWindow) {
    const { bounds, orderBy, take } = keysetWindow(cursors);
    return withHints(organizationId, await prisma.hookRequest.findMany({ where: { AND: [filter, ...bounds] }, orderBy, take }));
  }

  return {
    page,
    connectionWhere,
    window,
    drops,
    providerId,
    count: (countWhere: ReturnType<typeof where>) => prisma.hookRequest.count({ where: countWhere }),
  };
}

export type HookRequestService = ReturnType<typeof createHookRequestService>;
