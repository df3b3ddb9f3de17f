// Scheduled admin alerts: a site that goes quiet and comes back (every plan with an admin webhook); and (Growth+, each behind its setting) daily and weekly summaries, vote spikes, usage at 80%
// and 100%; and the leaderboard posts to the chat webhook (settings.leaderboard_posts, every plan). Every alert claims a row (organization, kind, period) with a unique key before it is queued, in the
// same transaction as its delivery job, so several instances never send one twice; after an outage only the
// latest finished period is sent, once. Time comes from the injectable clock.
import type { AppDeps } from '../app/deps.js';
import { PLAN_LIMITS, planOf } from '../domain/plans.js';
import { addDays, utcDay, utcDayStart, utcMonthStart, utcWeekStart } from '../base/time.js';
import type { Organization } from '../generated/sqlite/client.js';
import type { ChatMessageBody } from '../delivery/chat-message.js';
import { adminChatJob, leaderboardMessage, siteBackMessage, siteSilentMessage, spikeMessage, summaryMessage, usageMessage } from '../delivery/alerts.js';
import { createSiteWatch } from '../modules/stats/site-watch.js';
import { lastPostAt, postWindow, type LeaderboardPosts } from '../domain/leaderboard-schedule.js';
import { discordIdIn } from '../domain/discord-id.js';
import { REAL_VOTES, REAL_VOTES_OF_VOTER } from '../domain/votes.js';
import { backgroundLoop } from '../base/background-loop.js';

const HOUR = 3_600_000;
/** A spike: the last hour has at least this many votes … */
export const SPIKE_MIN_VOTES = 20;
/** … and more than this many times the trailing 7-day hourly mean. */
export const SPIKE_FACTOR = 3;
/** At most one spike alert per 6-hour UTC window. */
export const SPIKE_WINDOW_MS = 6 * HOUR;

export interface AlertScheduler {
  start(): void;
  stop(): Promise<void>;
  /** Checks every organization once; returns how many alerts it queued. */
  tick(): Promise<number>;
}

