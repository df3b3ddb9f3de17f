// The CSV export's read path on PostgreSQL (ports.ts, Reports.exportVotes): keyset chunks over (receivedAt, id) with
// Prisma, each chunk its own short query, so no transaction or cursor stays open between them.
import type { Prisma } from '../../generated/sqlite/client.js';
import { REAL_VOTES } from '../../domain/votes.js';
import type { Db } from '../ports.js';

const EXPORT_CHUNK = 2_000;

export async function* exportVotesPostgres(
  prisma: Db,
  organizationId: string,
  range: { from: Date | null; toExclusive: Date | null },
  includeTests: boolean,
): AsyncGenerator<string[][]> {
  const where: Prisma.VoteWhereInput = {
    organizationId,
    ...(range.from || range.toExclusive
      ? { receivedAt: { ...(range.from ? { gte: range.from } : {}), ...(range.toExclusive ? { lt: range.toExclusive } : {}) } }
      : {}),
    ...(includeTests ? {} : REAL_VOTES),
  };
  const providers = new Map((await prisma.provider.findMany({ where: { organizationId }, select: { id: true, key: true } })).map((p) => [p.id, p.key]));
  let after: { receivedAt: Date; id: string } | null = null;
  for (;;) {
    // A range on receivedAt (so the (organizationId, receivedAt) index seeks to the cursor) minus the rows of
    // the cursor's own instant already sent; an OR of the two would rescan from the start on every chunk.
    const cursor: Prisma.VoteWhereInput = after ? { receivedAt: { gte: after.receivedAt }, NOT: { receivedAt: after.receivedAt, id: { lte: after.id } } } : {};
    const rows: { id: string; voterName: string; providerId: string; receivedAt: Date; chatStatus: string; callbackStatus: string; test: boolean }[] =
      await prisma.vote.findMany({
        where: { AND: [where, cursor] },
        orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
        take: EXPORT_CHUNK,
        select: { id: true, voterName: true, providerId: true, receivedAt: true, chatStatus: true, callbackStatus: true, test: true },
      });
    yield rows.map((row) => [
      row.voterName,
      providers.get(row.providerId) ?? '',
      row.receivedAt.toISOString(),
      row.chatStatus,
      row.callbackStatus,
      ...(includeTests ? [String(row.test)] : []),
    ]);
    if (rows.length < EXPORT_CHUNK) return;
    const last = rows[rows.length - 1];
    after = { receivedAt: last.receivedAt, id: last.id };
  }
}
