// Who a vote is from (README "Voters"): the identities a vote gives, strongest first, what the vote writers look up
// for it, and the rule that resolves them to one voter. Pure: the writers (storage/sqlite/votes.ts,
// storage/postgres/votes.ts) read the identities inside the vote's transaction and write what `voterBatch` made.
import { timeOrderedId } from '../base/time-ordered-id.js';
import { DISCORD_ID } from './discord-id.js';

export const IDENTITY_KINDS = ['discord', 'minecraft', 'minecraft_uuid', 'bedrock', 'hytale', 'name'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** What the name at a provider's voter path is (Provider.voterKind). */
export const VOTER_KINDS = ['discord', 'minecraft', 'hytale', 'name'] as const;
export type VoterKind = (typeof VOTER_KINDS)[number];

export interface Identity {
  kind: IdentityKind;
  /** Names lower-cased; a Discord id as sent; a Minecraft UUID lower-cased with hyphens. */
  value: string;
}

/**
 * Kinds that name one account for good: a voter who holds one of them with another value is somebody else, so a
 * weaker identity (a name) never joins a vote to them.
 */
export const ACCOUNT_KINDS: ReadonlySet<IdentityKind> = new Set(['discord', 'minecraft_uuid']);

/** The prefix test votes key under when they match no voter (they make none: README "Test votes"). */
export const TEST_VOTER_PREFIX = 'test:';

/** A vote's voter as its writer gets it. */
export interface VoterOfVote {
  /** The name as the site sent it: the voter's display name follows the latest vote. */
  name: string;
  /** The name is only the Discord id (a site that sends no user name, a vote recovered from a list): it names no one new. */
  idOnly: boolean;
  /** The vote's own identities, strongest first: a new voter gets them, a found one gains those it lacks. */
  identities: Identity[];
  /**
   * What to look up, in order: the vote's identities, then what the same person was known by before (the name of a
   * voter from before identities), and for a Minecraft name the Bedrock player behind the prefix, or the other way:
   * a guess that links nothing (a Java player of that name who votes later is the exact match, not this voter).
   */
  probes: Probe[];
}

/** An identity to look up; `guess`: a voter found by it gains none of the vote's identities. */
export type Probe = Identity & { guess?: true };

const MINECRAFT_UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A Minecraft UUID in its usual form (lower case, hyphens), or null when `text` is none. */
export function minecraftUuid(text: string): string | null {
  if (!MINECRAFT_UUID.test(text)) return null;
  const hex = text.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A vote's voter: `name` from the provider's voter path (of `kind`), and the Discord id its body carries (the
 * provider's discordIdPath), if any. `bedrockPrefix`: the organization's Floodgate prefix (settings.bedrock_prefix).
 *
 * - A Discord id is the voter: the name only displays (two Discord users may share one, and a user renames).
 * - A Minecraft name behind the prefix is a Bedrock player; without it, a Java player, or else the Bedrock player
 *   whose list dropped the prefix (README "Voters", Bedrock): the exact name first.
 */
export function voterOfVote(name: string, discordId: string | null, kind: VoterKind, bedrockPrefix: string | null): VoterOfVote {
  const lower = name.toLowerCase();
  const identities: Identity[] = [];
  const fallbacks: Probe[] = [];
  const id = discordId ?? (kind === 'discord' && DISCORD_ID.test(name) ? name : null);
  if (id) {
    identities.push({ kind: 'discord', value: id });
    // A voter from before identities was keyed by the name the site sent: the id itself on sites that send only it.
    fallbacks.push({ kind: 'name', value: id });
    if (kind !== 'discord') fallbacks.push({ kind: 'name', value: lower });
  } else if (kind === 'minecraft') {
    const prefixed = bedrockPrefix !== null && name.startsWith(bedrockPrefix);
    identities.push({ kind: prefixed ? 'bedrock' : 'minecraft', value: lower });
    // The exact name first, a voter from before identities under it next, the other edition's player last.
    fallbacks.push({ kind: 'name', value: lower });
    if (bedrockPrefix !== null) {
      if (prefixed) fallbacks.push({ kind: 'minecraft', value: lower, guess: true });
      else fallbacks.push({ kind: 'bedrock', value: `${bedrockPrefix.toLowerCase()}${lower}`, guess: true });
    }
  } else if (kind === 'hytale') {
    identities.push({ kind: 'hytale', value: lower });
    fallbacks.push({ kind: 'name', value: lower });
  } else {
    identities.push({ kind: 'name', value: lower });
  }
  const probes: Probe[] = [...identities];
  for (const f of fallbacks) if (!probes.some((p) => p.kind === f.kind && p.value === f.value)) probes.push(f);
  return { name, idOnly: id !== null && name === id, identities, probes };
}

/** What the writer found for one probe: the voter holding it. */
export interface FoundVoter {
  voterId: string;
  /** The voter's account identities (discord, minecraft_uuid). */
  accounts: Identity[];
  displayName: string;
  /** When displayName was set, epoch ms. */
  nameAt: number;
}

export const identityKey = (organizationId: string, i: Identity) => `${organizationId}\u0000${i.kind}\u0000${i.value}`;

/**
 * True when the voter may be the vote's person: they hold one of its accounts (a merged voter may hold two), or no
 * account of a kind the vote has with another value.
 */
function compatible(vote: VoterOfVote, voter: FoundVoter): boolean {
  if (vote.identities.some((own) => ACCOUNT_KINDS.has(own.kind) && voter.accounts.some((a) => a.kind === own.kind && a.value === own.value))) return true;
  return vote.identities.every((own) => !ACCOUNT_KINDS.has(own.kind) || !voter.accounts.some((a) => a.kind === own.kind && a.value !== own.value));
}

/** Rows a batch of votes writes for its voters. */
export interface VoterRows {
  /** New voters. */
  created: { id: string; organizationId: string; displayName: string; displayKey: string; nameAt: number }[];
  /** Found voters whose display name a later vote changed. */
  renamed: { id: string; displayName: string; displayKey: string; nameAt: number }[];
  /** Identities linked to a voter (new voters' and found voters' new ones). */
  linked: { organizationId: string; kind: IdentityKind; value: string; voterId: string }[];
}

/**
 * Resolves a batch's votes to voters, in order (a vote sees the voters and identities the batch's earlier votes
 * made). `find`: the stored voter holding an identity (`key`: its identityKey), read in the batch's transaction
 * under its locks.
 */
export function voterBatch(find: (organizationId: string, identity: Identity, key: string) => FoundVoter | null, newId: (atMs: number) => string = voterId) {
  const known = new Map<string, FoundVoter | null>();
  const voters = new Map<string, FoundVoter & { organizationId: string; created: boolean; renamed: boolean }>();
  const linked: VoterRows['linked'] = [];
  const lookup = (organizationId: string, identity: Identity): FoundVoter | null => {
    const key = identityKey(organizationId, identity);
    if (!known.has(key)) known.set(key, find(organizationId, { kind: identity.kind, value: identity.value }, key));
    const found = known.get(key)!;
    if (!found) return null;
    // The batch's own view of that voter (its links and name), where it has one; the accounts this read found it by
    // join it (a merged voter holds two, and the store may give only the one it was found by).
    const view = voters.get(found.voterId);
    if (!view) return found;
    for (const a of found.accounts) if (!view.accounts.some((b) => b.kind === a.kind && b.value === a.value)) view.accounts.push(a);
    return view;
  };
  return {
    /**
     * The voter key of a vote received at `atMs`: the voter's id. A test vote only reads: it makes and links nothing,
     * and matches no voter as "test:<name>".
     */
    resolve(organizationId: string, vote: VoterOfVote, atMs: number, test = false): string {
      let found: FoundVoter | null = null;
      let guessed = false;
      for (const probe of vote.probes) {
        const voter = lookup(organizationId, probe);
        if (voter && compatible(vote, voter)) {
          found = voter;
          guessed = probe.guess === true;
          break;
        }
      }
      if (test) return found ? found.voterId : `${TEST_VOTER_PREFIX}${vote.name.toLowerCase()}`;
      let voter = found ? voters.get(found.voterId) : undefined;
      if (!voter) {
        // Written out, not spread: a spread copy cost 5 µs a vote on the write thread (V8's generic object clone).
        voter = found
          ? {
              voterId: found.voterId,
              accounts: [...found.accounts],
              displayName: found.displayName,
              nameAt: found.nameAt,
              organizationId,
              created: false,
              renamed: false,
            }
          : { voterId: newId(atMs), accounts: [], displayName: vote.name, nameAt: atMs, organizationId, created: true, renamed: false };
        voters.set(voter.voterId, voter);
      }
      // The display name follows the latest vote, unless that vote sent the id alone and the voter has a name.
      if (atMs >= voter.nameAt && vote.name !== voter.displayName && (!vote.idOnly || voter.created)) {
        voter.displayName = vote.name;
        voter.nameAt = atMs;
        voter.renamed = !voter.created;
      }
      for (const own of guessed ? [] : vote.identities) {
        if (lookup(organizationId, own)) continue;
        known.set(identityKey(organizationId, own), voter);
        linked.push({ organizationId, kind: own.kind, value: own.value, voterId: voter.voterId });
        if (ACCOUNT_KINDS.has(own.kind)) voter.accounts.push(own);
      }
      return voter.voterId;
    },
    /**
     * Each identity the batch looked up or linked that leads to a voter it found stored, with that voter as the batch
     * leaves them (name, accounts): what a writer that keeps voters between batches remembers once the batch is
     * committed. Voters the batch made are left out (most vote again only a day later), as are identities of no voter.
     * The objects are the batch's own, which it no longer changes.
     */
    seen(): [key: string, voter: FoundVoter][] {
      const out: [string, FoundVoter][] = [];
      for (const [key, found] of known) {
        const view = found && voters.get(found.voterId);
        if (found && !view?.created) out.push([key, view ?? found]);
      }
      return out;
    },
    rows(): VoterRows {
      const all = [...voters.values()];
      return {
        created: all
          .filter((v) => v.created)
          .map((v) => ({
            id: v.voterId,
            organizationId: v.organizationId,
            displayName: v.displayName,
            displayKey: v.displayName.toLowerCase(),
            nameAt: v.nameAt,
          })),
        renamed: all
          .filter((v) => v.renamed)
          .map((v) => ({ id: v.voterId, displayName: v.displayName, displayKey: v.displayName.toLowerCase(), nameAt: v.nameAt })),
        linked,
      };
    },
  };
}

/** A new voter's id. */
export const voterId = (atMs: number = Date.now()) => `vtr_${timeOrderedId(atMs)}`;
