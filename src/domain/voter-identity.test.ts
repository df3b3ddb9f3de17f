import { describe, expect, it } from 'vitest';
import {
  type FoundVoter,
  type Identity,
  identityKey,
  minecraftUuid,
  TEST_VOTER_PREFIX,
  type VoterKind,
  voterBatch,
  voterId,
  voterOfVote,
} from './voter-identity.js';

const ORG = 'org_1';
const OTHER_ORG = 'org_2';
const DISCORD_A = '160105994217586689';
const DISCORD_B = '808499215864008704';

const discord = (value: string): Identity => ({ kind: 'discord', value });
const minecraft = (value: string): Identity => ({ kind: 'minecraft', value });
const bedrock = (value: string): Identity => ({ kind: 'bedrock', value });
const hytale = (value: string): Identity => ({ kind: 'hytale', value });
const name = (value: string): Identity => ({ kind: 'name', value });

/** A voter as the database holds it before the batch: its identities in `organizationId`. */
interface Stored {
  id: string;
  displayName: string;
  nameAt: number;
  identities: Identity[];
  organizationId?: string;
}

/**
 * The writer's read of the stored identities, over an in-memory map: what `voterBatch` is given. Like the database
 * inside the batch's transaction, it does not see what the batch itself makes (the batch writes its rows at the end).
 */
function storeOf(...voters: Stored[]) {
  const byIdentity = new Map<string, Stored>();
  for (const v of voters) for (const i of v.identities) byIdentity.set(identityKey(v.organizationId ?? ORG, i), v);
  const asked: string[] = [];
  const find = (organizationId: string, probe: Identity): FoundVoter | null => {
    asked.push(identityKey(organizationId, probe));
    const v = byIdentity.get(identityKey(organizationId, probe));
    if (!v) return null;
    return {
      voterId: v.id,
      accounts: v.identities.filter((i) => i.kind === 'discord' || i.kind === 'minecraft_uuid').map((i) => ({ ...i })),
      displayName: v.displayName,
      nameAt: v.nameAt,
    };
  };
  return { find, asked };
}

/** Deterministic new voter ids, recording the time each was asked for. */
function counter() {
  let n = 0;
  const times: number[] = [];
  const newId = (atMs: number) => {
    times.push(atMs);
    n += 1;
    return `vtr_new${n}`;
  };
  return { newId, times };
}

function batchOver(...voters: Stored[]) {
  const store = storeOf(...voters);
  const ids = counter();
  return { batch: voterBatch(store.find, ids.newId), store, ids };
}

const noRows = { created: [], renamed: [], linked: [] };

