// The organization's own Discord bot, over Discord's HTTP API: the few calls vote rewards need, each failure as one DiscordError.
import { createHash } from 'node:crypto';
import { DefaultRestOptions, DiscordAPIError, HTTPError, RateLimitError, REST, type RESTOptions, type RateLimitData, type RouteLike } from '@discordjs/rest';

export type DiscordErrorKind =
  | 'bad_token'
  | 'unknown_member'
  | 'unknown_guild'
  | 'unknown_role'
  | 'unknown_user'
  | 'missing_permissions'
  | 'missing_access'
  | 'cannot_dm'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'other';

/** Kinds that trying again cannot fix: the owner must change something (token, ids, permissions) or the user must. */
const PERMANENT_KINDS: ReadonlySet<DiscordErrorKind> = new Set([
  'bad_token',
  'unknown_member',
  'unknown_guild',
  'unknown_role',
  'unknown_user',
  'missing_permissions',
  'missing_access',
  'cannot_dm',
]);

export class DiscordError extends Error {
  override readonly name = 'DiscordError';
  /** HTTP status of Discord's answer; null when there was none (network, timeout, refused before sending). */
  readonly status: number | null;
  /** Discord's JSON error code (discord.com/developers/docs/topics/opcodes-and-status-codes#json), when it sent one. */
  readonly code: number | null;
  readonly kind: DiscordErrorKind;
  /** True when the same call will fail again until someone changes something; false for rate limits, outages and timeouts. */
  readonly permanent: boolean;
  /** For rate_limited: how long Discord asked to wait, when known. */
  readonly retryAfterMs: number | null;

  constructor(init: {
    kind: DiscordErrorKind;
    message: string;
    status?: number | null;
    code?: number | null;
    retryAfterMs?: number | null;
    permanent?: boolean;
  }) {
    super(init.message);
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    // An unexpected 4xx will answer the same next time; anything without an answer (or a 5xx) may not.
    this.permanent =
      init.permanent ?? (PERMANENT_KINDS.has(init.kind) || (init.kind === 'other' && this.status !== null && this.status >= 400 && this.status < 500));
  }
}

export interface DiscordUser {
  id: string;
  username: string;
  globalName: string | null;
}

export interface DiscordGuild {
  id: string;
  name: string;
}

/** discord.com/developers/docs/resources/message#allowed-mentions-object */
export interface AllowedMentions {
  parse?: Array<'roles' | 'users' | 'everyone'>;
  roles?: string[];
  users?: string[];
  replied_user?: boolean;
}

export interface MessageBody {
  content: string;
  allowed_mentions: AllowedMentions;
  /** With enforce_nonce, Discord returns the earlier message instead of posting a second one (a retried send). */
  nonce?: string;
  enforce_nonce?: boolean;
}

export interface DiscordApi {
  me(): Promise<DiscordUser>;
  guild(guildId: string): Promise<DiscordGuild>;
  addMemberRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  removeMemberRole(guildId: string, userId: string, roleId: string, reason: string): Promise<void>;
  openDm(userId: string): Promise<{ channelId: string }>;
  createMessage(channelId: string, body: MessageBody): Promise<{ id: string; channelId: string }>;
  /** Fails the calls still waiting and stops the client's timers; later calls fail at once. */
  close(): void;
}

export interface DiscordApiOptions {
  /** The API base including its version, as DISCORD_API_URL takes it: https://discord.com/api/v10 */
  baseUrl: string;
  token: string;
  /** The most one call may take, waiting in Discord's rate-limit queue included. */
  timeoutMs?: number;
  /** Discord's global limit is 50 requests/s per bot unless Discord raised it for this bot (docs: "Global Rate Limit"). */
  globalRequestsPerSecond?: number;
}

