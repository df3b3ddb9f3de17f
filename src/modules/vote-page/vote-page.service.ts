// The players' vote page (README "Vote page"): what one organization's page shows a player — its sites with their
// vote buttons and where the player stands on each, their streak, total, next milestone and the vote party, and
// their receipt (the last 30 days of votes, each delivery in words) — and the click behind each button. Public: no
// key, so it shows one player's own data only (and this month's top voters where the owner turned that on), and
// nothing an owner keeps to themselves (no address, no error text, no secret).
import type { AppDeps } from '../../app/deps.js';
import { notFound, validationError } from '../../base/errors.js';
import { resolveSecretKey } from '../../crypto/secret-box.js';
import { timeOrderedId } from '../../base/time-ordered-id.js';
import { milestoneRulesOf } from '../../domain/reward-events.js';
import {
  addressHash,
  playerNameProblem,
  receiptStatus,
  siteState,
  siteStateWords,
  votePageOf,
  voteUrlFor,
  type ReceiptDelivery,
} from '../../domain/vote-page.js';
import { cooldownOf, nextVoteAt } from '../../domain/vote-cooldown.js';
import { REAL_VOTES, REAL_VOTES_OF_VOTER } from '../../domain/votes.js';
import { voterIdByName } from '../../storage/voter-lookup.js';
import { renderText, voteLookup } from '../../delivery/template.js';
import { voteTemplateValues } from '../../delivery/vote-values.js';
import type { StatsService } from '../stats/stats.service.js';
import { localDay, standingOn } from '../../domain/voter-standing.js';
import { utcDay } from '../../base/time.js';
import { TO_GAME_SERVERS } from '../../domain/jobs.js';

/** How far back a player's last vote on a site is looked for (longer than any site's vote cooldown). */
const RECENT_DAYS = 8;
/** How far back a receipt reaches, and how many votes it lists at most. */
const RECEIPT_DAYS = 30;
const RECEIPT_MAX = 50;

export interface VotePageSite {
  key: string;
  name: string;
  goUrl: string;
  votedAt: Date | null;
  nextVoteAt: Date | null;
  state: string;
}

export interface VotePagePlayer {
  name: string;
  /** Whether the relay knows this player (a name that matches no voter has no votes yet). */
  known: boolean;
  total: number;
  streakDays: number;
  nextMilestone: { type: 'total' | 'streak'; value: number; remaining: number } | null;
  /** overLimit: received past the organization's monthly vote limit, so passed on to no server (README "Vote page"). */
  receipt: { voteId: string; provider: string; receivedAt: Date; overLimit: boolean; deliveries: ReceiptDelivery[] }[];
}

export interface VotePage {
  slug: string;
  organizationName: string;
  title: string;
  timeZone: string;
  sites: VotePageSite[];
  player: VotePagePlayer | null;
  party: { every: number; count: number; remaining: number } | null;
  leaderboard: { name: string; votes: number }[] | null;
}

