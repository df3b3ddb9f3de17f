// Reading one vote, its delivery log, and redelivering what failed.
import { voterIdByName } from '../../storage/voter-lookup.js';
import { TEST_VOTER_PREFIX } from '../../domain/voter-identity.js';
import type { AppDeps } from '../../app/deps.js';
import { notFound } from '../../base/errors.js';
import type { Vote } from '../../generated/sqlite/client.js';
import { attemptBudget } from '../../domain/job-plan.js';
import { validationError } from '../../base/errors.js';
import { planAtLeast } from '../../domain/plans.js';
import { parseRange } from '../../base/date-range.js';
import type { Prisma } from '../../generated/sqlite/client.js';
import type { StatsService } from '../stats/stats.service.js';
import { votesKeptFrom } from '../../retention/retention.js';
import { TEST_VOTES } from '../../domain/votes.js';
import { pageOf, parseInput } from '../../base/validation.js';
import { z } from 'zod';
import { checkConnectionSize, keysetWindow, type CursorWindow } from '../../base/keyset.js';

/** What GraphQL selects of a vote (the prisma plugin's `query`). */
export type VoteQuery = { include?: Prisma.VoteInclude; select?: Prisma.VoteSelect };

export const DELIVERY_STATUSES = ['pending', 'retrying', 'sent', 'failed', 'skipped', 'uncertain'] as const;
export const STARTER_VOTE_LIMIT = 10;
export const EXPORT_COLUMNS = ['voter_name', 'provider', 'received_at', 'chat_status', 'callback_status'];
const exportSchema = z.object({
  format: z.enum(['csv'], 'must be csv').nullish(),
  from: z.string().nullish(),
  to: z.string().nullish(),
  includeTests: z.boolean().nullish(),
});

export interface VoteListInput {
  page?: number | null;
  limit?: number | null;
  provider?: string | null;
  from?: string | null;
  to?: string | null;
  voter?: string | null;
  /** One voter's votes (README "Voters"), by id. */
  voterId?: string | null;
  chatStatus?: string | null;
  callbackStatus?: string | null;
}

export interface ExportInput {
  from?: string | null;
  to?: string | null;
  /** Test votes too, with a last `test` column (the default leaves them out and keeps the interface's columns). */
  includeTests?: boolean | null;
}

export interface VotePage {
  where: Prisma.VoteWhereInput;
  skip: number;
  take: number;
  page: number;
  limit: number;
  total: number;
  pages: number;
}

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with =, +, -, @, tab or carriage return as a
 * formula, and voters choose their own names. Such a cell is written with a leading apostrophe, which spreadsheets
 * show as text. README "Votes export" documents it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutralizeFormulas(row: string[]): string[] {
  return row.some((cell) => FORMULA_START.test(cell)) ? row.map((cell) => (FORMULA_START.test(cell) ? `'${cell}` : cell)) : row;
}