export const DEFAULT_DISCORD_API_URL = 'https://discord.com/api/v10';
const DEFAULT_TIMEOUT_MS = 30_000;
/** One network attempt; @discordjs/rest aborts it and counts it as a retry. */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** After a 401 the token is not sent again for this long: Discord bans IPs that make 10,000 invalid (401/403/429) requests in 10 minutes. */
const BAD_TOKEN_PAUSE_MS = 5 * 60_000;
/** Discord's ids. @discordjs/rest groups routes into rate-limit buckets by this shape, and ids go into the URL path unescaped. */
const SNOWFLAKE = /^\d{17,19}$/;
/** X-Audit-Log-Reason takes 1-512 characters (docs: "Audit Log Entry Object"). */
const REASON_MAX = 512;
/** Marks each call's requests so the client knows, when a call runs out of time, whether it was on the wire or queued. Never sent. */
const CALL_HEADER = 'x-vote-relay-call';

type Operation = 'me' | 'guild' | 'addMemberRole' | 'removeMemberRole' | 'openDm' | 'createMessage';
type Phase = 'queued' | 'sending' | 'answered';

class CallAborted extends Error {
  constructor(readonly why: 'deadline' | 'closed') {
    super(why);
  }
}
class TokenPaused extends Error {}

type MakeRequest = RESTOptions['makeRequest'];

export function createDiscordApi(options: DiscordApiOptions): DiscordApi {
  return buildDiscordApi(options, () => {});
}

function buildDiscordApi(options: DiscordApiOptions, onClose: () => void): DiscordApi {
  const token = options.token;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const calls = new Map<string, { phase: Phase; controller: AbortController }>();
  let sequence = 0;
  let tokenRejectedAt: number | null = null;
  let closed = false;

  // Every network attempt passes here: it tells the call it is on the wire, and after a 401 stops the requests
  // already queued behind it (their Authorization header was set when they were queued).
  const makeRequest: MakeRequest = async (url, init) => {
    // REST builds the headers as a plain object (resolveRequest); the cast only names that.
    const headers = { ...(init.headers as Record<string, string>) };
    const call = calls.get(headers[CALL_HEADER]);
    delete headers[CALL_HEADER];
    if (tokenRejectedAt !== null) throw new TokenPaused();
    if (call) call.phase = 'sending';
    const response = await DefaultRestOptions.makeRequest(url, { ...init, headers });
    if (call) call.phase = 'answered';
    if (response.status === 401) tokenRejectedAt = Date.now();
    return response;
  };

  const rest = new REST({
    // DISCORD_API_URL already names the version, so the URL is the base plus the route: every request is sent with
    // versioned: false (REST would otherwise append `/v${version}` to `api`), and `version` is unused.
    api: options.baseUrl.replace(/\/+$/, ''),
    timeout: Math.min(timeoutMs, ATTEMPT_TIMEOUT_MS),
    // One quick retry for a dropped keep-alive socket or a 5xx blip; the job's own retries (with backoff) do the rest.
    retries: 1,
    globalRequestsPerSecond: options.globalRequestsPerSecond ?? 50,
    // Rate limits are waited out in REST's per-bucket queues, except a wait longer than a whole call may take
    // (Discord has answered retry-after in hours): the call fails at once instead of holding the bucket's queue.
    rejectOnRateLimit: (data: RateLimitData) => waitOf(data) > timeoutMs,
    makeRequest,
  }).setToken(token);

  async function send(op: Operation, method: 'GET' | 'PUT' | 'DELETE' | 'POST', route: RouteLike, extra: { body?: unknown; reason?: string } = {}) {
    if (closed) throw new DiscordError({ kind: 'network', message: 'the Discord client was closed' });
    if (tokenRejectedAt !== null) {
      if (Date.now() - tokenRejectedAt < BAD_TOKEN_PAUSE_MS) throw describe(op, { kind: 'bad_token', status: null, code: null });
      // Try the token again once the pause is over (REST forgot it on the 401).
      tokenRejectedAt = null;
      rest.setToken(token);
    }
    const id = String(++sequence);
    const call = { phase: 'queued' as Phase, controller: new AbortController() };
    calls.set(id, call);
    const timer = setTimeout(() => call.controller.abort(new CallAborted('deadline')), timeoutMs);
    const request = { versioned: false, signal: call.controller.signal, headers: { [CALL_HEADER]: id }, ...extra };
    const work =
      method === 'GET'
        ? rest.get(route, request)
        : method === 'PUT'
          ? rest.put(route, request)
          : method === 'DELETE'
            ? rest.delete(route, request)
            : rest.post(route, request);
    // REST's bucket sleeps cannot be interrupted, so the call answers at its deadline and REST unwinds later
    // (the aborted signal keeps it from sending anything): that late rejection is expected and ignored.
    work.catch(() => {});
    try {
      return await Promise.race([work, abortOf(call.controller.signal)]);
    } catch (err) {
      throw scrub(toDiscordError(err, op, call.phase, timeoutMs), token);
    } finally {
      clearTimeout(timer);
      calls.delete(id);
    }
  }

  return {
    async me() {
      const user = await send('me', 'GET', '/users/@me');
      return { id: stringField(user, 'id', 'me'), username: stringField(user, 'username', 'me'), globalName: optionalString(user, 'global_name') };
    },
    async guild(guildId) {
      snowflake(guildId, 'guild', 'unknown_guild');
      const guild = await send('guild', 'GET', `/guilds/${guildId}`);
      return { id: stringField(guild, 'id', 'guild'), name: stringField(guild, 'name', 'guild') };
    },
    async addMemberRole(guildId, userId, roleId, reason) {
      memberRoleIds(guildId, userId, roleId);
      await send('addMemberRole', 'PUT', `/guilds/${guildId}/members/${userId}/roles/${roleId}`, { reason: auditReason(reason) });
    },
    async removeMemberRole(guildId, userId, roleId, reason) {
      memberRoleIds(guildId, userId, roleId);
      await send('removeMemberRole', 'DELETE', `/guilds/${guildId}/members/${userId}/roles/${roleId}`, { reason: auditReason(reason) });
    },
    async openDm(userId) {
      snowflake(userId, 'user', 'unknown_user');
      const channel = await send('openDm', 'POST', '/users/@me/channels', { body: { recipient_id: userId } });
      return { channelId: stringField(channel, 'id', 'openDm') };
    },
    async createMessage(channelId, body) {
      snowflake(channelId, 'channel', 'other');
      const message = await send('createMessage', 'POST', `/channels/${channelId}/messages`, { body });
      return { id: stringField(message, 'id', 'createMessage'), channelId };
    },
    close() {
      if (closed) return;
      closed = true;
      for (const call of calls.values()) call.controller.abort(new CallAborted('closed'));
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
      onClose();
    },
  };
}

