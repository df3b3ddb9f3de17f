// One rule for a voter's spelling, used by both vote writers and by `stats rebuild`: a voter is counted under their
// voter's id (voter-identity.ts); a day's rollup row shows the spelling of that day's latest vote (on the same
// millisecond, the greater spelling, so the outcome never depends on the order two writes landed in).
import { realVotesSql } from './votes.js';

/** True when the vote (`name`, `at`) decides the spelling over the row's current (`currentName`, `currentAt`). */
export const spellingWins = (name: string, at: number, currentName: string, currentAt: number): boolean =>
  at > currentAt || (at === currentAt && name > currentName);

/** The same rule in an upsert: `row` is the stored rollup row, `excluded` the one being inserted. */
export const spellingWinsSql = (row: string): string =>
  `CASE WHEN excluded."lastVoteAt" > ${row}."lastVoteAt" OR (excluded."lastVoteAt" = ${row}."lastVoteAt" AND excluded."voterName" > ${row}."voterName")
     THEN excluded."voterName" ELSE ${row}."voterName" END`;

/**
 * The same rule over raw votes, for a rebuild grouped by (provider, voterKey, day) as `g` with `g."lastVoteAt"` the
 * group's latest vote time: among that instant's votes, the greatest spelling.
 */
export const latestSpellingSql = (dayOf: (column: string) => string): string =>
  `(SELECT MAX(v2."voterName") FROM "Vote" AS v2 WHERE v2."providerId" = g."providerId" AND v2."voterKey" = g."voterKey"
     AND v2."receivedAt" = g."lastVoteAt" AND ${dayOf('v2."receivedAt"')} = g.day AND ${realVotesSql('v2')})`;