export function createVotePageService(deps: AppDeps, stats: StatsService) {
  const { prisma } = deps.db;
  const secret = Buffer.from(resolveSecretKey(deps.config));

  /** The organization whose page is on, or NOT_FOUND (a page that is off, or no such organization, look the same). */
  async function pageOrg(slug: string) {
    const org = await prisma.organization.findUnique({
      where: { slug },
      select: { id: true, slug: true, name: true, status: true, votePageJson: true, timeZone: true, milestonesJson: true, votePartyEvery: true },
    });
    const settings = votePageOf(org?.votePageJson);
    if (!org || !settings?.enabled || org.status !== 'active') throw notFound('Vote page');
    return { org, settings };
  }

  function checkedPlayer(player: string | null | undefined): string | null {
    if (player === undefined || player === null || player === '') return null;
    const problem = playerNameProblem(player);
    if (problem) throw validationError([{ field: 'player', message: problem }]);
    return player;
  }

  /** The sites a player can vote on (enabled, with a vote page), each with its vote URL for them where it can be made. */
  async function sitesOf(organizationId: string, key?: string) {
    const providers = await prisma.provider.findMany({
      where: { organizationId, enabled: true, voteUrl: { not: null }, ...(key !== undefined ? { key } : {}) },
      orderBy: [{ createdAt: 'asc' }, { key: 'asc' }],
      select: { id: true, key: true, name: true, voteUrl: true, voteCooldownJson: true, discordIdPath: true },
    });
    return Promise.all(
      providers.map(async (p) => {
        // A vote URL may name the site's page by a vote's variables ({{payload.bot}}): the site's latest vote gives them.
        const others = p.voteUrl!.replaceAll('{{player}}', '').includes('{{');
        const latest = others ? await prisma.vote.findFirst({ where: { providerId: p.id, ...REAL_VOTES }, orderBy: { receivedAt: 'desc' } }) : null;
        return { ...p, latest };
      }),
    );
  }

  function siteUrl(site: Awaited<ReturnType<typeof sitesOf>>[number], org: { slug: string; name: string }, player: string | null): string | null {
    const withPlayer = voteUrlFor(site.voteUrl!, player);
    if (!withPlayer.includes('{{')) return withPlayer;
    if (!site.latest) return null;
    try {
      const url = renderText(withPlayer, voteLookup(voteTemplateValues(site.latest, site, org)));
      return /^https?:\/\//.test(url) ? url : null;
    } catch {
      return null;
    }
  }

  async function read(slug: string, playerInput: string | null | undefined): Promise<VotePage> {
    const { org, settings } = await pageOrg(slug);
    const player = checkedPlayer(playerInput);
    const now = deps.clock.now();
    const sites = (await sitesOf(org.id)).filter((s) => siteUrl(s, org, player) !== null);
    const voterId = player ? await voterIdByName(prisma, org.id, player) : null;
    const standing = voterId ? await standingNow(org.id, org.timeZone, voterId, now) : null;
    const goUrl = (key: string) =>
      `/vote/${encodeURIComponent(org.slug)}/go/${encodeURIComponent(key)}${player ? `?player=${encodeURIComponent(player)}` : ''}`;
    const pageSites: VotePageSite[] = sites.map((site) => {
      const votedAt = standing?.lastVoteAt.get(site.id) ?? null;
      const cooldown = cooldownOf(site.voteCooldownJson);
      const next = votedAt && cooldown ? nextVoteAt(cooldown, votedAt) : null;
      return { key: site.key, name: site.name, goUrl: goUrl(site.key), votedAt, nextVoteAt: next, state: siteStateWords(siteState(votedAt, next, now)) };
    });
    const partyCount = org.votePartyEvery ? ((await prisma.votePartyCounter.findUnique({ where: { organizationId: org.id } }))?.count ?? 0) : 0;
    const party = org.votePartyEvery
      ? { every: org.votePartyEvery, count: partyCount % org.votePartyEvery, remaining: org.votePartyEvery - (partyCount % org.votePartyEvery) }
      : null;
    const leaderboard = settings.showLeaderboard
      ? (await stats.leaderboard(org.id, { days: 30, limit: 10 })).voters.map((v) => ({ name: v.name, votes: v.votes }))
      : null;
    return {
      slug: org.slug,
      organizationName: org.name,
      title: settings.title ?? `Vote for ${org.name}`,
      timeZone: org.timeZone,
      sites: pageSites,
      party,
      leaderboard,
      player: player
        ? {
            name: player,
            known: voterId !== null,
            total: standing?.total ?? 0,
            streakDays: standing?.streakDays ?? 0,
            nextMilestone: nextMilestone(org.milestonesJson, standing?.total ?? 0, standing?.streakDays ?? 0),
            receipt: voterId ? await receiptOf(org.id, voterId, now) : [],
          }
        : null,
    };
  }

  /**
   * A player's standing as the page shows it, in reads that stay small whatever their history: their standing row
   * (totals, streak) and their last vote on each site within the last week (what "voted ✓ … ago" and the wait
   * need: no site's vote cooldown is longer), from their recent day rows only.
   */
  async function standingNow(organizationId: string, timeZone: string, voterKey: string, now: Date) {
    const [stored, recent] = await Promise.all([
      prisma.voterStanding.findUnique({ where: { organizationId_voterKey: { organizationId, voterKey } } }),
      prisma.voterDailyCount.groupBy({
        by: ['providerId'],
        where: { organizationId, voterKey, day: { gte: utcDay(new Date(now.getTime() - RECENT_DAYS * 86_400_000)) } },
        _max: { lastVoteAt: true },
      }),
    ]);
    if (!stored) return null;
    const current = standingOn(stored, localDay(now, timeZone));
    return {
      total: current.total,
      streakDays: current.streakDays,
      lastVoteAt: new Map(recent.flatMap((g) => (g._max.lastVoteAt ? [[g.providerId, g._max.lastVoteAt] as const] : []))),
    };
  }

  /** The player's votes of the last 30 days, newest first, each with its deliveries to game servers in words. */
  async function receiptOf(organizationId: string, voterId: string, now: Date) {
    const votes = await prisma.vote.findMany({
      where: { organizationId, voterKey: voterId, receivedAt: { gte: new Date(now.getTime() - RECEIPT_DAYS * 86_400_000) }, ...REAL_VOTES_OF_VOTER },
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: RECEIPT_MAX,
      select: { id: true, publicId: true, receivedAt: true, overLimit: true, provider: { select: { name: true } } },
    });
    if (votes.length === 0) return [];
    const jobs = await prisma.deliveryJob.findMany({
      where: { voteId: { in: votes.map((v) => v.id) }, kind: { in: [...TO_GAME_SERVERS] } },
      select: {
        id: true,
        voteId: true,
        kind: true,
        status: true,
        sentAt: true,
        callback: { select: { name: true } },
        deliveryAttempts: { orderBy: { createdAt: 'desc' }, take: 1, select: { statusCode: true } },
      },
    });
    return votes.map((vote) => ({
      voteId: vote.publicId,
      provider: vote.provider.name,
      receivedAt: vote.receivedAt,
      overLimit: vote.overLimit,
      deliveries: jobs
        .filter((j) => j.voteId === vote.id)
        .map((j): ReceiptDelivery => {
          const status = receiptStatus(j.status);
          const code = j.deliveryAttempts[0]?.statusCode ?? null;
          return {
            target: j.callback?.name ?? 'the server',
            status,
            at: j.sentAt,
            ...(status === 'failed' ? { reason: code ? `the server answered ${code}` : 'the server could not be reached' } : {}),
          };
        }),
    }));
  }

  /**
   * A button's click (GET /vote/:slug/go/:provider): recorded (site, the name typed and the voter it names, when, the
   * address hashed with the day's salt), then the site's vote URL for that player.
   */
  async function click(slug: string, providerKey: string, playerInput: string | null | undefined, address: string): Promise<string> {
    const { org } = await pageOrg(slug);
    const player = checkedPlayer(playerInput);
    // The clicked site alone (a click reads one provider, not the page's every site).
    const [site] = await sitesOf(org.id, providerKey);
    const url = site ? siteUrl(site, org, player) : null;
    if (!site || !url) throw notFound('Site');
    const now = deps.clock.now();
    await prisma.voteClick.create({
      data: {
        id: timeOrderedId(now.getTime()),
        organizationId: org.id,
        providerId: site.id,
        voterName: player ?? '',
        voterId: player ? await voterIdByName(prisma, org.id, player) : null,
        addressHash: addressHash(secret, address, now),
        at: now,
      },
    });
    return url;
  }

  return { read, click };
}

/** The voter's next milestone among the organization's rules for every site: the nearest one ahead. */
export function nextMilestone(rulesJson: string | null, total: number, streak: number): VotePagePlayer['nextMilestone'] {
  let best: VotePagePlayer['nextMilestone'] = null;
  for (const rule of milestoneRulesOf(rulesJson)) {
    if (rule.provider) continue;
    const current = rule.type === 'streak' ? streak : total;
    const ahead = [...(rule.at ?? []).filter((v) => v > current), ...(rule.every ? [Math.floor(current / rule.every) * rule.every + rule.every] : [])];
    for (const value of ahead) {
      const remaining = value - current;
      if (!best || remaining < best.remaining) best = { type: rule.type, value, remaining };
    }
  }
  return best;
}

export type VotePageService = ReturnType<typeof createVotePageService>;
