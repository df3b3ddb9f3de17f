// A voter named by a person (README "Voters"): the routes and commands that take a voter's name
// (`/v1/stats/voter/:name`, `DELETE /v1/voters/:name`, reminders opt-out, `?voter=`, a plugin's `?player=`) resolve
// it to the voter it names, the same on both databases.
import { DISCORD_ID } from '../domain/discord-id.js';
import { voterId, type IdentityKind } from '../domain/voter-identity.js';
import type { Db, Tx } from './ports.js';

/** The kinds a typed name may be, strongest first: an id, then the names a site sends. */
const NAME_KINDS: IdentityKind[] = ['discord', 'minecraft_uuid', 'minecraft', 'bedrock', 'hytale', 'name'];

/**
 * The voter a name names in an organization, or null: the voter holding it as an identity (a Discord id, a Minecraft
 * name, …; the strongest kind first), else the voter whose latest vote carried that name (the most recent one).
 */
export async function voterIdByName(prisma: Db | Tx, organizationId: string, name: string): Promise<string | null> {
  const value = name.trim().toLowerCase();
  if (!value) return null;
  const kinds = NAME_KINDS.filter((k) => k !== 'discord' || DISCORD_ID.test(value));
  const held = await prisma.voterIdentity.findMany({ where: { organizationId, kind: { in: kinds }, value }, select: { kind: true, voterId: true } });
  if (held.length > 0) {
    held.sort((a, b) => kinds.indexOf(a.kind as IdentityKind) - kinds.indexOf(b.kind as IdentityKind));
    return held[0].voterId;
  }
  const shown = await prisma.voter.findFirst({ where: { organizationId, displayKey: value }, orderBy: { nameAt: 'desc' }, select: { id: true } });
  return shown?.id ?? null;
}

/**
 * The voter a name names, made when there is none (a voter who turns reminders off before their first vote): a voter
 * known by that name alone, whom their first vote then finds by it (voter-identity.ts, the name probe).
 */
export async function voterIdForName(prisma: Db | Tx, organizationId: string, name: string, now: Date): Promise<string> {
  const found = await voterIdByName(prisma, organizationId, name);
  if (found) return found;
  const id = voterId(now.getTime());
  const value = name.trim().toLowerCase();
  try {
    await prisma.voterIdentity.create({ data: { organizationId, kind: 'name', value, voterId: id, createdAt: now } });
  } catch (err) {
    // Made meanwhile by a vote or another request: theirs.
    if ((err as { code?: string }).code === 'P2002') return (await voterIdByName(prisma, organizationId, name)) ?? id;
    throw err;
  }
  await prisma.voter.create({ data: { id, organizationId, displayName: name.trim(), displayKey: value, nameAt: now, createdAt: now } });
  return id;
}