describe('voterOfVote', () => {
  it('makes a Discord id the identity, the name only displaying, and probes the legacy keys after it', () => {
    expect(voterOfVote('Steve', DISCORD_A, 'name', null)).toEqual({
      name: 'Steve',
      idOnly: false,
      identities: [discord(DISCORD_A)],
      probes: [discord(DISCORD_A), name(DISCORD_A), name('steve')],
    });
  });

  it('lets a Discord id outrank the Minecraft, Hytale and name kinds, with or without a Bedrock prefix', () => {
    for (const kind of ['minecraft', 'hytale', 'name'] as const) {
      for (const prefix of [null, '.']) {
        const v = voterOfVote('.Steve', DISCORD_A, kind, prefix);
        expect(v.identities).toEqual([discord(DISCORD_A)]);
        expect(v.probes).toEqual([discord(DISCORD_A), name(DISCORD_A), name('.steve')]);
      }
    }
  });

  it('reads a snowflake sent as the name of a Discord site as the Discord id', () => {
    expect(voterOfVote(DISCORD_A, null, 'discord', null)).toEqual({
      name: DISCORD_A,
      idOnly: true,
      identities: [discord(DISCORD_A)],
      probes: [discord(DISCORD_A), name(DISCORD_A)],
    });
    // 17 to 20 digits are a snowflake; 16 and 21 are not.
    expect(voterOfVote('1'.repeat(17), null, 'discord', null).identities).toEqual([discord('1'.repeat(17))]);
    expect(voterOfVote('1'.repeat(20), null, 'discord', null).identities).toEqual([discord('1'.repeat(20))]);
    expect(voterOfVote('1'.repeat(16), null, 'discord', null).identities).toEqual([name('1'.repeat(16))]);
    expect(voterOfVote('1'.repeat(21), null, 'discord', null).identities).toEqual([name('1'.repeat(21))]);
  });

  it('prefers the Discord id of the body over the name of a Discord site', () => {
    const v = voterOfVote(DISCORD_B, DISCORD_A, 'discord', null);
    expect(v.identities).toEqual([discord(DISCORD_A)]);
    expect(v.probes[0]).toEqual(discord(DISCORD_A));
    expect(v.name).toBe(DISCORD_B);
  });

  it('falls back to a name identity when a Discord site sends no snowflake', () => {
    expect(voterOfVote('CoolUser', null, 'discord', null)).toEqual({
      name: 'CoolUser',
      idOnly: false,
      identities: [name('cooluser')],
      probes: [name('cooluser')],
    });
  });

  it('does not read a snowflake-looking name as a Discord id on other kinds of site', () => {
    expect(voterOfVote(DISCORD_A, null, 'name', null).identities).toEqual([name(DISCORD_A)]);
    expect(voterOfVote(DISCORD_A, null, 'hytale', null).identities).toEqual([hytale(DISCORD_A)]);
  });

  it('lower-cases a Java name, and probes the legacy name without a Bedrock prefix set', () => {
    expect(voterOfVote('Steve', null, 'minecraft', null)).toEqual({
      name: 'Steve',
      idOnly: false,
      identities: [minecraft('steve')],
      probes: [minecraft('steve'), name('steve')],
    });
    // Without a prefix a leading "." is just part of the name: no Bedrock identity or probe.
    const dotted = voterOfVote('.Steve', null, 'minecraft', null);
    expect(dotted.identities).toEqual([minecraft('.steve')]);
    expect(dotted.probes.some((p) => p.kind === 'bedrock')).toBe(false);
  });

  it('makes a name behind the Bedrock prefix a Bedrock player, guessing the same Java name after it', () => {
    expect(voterOfVote('.Steve', null, 'minecraft', '.')).toEqual({
      name: '.Steve',
      idOnly: false,
      identities: [bedrock('.steve')],
      probes: [bedrock('.steve'), name('.steve'), { ...minecraft('.steve'), guess: true }],
    });
  });

  it('makes a name without the prefix a Java player, then guesses the Bedrock player whose list dropped the prefix', () => {
    expect(voterOfVote('Steve', null, 'minecraft', '.')).toEqual({
      name: 'Steve',
      idOnly: false,
      identities: [minecraft('steve')],
      probes: [minecraft('steve'), name('steve'), { ...bedrock('.steve'), guess: true }],
    });
  });

  it('lower-cases the Bedrock prefix with the name', () => {
    expect(voterOfVote('Steve', null, 'minecraft', 'BE_').probes).toEqual([minecraft('steve'), name('steve'), { ...bedrock('be_steve'), guess: true }]);
    expect(voterOfVote('BE_Steve', null, 'minecraft', 'BE_')).toEqual({
      name: 'BE_Steve',
      idOnly: false,
      identities: [bedrock('be_steve')],
      probes: [bedrock('be_steve'), name('be_steve'), { ...minecraft('be_steve'), guess: true }],
    });
  });

  it('lower-cases a Hytale name and probes the legacy name', () => {
    expect(voterOfVote('Kweebec', null, 'hytale', '.')).toEqual({
      name: 'Kweebec',
      idOnly: false,
      identities: [hytale('kweebec')],
      probes: [hytale('kweebec'), name('kweebec')],
    });
  });

  it('keys any other name by itself, lower-cased', () => {
    expect(voterOfVote('Some Voter', null, 'name', '.')).toEqual({
      name: 'Some Voter',
      idOnly: false,
      identities: [name('some voter')],
      probes: [name('some voter')],
    });
  });

  it('probes each identity once, the vote’s own identities first', () => {
    // The legacy name of a vote whose name is its Discord id is the id itself: probed once.
    expect(voterOfVote(DISCORD_A, DISCORD_A, 'name', null).probes).toEqual([discord(DISCORD_A), name(DISCORD_A)]);
    expect(voterOfVote(DISCORD_A, DISCORD_A, 'minecraft', '.').probes).toEqual([discord(DISCORD_A), name(DISCORD_A)]);
    const kinds: VoterKind[] = ['discord', 'minecraft', 'hytale', 'name'];
    for (const kind of kinds) {
      for (const voter of ['Steve', '.Steve', 'steve', DISCORD_A, 'Cool User']) {
        for (const discordId of [null, DISCORD_A]) {
          for (const prefix of [null, '.', '*']) {
            const v = voterOfVote(voter, discordId, kind, prefix);
            const keys = v.probes.map((p) => `${p.kind}:${p.value}`);
            expect(new Set(keys).size).toBe(keys.length);
            expect(v.probes.slice(0, v.identities.length)).toEqual(v.identities);
            // Only the other Minecraft platform is a guess, never one of the vote's own identities.
            for (const p of v.probes.filter((q) => q.guess)) {
              expect(kind).toBe('minecraft');
              expect(['minecraft', 'bedrock']).toContain(p.kind);
              expect(v.identities.some((i) => i.kind === p.kind && i.value === p.value)).toBe(false);
            }
            expect(v.name).toBe(voter);
          }
        }
      }
    }
  });
});

