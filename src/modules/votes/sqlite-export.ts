// The CSV export's read path on embedded SQLite: a read-only better-sqlite3 connection of its own and raw rows
// (arrays), keyset chunks over the (organizationId, receivedAt) index. Prisma's per-row mapping was the export's
// main cost (75k rows/s at 10M votes). Each chunk is one short synchronous read; the event loop runs between them.
import Sqlite from 'better-sqlite3';

const CHUNK = 5_000;
type Row = [id: string, voterName: string, providerId: string, receivedAt: number, chatStatus: string, callbackStatus: string];

export async function* exportRowsSqlite(
  path: string,
  organizationId: string,
  range: { from: Date | null; toExclusive: Date | null },
  providers: Map<string, string>,
  chunk = CHUNK,
): AsyncGenerator<string[][]> {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const columns = 'SELECT id, voterName, providerId, receivedAt, chatStatus, callbackStatus FROM "Vote"';
    const end = range.toExclusive ? 'AND receivedAt < @to' : '';
    // Rows of the cursor's own instant not yet sent, then everything after it: two index ranges, never a rescan.
    const first = db.prepare(`${columns} WHERE organizationId = @org AND receivedAt >= @from ${end} ORDER BY receivedAt, id LIMIT ${chunk}`).raw(true);
    const sameInstant = db.prepare(`${columns} WHERE organizationId = @org AND receivedAt = @at AND id > @id ORDER BY id LIMIT ${chunk}`).raw(true);
    const later = db.prepare(`${columns} WHERE organizationId = @org AND receivedAt > @at ${end} ORDER BY receivedAt, id LIMIT @limit`).raw(true);
    const base = { org: organizationId, ...(range.toExclusive ? { to: range.toExclusive.getTime() } : {}) };
    let rows = first.all({ ...base, from: range.from ? range.from.getTime() : -8.64e15 }) as Row[];
    for (;;) {
      yield rows.map((r) => [r[1], providers.get(r[2]) ?? '', new Date(r[3]).toISOString(), r[4], r[5]]);
      if (rows.length < chunk) return;
      const [id, , , at] = rows[rows.length - 1];
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