// ---- one client per bot ----

const apis = new Map<string, DiscordApi>();

/**
 * The shared client of one bot, so that its rate-limit buckets (learned from Discord's headers) and its global
 * count hold across jobs. Keyed by a hash of the token: the token itself is no map key.
 */
export function discordApiFor(baseUrl: string, token: string): DiscordApi {
  const key = `${baseUrl.replace(/\/+$/, '')} ${createHash('sha256').update(token).digest('hex')}`;
  let api = apis.get(key);
  if (!api) {
    api = buildDiscordApi({ baseUrl, token }, () => apis.delete(key));
    apis.set(key, api);
  }
  return api;
}

export function closeAllDiscordApis(): void {
  for (const api of [...apis.values()]) api.close();
  apis.clear();
}

// ---- the settings check ----

export type BotCheck = { ok: true; botName: string; guildName: string } | { ok: false; field: 'discord_bot_token' | 'discord_guild_id'; message: string };

/**
 * Whether the token is a bot Discord accepts and the bot is in the server. Failures that say nothing about the
 * settings (Discord unreachable, rate limited, down) are thrown as DiscordError, for the caller to report as such.
 */
export async function checkBot(api: DiscordApi, guildId: string): Promise<BotCheck> {
  const tokenRefused = { ok: false, field: 'discord_bot_token', message: 'the token was not accepted by Discord' } as const;
  const guildRefused = { ok: false, field: 'discord_guild_id', message: 'the bot is not in that server (or the id is wrong): invite it first' } as const;
  let bot: DiscordUser;
  try {
    bot = await api.me();
  } catch (err) {
    if (err instanceof DiscordError && err.kind === 'bad_token') return tokenRefused;
    throw err;
  }
  if (!SNOWFLAKE.test(guildId)) {
    return {
      ok: false,
      field: 'discord_guild_id',
      message: "a server id is a number of 17 to 19 digits (Developer Mode, then the server's menu → Copy Server ID)",
    };
  }
  try {
    const guild = await api.guild(guildId);
    return { ok: true, botName: bot.globalName ?? bot.username, guildName: guild.name };
  } catch (err) {
    if (err instanceof DiscordError && err.kind === 'bad_token') return tokenRefused;
    if (err instanceof DiscordError && (err.kind === 'unknown_guild' || err.kind === 'missing_access')) return guildRefused;
    throw err;
  }
}