describe('minecraftUuid', () => {
  const UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

  it('accepts the hyphenated form', () => {
    expect(minecraftUuid(UUID)).toBe(UUID);
  });

  it('accepts the form without hyphens, and any case, giving lower case with hyphens', () => {
    expect(minecraftUuid('069a79f444e94726a5befca90e38aaf5')).toBe(UUID);
    expect(minecraftUuid('069A79F444E94726A5BEFCA90E38AAF5')).toBe(UUID);
    expect(minecraftUuid('069A79F4-44E9-4726-A5BE-FCA90E38AAF5')).toBe(UUID);
    expect(minecraftUuid('069a79F4-44e9-4726-A5be-fca90E38aaf5')).toBe(UUID);
  });

  it('refuses what is not a UUID', () => {
    for (const junk of [
      '',
      'Steve',
      '069a79f444e94726a5befca90e38aaf', // 31 digits
      '069a79f444e94726a5befca90e38aaf5a', // 33 digits
      '069a79f444e94726a5befca90e38aafg', // not hex
      '069a79f44-4e9-4726-a5be-fca90e38aaf5', // hyphens out of place
      `${UUID}-`,
      `-${UUID}`,
      `{${UUID}}`,
      ` ${UUID}`,
      `${UUID}\n`,
      UUID.replace(/-/g, '_'),
    ]) {
      expect(minecraftUuid(junk), JSON.stringify(junk)).toBeNull();
    }
  });
});