export function createAlertScheduler(deps: AppDeps, options: { intervalMs: number; onQueued?: () => void }): AlertScheduler {
  const { prisma } = deps.db;
  const sites = createSiteWatch(deps);

  /** Claims (org, kind, period) and queues the alert; false when another instance (or an earlier tick) has it. */
  async function claim(
    org: Organization,
    kind: string,
    periodKey: string,
    build: () => Promise<ChatMessageBody>,
    jobKind: 'alert' | 'post' = 'alert',
  ): Promise<boolean> {
    const taken = await prisma.alertMarker.findUnique({ where: { organizationId_kind_periodKey: { organizationId: org.id, kind, periodKey } } });
    if (taken) return false;
    const body = await build();
    try {
      await prisma.$transaction(async (tx) => {
        await tx.alertMarker.create({ data: { organizationId: org.id, kind, periodKey, createdAt: deps.clock.now() } });
        await deps.jobs.enqueue(tx, [adminChatJob(deps, org.id, `alert:${org.id}:${kind}:${periodKey}`, body, deps.clock.now(), jobKind)]);
      });
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002') return false; // another instance won the race
      throw err;
    }
  }

  async function periodFigures(org: Organization, from: Date, to: Date) {
    const [fromDay, lastDay] = [utcDay(from), utcDay(addDays(to, -1))];
    const [providers, providerDays, voters, failed] = await Promise.all([
      prisma.provider.findMany({ where: { organizationId: org.id }, select: { id: true, name: true } }),
      prisma.providerDailyCount.groupBy({ by: ['providerId'], where: { organizationId: org.id, day: { gte: fromDay, lte: lastDay } }, _sum: { count: true } }),
      prisma.voterDailyCount.groupBy({
        by: ['voterKey'],
        where: { organizationId: org.id, day: { gte: fromDay, lte: lastDay } },
        _sum: { count: true },
        _max: { voterName: true },
        orderBy: [{ _sum: { count: 'desc' } }, { voterKey: 'asc' }],
        take: 5,
      }),
      // Test votes are in no summary (README "Test votes"): the rollups above hold none, and their failures are left out.
      prisma.deliveryJob.count({ where: { organizationId: org.id, status: 'failed', vote: { receivedAt: { gte: from, lt: to }, ...REAL_VOTES } } }),
    ]);
    const names = new Map(providers.map((p) => [p.id, p.name]));
    const byProvider = providerDays
      .map((p) => ({ name: names.get(p.providerId) ?? p.providerId, count: p._sum.count ?? 0 }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    return {
      total: byProvider.reduce((s, p) => s + p.count, 0),
      byProvider,
      topVoters: voters.map((v) => ({ name: v._max.voterName ?? v.voterKey, count: v._sum.count ?? 0 })),
      failedDeliveries: failed,
    };
  }

  async function checkOrganization(org: Organization, now: Date): Promise<number> {
    let queued = 0;
    if (org.adminDailySummary) {
      const day = addDays(utcDayStart(now), -1);
      if (
        await claim(org, 'daily_summary', utcDay(day), async () =>
          summaryMessage({
            title: `Daily summary · ${utcDay(day)}`,
            periodLabel: `on ${utcDay(day)} (UTC)`,
            ...(await periodFigures(org, day, addDays(day, 1))),
          }),
        )
      )
        queued++;
    }
    if (org.adminWeeklySummary) {
      const week = addDays(utcWeekStart(now), -7);
      const label = `${utcDay(week)} to ${utcDay(addDays(week, 6))}`;
      if (
        await claim(org, 'weekly_summary', utcDay(week), async () =>
          summaryMessage({
            title: `Weekly summary · ${label}`,
            periodLabel: `in the week ${label} (UTC)`,
            ...(await periodFigures(org, week, addDays(week, 7))),
          }),
        )
      )
        queued++;
    }
    if (org.adminVoteSpikeAlerts) {
      const [lastHour, previousWeek] = await Promise.all([
        // A burst of test votes is not a spike.
        prisma.vote.count({ where: { organizationId: org.id, receivedAt: { gte: new Date(now.getTime() - HOUR), lte: now }, ...REAL_VOTES } }),
        prisma.vote.count({
          where: { organizationId: org.id, receivedAt: { gte: new Date(now.getTime() - 169 * HOUR), lt: new Date(now.getTime() - HOUR) }, ...REAL_VOTES },
        }),
      ]);
      const mean = previousWeek / 168;
      if (lastHour >= SPIKE_MIN_VOTES && lastHour > SPIKE_FACTOR * mean) {
        const window = String(Math.floor(now.getTime() / SPIKE_WINDOW_MS));
        if (await claim(org, 'vote_spike', window, async () => spikeMessage(lastHour, mean))) queued++;
      }
    }
    if (org.adminUsageWarnings) {
      const limits = PLAN_LIMITS[planOf(org)];
      const month = utcDay(utcMonthStart(now)).slice(0, 7);
      const [votes, providers] = await Promise.all([
        prisma.providerDailyCount
          .aggregate({ where: { organizationId: org.id, day: { gte: utcDay(utcMonthStart(now)) } }, _sum: { count: true } })
          .then((r) => r._sum.count ?? 0),
        prisma.provider.count({ where: { organizationId: org.id } }),
      ]);
      for (const [what, current, limit] of [
        ['votes', votes, limits.votesPerMonth],
        ['providers', providers, limits.providers],
      ] as const) {
        for (const percent of [100, 80] as const) {
          if (current >= (limit * percent) / 100) {
            if (await claim(org, `usage_${what}_${percent}`, month, async () => usageMessage(what, percent, current, limit))) queued++;
            break; // at 100% the 80% warning is no longer news
          }
        }
      }
    }
    return queued;
  }

  /**
   * The latest leaderboard post that fell due (README "Discord rewards"), once per period whichever instance runs it;
   * after an outage only the latest, as for the summaries.
   */
  async function postLeaderboard(org: Organization, now: Date): Promise<number> {
    const posts = JSON.parse(org.leaderboardPostsJson ?? 'null') as LeaderboardPosts | null;
    if (!posts || !org.chatWebhookUrl) return 0;
    const at = lastPostAt(posts, org.timeZone, now);
    const window = postWindow(posts, org.timeZone, at);
    // A post set up after its time fell due waits for the next one (no post of a period nobody asked about).
    if (org.updatedAt > at && !(await prisma.alertMarker.count({ where: { organizationId: org.id, kind: 'leaderboard_post' } }))) return 0;
    return (await claim(org, 'leaderboard_post', at.toISOString(), () => leaderboardPost(org, posts, window), 'post')) ? 1 : 0;
  }

  async function leaderboardPost(org: Organization, posts: LeaderboardPosts, window: { from: Date; to: Date }): Promise<ChatMessageBody> {
    const ranked = await prisma.vote.groupBy({
      by: ['voterKey'],
      where: { organizationId: org.id, receivedAt: { gte: window.from, lt: window.to }, ...REAL_VOTES },
      _count: { _all: true },
      _max: { receivedAt: true, voterName: true },
      orderBy: [{ _count: { voterKey: 'desc' } }, { _max: { receivedAt: 'desc' } }, { voterKey: 'asc' }],
      take: posts.top,
    });
    // Each voter's Discord id from their latest vote in the period, where its site sends one: shown as a mention.
    const voters = await Promise.all(
      ranked.map(async (r) => {
        const latest = await prisma.vote.findFirst({
          where: { organizationId: org.id, voterKey: r.voterKey, receivedAt: { gte: window.from, lt: window.to }, ...REAL_VOTES_OF_VOTER },
          orderBy: { receivedAt: 'desc' },
          select: { voterName: true, rawPayload: true, provider: { select: { discordIdPath: true } } },
        });
        return {
          name: latest?.voterName ?? r._max.voterName ?? r.voterKey,
          discordId: latest ? discordIdIn(latest.rawPayload, latest.provider.discordIdPath) : null,
          votes: r._count._all,
        };
      }),
    );
    return leaderboardMessage({ period: posts.period, from: window.from, to: window.to, timeZone: org.timeZone, voters });
  }

  /**
   * A site that goes quiet (README "A site that goes quiet"), on every plan with an admin webhook: one alert per
   * silence (its key is the provider and its last vote, claimed as every alert is: once across instances), and one
   * when that site's next vote arrives.
   */
  async function watchSites(org: Organization, now: Date): Promise<number> {
    let queued = 0;
    for (const site of await sites.quietSites(org.id, now)) {
      if (await claim(org, 'site_silent', `${site.providerId}:${site.lastVoteAt.getTime()}`, async () => siteSilentMessage(site))) queued++;
    }
    // Sites alerted as silent whose next vote has come: the silence each alert named, once.
    const alerted = await prisma.alertMarker.findMany({
      where: { organizationId: org.id, kind: 'site_silent', createdAt: { gte: new Date(now.getTime() - 30 * 24 * HOUR) } },
      select: { periodKey: true },
    });
    if (alerted.length === 0) return queued;
    const recovered = await prisma.alertMarker.findMany({
      where: { organizationId: org.id, kind: 'site_recovered', periodKey: { in: alerted.map((a) => a.periodKey) } },
      select: { periodKey: true },
    });
    const done = new Set(recovered.map((r) => r.periodKey));
    for (const { periodKey } of alerted) {
      if (done.has(periodKey)) continue;
      const [providerId, lastVoteMs] = periodKey.split(':');
      const next = await prisma.vote.findFirst({
        where: { providerId, ...REAL_VOTES, receivedAt: { gt: new Date(Number(lastVoteMs)) } },
        orderBy: { receivedAt: 'asc' },
        select: { receivedAt: true, provider: { select: { name: true } } },
      });
      if (!next) continue;
      const gap = next.receivedAt.getTime() - Number(lastVoteMs);
      if (await claim(org, 'site_recovered', periodKey, async () => siteBackMessage(next.provider.name, gap, next.receivedAt))) queued++;
    }
    return queued;
  }

  async function tick(): Promise<number> {
    const now = deps.clock.now();
    let posted = 0;
    for (const org of await prisma.organization.findMany({ where: { status: 'active', chatAdminWebhookUrl: { not: null } } })) {
      try {
        posted += await watchSites(org, now);
      } catch (err) {
        deps.logger.error({ err, organizationId: org.id }, 'quiet site check failed');
      }
    }
    for (const org of await prisma.organization.findMany({ where: { status: 'active', leaderboardPostsJson: { not: null }, chatWebhookUrl: { not: null } } })) {
      try {
        posted += await postLeaderboard(org, now);
      } catch (err) {
        deps.logger.error({ err, organizationId: org.id }, 'leaderboard post check failed');
      }
    }
    const orgs = await prisma.organization.findMany({
      where: {
        status: 'active',
        plan: { in: ['growth', 'pro', 'business'] },
        chatAdminWebhookUrl: { not: null },
        OR: [{ adminDailySummary: true }, { adminWeeklySummary: true }, { adminVoteSpikeAlerts: true }, { adminUsageWarnings: true }],
      },
    });
    let queued = 0;
    for (const org of orgs) {
      try {
        queued += await checkOrganization(org, now);
      } catch (err) {
        deps.logger.error({ err, organizationId: org.id }, 'admin alert check failed');
      }
    }
    if (queued + posted > 0) options.onQueued?.();
    return queued + posted;
  }

  const loop = backgroundLoop({
    everyMs: options.intervalMs,
    atStart: true,
    pass: tick,
    failed: (err) => deps.logger.error({ err }, 'alert scheduler tick failed'),
  });
  return { start: loop.start, stop: loop.stop, tick: loop.runNow };
}