export function createVoteService(deps: AppDeps, stats: StatsService) {
  const { prisma } = deps.db;

  /** A vote by its public_id (`vt_<uuid>`) or by the `id` a list shows (both are unique keys). */
  async function get(organizationId: string, publicIdOrId: string): Promise<Vote> {
    const vote = await prisma.vote.findFirst({ where: { organizationId, OR: [{ publicId: publicIdOrId }, { id: publicIdOrId }] } });
    if (!vote) throw notFound('Vote');
    return vote;
  }

  /**
   * Queues the vote's failed and uncertain jobs again, each with a fresh attempt budget; history stays. An uncertain
   * one is sent again on purpose: its target may have it already (README "Delivery guarantees").
   */
  async function redeliver(organizationId: string, publicId: string): Promise<{ voteId: string; requeued: number }> {
    const vote = await get(organizationId, publicId);
    const now = deps.clock.now();
    const requeued = await deps.jobs.requeueFailed(vote.id, now, (kind) => attemptBudget(deps.config, kind));
    if (requeued > 0) {
      deps.handoff.wake();
      deps.events.publish('voteWritten', { organizationId, voteId: vote.id, publicId: vote.publicId, providerKey: '' });
    }
    return { voteId: vote.publicId, requeued };
  }

  async function filters(organizationId: string, input: VoteListInput): Promise<Prisma.VoteWhereInput> {
    const range = parseRange(input, { from: null, to: null });
    for (const [field, value] of [
      ['chat_status', input.chatStatus],
      ['callback_status', input.callbackStatus],
    ] as const) {
      if (value && !(DELIVERY_STATUSES as readonly string[]).includes(value)) {
        throw validationError([{ field, message: `must be one of ${DELIVERY_STATUSES.join(', ')}` }]);
      }
    }
    let providerId: string | undefined;
    if (input.provider) {
      const provider = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key: input.provider } }, select: { id: true } });
      if (!provider) throw validationError([{ field: 'provider', message: `no provider with key ${input.provider}` }]);
      providerId = provider.id;
    }
    // The voter the name names (README "Voters"), and the owner's test votes under that name (they make no voter).
    const voterId = input.voter ? await voterIdByName(prisma, organizationId, input.voter) : null;
    const voterKeys = input.voter ? [...(voterId ? [voterId] : []), `${TEST_VOTER_PREFIX}${input.voter.trim().toLowerCase()}`] : [];
    return {
      organizationId,
      ...(providerId ? { providerId } : {}),
      ...(input.voter ? { voterKey: { in: voterKeys } } : {}),
      ...(input.voterId ? { AND: [{ voterKey: input.voterId }] } : {}),
      ...(input.chatStatus ? { chatStatus: input.chatStatus } : {}),
      ...(input.callbackStatus ? { callbackStatus: input.callbackStatus } : {}),
      ...(range.from || range.toExclusive
        ? { receivedAt: { ...(range.from ? { gte: range.from } : {}), ...(range.toExclusive ? { lt: range.toExclusive } : {}) } }
        : {}),
    };
  }

  /**
   * Test votes of the organization in the range (optionally of one provider): one statement on the
   * (organizationId, test, receivedAt) index, so it costs the test votes in the range, never the real ones. Counted
   * per provider and picked here rather than filtered by provider in SQL: SQLite (no table statistics) would take the
   * (providerId, receivedAt) index for that, walking the provider's real votes.
   */
  async function countTestVotes(organizationId: string, options: { providerId?: string; from: Date | null; toExclusive: Date | null }): Promise<number> {
    const perProvider = await prisma.vote.groupBy({
      by: ['providerId'],
      where: {
        organizationId,
        ...TEST_VOTES,
        ...(options.from || options.toExclusive
          ? { receivedAt: { ...(options.from ? { gte: options.from } : {}), ...(options.toExclusive ? { lt: options.toExclusive } : {}) } }
          : {}),
      },
      _count: { _all: true },
    });
    return perProvider.reduce((sum, row) => sum + (!options.providerId || row.providerId === options.providerId ? row._count._all : 0), 0);
  }

  /**
   * GET /v1/votes: newest first. Starter plans see the last 10 votes; their filters and paging are ignored, except a
   * status filter of `uncertain`: every plan can list the votes that wait for its decision (README "Delivery
   * guarantees").
   */
  async function list(organizationId: string, plan: string, input: VoteListInput): Promise<VotePage> {
    if (!planAtLeast(plan, 'growth') && (input.callbackStatus === 'uncertain' || input.chatStatus === 'uncertain')) {
      const { page, limit } = pageOf(input, 50);
      const where = {
        organizationId,
        ...(input.callbackStatus === 'uncertain' ? { callbackStatus: 'uncertain' } : {}),
        ...(input.chatStatus === 'uncertain' ? { chatStatus: 'uncertain' } : {}),
      };
      const total = await prisma.vote.count({ where });
      return { where, skip: (page - 1) * limit, take: limit, page, limit, total, pages: Math.ceil(total / limit) };
    }
    if (!planAtLeast(plan, 'growth')) {
      const where = { organizationId };
      const total = Math.min(await prisma.vote.count({ where }), STARTER_VOTE_LIMIT);
      return { where, skip: 0, take: STARTER_VOTE_LIMIT, page: 1, limit: STARTER_VOTE_LIMIT, total, pages: total > 0 ? 1 : 0 };
    }
    const { page, limit } = pageOf(input, 50);
    const where = await filters(organizationId, input);
    // Provider and date filters only: the total comes from the per-day rollups instead of counting raw votes, from
    // the retention horizon on (the days before it keep their rollups but no votes to list).
    const range = parseRange(input, { from: null, to: null });
    const keptFrom = await votesKeptFrom(prisma);
    const horizon = keptFrom ? new Date(`${keptFrom}T00:00:00.000Z`) : null;
    const counted = {
      providerId: where.providerId as string | undefined,
      ...range,
      from: horizon && (!range.from || range.from < horizon) ? horizon : range.from,
    };
    // The rollups count no test vote, and the list shows them (marked): they are counted apart.
    const total =
      input.voter || input.chatStatus || input.callbackStatus
        ? await prisma.vote.count({ where })
        : (await Promise.all([stats.countVotes(organizationId, counted), countTestVotes(organizationId, counted)])).reduce((a, b) => a + b, 0);
    return { where, skip: (page - 1) * limit, take: limit, page, limit, total, pages: Math.ceil(total / limit) };
  }

  /**
   * Every vote in the range, oldest first, as batches of CSV fields (voter, provider key, ISO time, chat status,
   * callback status), read in keyset chunks over (receivedAt, id): memory stays flat however many rows, and no
   * read transaction is held between chunks (SQLite's WAL can checkpoint meanwhile).
   */
  async function* exportRows(organizationId: string, input: ExportInput): AsyncGenerator<string[][]> {
    for await (const batch of readExportRows(organizationId, input)) yield batch.map(neutralizeFormulas);
  }

  function readExportRows(organizationId: string, input: ExportInput): AsyncGenerator<string[][]> {
    // Test votes only when asked for (README "Test votes"), then marked in a last `test` column.
    return deps.db.reports.exportVotes(organizationId, parseRange(input, { from: null, to: null }), input.includeTests === true);
  }

  /**
   * The filters of a cursor page (Relay; newest first, keyset cursors over (receivedAt, id), so deep pages cost the
   * same as the first), checked. Growth+ only (the starter view is `list`). Its rows come from `window`.
   */
  async function connectionWhere(organizationId: string, input: VoteListInput & { first?: number | null; last?: number | null }) {
    checkConnectionSize(input);
    return filters(organizationId, input);
  }

  /** The votes of a cursor page's window, their providers included (a vote's fields read its key and name). */
  function window(where: Prisma.VoteWhereInput, cursors: CursorWindow) {
    const { bounds, orderBy, take } = keysetWindow(cursors);
    return prisma.vote.findMany({ where: { AND: [where, ...bounds] }, orderBy, take, include: { provider: true } });
  }

  /**
   * What an export of these arguments streams: its columns, the test column when test votes are asked for. The format
   * and the range are checked here, before the REST layer starts the stream.
   */
  function exportColumns(input: ExportInput & { format?: string | null }): string[] {
    const { includeTests } = parseInput(exportSchema, input);
    parseRange(input, { from: null, to: null });
    return includeTests ? [...EXPORT_COLUMNS, 'test'] : EXPORT_COLUMNS;
  }

  /** Votes by id, newest first, with what GraphQL selects of them (the ids come from a service's own read). */
  function byIds(ids: readonly string[], query: VoteQuery = {}) {
    return prisma.vote.findMany({ ...query, where: { id: { in: [...ids] } }, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }] });
  }

  /** One vote of the organization by its row id, with what GraphQL selects of it. */
  function read(organizationId: string, id: string, query: VoteQuery = {}) {
    return prisma.vote.findFirstOrThrow({ ...query, where: { id, organizationId } });
  }

  /** A vote just recorded, its provider included (the live feed's event names it by row id). */
  function recorded(id: string) {
    return prisma.vote.findUniqueOrThrow({ where: { id }, include: { provider: true } });
  }

  /** The rows of a numbered page (`list`), with what GraphQL selects of them. */
  function pageRows(page: Pick<VotePage, 'where' | 'skip' | 'take'>, query: VoteQuery) {
    return prisma.vote.findMany({ ...query, where: page.where, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take });
  }

  return {
    get,
    redeliver,
    list,
    connectionWhere,
    window,
    pageRows,
    byIds,
    read,
    recorded,
    count: (where: Prisma.VoteWhereInput) => prisma.vote.count({ where }),
    exportRows,
    exportColumns,
  };
}

export type VoteService = ReturnType<typeof createVoteService>;