// ---- errors ----

function toDiscordError(err: unknown, op: Operation, phase: Phase, timeoutMs: number): DiscordError {
  if (err instanceof DiscordError) return err;
  const seconds = Math.round(timeoutMs / 100) / 10;
  if (err instanceof CallAborted) {
    if (err.why === 'closed') return new DiscordError({ kind: 'network', message: 'the Discord client was closed before the request finished' });
    // Out of time on the wire is Discord not answering; out of time anywhere else is the rate-limit queue.
    if (phase === 'sending') return new DiscordError({ kind: 'network', message: `Discord did not answer within ${seconds} s` });
    return new DiscordError({
      kind: 'rate_limited',
      message: `Discord's rate limits did not let the request through within ${seconds} s; it will be tried again`,
    });
  }
  if (err instanceof TokenPaused) return describe(op, { kind: 'bad_token', status: null, code: null });
  if (err instanceof RateLimitError) {
    const waitMs = waitOf(err);
    return new DiscordError({
      kind: 'rate_limited',
      retryAfterMs: waitMs,
      message: `Discord asks the bot to wait ${Math.ceil(waitMs / 1000)} s before this request (${err.global ? 'global' : 'route'} rate limit); it will be tried again`,
    });
  }
  if (err instanceof DiscordAPIError) {
    const code = typeof err.code === 'number' ? err.code : null;
    return describe(op, { kind: kindOf(err.status, code), status: err.status, code, discordMessage: err.message });
  }
  if (err instanceof HTTPError) {
    const kind = err.status >= 500 ? 'server' : 'other';
    return describe(op, { kind, status: err.status, code: null, discordMessage: err.message });
  }
  if (err instanceof Error) {
    // REST's own per-attempt timeout, after its retry.
    if (err.name === 'AbortError') return new DiscordError({ kind: 'network', message: `Discord did not answer within ${seconds} s` });
    const code = errorCode(err);
    if (code) return new DiscordError({ kind: 'network', message: `could not reach Discord (${code})` });
    return new DiscordError({ kind: 'other', message: `unexpected failure talking to Discord: ${err.message}` });
  }
  return new DiscordError({ kind: 'other', message: 'unexpected failure talking to Discord' });
}

function kindOf(status: number, code: number | null): DiscordErrorKind {
  if (status === 401) return 'bad_token';
  switch (code) {
    case 10004:
      return 'unknown_guild';
    case 10007:
      return 'unknown_member';
    case 10011:
      return 'unknown_role';
    case 10013:
      return 'unknown_user';
    case 50001:
      return 'missing_access';
    case 50013:
      return 'missing_permissions';
    case 50007: // Cannot send messages to this user
    case 50278: // … due to having no mutual guilds
      return 'cannot_dm';
    case 20028: // write rate limit on the channel
    case 20029: // write rate limit on the server
    case 40003: // opening direct messages too fast
      return 'rate_limited';
  }
  return status >= 500 ? 'server' : 'other';
}

