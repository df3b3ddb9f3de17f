// A local stand-in for Discord's HTTP API v10 on 127.0.0.1 (discord.com/developers/docs): the routes the bot client uses, their state and errors, and Discord's rate limits.
//
// Routes (docs, "Resources"): GET /users/@me, GET /guilds/{guild.id}, PUT and DELETE
// /guilds/{guild.id}/members/{user.id}/roles/{role.id} (204, X-Audit-Log-Reason), POST /users/@me/channels
// ({ recipient_id } → DM channel), POST /channels/{channel.id}/messages.
// Rate limits (docs, "Rate Limits"): a per-route bucket counted per top-level resource (the guild or channel id),
// a fixed window opened by its first request, X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket on every
// answer; a 429 carries { message, retry_after, global } and Retry-After, X-RateLimit-Scope, and X-RateLimit-Global
// when the bot's global limit (50 requests/s by default) was hit. Role add and remove share one bucket.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRoute = 'me' | 'guild' | 'memberRole' | 'createDm' | 'createMessage';

export interface FakeLimit {
  limit: number;
  windowMs: number;
}

/** An answer scripted for a route's next requests instead of the real one. */
export type FakeAnswer = { status: 429; retryAfter: number; scope?: 'user' | 'shared' | 'global' } | { status: number; code: number; message: string };

/** Discord's answers for the errors the client maps (docs: "JSON Error Codes"). */
export const discordErrors = {
  unauthorized: { status: 401, code: 0, message: '401: Unauthorized' },
  unknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  unknownGuild: { status: 404, code: 10004, message: 'Unknown Guild' },
  unknownMember: { status: 404, code: 10007, message: 'Unknown Member' },
  unknownRole: { status: 404, code: 10011, message: 'Unknown Role' },
  unknownUser: { status: 404, code: 10013, message: 'Unknown User' },
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  cannotDm: { status: 403, code: 50007, message: 'Cannot send messages to this user' },
  missingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
  serverError: { status: 500, code: 0, message: '500: Internal Server Error' },
} as const satisfies Record<string, FakeAnswer>;

export interface FakeUser {
  id: string;
  username: string;
  /** False: the user's privacy settings refuse DMs (opening the DM works; sending answers 50007). */
  acceptsDms: boolean;
}

export interface FakeRole {
  id: string;
  name: string;
  /** False: the role sits at or above the bot's highest role, so the bot may not give or take it (50013). */
  manageable: boolean;
}

export interface FakeGuild {
  id: string;
  name: string;
  /** False: the bot was never invited (or was kicked): 403 Missing Access. */
  botIsMember: boolean;
  botCanManageRoles: boolean;
  roles: Map<string, FakeRole>;
  /** Members by user id, with their role ids. */
  members: Map<string, Set<string>>;
  addRole(role?: Partial<FakeRole>): FakeRole;
  addMember(userId: string, roleIds?: string[]): void;
}

export interface FakeChannel {
  id: string;
  /** null for a DM channel. */
  guildId: string | null;
  /** The DM's other end. */
  recipientId: string | null;
  botCanSend: boolean;
}

export interface FakeMessage {
  id: string;
  channelId: string;
  content: string;
  allowedMentions: unknown;
  nonce: string | null;
  at: number;
}

export interface FakeDiscordRequest {
  /** Arrival, Date.now() milliseconds (the clock the limits use). */
  at: number;
  method: string;
  /** The path below the API base, e.g. /guilds/…/members/…/roles/… */
  path: string;
  route: FakeRoute | null;
  auth: 'ok' | 'missing' | 'invalid';
  /** The per-route limit that counted this request: `${bucket hash}:${top-level id or 'global'}`. */
  bucket: string | null;
  /** X-Audit-Log-Reason, URL-decoded. */
  reason: string | null;
  body: unknown;
  status: number;
  code: number | null;
  /** Answered by a script rather than by the state. */
  scripted: boolean;
  /** The 429 came from the bot's global limit. */
  global429: boolean;
}