describe('voterBatch', () => {
  it('creates a new voter with the vote’s identities linked, its name displaying', () => {
    const { batch, ids } = batchOver();
    const key = batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 1_000);
    expect(key).toBe('vtr_new1');
    expect(ids.times).toEqual([1_000]);
    expect(batch.rows()).toEqual({
      created: [{ id: 'vtr_new1', organizationId: ORG, displayName: 'Steve', displayKey: 'steve', nameAt: 1_000 }],
      renamed: [],
      // Only the vote's own identity: not the probed Bedrock name or legacy name.
      linked: [{ organizationId: ORG, kind: 'minecraft', value: 'steve', voterId: 'vtr_new1' }],
    });
  });

  it('gives a new voter its display key lower-cased and its display name as sent', () => {
    const { batch } = batchOver();
    batch.resolve(ORG, voterOfVote('MiXeD Case', DISCORD_A, 'name', null), 5);
    const [created] = batch.rows().created;
    expect(created.displayName).toBe('MiXeD Case');
    expect(created.displayKey).toBe('mixed case');
  });

  it('resolves two votes of one new identity in a batch to one voter, linking it once', () => {
    const { batch, ids } = batchOver();
    const first = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_000);
    const second = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_001);
    expect(second).toBe(first);
    expect(ids.times).toEqual([1_000]);
    const rows = batch.rows();
    expect(rows.created).toHaveLength(1);
    expect(rows.renamed).toEqual([]);
    expect(rows.linked).toEqual([{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: first }]);
  });

  it('lets a later vote of the batch rename a voter it created, still as one created row', () => {
    const { batch } = batchOver();
    const id = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_000);
    batch.resolve(ORG, voterOfVote('Stevie', DISCORD_A, 'name', null), 2_000);
    batch.resolve(ORG, voterOfVote('Older', DISCORD_A, 'name', null), 1_500);
    expect(batch.rows()).toEqual({
      created: [{ id, organizationId: ORG, displayName: 'Stevie', displayKey: 'stevie', nameAt: 2_000 }],
      renamed: [],
      linked: [{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: id }],
    });
  });

  it('finds a stored voter by its strongest identity, writing nothing', () => {
    const { batch, ids } = batchOver(
      { id: 'vtr_discord', displayName: 'Steve', nameAt: 100, identities: [discord(DISCORD_A)] },
      { id: 'vtr_legacy', displayName: 'Steve', nameAt: 100, identities: [name('steve')] },
    );
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_000)).toBe('vtr_discord');
    expect(ids.times).toEqual([]);
    expect(batch.rows()).toEqual(noRows);
  });

  it('keeps a voter across a rename: the later vote’s name displays', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'OldName', nameAt: 1_000, identities: [discord(DISCORD_A)] });
    expect(batch.resolve(ORG, voterOfVote('NewName', DISCORD_A, 'name', null), 2_000)).toBe('vtr_1');
    expect(batch.rows()).toEqual({
      created: [],
      renamed: [{ id: 'vtr_1', displayName: 'NewName', displayKey: 'newname', nameAt: 2_000 }],
      linked: [],
    });
  });

  it('does not let an older vote change the name', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'OldName', nameAt: 1_000, identities: [discord(DISCORD_A)] });
    expect(batch.resolve(ORG, voterOfVote('Older', DISCORD_A, 'name', null), 500)).toBe('vtr_1');
    expect(batch.rows()).toEqual(noRows);
  });

  it('keeps the latest name when an older vote follows a rename in the batch', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'OldName', nameAt: 1_000, identities: [discord(DISCORD_A)] });
    batch.resolve(ORG, voterOfVote('NewName', DISCORD_A, 'name', null), 3_000);
    batch.resolve(ORG, voterOfVote('Between', DISCORD_A, 'name', null), 2_000);
    expect(batch.rows().renamed).toEqual([{ id: 'vtr_1', displayName: 'NewName', displayKey: 'newname', nameAt: 3_000 }]);
  });

  it('does not rename a voter whose vote sends the name it already has', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'Steve', nameAt: 1_000, identities: [minecraft('steve')] });
    batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', null), 2_000);
    expect(batch.rows()).toEqual(noRows);
  });

  it('finds a voter from before identities by its name, and gives it the vote’s Discord id', () => {
    const { batch, ids } = batchOver({ id: 'vtr_legacy', displayName: 'Steve', nameAt: 1_000, identities: [name('steve')] });
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000)).toBe('vtr_legacy');
    // Its next vote finds it by the id it just gained, linking nothing more.
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 3_000)).toBe('vtr_legacy');
    expect(ids.times).toEqual([]);
    expect(batch.rows()).toEqual({
      created: [],
      renamed: [],
      linked: [{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: 'vtr_legacy' }],
    });
  });

  it('finds a voter from before identities keyed by the Discord id a site sent as the name', () => {
    const { batch } = batchOver({ id: 'vtr_legacy', displayName: DISCORD_A, nameAt: 1_000, identities: [name(DISCORD_A)] });
    expect(batch.resolve(ORG, voterOfVote(DISCORD_A, null, 'discord', null), 2_000)).toBe('vtr_legacy');
    expect(batch.rows().linked).toEqual([{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: 'vtr_legacy' }]);
  });

  it('does not join a Discord vote to a name voter who holds another Discord id', () => {
    const { batch, ids } = batchOver({ id: 'vtr_other', displayName: 'Steve', nameAt: 1_000, identities: [name('steve'), discord(DISCORD_B)] });
    const key = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000);
    expect(key).toBe('vtr_new1');
    expect(ids.times).toEqual([2_000]);
    expect(batch.rows()).toEqual({
      created: [{ id: 'vtr_new1', organizationId: ORG, displayName: 'Steve', displayKey: 'steve', nameAt: 2_000 }],
      renamed: [],
      linked: [{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: 'vtr_new1' }],
    });
    // The other Discord user is still theirs.
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_B, 'name', null), 3_000)).toBe('vtr_other');
  });

  it('does not join a second Discord id to a voter the batch just gave a first one', () => {
    const { batch } = batchOver({ id: 'vtr_legacy', displayName: 'Steve', nameAt: 1_000, identities: [name('steve')] });
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000)).toBe('vtr_legacy');
    // The legacy voter now holds DISCORD_A in the batch's view: another Discord user named Steve is somebody else.
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_B, 'name', null), 2_001)).toBe('vtr_new1');
    expect(batch.rows().linked).toEqual([
      { organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: 'vtr_legacy' },
      { organizationId: ORG, kind: 'discord', value: DISCORD_B, voterId: 'vtr_new1' },
    ]);
  });

  it('finds a merged voter holding two Discord ids by either, in one batch, when the store gives only the account found by', () => {
    // Both databases' reads give, for a voter found by an account, that account alone (the one the vote compares).
    const merged = { id: 'vtr_merged', displayName: 'Alice', nameAt: 1, identities: [discord(DISCORD_A), discord(DISCORD_B)] };
    const store = storeOf(merged);
    const find = (organizationId: string, probe: Identity): FoundVoter | null => {
      const found = store.find(organizationId, probe);
      return found && probe.kind === 'discord' ? { ...found, accounts: [probe] } : found;
    };
    const batch = voterBatch(find, counter().newId);
    expect(batch.resolve(ORG, voterOfVote('Alice', DISCORD_A, 'name', null), 10)).toBe('vtr_merged');
    expect(batch.resolve(ORG, voterOfVote('Alice', DISCORD_B, 'name', null), 20)).toBe('vtr_merged');
    expect(batch.rows()).toEqual(noRows);
  });

  it('lets a vote without account identities join a voter who holds accounts', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'Steve', nameAt: 1_000, identities: [name('steve'), discord(DISCORD_B)] });
    expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', null), 2_000)).toBe('vtr_1');
    expect(batch.rows().linked).toEqual([{ organizationId: ORG, kind: 'minecraft', value: 'steve', voterId: 'vtr_1' }]);
  });

  it('keeps voters apart per organization', () => {
    const { batch } = batchOver({ id: 'vtr_1', displayName: 'Steve', nameAt: 1_000, identities: [discord(DISCORD_A)] });
    expect(batch.resolve(OTHER_ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000)).toBe('vtr_new1');
    expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000)).toBe('vtr_1');
    expect(batch.resolve(OTHER_ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_001)).toBe('vtr_new1');
    expect(batch.rows()).toEqual({
      created: [{ id: 'vtr_new1', organizationId: OTHER_ORG, displayName: 'Steve', displayKey: 'steve', nameAt: 2_000 }],
      renamed: [],
      linked: [{ organizationId: OTHER_ORG, kind: 'discord', value: DISCORD_A, voterId: 'vtr_new1' }],
    });
  });

  it('reads each identity from the store once per batch', () => {
    const { batch, store } = batchOver({ id: 'vtr_1', displayName: 'Steve', nameAt: 1_000, identities: [minecraft('steve')] });
    for (let i = 0; i < 3; i++) batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000 + i);
    expect(new Set(store.asked).size).toBe(store.asked.length);
  });

  describe('Bedrock players (prefix ".")', () => {
    const java = { id: 'vtr_java', displayName: 'Steve', nameAt: 1_000, identities: [minecraft('steve')] };
    const bedrockSteve = { id: 'vtr_bedrock', displayName: '.Steve', nameAt: 1_000, identities: [bedrock('.steve')] };

    it('gives a name without the prefix to the Java player when only they are known', () => {
      const { batch } = batchOver(java);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_java');
      expect(batch.rows()).toEqual(noRows);
    });

    it('guesses the Bedrock player for a name without the prefix when only they are known, linking nothing', () => {
      const { batch, ids } = batchOver(bedrockSteve);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_bedrock');
      expect(ids.times).toEqual([]);
      const rows = batch.rows();
      expect(rows.created).toEqual([]);
      // A guess links nothing: minecraft:steve stays free for a Java player of that name.
      expect(rows.linked).toEqual([]);
      // The latest vote's name displays (as the list sent it, without the prefix).
      expect(rows.renamed).toEqual([{ id: 'vtr_bedrock', displayName: 'Steve', displayKey: 'steve', nameAt: 2_000 }]);
    });

    it('keeps guessing, not linking, on the batch’s later votes of that name', () => {
      const { batch, store } = batchOver(bedrockSteve);
      batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 3_000)).toBe('vtr_bedrock');
      expect(batch.resolve(ORG, voterOfVote('.Steve', null, 'minecraft', '.'), 4_000)).toBe('vtr_bedrock');
      expect(batch.rows().linked).toEqual([]);
      expect(store.asked).toContain(identityKey(ORG, minecraft('steve')));
    });

    it('links nothing when a name behind the prefix is guessed to be the Java player of that name', () => {
      // A Java name behind the prefix: found by the guess minecraft:.steve, the vote's bedrock:.steve is not linked.
      const javaDotted = { id: 'vtr_java_dotted', displayName: '.Steve', nameAt: 1_000, identities: [minecraft('.steve')] };
      const { batch } = batchOver(javaDotted);
      expect(batch.resolve(ORG, voterOfVote('.Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_java_dotted');
      expect(batch.rows()).toEqual(noRows);
    });

    // A voter from before identities holds the exact name the vote sent: it wins over the Bedrock guess.
    it('prefers the exact legacy name to the Bedrock guess', () => {
      const legacy = { id: 'vtr_legacy', displayName: 'Steve', nameAt: 500, identities: [name('steve')] };
      const { batch } = batchOver(legacy, bedrockSteve);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_legacy');
    });

    it('gives a name without the prefix to the Java player when both are known (the exact name first)', () => {
      const { batch } = batchOver(java, bedrockSteve);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_java');
      expect(batch.rows()).toEqual(noRows);
    });

    it('gives a name behind the prefix to the Bedrock player when both are known', () => {
      const { batch } = batchOver(java, bedrockSteve);
      expect(batch.resolve(ORG, voterOfVote('.Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_bedrock');
      expect(batch.rows()).toEqual(noRows);
    });

    it('never gives a name behind the prefix to the Java player of the same name', () => {
      const { batch } = batchOver(java);
      expect(batch.resolve(ORG, voterOfVote('.Steve', null, 'minecraft', '.'), 2_000)).toBe('vtr_new1');
      expect(batch.rows().linked).toEqual([{ organizationId: ORG, kind: 'bedrock', value: '.steve', voterId: 'vtr_new1' }]);
    });

    it('finds a Bedrock player only through the prefix the organization set', () => {
      const { batch } = batchOver(bedrockSteve);
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', null), 2_000)).toBe('vtr_new1');
    });
  });

  describe('test votes', () => {
    it('resolve to the voter they match, making, linking and renaming nothing', () => {
      const { batch, ids } = batchOver(
        { id: 'vtr_1', displayName: 'Steve', nameAt: 1_000, identities: [name('steve')] },
        { id: 'vtr_2', displayName: 'Alex', nameAt: 1_000, identities: [discord(DISCORD_A)] },
      );
      expect(batch.resolve(ORG, voterOfVote('Steve', null, 'minecraft', '.'), 2_000, true)).toBe('vtr_1');
      expect(batch.resolve(ORG, voterOfVote('Renamed', DISCORD_A, 'name', null), 2_000, true)).toBe('vtr_2');
      expect(ids.times).toEqual([]);
      expect(batch.rows()).toEqual(noRows);
    });

    it('resolve to "test:" and the lower-cased name when they match no voter', () => {
      const { batch, ids } = batchOver();
      expect(TEST_VOTER_PREFIX).toBe('test:');
      expect(batch.resolve(ORG, voterOfVote('VoteRelayTest', null, 'name', null), 2_000, true)).toBe('test:voterelaytest');
      expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000, true)).toBe('test:steve');
      expect(ids.times).toEqual([]);
      expect(batch.rows()).toEqual(noRows);
    });

    it('leave no trace a later real vote of the batch would see', () => {
      const { batch } = batchOver();
      expect(batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_000, true)).toBe('test:steve');
      const real = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 2_000);
      expect(real).toBe('vtr_new1');
      expect(batch.rows().linked).toEqual([{ organizationId: ORG, kind: 'discord', value: DISCORD_A, voterId: real }]);
    });

    it('see the voters the batch’s earlier real votes made', () => {
      const { batch } = batchOver();
      const real = batch.resolve(ORG, voterOfVote('Steve', DISCORD_A, 'name', null), 1_000);
      expect(batch.resolve(ORG, voterOfVote('Other', DISCORD_A, 'name', null), 2_000, true)).toBe(real);
      expect(batch.rows().created).toEqual([{ id: real, organizationId: ORG, displayName: 'Steve', displayKey: 'steve', nameAt: 1_000 }]);
    });
  });

  it('makes time-ordered voter ids by default', () => {
    const batch = voterBatch(storeOf().find);
    const key = batch.resolve(ORG, voterOfVote('Steve', null, 'name', null), Date.UTC(2026, 10, 28));
    expect(key).toMatch(/^vtr_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(batch.rows().created[0].id).toBe(key);
    // The id's first 48 bits are the vote's time, so voters made later sort later.
    expect(voterId(1_000) < voterId(2_000)).toBe(true);
    expect(Number.parseInt(key.slice(4, 17).replace('-', ''), 16)).toBe(Date.UTC(2026, 10, 28));
  });
});

