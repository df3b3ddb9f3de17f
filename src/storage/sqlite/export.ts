// The CSV export's read path on embedded SQLite: a read-only better-sqlite3 connection of its own and raw rows
// (arrays, already the CSV fields), keyset chunks over the (organizationId, receivedAt) index. Prisma's per-row
// mapping was the export's main cost (75k rows/s at 10M votes). Each chunk is one short synchronous read; the event loop runs between them.
import Sqlite from 'better-sqlite3';
import { realVotesSql } from '../../domain/votes.js';

const CHUNK = 5_000;
/** The CSV fields (the last, `test`, only with test votes included), then the keyset cursor (receivedAt in ms, id). */
type Row = [
  voterName: string,
  providerKey: string,
  receivedAtIso: string,
  chatStatus: string,
  callbackStatus: string,
  test: string,
  receivedAt: number,
  id: string,
];

/** Test votes are left out unless `includeTests` (README "Test votes"), which also adds the `test` column. */
export async function* exportRowsSqlite(
  path: string,
  organizationId: string,
  range: { from: Date | null; toExclusive: Date | null },
  chunk = CHUNK,
  includeTests = false,
): AsyncGenerator<string[][]> {
  const fields = includeTests ? 6 : 5;
  const db = new Sqlite(path, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    // The row comes out as its CSV fields: the ISO time (millisecond precision, as Date#toISOString writes it)
    // and the provider's key are made by SQLite, so the only per-row work left in JS is the CSV quoting.
    const columns = `SELECT v.voterName, coalesce(p.key, ''), strftime('%Y-%m-%dT%H:%M:%fZ', v.receivedAt / 1000.0, 'unixepoch'),
      v.chatStatus, v.callbackStatus, CASE WHEN v.test THEN 'true' ELSE 'false' END, v.receivedAt, v.id FROM "Vote" v LEFT JOIN "Provider" p ON p.id = v.providerId`;
    const end = `${range.toExclusive ? 'AND v.receivedAt < @to' : ''}${includeTests ? '' : ` AND ${realVotesSql('v')}`}`;
    // Rows of the cursor's own instant not yet sent, then everything after it: two index ranges, never a rescan.
    const first = db.prepare(`${columns} WHERE v.organizationId = @org AND v.receivedAt >= @from ${end} ORDER BY v.receivedAt, v.id LIMIT ${chunk}`).raw(true);
    const sameInstant = db
      .prepare(
        `${columns} WHERE v.organizationId = @org AND v.receivedAt = @at AND v.id > @id ${includeTests ? '' : `AND ${realVotesSql('v')}`} ORDER BY v.id LIMIT ${chunk}`,
      )
      .raw(true);
    const later = db.prepare(`${columns} WHERE v.organizationId = @org AND v.receivedAt > @at ${end} ORDER BY v.receivedAt, v.id LIMIT @limit`).raw(true);
    const base = { org: organizationId, ...(range.toExclusive ? { to: range.toExclusive.getTime() } : {}) };
    let rows = first.all({ ...base, from: range.from ? range.from.getTime() : -8.64e15 }) as Row[];
    for (;;) {
      const cursor = rows.length > 0 ? { at: rows[rows.length - 1][6], id: rows[rows.length - 1][7] } : null;
      for (const row of rows) (row as unknown[]).length = fields;
      yield rows as unknown as string[][];
      if (rows.length < chunk || !cursor) return;
      const { at, id } = cursor;
      const same = sameInstant.all({ org: organizationId, at, id }) as Row[];
      const rest = same.length < chunk ? (later.all({ ...base, at, limit: chunk - same.length }) as Row[]) : [];
      rows = [...same, ...rest];
      // Let the response drain and other requests run between chunks.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    db.close();
  }
}
