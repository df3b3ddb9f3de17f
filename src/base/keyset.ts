// Cursor pages over (receivedAt, id), newest first: the votes connection and the hook request log's. A cursor is the
// position of a row, not the row itself, so it stays valid when that row is gone (retention, erasure) and deep pages
// cost what the first does. GraphQL's relay plugin cuts the pages; this says which rows lie beyond a cursor.
import { validationError } from './errors.js';

/** What a cursor is made of: the row's time and id. */
export interface KeysetRow {
  /** A Date from the database; ISO text where a row crossed instances as JSON. */
  receivedAt: Date | string;
  id: string;
}

/** The window the relay plugin asks for: rows after and/or before two cursors, `limit` of them, oldest first when inverted. */
export interface CursorWindow {
  before?: string;
  after?: string;
  limit: number;
  inverted: boolean;
}

/** The page sizes a connection takes. */
export const CONNECTION_SIZES = { defaultSize: 50, maxSize: 100 } as const;

export const keysetCursor = (row: KeysetRow): string => Buffer.from(`${new Date(row.receivedAt).getTime()}|${row.id}`).toString('base64url');

/** `first` and `last` are 1–100; anything else is refused by name (the relay plugin would clamp it silently). */
export function checkConnectionSize(args: { first?: number | null; last?: number | null }): void {
  for (const field of ['first', 'last'] as const) {
    const size = args[field];
    if (size != null && (!Number.isInteger(size) || size < 1 || size > CONNECTION_SIZES.maxSize)) {
      throw validationError([{ field, message: `must be an integer from 1 to ${CONNECTION_SIZES.maxSize}` }]);
    }
  }
}

function parse(cursor: string, field: 'after' | 'before'): { at: Date; id: string } {
  const [ms, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(Number(ms));
  if (!/^\d+$/.test(ms ?? '') || !id || extra !== undefined || Number.isNaN(at.getTime())) {
    throw validationError([{ field, message: 'is not a cursor from this API' }]);
  }
  return { at, id };
}

/**
 * The bounds, order and size of a window, for a Prisma `findMany` over a model with `receivedAt` and `id`: rows older
 * than `after` and newer than `before`, newest first (oldest first when the plugin inverted the window, for `last`).
 */
export function keysetWindow(window: CursorWindow) {
  const bounds = [];
  if (window.after) {
    const { at, id } = parse(window.after, 'after');
    bounds.push({ receivedAt: { lte: at }, NOT: { receivedAt: at, id: { gte: id } } });
  }
  if (window.before) {
    const { at, id } = parse(window.before, 'before');
    bounds.push({ receivedAt: { gte: at }, NOT: { receivedAt: at, id: { lte: id } } });
  }
  const direction = window.inverted ? ('asc' as const) : ('desc' as const);
  return { bounds, orderBy: [{ receivedAt: direction }, { id: direction }], take: window.limit };
}