describe('a vote that sends only the Discord id', () => {
  it('does not replace the display name of a voter who has one (a vote recovered from a list)', () => {
    const stored = new Map([
      [
        `discord:${'111000000000000001'}`,
        { voterId: 'vtr_1', accounts: [{ kind: 'discord' as const, value: '111000000000000001' }], displayName: 'Alice', nameAt: 1_000 },
      ],
    ]);
    const batch = voterBatch((_o, i) => stored.get(`${i.kind}:${i.value}`) ?? null);
    const recovered = voterOfVote('111000000000000001', null, 'discord', null);
    expect(recovered.idOnly).toBe(true);
    expect(batch.resolve('org', recovered, 2_000)).toBe('vtr_1');
    expect(batch.rows().renamed).toEqual([]);
  });
});

describe('seen: what a writer keeps between batches', () => {
  const DISCORD_C = '912345678901234567';

  it('gives each identity the batch found or linked to a stored voter, with the voter as the batch leaves them', () => {
    const { batch } = batchOver(
      { id: 'vtr_1', displayName: 'OldName', nameAt: 1_000, identities: [discord(DISCORD_A)] },
      { id: 'vtr_legacy', displayName: 'Steve', nameAt: 1_000, identities: [name('steve')] },
    );
    batch.resolve(ORG, voterOfVote('NewName', DISCORD_A, 'name', null), 2_000);
    // A new voter, and the identities that led nowhere: not given.
    batch.resolve(ORG, voterOfVote('Alex', DISCORD_B, 'name', null), 2_500);
    // A stored voter from before identities gains a Discord id: both keys lead to it.
    batch.resolve(ORG, voterOfVote('Steve', '912345678901234560', 'name', null), 3_000);
    const seen = new Map(batch.seen());
    expect([...seen.keys()].sort()).toEqual(
      [identityKey(ORG, discord(DISCORD_A)), identityKey(ORG, discord('912345678901234560')), identityKey(ORG, name('steve'))].sort(),
    );
    expect(seen.get(identityKey(ORG, discord(DISCORD_A)))).toMatchObject({
      voterId: 'vtr_1',
      accounts: [discord(DISCORD_A)],
      displayName: 'NewName',
      nameAt: 2_000,
    });
    for (const key of [identityKey(ORG, name('steve')), identityKey(ORG, discord('912345678901234560'))])
      expect(seen.get(key)).toMatchObject({ voterId: 'vtr_legacy', accounts: [discord('912345678901234560')], displayName: 'Steve' });
  });

  it('lets the next batch resolve from it exactly as from the store with the first batch written', () => {
    const stored: Stored[] = [
      { id: 'vtr_a', displayName: 'Ann', nameAt: 1_000, identities: [discord(DISCORD_A)] },
      { id: 'vtr_legacy', displayName: 'Steve', nameAt: 1_000, identities: [name('steve')] },
      { id: 'vtr_mc', displayName: 'Notch', nameAt: 1_000, identities: [minecraft('notch')] },
    ];
    const first = batchOver(...stored);
    first.batch.resolve(ORG, voterOfVote('Annie', DISCORD_A, 'name', null), 2_000);
    first.batch.resolve(ORG, voterOfVote('Steve', DISCORD_B, 'name', null), 2_100);
    first.batch.resolve(ORG, voterOfVote('Cleo', DISCORD_C, 'name', null), 2_200);
    first.batch.resolve(ORG, voterOfVote('Notch', null, 'minecraft', null), 2_300);
    // The store once the first batch's rows are written.
    const rows = first.batch.rows();
    const written: Stored[] = stored.map((v) => ({ ...v, identities: [...v.identities] }));
    for (const c of rows.created) written.push({ id: c.id, displayName: c.displayName, nameAt: c.nameAt, identities: [] });
    for (const r of rows.renamed) Object.assign(written.find((v) => v.id === r.id)!, { displayName: r.displayName, nameAt: r.nameAt });
    for (const l of rows.linked) written.find((v) => v.id === l.voterId)!.identities.push({ kind: l.kind, value: l.value });
    const kept = new Map(first.batch.seen());

    const store = storeOf(...written);
    const fromStore = voterBatch(store.find, counter().newId);
    const keptStore = storeOf(...written);
    const fromKept = voterBatch((o, i) => kept.get(identityKey(o, i)) ?? keptStore.find(o, i), counter().newId);
    const next = [
      voterOfVote('Ann', DISCORD_A, 'name', null),
      voterOfVote('Steven', DISCORD_B, 'name', null),
      voterOfVote('Cleo', DISCORD_C, 'name', null),
      voterOfVote('notch', null, 'minecraft', null),
      voterOfVote('Dora', '123456789012345678', 'name', null),
    ];
    next.forEach((vote, i) => expect(fromKept.resolve(ORG, vote, 3_000 + i)).toBe(fromStore.resolve(ORG, vote, 3_000 + i)));
    expect(fromKept.rows()).toEqual(fromStore.rows());
    // The stored voters the first batch found were not read again; the one it made (Cleo) was.
    expect(keptStore.asked).toEqual([
      identityKey(ORG, discord(DISCORD_C)),
      identityKey(ORG, discord('123456789012345678')),
      identityKey(ORG, name('123456789012345678')),
      identityKey(ORG, name('dora')),
    ]);
  });
});
