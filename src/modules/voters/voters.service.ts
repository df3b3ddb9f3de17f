// A voter's erasure (the README's Retention and erasure): every vote of one voter in every provider of the
// organization goes, with its stored payload, delivery jobs and attempts (foreign-key cascades), and the voter's
// per-day rollup rows; the per-provider day counts lose exactly what the voter's rows counted, so statistics stay
// consistent (`cli stats verify`) even for days whose raw votes retention has already removed.
import type { AppDeps } from '../../app/deps.js';
import { notFound, validationError } from '../../base/errors.js';
import { MAX_VOTER_NAME_LENGTH } from '../votes/ingest.service.js';
import { voterIdByName } from '../../storage/voter-lookup.js';
import { EVENT_JOB_KIND, type EventData } from '../../domain/reward-events.js';
import { deleteReminders } from '../../storage/reminder-store.js';
import { RECOUNT_TRANSACTION } from '../../storage/rollups.js';
import type { Tx } from '../../storage/ports.js';
import { IDENTITY_KINDS, TEST_VOTER_PREFIX, minecraftUuid, voterId as newVoterId, type IdentityKind } from '../../domain/voter-identity.js';
import { pageOf } from '../../base/validation.js';
import { discordIdIn } from '../../domain/discord-id.js';
import { spellingWins } from '../../domain/voter-name.js';
import { localDay } from '../../domain/voter-standing.js';
import { utcDay } from '../../base/time.js';
import type { Prisma } from '../../generated/sqlite/client.js';

/** Voters found by an identity's prefix that a search looks at (display names are searched whatever their number). */
const SEARCH_IDENTITIES = 500;

/** Players one report may hold (POST /v1/plugin/players). */
const MAX_REPORTED_PLAYERS = 500;

/** Votes removed per transaction before the counts are adjusted. */
const ERASE_BATCH = 1_000;

export interface ErasedVoter {
  voterName: string;
  votesDeleted: number;
  attemptsDeleted: number;
  rollupRowsDeleted: number;
}

