// Settings → Discord (README "Discord rewards"): the organization's own bot (settings.discordBotToken, write-only, read
// back as discordBotTokenSet; settings.discordGuildId), which the service checks with Discord when either is saved
// (a refusal comes back on the field it concerns), and the leaderboard posts (settings.leaderboardPosts: the period's
// top voters posted to the chat webhook). Each card saves only its own settings.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { LeaderboardPeriod } from '../../gql/graphql';
import { READ_ONLY_REASON } from '../../access';
import { FieldErrors, fieldErrorsOf, type FieldErrorMap } from '../../field-errors';
import { plural } from '../../plural';

const DiscordSettingsQuery = graphql(`
  query DiscordSettings {
    organization { id settings {
      discordBotTokenSet discordGuildId leaderboardPosts { period top at } timeZone chatWebhookUrl
    } }
  }
`);
const UpdateDiscordBot = graphql(`
  mutation UpdateDiscordBot($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { discordBotTokenSet discordGuildId } }
  }
`);
const UpdateLeaderboardPosts = graphql(`
  mutation UpdateLeaderboardPosts($input: UpdateOrganizationInput!) {
    updateOrganization(input: $input) { id settings { leaderboardPosts { period top at } } }
  }
`);

export function DiscordSettings({ readOnly }: { readOnly: boolean }) {
  const [{ data, error }] = useQuery({ query: DiscordSettingsQuery });
  const settings = data?.organization?.settings;
  return (
    <section className="stack" aria-labelledby="discord-title">
      <h2 id="discord-title" className="section-title">
        Discord
      </h2>
      {!settings ? (
        error ? (
          <p role="alert" className="error">
            {error.message}
          </p>
        ) : (
          <p className="loading" role="status">
            Loading the Discord settings…
          </p>
        )
      ) : (
        <>
          <DiscordBot readOnly={readOnly} tokenSet={settings.discordBotTokenSet} guildId={settings.discordGuildId ?? null} />
          <LeaderboardPosts readOnly={readOnly} posts={settings.leaderboardPosts ?? null} timeZone={settings.timeZone} chatReady={!!settings.chatWebhookUrl} />
        </>
      )}
    </section>
  );
}

/**
 * The bot's token and the server it gives roles in. The token is never shown: the field says whether one is set and
 * starts empty (empty keeps it); "Remove bot" clears both, as the service takes neither without the other.
 */
