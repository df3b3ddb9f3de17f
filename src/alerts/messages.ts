// Admin summaries and alerts as Discord-compatible bodies (readable in a chat channel; nobody is pinged).
import type { ChatMessageBody } from '../delivery/chat-message.js';
import { durationWords, silenceWords, type SiteSilenceFacts } from '../domain/site-silence.js';

const BLUE = 0x3498db;
const ORANGE = 0xe67e22;
const RED = 0xe74c3c;

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
