// The voters the SQLite write connection found by their identities, kept between its batches of votes so that a
// returning voter's vote reads no identity (README "Voters"; BENCHMARKS.md "Voters' identities on ingest"). Sound
// because that connection is the only one that writes voters on the hook path, and it learns of every other write:
// `PRAGMA data_version` changes when another connection (Prisma's: a merge, a split, an erasure, a plugin's report of
// its players; another process) has committed, and then everything kept is forgotten. Its own batches are remembered
// only once committed; a batch that rolled back leaves nothing kept.
import type { FoundVoter } from '../../domain/voter-identity.js';

/**
 * Identities in a generation: at most twice this kept, about 10 MB (some 500 bytes an identity with its voter), the
 * README's figure ("Voters").
 */
export const VOTER_CACHE_LIMIT = 10_000;

export interface VoterCache {
  /** At a batch's start, inside its transaction (the write lock held): forgets all when another connection committed. */
  begin(): void;
  /** The voter kept for an identity key (identityKey), or undefined: not kept, read it. */
  get(key: string): FoundVoter | undefined;
  /** After a batch committed: the voters it found, as it left them (voterBatch's `seen`). */
  committed(seen: Iterable<[string, FoundVoter]>): void;
  /** After a batch rolled back (or failed): nothing of it is known to be stored, so nothing is kept. */
  abandoned(): void;
}

/**
 * `dataVersion`: the connection's PRAGMA data_version. Two generations: when the young one is full it becomes the old
 * one and the old one goes, so a voter who has not voted for a while is read again; one found in the old generation
 * moves to the young one. (Not one Map trimmed from its front: V8 leaves a deleted entry's slot until the table is
 * rebuilt, and finding the first live key crossed them all, every batch, once the limit was reached.)
 */
export function voterCache(dataVersion: () => number, limit = VOTER_CACHE_LIMIT): VoterCache {
  let young = new Map<string, FoundVoter>();
  let old = new Map<string, FoundVoter>();
  let version: number | null = null;
  const keep = (key: string, voter: FoundVoter) => {
    if (young.size >= limit) {
      old = young;
      young = new Map();
    }
    young.set(key, voter);
  };
  const forget = () => {
    young = new Map();
    old = new Map();
  };
  return {
    begin() {
      const now = dataVersion();
      if (now !== version) forget();
      version = now;
    },
    get(key) {
      const voter = young.get(key);
      if (voter !== undefined) return voter;
      const aging = old.get(key);
      if (aging !== undefined) {
        old.delete(key);
        keep(key, aging);
      }
      return aging;
    },
    committed(seen) {
      for (const [key, voter] of seen) {
        old.delete(key);
        keep(key, voter);
      }
    },
    abandoned() {
      forget();
      version = null;
    },
  };
}