export interface FakeDiscordOptions {
  token?: string;
  /** Per-route limits; default 50 requests per 1 s window each. */
  limits?: Partial<Record<FakeRoute, FakeLimit>>;
  /** The bot's global limit; default Discord's 50 requests per second; null for none. */
  globalLimit?: FakeLimit | null;
}

export interface FakeDiscordApi {
  /** The API base as DISCORD_API_URL takes it: http://127.0.0.1:PORT/api/v10 */
  url: string;
  token: string;
  bot: FakeUser;
  users: Map<string, FakeUser>;
  guilds: Map<string, FakeGuild>;
  channels: Map<string, FakeChannel>;
  messages: FakeMessage[];
  requests: FakeDiscordRequest[];
  /** 429 answers sent so far (route, scripted and global). */
  readonly sent429: number;
  /** Requests Discord counts towards its invalid-request ban (401, 403, 429 except scope shared). */
  readonly invalidRequests: number;
  addUser(user?: Partial<FakeUser>): FakeUser;
  addGuild(guild?: Partial<Pick<FakeGuild, 'id' | 'name' | 'botIsMember' | 'botCanManageRoles'>>): FakeGuild;
  addChannel(channel: { guildId: string; id?: string; botCanSend?: boolean }): FakeChannel;
  setLimit(route: FakeRoute, limit: FakeLimit): void;
  setGlobalLimit(limit: FakeLimit | null): void;
  /** Answer the route's next `times` requests (that pass auth and the limits) with this instead. */
  failNext(route: FakeRoute, answer: FakeAnswer, times?: number): void;
  /** A fresh snowflake (19 digits, so clients group it into buckets as Discord ids). */
  nextId(): string;
  close(): Promise<void>;
}

const BASE = '/api/v10';
/** Bucket hashes are opaque to clients; role add and remove share one (docs: X-RateLimit-Bucket). */
const BUCKET_HASH: Record<FakeRoute, string> = {
  me: '80c17d2f203122d936070c88c8d10f33',
  guild: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  memberRole: '5d9bf8b2e1c3a7064f1e2d3c4b5a6978',
  createDm: '0c1d2e3f405162738495a6b7c8d9eafb',
  createMessage: 'f3e2d1c0b9a89786a5b4c3d2e1f00918',
};
const DEFAULT_LIMIT: FakeLimit = { limit: 50, windowMs: 1000 };
const DISCORD_EPOCH = 1_420_070_400_000n;

interface Window {
  count: number;
  resetAt: number;
  /** A scripted user-scope 429 keeps the bucket closed until then. */
  blockedUntil: number;
}

