// `cli stats verify` as the tests call it: the rollups compared with the raw votes from the retention horizon on.
import { votesKeptFrom } from '../../src/retention/retention.js';
import type { RollupDifference, Storage } from '../../src/storage/index.js';

export async function verifyRollups(db: Storage, organizationId?: string): Promise<RollupDifference[]> {
  return db.rollups.verify((await votesKeptFrom(db.prisma)) ?? '', organizationId);
}