function DiscordBot({ readOnly, tokenSet, guildId }: { readOnly: boolean; tokenSet: boolean; guildId: string | null }) {
  const [token, setToken] = useState('');
  const [guild, setGuild] = useState(guildId ?? '');
  const [notice, setNotice] = useState<string | null>(null);
  const [problems, setProblems] = useState<FieldErrorMap>({});
  const [result, save] = useMutation(UpdateDiscordBot);
  const errors = { ...fieldErrorsOf(result.error), ...problems };
  const writeTitle = readOnly ? READ_ONLY_REASON : undefined;
  const change = async (input: { discordBotToken?: string | null; discordGuildId?: string | null }, done: string) => {
    setNotice(null);
    const answer = await save({ input: { settings: input } });
    if (answer.data?.updateOrganization && !answer.error) {
      setToken('');
      setGuild(answer.data.updateOrganization.settings.discordGuildId ?? '');
      setNotice(done);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = token.trim();
    const server = guild.trim();
    const input = { ...(typed ? { discordBotToken: typed } : {}), ...(server !== (guildId ?? '') ? { discordGuildId: server || null } : {}) };
    if (Object.keys(input).length === 0) {
      setProblems({ '*': ['Nothing to save: type a new token, or change the server id.'] });
      return;
    }
    setProblems({});
    void change(input, 'Saved: Discord accepted the bot, and it is in the server.');
  };
  const remove = () => {
    if (!window.confirm('Remove the bot token? Vote roles and DMs stop until a new one is set; the server id is cleared with it.')) return;
    setProblems({});
    void change({ discordBotToken: null, discordGuildId: null }, 'Bot removed: no vote role or DM is sent until a new one is set.');
  };
  return (
    <section className="card discord-bot" aria-labelledby="discord-bot-title">
      <h3 id="discord-bot-title">Your bot</h3>
      <p className="muted">Your own bot gives vote roles and sends DMs; invite it to your server with Manage Roles.</p>
      <form onSubmit={submit}>
        <label htmlFor="discord-bot-token">
          Bot token <span className={tokenSet ? 'badge secret-set' : 'badge'}>{tokenSet ? 'set' : 'not set'}</span>
        </label>
        <input
          id="discord-bot-token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          className="setting-text"
          value={token}
          placeholder={tokenSet ? 'unchanged' : undefined}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby="discord-bot-token-hint"
          aria-invalid={!!errors['settings.discord_bot_token']}
        />
        <p id="discord-bot-token-hint" className="hint">
          Developer Portal → your application → Bot → Reset Token. Checked with Discord when saved and never shown again
          {tokenSet ? '; leave it empty to keep the one set.' : '.'}
        </p>
        <FieldErrors errors={errors} field="settings.discord_bot_token" />
        <label htmlFor="discord-guild-id">Server id</label>
        <input
          id="discord-guild-id"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          className="setting-id"
          value={guild}
          onChange={(e) => setGuild(e.target.value)}
          aria-describedby="discord-guild-id-hint"
          aria-invalid={!!errors['settings.discord_guild_id']}
        />
        <p id="discord-guild-id-hint" className="hint">
          The server the bot gives vote roles in: turn on Developer Mode in Discord, then right-click the server → Copy Server ID.
        </p>
        <FieldErrors errors={errors} field="settings.discord_guild_id" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={writeTitle ?? 'Checked with Discord before it is saved'}>
            Save bot
          </button>
          {tokenSet && (
            <button type="button" className="secondary" disabled={readOnly || result.fetching} title={writeTitle} onClick={remove}>
              Remove bot
            </button>
          )}
          {result.fetching && (
            <span className="muted" role="status">
              Checking with Discord…
            </span>
          )}
          {notice && !result.fetching && <span role="status">{notice}</span>}
        </div>
      </form>
      <p className="hint">
        Then <Link to="/callbacks">add a Discord role callback</Link>: voters get its role for a while, and the Callbacks page lists who holds it.
      </p>
    </section>
  );
}

type Period = LeaderboardPeriod;
type Posts = { period: Period; top: number; at: string };

/** Every period the schema has (codegen's LeaderboardPeriod), as the select shows it. */
const PERIOD_WORDS: Record<Period, string> = { day: 'every day', week: 'every week', month: 'every month' };

const WEEKDAYS = [
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
  ['Sat', 'Saturday'],
  ['Sun', 'Sunday'],
] as const;

const isPeriod = (value: string): value is Period => Object.hasOwn(PERIOD_WORDS, value);

/** "Mon 18:00" → its parts; a part the period does not have keeps a default. */
function partsOf(posts: Posts | null): { period: Period; top: string; weekday: string; monthDay: string; time: string } {
  const period = posts?.period ?? 'week';
  const words = posts?.at.split(' ') ?? [];
  const time = words.at(-1) ?? '18:00';
  return {
    period,
    top: String(posts?.top ?? 10),
    weekday: period === 'week' && words.length === 2 ? words[0] : 'Mon',
    monthDay: period === 'month' && words.length === 2 ? words[0] : '1',
    time: /^\d{2}:\d{2}$/.test(time) ? time : '18:00',
  };
}

const ordinal = (n: number) => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

/** "18:30" as the browser writes a time of day ("6:30 PM" in English), as the time field shows it. */
function timeWords(time: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return time || '…';
  return new Date(2000, 0, 1, Number(match[1]), Number(match[2])).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** The schedule in words: "Every Monday at 6:00 PM: the top 10 voters of the 7 days before." */
function scheduleWords(period: Period, top: number, weekday: string, monthDay: string, at: string): string {
  const time = timeWords(at);
  const voters = Number.isInteger(top) && top > 0 ? `the top ${plural(top, 'voter')}` : 'the top voters';
  if (period === 'day') return `Every day at ${time}: ${voters} of the 24 hours before.`;
  if (period === 'week') {
    const day = WEEKDAYS.find(([short]) => short === weekday)?.[1] ?? weekday;
    return `Every ${day} at ${time}: ${voters} of the 7 days before.`;
  }
  const n = Number(monthDay);
  return `On the ${Number.isInteger(n) && n > 0 ? ordinal(n) : monthDay} of each month at ${time}: ${voters} of the month before.`;
}

/** The period's top voters posted to the chat webhook at a set time, in the organization's time zone; off: null. */
function LeaderboardPosts({ readOnly, posts, timeZone, chatReady }: { readOnly: boolean; posts: Posts | null; timeZone: string; chatReady: boolean }) {
  const initial = partsOf(posts);
  const [on, setOn] = useState(posts !== null);
  const [period, setPeriod] = useState<Period>(initial.period);
  const [top, setTop] = useState(initial.top);
  const [weekday, setWeekday] = useState(initial.weekday);
  const [monthDay, setMonthDay] = useState(initial.monthDay);
  const [time, setTime] = useState(initial.time);
  const [problems, setProblems] = useState<FieldErrorMap>({});
  const [result, save] = useMutation(UpdateLeaderboardPosts);
  const errors = { ...fieldErrorsOf(result.error), ...problems };
  const at = period === 'day' ? time : period === 'week' ? `${weekday} ${time}` : `${monthDay.trim()} ${time}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (on && !/^\d+$/.test(top.trim())) {
      setProblems({ 'settings.leaderboard_posts.top': ['must be a whole number from 1 to 25'] });
      return;
    }
    if (on && !time) {
      setProblems({ 'settings.leaderboard_posts.at': ['needs a time of day'] });
      return;
    }
    setProblems({});
    void save({ input: { settings: { leaderboardPosts: on ? { period, top: Number(top.trim()), at } : null } } });
  };
  const atInvalid = !!errors['settings.leaderboard_posts.at'];
  return (
    <section className="card" aria-labelledby="leaderboard-posts-title">
      <h3 id="leaderboard-posts-title">Leaderboard posts</h3>
      <p className="muted">The top voters of each day, week or month, posted to the chat webhook when the period ends.</p>
      {on && !chatReady && <p className="warn-text">No chat webhook is set: nothing is posted until one is (Chat notifications, above).</p>}
      <form onSubmit={submit}>
        <label className="row" style={{ fontWeight: 500 }}>
          <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> Post a leaderboard
        </label>
        {on && (
          <>
            <div className="rule-fields">
              <div>
                <label htmlFor="leaderboard-period">Period</label>
                <select
                  id="leaderboard-period"
                  value={period}
                  onChange={(e) => isPeriod(e.target.value) && setPeriod(e.target.value)}
                  aria-invalid={!!errors['settings.leaderboard_posts.period']}
                >
                  {Object.entries(PERIOD_WORDS).map(([value, words]) => (
                    <option key={value} value={value}>
                      {words}
                    </option>
                  ))}
                </select>
              </div>
              {period === 'week' && (
                <div>
                  <label htmlFor="leaderboard-weekday">On</label>
                  <select id="leaderboard-weekday" value={weekday} onChange={(e) => setWeekday(e.target.value)} aria-invalid={atInvalid}>
                    {WEEKDAYS.map(([short, long]) => (
                      <option key={short} value={short}>
                        {long}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {period === 'month' && (
                <div>
                  <label htmlFor="leaderboard-month-day">Day of the month (1 to 28)</label>
                  <input
                    id="leaderboard-month-day"
                    type="number"
                    inputMode="numeric"
                    className="rule-every"
                    value={monthDay}
                    onChange={(e) => setMonthDay(e.target.value)}
                    aria-invalid={atInvalid}
                  />
                </div>
              )}
              <div>
                <label htmlFor="leaderboard-time">At</label>
                <input
                  id="leaderboard-time"
                  type="time"
                  value={time}
                  onChange={(e) => setTime(e.target.value)}
                  aria-describedby="leaderboard-zone"
                  aria-invalid={atInvalid}
                />
              </div>
              <div>
                <label htmlFor="leaderboard-top">Voters named (1 to 25)</label>
                <input
                  id="leaderboard-top"
                  type="number"
                  inputMode="numeric"
                  className="rule-every"
                  value={top}
                  onChange={(e) => setTop(e.target.value)}
                  aria-invalid={!!errors['settings.leaderboard_posts.top']}
                />
              </div>
            </div>
            <p id="leaderboard-zone" className="hint">
              Times are in the organization's time zone, {timeZone}.
            </p>
            <p className="rule-words" aria-live="polite">
              {scheduleWords(period, Number(top), weekday, monthDay.trim(), time)}
            </p>
          </>
        )}
        <FieldErrors errors={errors} field="settings.leaderboard_posts.period" />
        <FieldErrors errors={errors} field="settings.leaderboard_posts.at" />
        <FieldErrors errors={errors} field="settings.leaderboard_posts.top" />
        <FieldErrors errors={errors} field="settings.leaderboard_posts" />
        <FieldErrors errors={errors} field="*" />
        <div className="row">
          <button type="submit" disabled={readOnly || result.fetching} title={readOnly ? READ_ONLY_REASON : undefined}>
            Save leaderboard posts
          </button>
          {result.data?.updateOrganization && !result.error && <span role="status">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