export function createVoterService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function erase(organizationId: string, voterName: string): Promise<ErasedVoter> {
    const name = voterName.trim();
    if (!name || name.length > MAX_VOTER_NAME_LENGTH) {
      throw validationError([{ field: 'voter_name', message: `must be 1-${MAX_VOTER_NAME_LENGTH} characters` }]);
    }
    // The voter the name names (README "Voters"), and the owner's test votes under that name (they make no voter).
    // A voter's id (vtr_…) names them too.
    const byId = name.startsWith('vtr_') ? await prisma.voter.findFirst({ where: { id: name, organizationId }, select: { id: true } }) : null;
    const voterId = byId?.id ?? (await voterIdByName(prisma, organizationId, name));
    const voterKey = { in: [...(voterId ? [voterId] : []), `${TEST_VOTER_PREFIX}${name.toLowerCase()}`] };
    const names = new Set([name.toLowerCase()]);
    if (voterId) {
      const identities = await prisma.voterIdentity.findMany({ where: { voterId }, select: { value: true } });
      for (const i of identities) names.add(i.value);
    }
    // The organization inside the relation filter too, so the (organizationId, voterKey, receivedAt) index finds the votes.
    const attemptsDeleted = await prisma.deliveryAttempt.count({ where: { organizationId, vote: { organizationId, voterKey } } });
    // The votes first, in batches, each its own short transaction (their jobs and attempts go with them), so no
    // lock is held while a voter's whole history is removed.
    let votesDeleted = 0;
    for (;;) {
      const ids = await prisma.vote.findMany({ where: { organizationId, voterKey }, select: { id: true }, take: ERASE_BATCH });
      if (ids.length === 0) break;
      votesDeleted += (await prisma.vote.deleteMany({ where: { id: { in: ids.map((v) => v.id) } } })).count;
    }
    // Then the counts, briefly locked against vote writers: PostgreSQL locks the rollup tables (a vote being written
    // waits, as for `stats rebuild`); on SQLite the first write takes the database's single write lock. A vote of
    // this voter that arrived meanwhile goes too, so the counts taken off are exactly the votes removed.
    const rollups = await prisma.$transaction(
      async (tx) => {
        await deps.db.rollups.lockAgainstVoteWriters(tx);
        // Counts go down: cached leaderboards rank afresh (stats/leaderboard.ts).
        await tx.organization.update({ where: { id: organizationId }, data: { statsEpoch: { increment: 1 } } });
        votesDeleted += (await tx.vote.deleteMany({ where: { organizationId, voterKey } })).count;
        const rows = await tx.voterDailyCount.findMany({ where: { organizationId, voterKey }, select: { providerId: true, day: true, count: true } });
        for (const row of rows) {
          await tx.providerDailyCount.updateMany({ where: { providerId: row.providerId, day: row.day }, data: { count: { decrement: row.count } } });
        }
        const emptied = await tx.providerDailyCount.deleteMany({ where: { organizationId, count: { lte: 0 } } });
        const deleted = await tx.voterDailyCount.deleteMany({ where: { organizationId, voterKey } });
        // The voter's standing (README "Rewards") goes with them: a returning voter starts from nothing.
        const standings =
          (await tx.voterStanding.deleteMany({ where: { organizationId, voterKey } })).count +
          (await tx.voterDay.deleteMany({ where: { organizationId, voterKey } })).count;
        // Their reminders (README "Reminders") and opt-out go too, and reminder events queued for them after the
        // vote that set them was gone (a reminder's job otherwise goes with its vote).
        const reminders =
          (voterId ? await deleteReminders(tx, organizationId, { voterKey: voterId }) : 0) +
          (await tx.reminderOptOut.deleteMany({ where: { organizationId, voterKey } })).count;
        const orphanEvents = await tx.deliveryJob.findMany({
          where: { organizationId, kind: EVENT_JOB_KIND, voteId: null },
          select: { id: true, payloadJson: true },
        });
        const theirs = orphanEvents.filter((job) => {
          const data = JSON.parse(job.payloadJson ?? '{}') as EventData;
          if (data.event !== 'reminder') return false;
          return data.reminder.voterId ? data.reminder.voterId === voterId : names.has(data.reminder.voterName.toLowerCase());
        });
        if (theirs.length > 0) await tx.deliveryJob.deleteMany({ where: { id: { in: theirs.map((job) => job.id) } } });
        // The voter itself: who they were (their identities) goes with what they did.
        if (voterId) {
          await tx.voterIdentity.deleteMany({ where: { voterId } });
          await tx.voter.deleteMany({ where: { id: voterId } });
        }
        return deleted.count + emptied.count + standings + reminders + theirs.length;
      },
      { timeout: 60_000 },
    );
    return { voterName: name, votesDeleted, attemptsDeleted, rollupRowsDeleted: rollups };
  }

  /** A voter with their identities; NOT_FOUND when the organization has no such voter. */
  async function get(organizationId: string, id: string) {
    const voter = await prisma.voter.findFirst({ where: { id, organizationId } });
    if (!voter) throw notFound('Voter');
    return { ...voter, identities: await identitiesOf(organizationId, id) };
  }

  /** A voter's identities, oldest first. */
  function identitiesOf(organizationId: string, voterId: string) {
    return prisma.voterIdentity.findMany({
      where: { voterId, organizationId },
      orderBy: [{ createdAt: 'asc' }, { kind: 'asc' }, { value: 'asc' }],
      select: { kind: true, value: true, createdAt: true },
    });
  }

  /**
   * Voters whose display name, or one of whose identities, starts with `search` (case-insensitive), by display name;
   * every voter without a search. Paged.
   */
  async function search(organizationId: string, input: { search?: string | null; page?: number | null; limit?: number | null }) {
    const { page, limit } = pageOf(input, 50);
    const prefix = (input.search ?? '').trim().toLowerCase();
    if (prefix.length > MAX_VOTER_NAME_LENGTH) throw validationError([{ field: 'search', message: `must be at most ${MAX_VOTER_NAME_LENGTH} characters` }]);
    let where: Prisma.VoterWhereInput = { organizationId };
    if (prefix) {
      const held = await prisma.voterIdentity.findMany({
        where: { organizationId, value: { startsWith: prefix } },
        select: { voterId: true },
        take: SEARCH_IDENTITIES,
      });
      where = { organizationId, OR: [{ displayKey: { startsWith: prefix } }, { id: { in: [...new Set(held.map((h) => h.voterId))] } }] };
    }
    const [voters, total] = await Promise.all([
      prisma.voter.findMany({ where, orderBy: [{ displayKey: 'asc' }, { id: 'asc' }], skip: (page - 1) * limit, take: limit }),
      prisma.voter.count({ where }),
    ]);
    return { voters, page, limit, total, pages: Math.ceil(total / limit) };
  }

  /**
   * Merges `otherId` into `id` (README "Voters"): the other's votes, day counts, reminders, opt-out and identities
   * move to the voter, exactly (two counts of one site and day add up), the other voter goes, and the voter's standing
   * is made again from their days. Vote writers are held off meanwhile, as for an erasure.
   */
  async function merge(organizationId: string, id: string, otherId: unknown) {
    if (typeof otherId !== 'string' || !otherId)
      throw validationError([{ field: 'other', message: 'is required: the id (vtr_…) of the voter to merge into this one' }]);
    if (otherId === id) throw validationError([{ field: 'other', message: 'is this voter: merge another voter into it' }]);
    await get(organizationId, id);
    const other = await prisma.voter.findFirst({ where: { id: otherId, organizationId } });
    if (!other) throw validationError([{ field: 'other', message: `no voter ${otherId} in this organization` }]);
    await prisma.$transaction(async (tx) => {
      await deps.db.rollups.lockAgainstVoteWriters(tx);
      await mergeInto(tx, organizationId, id, other);
    }, RECOUNT_TRANSACTION);
    return get(organizationId, id);
  }

  /** The merge itself, inside a transaction that holds vote writers off (merge, reportPlayers). */
  async function mergeInto(tx: Tx, organizationId: string, id: string, other: { id: string; displayName: string; displayKey: string; nameAt: Date }) {
    const otherId = other.id;
    await tx.organization.update({ where: { id: organizationId }, data: { statsEpoch: { increment: 1 } } });
    await tx.vote.updateMany({ where: { organizationId, voterKey: otherId }, data: { voterKey: id } });
    await moveDays(tx, organizationId, otherId, id, null);
    const reminders = await tx.reminder.findMany({ where: { organizationId, voterKey: otherId } });
    for (const r of reminders) {
      const mine = await tx.reminder.findUnique({ where: { providerId_voterKey: { providerId: r.providerId, voterKey: id } } });
      await tx.reminder.delete({ where: { providerId_voterKey: { providerId: r.providerId, voterKey: otherId } } });
      if (!mine) await tx.reminder.create({ data: { ...r, voterKey: id } });
      else if (r.dueAt > mine.dueAt)
        await tx.reminder.update({ where: { providerId_voterKey: { providerId: r.providerId, voterKey: id } }, data: { dueAt: r.dueAt, voteId: r.voteId } });
    }
    const optOut = await tx.reminderOptOut.findUnique({ where: { organizationId_voterKey: { organizationId, voterKey: otherId } } });
    if (optOut) {
      await tx.reminderOptOut.delete({ where: { organizationId_voterKey: { organizationId, voterKey: otherId } } });
      const mine = await tx.reminderOptOut.findUnique({ where: { organizationId_voterKey: { organizationId, voterKey: id } } });
      if (!mine) await tx.reminderOptOut.create({ data: { ...optOut, voterKey: id } });
    }
    await tx.voterIdentity.updateMany({ where: { organizationId, voterId: otherId }, data: { voterId: id } });
    const voter = await tx.voter.findUniqueOrThrow({ where: { id } });
    // The display name follows the latest vote: the other's, when it is the later.
    if (other.nameAt > voter.nameAt)
      await tx.voter.update({ where: { id }, data: { displayName: other.displayName, displayKey: other.displayKey, nameAt: other.nameAt } });
    await tx.voter.delete({ where: { id: otherId } });
    await tx.voterStanding.deleteMany({ where: { organizationId, voterKey: { in: [id, otherId] } } });
    await deps.db.rollups.recountStandings(tx, organizationId, [id]);
  }

  /**
   * Moves a voter's per-day counts to another voter, adding where both have a row: all of them (`votes` null), or
   * only those of the given votes (a split), whose counts come off the source's rows.
   */
  async function moveDays(
    tx: Tx,
    organizationId: string,
    from: string,
    to: string,
    votes: { providerId: string; voterName: string; receivedAt: Date }[] | null,
  ) {
    const kept = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { localDaysKept: true, timeZone: true } });
    type Row = { providerId: string; day: string; voterName: string; count: number; lastVoteAt: Date };
    const rows: Row[] = votes
      ? [
          ...votes
            .reduce((m, v) => {
              const day = utcDay(v.receivedAt);
              const key = `${v.providerId}\u0000${day}`;
              const row = m.get(key) ?? { providerId: v.providerId, day, voterName: v.voterName, count: 0, lastVoteAt: v.receivedAt };
              row.count += 1;
              if (spellingWins(v.voterName, v.receivedAt.getTime(), row.voterName, row.lastVoteAt.getTime()))
                Object.assign(row, { voterName: v.voterName, lastVoteAt: v.receivedAt });
              return m.set(key, row);
            }, new Map<string, Row>())
            .values(),
        ]
      : await tx.voterDailyCount.findMany({
          where: { organizationId, voterKey: from },
          select: { providerId: true, day: true, voterName: true, count: true, lastVoteAt: true },
        });
    for (const r of rows) {
      const source = { providerId_voterKey_day: { providerId: r.providerId, voterKey: from, day: r.day } };
      if (votes) {
        const left = await tx.voterDailyCount.update({ where: source, data: { count: { decrement: r.count } } });
        if (left.count <= 0) await tx.voterDailyCount.delete({ where: source });
      } else await tx.voterDailyCount.delete({ where: source });
      const target = { providerId_voterKey_day: { providerId: r.providerId, voterKey: to, day: r.day } };
      const mine = await tx.voterDailyCount.findUnique({ where: target });
      if (!mine)
        await tx.voterDailyCount.create({
          data: { organizationId, providerId: r.providerId, voterKey: to, day: r.day, voterName: r.voterName, count: r.count, lastVoteAt: r.lastVoteAt },
        });
      else {
        const later = spellingWins(r.voterName, r.lastVoteAt.getTime(), mine.voterName, mine.lastVoteAt.getTime());
        await tx.voterDailyCount.update({
          where: target,
          data: { count: { increment: r.count }, ...(later ? { voterName: r.voterName, lastVoteAt: r.lastVoteAt } : {}) },
        });
      }
    }
    if (!kept.localDaysKept) return;
    // Local days (an organization whose days are not UTC days): the same, per day in its time zone.
    const local: { day: string; count: number }[] = votes
      ? [
          ...votes.reduce(
            (m, v) => m.set(localDay(v.receivedAt, kept.timeZone), (m.get(localDay(v.receivedAt, kept.timeZone)) ?? 0) + 1),
            new Map<string, number>(),
          ),
        ].map(([day, count]) => ({ day, count }))
      : await tx.voterDay.findMany({ where: { organizationId, voterKey: from }, select: { day: true, count: true } });
    for (const d of local) {
      const source = { organizationId_voterKey_day: { organizationId, voterKey: from, day: d.day } };
      if (votes) {
        const left = await tx.voterDay.update({ where: source, data: { count: { decrement: d.count } } });
        if (left.count <= 0) await tx.voterDay.delete({ where: source });
      } else await tx.voterDay.delete({ where: source });
      await tx.voterDay.upsert({
        where: { organizationId_voterKey_day: { organizationId, voterKey: to, day: d.day } },
        create: { organizationId, voterKey: to, day: d.day, count: d.count },
        update: { count: { increment: d.count } },
      });
    }
  }

  /**
   * Splits one identity off a voter (README "Voters"): a new voter holds it, with the votes that came with it (a name
   * identity: the votes sent under that name; a Discord id: the votes whose body carries it), their day counts
   * moved with them; both standings are made again. Vote writers are held off meanwhile.
   */
  async function split(organizationId: string, id: string, input: { kind?: unknown; value?: unknown }) {
    const kind = input.kind;
    if (typeof kind !== 'string' || !(IDENTITY_KINDS as readonly string[]).includes(kind))
      throw validationError([{ field: 'kind', message: `must be one of ${IDENTITY_KINDS.join(', ')}` }]);
    if (typeof input.value !== 'string' || !input.value.trim()) throw validationError([{ field: 'value', message: 'is required: the identity to split off' }]);
    const value = kind === 'discord' ? input.value.trim() : input.value.trim().toLowerCase();
    const voter = await get(organizationId, id);
    if (!voter.identities.some((i) => i.kind === kind && i.value === value))
      throw validationError([{ field: 'value', message: `this voter has no ${kind} identity ${value}` }]);
    if (voter.identities.length < 2) throw validationError([{ field: 'value', message: "is this voter's only identity: nothing to split it from" }]);
    const now = deps.clock.now();
    const newId = newVoterId(now.getTime());
    await prisma.$transaction(async (tx) => {
      await deps.db.rollups.lockAgainstVoteWriters(tx);
      await tx.organization.update({ where: { id: organizationId }, data: { statsEpoch: { increment: 1 } } });
      const votes = await tx.vote.findMany({
        where: { organizationId, voterKey: id },
        select: { id: true, providerId: true, voterName: true, receivedAt: true, rawPayload: true, test: true, provider: { select: { discordIdPath: true } } },
      });
      const theirs = votes.filter((v) =>
        kind === 'discord' ? (discordIdIn(v.rawPayload, v.provider.discordIdPath) ?? v.voterName) === value : v.voterName.toLowerCase() === value,
      );
      const latest = theirs.reduce<(typeof theirs)[number] | null>((a, v) => (!a || v.receivedAt > a.receivedAt ? v : a), null);
      await tx.voter.create({
        data: {
          id: newId,
          organizationId,
          displayName: latest?.voterName ?? (input.value as string),
          displayKey: (latest?.voterName ?? (input.value as string)).toLowerCase(),
          nameAt: latest?.receivedAt ?? now,
          createdAt: now,
        },
      });
      await tx.voterIdentity.update({ where: { organizationId_kind_value: { organizationId, kind, value } }, data: { voterId: newId } });
      if (theirs.length > 0) {
        await tx.vote.updateMany({ where: { id: { in: theirs.map((v) => v.id) } }, data: { voterKey: newId } });
        await moveDays(
          tx,
          organizationId,
          id,
          newId,
          theirs.filter((v) => !v.test),
        );
      }
      await tx.voterStanding.deleteMany({ where: { organizationId, voterKey: { in: [id, newId] } } });
      await deps.db.rollups.recountStandings(tx, organizationId, [id, newId]);
    }, RECOUNT_TRANSACTION);
    return get(organizationId, newId);
  }

  /**
   * Online players as a plugin reports them (POST /v1/plugin/players): each name is linked to the player's UUID
   * (README "Voters"). A name held by a voter with no UUID (votes sent under a new name before the plugin saw it) is
   * merged into the player's voter; a name held by another player's voter (a name that changed hands) moves over.
   * Only players whose links change hold the vote writers off, each briefly.
   */
  async function reportPlayers(organizationId: string, players: { name: string; uuid: string; platform?: string | null }[]) {
    if (players.length > MAX_REPORTED_PLAYERS) throw validationError([{ field: 'players', message: `must hold at most ${MAX_REPORTED_PLAYERS} players` }]);
    const checked = players.map((p, i) => {
      const name = p.name.trim();
      const uuid = minecraftUuid(p.uuid.trim());
      const problems = [
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
        ...(!name || name.length > MAX_VOTER_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)
          ? [{ field: `players[${i}].name`, message: `must be a player's name of 1 to ${MAX_VOTER_NAME_LENGTH} characters` }]
          : []),
        ...(uuid ? [] : [{ field: `players[${i}].uuid`, message: 'must be a player UUID (32 hex digits, with or without hyphens)' }]),
      ];
      const kind: IdentityKind = p.platform === 'bedrock' ? 'bedrock' : 'minecraft';
      return { problems, uuid: uuid ?? '', name: { kind, value: name.toLowerCase() }, shown: name };
    });
    const problems = checked.flatMap((c) => c.problems);
    if (problems.length > 0) throw validationError(problems);
    let linked = 0;
    let merged = 0;
    const holder = async (db: Tx | typeof prisma, kind: string, value: string) =>
      (await db.voterIdentity.findUnique({ where: { organizationId_kind_value: { organizationId, kind, value } }, select: { voterId: true } }))?.voterId ??
      null;
    const uuidOf = async (db: Tx, voterId: string) =>
      (await db.voterIdentity.findFirst({ where: { voterId, kind: 'minecraft_uuid' }, select: { value: true } }))?.value ?? null;
    for (const player of new Map(checked.map((c) => [c.uuid, c])).values()) {
      const [byUuid, byName] = await Promise.all([holder(prisma, 'minecraft_uuid', player.uuid), holder(prisma, player.name.kind, player.name.value)]);
      if (byUuid && byName === byUuid) continue;
      await prisma.$transaction(async (tx) => {
        await deps.db.rollups.lockAgainstVoteWriters(tx);
        const now = deps.clock.now();
        const link = async (kind: string, value: string, voterId: string) => {
          await tx.voterIdentity.upsert({
            where: { organizationId_kind_value: { organizationId, kind, value } },
            create: { organizationId, kind, value, voterId, createdAt: now },
            update: { voterId },
          });
          linked += 1;
        };
        const uuidHolder = await holder(tx, 'minecraft_uuid', player.uuid);
        const nameHolder = await holder(tx, player.name.kind, player.name.value);
        if (uuidHolder && nameHolder === uuidHolder) return;
        if (uuidHolder && nameHolder) {
          if ((await uuidOf(tx, nameHolder)) === null) {
            await mergeInto(tx, organizationId, uuidHolder, await tx.voter.findUniqueOrThrow({ where: { id: nameHolder } }));
            merged += 1;
          } else await link(player.name.kind, player.name.value, uuidHolder);
          return;
        }
        if (uuidHolder) return link(player.name.kind, player.name.value, uuidHolder);
        if (nameHolder && (await uuidOf(tx, nameHolder)) === null) return link('minecraft_uuid', player.uuid, nameHolder);
        // A player the relay does not know yet, or whose name another player's voter held: a voter of their own.
        const id = newVoterId(now.getTime());
        await tx.voter.create({ data: { id, organizationId, displayName: player.shown, displayKey: player.name.value, nameAt: now, createdAt: now } });
        await link('minecraft_uuid', player.uuid, id);
        await link(player.name.kind, player.name.value, id);
      }, RECOUNT_TRANSACTION);
    }
    return { players: checked.length, linked, merged };
  }

  return { erase, get, identitiesOf, search, merge, split, reportPlayers };
}

export type VoterService = ReturnType<typeof createVoterService>;
