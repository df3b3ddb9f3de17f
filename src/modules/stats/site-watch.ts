// Which of an organization's sites have gone quiet (README "A site that goes quiet"): for each enabled provider, the
// time since its last real vote against its usual rate at each hour of the week over the 14 days before it
// (domain/site-silence.ts), and what its last request since then was. The overview shows them (Query.quietSites);
// the alert scheduler sends one admin alert per silence and one when the site sends again (src/alerts/).
import type { AppDeps } from '../../app/deps.js';
import { HISTORY_DAYS, MIN_SILENCE_MS, silenceOf, usualRate, weeklyRates } from '../../domain/site-silence.js';
import { REAL_VOTES } from '../../domain/votes.js';
import { utcDay } from '../../base/time.js';
import { hookRequestHint } from '../hook-requests/hints.js';

const HOUR = 3_600_000;
/** A provider's weekly rates are read again after this long (they change slowly; the read walks 14 days of votes). */
const RATES_TTL_MS = HOUR;

export interface QuietSite {
  providerId: string;
  providerKey: string;
  providerName: string;
  lastVoteAt: Date;
  silentForMs: number;
  /** Votes per hour the site usually sends at this hour of the week. */
  usualPerHour: number;
  /** Votes the usual rates expected since the last vote. */
  expected: number;
  /** The last request that reached the provider's hook since its last vote, or null: none did. */
  lastRequest: { at: Date; outcome: string; hint: string | null } | null;
}

export interface SiteWatch {
  /** The organization's enabled providers that are silent now. */
  quietSites(organizationId: string, now: Date): Promise<QuietSite[]>;
  /** Each enabled provider's last real vote (null: none yet). */
  lastVotes(organizationId: string): Promise<{ id: string; key: string; name: string; lastVoteAt: Date | null }[]>;
}

export function createSiteWatch(deps: Pick<AppDeps, 'db'>): SiteWatch {
  const { prisma } = deps.db;
  const rates = new Map<string, { at: number; until: number; rates: number[] }>();

  /**
   * A provider's usual rates: from the 14 days before its last vote (the silence itself is not part of what is usual),
   * read again after RATES_TTL_MS or when its last vote moved.
   */
  async function ratesOf(providerId: string, lastVoteMs: number, now: number): Promise<number[]> {
    const known = rates.get(providerId);
    if (known && known.until === lastVoteMs && now - known.at < RATES_TTL_MS) return known.rates;
    const from = lastVoteMs - HISTORY_DAYS * 24 * HOUR;
    // Through the last vote's own hour.
    const until = (Math.floor(lastVoteMs / HOUR) + 1) * HOUR;
    const counts = await deps.db.reports.hourlyVotes(providerId, new Date(from), new Date(until));
    const fresh = { at: now, until: lastVoteMs, rates: weeklyRates(counts, from, until) };
    if (rates.size > 10_000) rates.clear();
    rates.set(providerId, fresh);
    return fresh.rates;
  }

  async function lastVotes(organizationId: string) {
    const providers = await prisma.provider.findMany({
      where: { organizationId, enabled: true },
      select: { id: true, key: true, name: true },
      orderBy: { key: 'asc' },
    });
    return Promise.all(
      providers.map(async (p) => {
        const last = await prisma.vote.findFirst({ where: { providerId: p.id, ...REAL_VOTES }, orderBy: { receivedAt: 'desc' }, select: { receivedAt: true } });
        return { ...p, lastVoteAt: last?.receivedAt ?? null };
      }),
    );
  }

  async function quietSites(organizationId: string, now: Date): Promise<QuietSite[]> {
    const nowMs = now.getTime();
    const quiet: QuietSite[] = [];
    for (const p of await lastVotes(organizationId)) {
      if (!p.lastVoteAt || nowMs - p.lastVoteAt.getTime() < MIN_SILENCE_MS) continue;
      // Too quiet to judge is known from the per-day counts, without reading any vote.
      const history = await prisma.providerDailyCount.aggregate({
        where: { providerId: p.id, day: { gte: utcDay(new Date(p.lastVoteAt.getTime() - HISTORY_DAYS * 24 * HOUR)) } },
        _sum: { count: true },
      });
      const historyVotes = history._sum.count ?? 0;
      const weekly = await ratesOf(p.id, p.lastVoteAt.getTime(), nowMs);
      const silence = silenceOf(weekly, historyVotes, p.lastVoteAt.getTime(), nowMs);
      if (!silence.silent) continue;
      const request = await prisma.hookRequest.findFirst({
        where: { providerId: p.id, receivedAt: { gt: p.lastVoteAt } },
        orderBy: { receivedAt: 'desc' },
        select: {
          receivedAt: true,
          outcome: true,
          protocol: true,
          method: true,
          errorCode: true,
          reason: true,
          providerKey: true,
          provider: { select: { authMethod: true, authField: true, payloadSource: true } },
        },
      });
      quiet.push({
        providerId: p.id,
        providerKey: p.key,
        providerName: p.name,
        lastVoteAt: p.lastVoteAt,
        silentForMs: nowMs - p.lastVoteAt.getTime(),
        usualPerHour: usualRate(weekly, nowMs),
        expected: silence.expected,
        lastRequest: request
          ? {
              at: request.receivedAt,
              outcome: request.outcome,
              hint: hookRequestHint({
                outcome: request.outcome,
                protocol: request.protocol,
                method: request.method,
                errorCode: request.errorCode,
                reason: request.reason,
                providerKey: request.providerKey,
                provider: request.provider,
                providerKeys: [],
              }),
            }
          : null,
      });
    }
    return quiet;
  }

  return { quietSites, lastVotes };
}