export async function startFakeDiscordApi(options: FakeDiscordOptions = {}): Promise<FakeDiscordApi> {
  const token = options.token ?? 'fake-bot-token.Gx1a2B.c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0';
  const limits = new Map<FakeRoute, FakeLimit>(Object.entries(options.limits ?? {}) as Array<[FakeRoute, FakeLimit]>);
  let globalLimit = options.globalLimit === undefined ? { limit: 50, windowMs: 1000 } : options.globalLimit;
  const windows = new Map<string, Window>();
  let globalWindow = { count: 0, resetAt: 0 };
  /** A scripted global 429 holds every route until then. */
  let globalBlockedUntil = 0;
  const scripts = new Map<FakeRoute, FakeAnswer[]>();
  let sequence = 0n;
  let sent429 = 0;
  let invalidRequests = 0;

  const nextId = () => String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (sequence++ & 0x3fffffn));

  const users = new Map<string, FakeUser>();
  const guilds = new Map<string, FakeGuild>();
  const channels = new Map<string, FakeChannel>();
  const dms = new Map<string, string>();
  const messages: FakeMessage[] = [];
  const requests: FakeDiscordRequest[] = [];
  const bot: FakeUser = { id: nextId(), username: 'Vote Bot', acceptsDms: false };
  users.set(bot.id, bot);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });

  function handle(req: IncomingMessage, res: ServerResponse, rawBody: string) {
    const now = Date.now();
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.startsWith(`${BASE}/`) ? url.pathname.slice(BASE.length) : url.pathname;
    const method = req.method ?? 'GET';
    const authorization = req.headers.authorization;
    const rawReason = req.headers['x-audit-log-reason'];
    let reason: string | null = null;
    if (typeof rawReason === 'string') {
      try {
        reason = decodeURIComponent(rawReason);
      } catch {
        reason = rawReason;
      }
    }
    let body: unknown = null;
    let badJson = false;
    if (rawBody !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        badJson = true;
      }
    }
    const record: FakeDiscordRequest = {
      at: now,
      method,
      path,
      route: null,
      auth: authorization === undefined ? 'missing' : authorization === `Bot ${token}` ? 'ok' : 'invalid',
      bucket: null,
      reason,
      body,
      status: 0,
      code: null,
      scripted: false,
      global429: false,
    };
    requests.push(record);

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      if (status === 429) sent429++;
      if ((status === 401 || status === 403 || status === 429) && headers['X-RateLimit-Scope'] !== 'shared') invalidRequests++;
      if (payload === undefined) {
        res.writeHead(status, headers);
        res.end();
      } else {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      }
    };
    const fail = (answer: { status: number; code: number; message: string }, headers: Record<string, string> = {}) => {
      record.code = answer.code;
      send(answer.status, { message: answer.message, code: answer.code }, headers);
    };

    const matched = matchRoute(method, path);
    if (!url.pathname.startsWith(`${BASE}/`) || matched === null) return fail({ status: 404, code: 0, message: '404: Not Found' });
    if (matched === 'method') return fail({ status: 405, code: 0, message: '405: Method Not Allowed' });
    record.route = matched.route;
    if (record.auth !== 'ok') return fail(discordErrors.unauthorized);

    // The bot's global limit, before the route's (docs: "Global Rate Limit").
    if (now < globalBlockedUntil) {
      record.global429 = true;
      return tooMany(globalBlockedUntil - now, 'global', {});
    }
    if (globalLimit) {
      if (now >= globalWindow.resetAt) globalWindow = { count: 0, resetAt: now + globalLimit.windowMs };
      if (globalWindow.count >= globalLimit.limit) {
        record.global429 = true;
        return tooMany(globalWindow.resetAt - now, 'global', {});
      }
      globalWindow.count++;
    }

    const limit = limits.get(matched.route) ?? DEFAULT_LIMIT;
    const hash = BUCKET_HASH[matched.route];
    const bucket = `${hash}:${matched.major}`;
    record.bucket = bucket;
    let window = windows.get(bucket);
    if (!window || now >= window.resetAt) {
      window = { count: 0, resetAt: now + limit.windowMs, blockedUntil: window?.blockedUntil ?? 0 };
      windows.set(bucket, window);
    }
    const limitHeaders = (remaining: number, resetAt: number) => ({
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': (resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': (Math.max(0, resetAt - now) / 1000).toFixed(3),
      'X-RateLimit-Bucket': hash,
    });
    if (now < window.blockedUntil) return tooMany(window.blockedUntil - now, 'user', limitHeaders(0, window.blockedUntil));
    if (window.count >= limit.limit) return tooMany(window.resetAt - now, 'user', limitHeaders(0, window.resetAt));

    const script = scripts.get(matched.route);
    const scripted = script?.shift();
    if (scripted && 'retryAfter' in scripted) {
      record.scripted = true;
      const waitMs = scripted.retryAfter * 1000;
      const scope = scripted.scope ?? 'user';
      if (scope === 'global') {
        record.global429 = true;
        globalBlockedUntil = now + waitMs;
        return tooMany(waitMs, 'global', {});
      }
      // A user-scope 429 empties the bucket until retry_after; a shared one (the resource's own limit) leaves it as it is.
      if (scope === 'user') {
        window.blockedUntil = now + waitMs;
        return tooMany(waitMs, scope, limitHeaders(0, window.blockedUntil));
      }
      return tooMany(waitMs, scope, limitHeaders(limit.limit - window.count, window.resetAt));
    }
    // Every other answer, errors included, counts against the bucket.
    window.count++;
    const headers = limitHeaders(limit.limit - window.count, window.resetAt);
    if (scripted) {
      record.scripted = true;
      return fail(scripted, headers);
    }
    if (badJson) return fail({ status: 400, code: 50109, message: 'The request body contains invalid JSON.' }, headers);
    const answer = serve(matched, body, reason);
    if ('code' in answer) return fail(answer, headers);
    return send(answer.status, answer.payload, headers);

    function tooMany(waitMs: number, scope: 'user' | 'shared' | 'global', extra: Record<string, string>) {
      const retryAfter = Math.max(0, waitMs) / 1000;
      const headers: Record<string, string> = { ...extra, 'Retry-After': String(Math.ceil(retryAfter)), 'X-RateLimit-Scope': scope };
      if (scope === 'global') headers['X-RateLimit-Global'] = 'true';
      const message = scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.';
      send(429, { message, retry_after: Number(retryAfter.toFixed(3)), global: scope === 'global' }, headers);
    }
  }

  type Matched = { route: FakeRoute; major: string; ids: string[]; method: string };

  function matchRoute(method: string, path: string): Matched | 'method' | null {
    const table: Array<[RegExp, FakeRoute, string[], (ids: string[]) => string]> = [
      [/^\/users\/@me$/, 'me', ['GET'], () => 'global'],
      [/^\/users\/@me\/channels$/, 'createDm', ['POST'], () => 'global'],
      [/^\/guilds\/(\d+)$/, 'guild', ['GET'], (ids) => ids[0]],
      [/^\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/, 'memberRole', ['PUT', 'DELETE'], (ids) => ids[0]],
      [/^\/channels\/(\d+)\/messages$/, 'createMessage', ['POST'], (ids) => ids[0]],
    ];
    for (const [pattern, route, methods, major] of table) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (!methods.includes(method)) return 'method';
      const ids = match.slice(1);
      return { route, major: major(ids), ids, method };
    }
    return null;
  }

  type Served = { status: number; payload: unknown } | { status: number; code: number; message: string };

  function serve(matched: Matched, body: unknown, reason: string | null): Served {
    const [first, second, third] = matched.ids;
    switch (matched.route) {
      case 'me':
        return { status: 200, payload: userObject(bot) };
      case 'guild': {
        const guild = guilds.get(first);
        if (!guild) return discordErrors.unknownGuild;
        if (!guild.botIsMember) return discordErrors.missingAccess;
        return { status: 200, payload: guildObject(guild) };
      }
      case 'memberRole': {
        if (reason !== null && Array.from(reason).length > 512) return invalidForm('X-Audit-Log-Reason is longer than 512 characters');
        const guild = guilds.get(first);
        if (!guild) return discordErrors.unknownGuild;
        if (!guild.botIsMember) return discordErrors.missingAccess;
        const roles = guild.members.get(second);
        if (!roles) return users.has(second) ? discordErrors.unknownMember : discordErrors.unknownUser;
        const role = guild.roles.get(third);
        if (!role) return discordErrors.unknownRole;
        if (!guild.botCanManageRoles || !role.manageable) return discordErrors.missingPermissions;
        if (matched.method === 'PUT') roles.add(role.id);
        else roles.delete(role.id);
        return { status: 204, payload: undefined };
      }
      case 'createDm': {
        const recipientId = (body as { recipient_id?: unknown } | null)?.recipient_id;
        if (typeof recipientId !== 'string') return invalidForm('recipient_id is required');
        const user = users.get(recipientId);
        if (!user) return discordErrors.unknownUser;
        let channelId = dms.get(user.id);
        if (!channelId) {
          channelId = nextId();
          dms.set(user.id, channelId);
          channels.set(channelId, { id: channelId, guildId: null, recipientId: user.id, botCanSend: true });
        }
        return { status: 200, payload: { id: channelId, type: 1, last_message_id: null, flags: 0, recipients: [userObject(user)] } };
      }
      case 'createMessage': {
        const channel = channels.get(first);
        if (!channel) return discordErrors.unknownChannel;
        const message = body as { content?: unknown; allowed_mentions?: unknown; nonce?: unknown; enforce_nonce?: unknown } | null;
        const content = message?.content;
        if (typeof content !== 'string' || content.length === 0) return { status: 400, code: 50006, message: 'Cannot send an empty message' };
        if (content.length > 2000) return invalidForm('content: Must be 2000 or fewer in length.');
        if (channel.guildId !== null) {
          const guild = guilds.get(channel.guildId);
          if (!guild?.botIsMember) return discordErrors.missingAccess;
          if (!channel.botCanSend) return discordErrors.missingPermissions;
        } else if (!users.get(channel.recipientId ?? '')?.acceptsDms) {
          return discordErrors.cannotDm;
        }
        const nonce = typeof message?.nonce === 'string' ? message.nonce : null;
        // enforce_nonce: the same nonce from the bot in the last few minutes returns that message (docs: "Create Message").
        const earlier = nonce !== null && message?.enforce_nonce === true ? messages.find((m) => m.channelId === channel.id && m.nonce === nonce) : undefined;
        const stored = earlier ?? { id: nextId(), channelId: channel.id, content, allowedMentions: message?.allowed_mentions ?? null, nonce, at: Date.now() };
        if (!earlier) messages.push(stored);
        return {
          status: 200,
          payload: {
            id: stored.id,
            channel_id: stored.channelId,
            type: 0,
            content: stored.content,
            author: userObject(bot),
            timestamp: new Date(stored.at).toISOString(),
            mentions: [],
            nonce: stored.nonce ?? undefined,
          },
        };
      }
    }
  }

  function invalidForm(detail: string) {
    return { status: 400, code: 50035, message: `Invalid Form Body: ${detail}` };
  }

  function userObject(user: FakeUser) {
    return { id: user.id, username: user.username, discriminator: '0', global_name: null, avatar: null, bot: user === bot, flags: 0 };
  }

  function guildObject(guild: FakeGuild) {
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: nextId(),
      roles: [...guild.roles.values()].map((r, position) => ({ id: r.id, name: r.name, position: position + 1, permissions: '0', managed: false })),
      features: [],
    };
  }

  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    token,
    bot,
    users,
    guilds,
    channels,
    messages,
    requests,
    get sent429() {
      return sent429;
    },
    get invalidRequests() {
      return invalidRequests;
    },
    addUser(user = {}) {
      const created: FakeUser = { id: user.id ?? nextId(), username: user.username ?? `voter${users.size}`, acceptsDms: user.acceptsDms ?? true };
      users.set(created.id, created);
      return created;
    },
    addGuild(guild = {}) {
      const roles = new Map<string, FakeRole>();
      const members = new Map<string, Set<string>>();
      const created: FakeGuild = {
        id: guild.id ?? nextId(),
        name: guild.name ?? `Server ${guilds.size + 1}`,
        botIsMember: guild.botIsMember ?? true,
        botCanManageRoles: guild.botCanManageRoles ?? true,
        roles,
        members,
        addRole(role = {}) {
          const made: FakeRole = { id: role.id ?? nextId(), name: role.name ?? `role${roles.size + 1}`, manageable: role.manageable ?? true };
          roles.set(made.id, made);
          return made;
        },
        addMember(userId, roleIds = []) {
          members.set(userId, new Set(roleIds));
        },
      };
      guilds.set(created.id, created);
      return created;
    },
    addChannel(channel) {
      const created: FakeChannel = { id: channel.id ?? nextId(), guildId: channel.guildId, recipientId: null, botCanSend: channel.botCanSend ?? true };
      channels.set(created.id, created);
      return created;
    },
    setLimit(route, limit) {
      limits.set(route, limit);
    },
    setGlobalLimit(limit) {
      globalLimit = limit;
    },
    failNext(route, answer, times = 1) {
      const script = scripts.get(route) ?? [];
      for (let i = 0; i < times; i++) script.push(answer);
      scripts.set(route, script);
    },
    nextId,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