/** The owner-readable sentence for a failure Discord answered, worded for the call that failed. */
function describe(op: Operation, f: { kind: DiscordErrorKind; status: number | null; code: number | null; discordMessage?: string }): DiscordError {
  const roleCall = op === 'addMemberRole' || op === 'removeMemberRole';
  const messageCall = op === 'createMessage';
  let message: string;
  switch (f.kind) {
    case 'bad_token':
      message =
        'Discord did not accept the bot token (401 Unauthorized): reset it in the Developer Portal (your application → Bot → Reset Token) and save the new one';
      break;
    case 'unknown_guild':
      message = 'Discord knows no server with that id (or the bot is not in it): check the server id and invite the bot';
      break;
    case 'unknown_member':
      message = 'that user is not a member of the server (they may have left it)';
      break;
    case 'unknown_role':
      message = 'that role does not exist in the server (it may have been deleted): choose the vote role again';
      break;
    case 'unknown_user':
      message = 'Discord knows no user with that id';
      break;
    case 'missing_permissions':
      message = roleCall
        ? "the bot may not manage this role: move the bot's role above the vote role in Server Settings → Roles, and give it Manage Roles"
        : messageCall
          ? "the bot may not send messages there: give the bot's role View Channel and Send Messages in that channel"
          : 'the bot lacks a permission Discord requires for this';
      break;
    case 'missing_access':
      message = messageCall
        ? 'the bot cannot see that channel: give its role View Channel there'
        : 'the bot is not in that server (or cannot see it): invite it first';
      break;
    case 'cannot_dm':
      message = 'the user does not accept direct messages from the bot (their privacy settings, a block, or no server shared with the bot)';
      break;
    case 'rate_limited':
      message = `Discord refused the request for now (${f.discordMessage ?? 'rate limit'}); it will be tried again`;
      break;
    case 'server':
      message = `Discord answered HTTP ${f.status} (a problem on Discord's side); it will be tried again`;
      break;
    default:
      message = `Discord refused the request: ${(f.discordMessage ?? 'no reason given').slice(0, 300)} (HTTP ${f.status ?? '-'}${f.code === null ? '' : `, code ${f.code}`})`;
  }
  return new DiscordError({ kind: f.kind, status: f.status, code: f.code, message });
}

/** Nothing we write contains the token; this holds even if a library error one day quotes a header. */
function scrub(err: DiscordError, token: string): DiscordError {
  if (token.length < 8 || !err.message.includes(token)) return err;
  return new DiscordError({
    kind: err.kind,
    status: err.status,
    code: err.code,
    retryAfterMs: err.retryAfterMs,
    message: err.message.replaceAll(token, '[token]'),
  });
}

/**
 * How long REST is about to wait: a sublimit (a 429 on a bucket with requests left) sleeps sublimitTimeout, anything
 * else sleeps until the bucket (or the global window) resets. Not retryAfter: that is Retry-After, whole seconds.
 */
function waitOf(data: Pick<RateLimitData, 'timeToReset' | 'sublimitTimeout'>): number {
  return Math.max(0, data.sublimitTimeout > 0 ? data.sublimitTimeout : data.timeToReset);
}

function errorCode(err: Error): string | null {
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  // Node's fetch wraps the socket error: TypeError('fetch failed', { cause }).
  const cause = (err as { cause?: { code?: unknown } }).cause?.code;
  return typeof cause === 'string' ? cause : null;
}

function abortOf(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

// ---- arguments and answers ----

function snowflake(id: string, what: string, kind: DiscordErrorKind): void {
  if (!SNOWFLAKE.test(id)) {
    throw new DiscordError({ kind, permanent: true, message: `"${String(id).slice(0, 40)}" is not a Discord ${what} id (a number of 17 to 19 digits)` });
  }
}

function memberRoleIds(guildId: string, userId: string, roleId: string): void {
  snowflake(guildId, 'server', 'unknown_guild');
  snowflake(userId, 'user', 'unknown_user');
  snowflake(roleId, 'role', 'unknown_role');
}

function auditReason(reason: string): string | undefined {
  // By code points, so that a cut never splits a surrogate pair (REST URL-encodes the header).
  const points = Array.from(reason.trim());
  return points.length === 0 ? undefined : points.slice(0, REASON_MAX).join('');
}

function stringField(value: unknown, key: string, op: Operation): string {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof field !== 'string') throw new DiscordError({ kind: 'other', message: `Discord's answer to ${op} has no ${key}` });
  return field;
}

function optionalString(value: unknown, key: string): string | null {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' ? field : null;
}
