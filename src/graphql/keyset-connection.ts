// A Relay connection over (receivedAt, id) keyset cursors (the votes, a provider's hook request log): the relay plugin
// cuts the page (first/after, last/before) and makes the edges; the caller's service reads the window.
import { resolveCursorConnection, type DefaultConnectionArguments } from '@pothos/plugin-relay';
import { CONNECTION_SIZES, keysetCursor, type CursorWindow, type KeysetRow } from '../base/keyset.js';

/** The page, and what `totalCount` counts (the filters without the cursors). An empty page's cursors are null, not ''. */
export async function keysetConnection<Row extends KeysetRow, CountWhere>(
  args: DefaultConnectionArguments,
  countWhere: CountWhere,
  read: (window: CursorWindow) => Promise<Row[]>,
) {
  const page = await resolveCursorConnection({ args, toCursor: keysetCursor, ...CONNECTION_SIZES }, read);
  const { startCursor, endCursor } = page.pageInfo;
  return { ...page, pageInfo: { ...page.pageInfo, startCursor: startCursor || null, endCursor: endCursor || null }, countWhere };
}
