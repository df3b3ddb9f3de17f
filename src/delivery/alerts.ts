// Admin alerts: every message sent to chat_admin_webhook_url (Discord-compatible bodies, readable in a chat channel;
// nobody is pinged), the scheduler's summaries and warnings and the worker's failures alike, and adminChatJob, the one
// builder of their jobs (queueAdminAlert queues one).
import type { AppDeps } from '../app/deps.js';
import type { Organization } from '../generated/sqlite/client.js';
import { planAtLeast } from '../domain/plans.js';
import type { ChatMessageBody } from './chat-message.js';
import type { NewJob } from '../domain/jobs.js';
import { DISCORD_LIMITS } from './chat-message.js';
import { durationWords, silenceWords, type SiteSilenceFacts } from '../domain/site-silence.js';

const BLUE = 0x3498db;
const ORANGE = 0xe67e22;
const RED = 0xe74c3c;

export function permanentFailureAlert(input: {
  callbackName: string;
  target: string;
  vote: { publicId: string; voterName: string; receivedAt: Date; provider: { name: string } };
  attempts: number;
  error: string | null;
}): ChatMessageBody {
  const { vote } = input;
  return {
    embeds: [
      {
        color: RED,
        title: 'Callback failed permanently',
        description:
          `The vote by **${vote.voterName}** on **${vote.provider.name}** could not be delivered to **${input.callbackName}** after ${input.attempts} attempt(s). Redeliver it with POST /v1/votes/${vote.publicId}/redeliver once the server is back.`.slice(
            0,
            DISCORD_LIMITS.description,
          ),
        fields: [
          { name: 'Vote', value: vote.publicId, inline: true },
          { name: 'Received', value: vote.receivedAt.toISOString(), inline: true },
          { name: 'Target', value: input.target.slice(0, 200) || '—', inline: false },
          { name: 'Last error', value: (input.error ?? 'unknown').slice(0, 500), inline: false },
        ],
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function callbackDisabledAlert(input: { callbackName: string; reason: string; held: number; failingSince: Date }): ChatMessageBody {
  return {
    embeds: [
      {
        color: RED,
        title: 'Callback disabled',
        description:
          `**${input.callbackName}** was disabled: ${input.reason}. Fix the server, then enable the callback again (PATCH /v1/callbacks/:id {"enabled": true} or the dashboard); its held votes are delivered then.`.slice(
            0,
            DISCORD_LIMITS.description,
          ),
        fields: [
          { name: 'Failing since', value: input.failingSince.toISOString(), inline: true },
          { name: 'Votes held', value: String(input.held), inline: true },
        ],
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/**
 * The one builder of an admin chat job: an alert, or (`kind` post) a leaderboard post. `uniqueKey` makes it one per
 * key, whichever instance queues it.
 */
export function adminChatJob(
  deps: Pick<AppDeps, 'config'>,
  organizationId: string,
  uniqueKey: string,
  body: ChatMessageBody,
  now: Date,
  kind: 'alert' | 'post' = 'alert',
): NewJob {
  return {
    organizationId,
    voteId: null,
    callbackId: null,
    kind,
    priority: 0,
    maxAttempts: deps.config.chatMaxAttempts,
    runAt: now,
    uniqueKey,
    payloadJson: JSON.stringify(body),
  };
}

/**
 * Queues one admin alert (a chat body) for the organization, when it has the admin webhook, permanent-failure alerts
 * on, and the Growth plan (the worker's and the callbacks' alerts; the scheduler claims its own, alertMarker first).
 * True when this call queued it.
 */
export async function queueAdminAlert(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'logger' | 'config'>,
  org: Pick<Organization, 'id' | 'plan' | 'chatAdminWebhookUrl' | 'adminPermanentFailAlerts'>,
  uniqueKey: string,
  body: ChatMessageBody,
  now: Date,
): Promise<boolean> {
  if (!org.chatAdminWebhookUrl || !org.adminPermanentFailAlerts || !planAtLeast(org.plan, 'growth')) return false;
  return deps.db.prisma
    .$transaction((tx) => deps.jobs.enqueue(tx, [adminChatJob(deps, org.id, uniqueKey, body, now)]))
    .then((queued) => queued > 0)
    .catch((err: { code?: string }) => {
      if (err.code !== 'P2002') deps.logger.error({ err, uniqueKey }, 'could not queue an admin alert');
      return false;
    });
}

/** An admin alert that says what to fix (a Discord permission, a setting), in the owner's words. */
export function fixThisAlert(input: { title: string; description: string; fields?: { name: string; value: string }[] }): ChatMessageBody {
  return {
    embeds: [
      {
        color: RED,
        title: input.title.slice(0, DISCORD_LIMITS.title),
        description: input.description.slice(0, DISCORD_LIMITS.description),
        fields: (input.fields ?? []).map((f) => ({ name: f.name.slice(0, 256), value: f.value.slice(0, 1024) || '—', inline: false })),
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

// ---- The alert scheduler's messages (src/alerts/scheduler.ts) ----

export interface PeriodFigures {
  title: string;
  periodLabel: string;
  total: number;
  byProvider: { name: string; count: number }[];
  topVoters: { name: string; count: number }[];
  failedDeliveries: number;
}

const lines = (rows: { name: string; count: number }[]) =>
  rows
    .map((r) => `${r.name}: ${r.count}`)
    .join('\n')
    .slice(0, 1024) || 'none';

export function summaryMessage(f: PeriodFigures): ChatMessageBody {
  return {
    embeds: [
      {
        color: BLUE,
        title: f.title,
        description: `**${f.total}** vote${f.total === 1 ? '' : 's'} ${f.periodLabel}.`,
        fields: [
          { name: 'By provider', value: lines(f.byProvider), inline: true },
          { name: 'Top voters', value: lines(f.topVoters), inline: true },
          { name: 'Failed deliveries', value: String(f.failedDeliveries), inline: false },
        ],
        footer: { text: 'Vote Relay admin summary' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function spikeMessage(lastHour: number, hourlyMean: number): ChatMessageBody {
  return {
    embeds: [
      {
        color: ORANGE,
        title: 'Vote spike',
        description: `**${lastHour}** votes in the last hour, against an average of ${hourlyMean.toFixed(1)} per hour over the previous 7 days.`,
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function usageMessage(what: 'votes' | 'providers', percent: 80 | 100, current: number, limit: number): ChatMessageBody {
  const noun = what === 'votes' ? 'votes this month' : 'providers';
  const consequence =
    what === 'votes' && percent === 100
      ? ' Votes are still recorded, but chat notifications and callbacks are skipped until next month or an upgrade.'
      : percent === 100
        ? ' No more can be added on this plan.'
        : '';
  return {
    embeds: [
      {
        color: percent === 100 ? RED : ORANGE,
        title: `Usage at ${percent}%`,
        description: `${current} of ${limit} ${noun} used.${consequence}`,
        footer: { text: 'Vote Relay usage warning' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function siteSilentMessage(site: SiteSilenceFacts): ChatMessageBody {
  return {
    embeds: [
      {
        color: ORANGE,
        title: `${site.providerName} has gone quiet`,
        description: `${silenceWords(site)}.`,
        footer: { text: 'Vote Relay admin alert · one alert per silence' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function siteBackMessage(providerName: string, silentForMs: number, at: Date): ChatMessageBody {
  return {
    embeds: [
      {
        color: BLUE,
        title: `${providerName} is sending votes again`,
        description: `Its first vote after ${durationWords(silentForMs)} of silence arrived at ${at.toISOString()}.`,
        footer: { text: 'Vote Relay admin alert' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/**
 * The leaderboard post (README "Discord rewards"): the period's top voters, a voter whose site sends their Discord id
 * shown as a mention (allowed_mentions empty: the tag shows, nobody is pinged).
 */
export function leaderboardMessage(input: {
  period: 'day' | 'week' | 'month';
  from: Date;
  to: Date;
  timeZone: string;
  voters: { name: string; discordId: string | null; votes: number }[];
}): ChatMessageBody {
  const day = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: input.timeZone, day: 'numeric', month: 'short', year: 'numeric' }).format(d);
  const title = { day: 'Top voters of the day', week: 'Top voters of the week', month: 'Top voters of the month' }[input.period];
  const rows = input.voters.map(
    (v, i) => `${i + 1}. ${v.discordId ? `<@${v.discordId}>` : escapeMarkdown(v.name)} · ${v.votes} vote${v.votes === 1 ? '' : 's'}`,
  );
  return {
    embeds: [
      {
        color: BLUE,
        title,
        description: (rows.length > 0 ? rows.join('\n') : 'Nobody voted in this period.').slice(0, 4096),
        footer: { text: `${day(input.from)} to ${day(input.to)} (${input.timeZone})` },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** A voter's name as text in Discord markdown (a name like *_x_* stays as written). */
function escapeMarkdown(name: string): string {
  return name.replace(/([\\*_`~|>#[\]()-])/g, '\\$1');
}
