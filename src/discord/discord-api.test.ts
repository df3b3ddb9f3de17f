// The Discord bot client against the local fake Discord API: calls, error kinds, and rate limits read from the fake's own record.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discordErrors, startFakeDiscordApi, type FakeAnswer, type FakeDiscordApi, type FakeRoute } from '../../test/kit/discord-api-server.js';
import {
  checkBot,
  closeAllDiscordApis,
  createDiscordApi,
  DiscordError,
  discordApiFor,
  type DiscordApi,
  type DiscordApiOptions,
  type DiscordErrorKind,
} from './discord-api.js';

let fake: FakeDiscordApi;
const opened: DiscordApi[] = [];

beforeEach(async () => {
  fake = await startFakeDiscordApi();
});

afterEach(async () => {
  for (const api of opened.splice(0)) api.close();
  closeAllDiscordApis();
  await fake.close();
});

function api(options: Partial<DiscordApiOptions> = {}): DiscordApi {
  const created = createDiscordApi({ baseUrl: fake.url, token: fake.token, ...options });
  opened.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<DiscordError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DiscordError);
    return err as DiscordError;
  }
  throw new Error('expected the call to fail');
}

/** The most requests any window held, windows opened as the fake opens them: by the first request after the last one closed. */
function maxPerWindow(times: number[], windowMs: number): number {
  let max = 0;
  let start = Number.NEGATIVE_INFINITY;
  let count = 0;
  for (const at of [...times].sort((a, b) => a - b)) {
    if (at >= start + windowMs) {
      start = at;
      count = 0;
    }
    count++;
    max = Math.max(max, count);
  }
  return max;
}

/** A guild with the vote role and one member, the bot allowed to manage it. */
function voteGuild() {
  const guild = fake.addGuild({ name: 'Craft Realm' });
  const role = guild.addRole({ name: 'Voter' });
  const user = fake.addUser({ username: 'alice' });
  guild.addMember(user.id);
  return { guild, role, user };
}

describe('calls', () => {
  it('reads the bot and the server, under the base URL as given (version included once)', async () => {
    const { guild } = voteGuild();
    const discord = api();
    await expect(discord.me()).resolves.toEqual({ id: fake.bot.id, username: 'Vote Bot', globalName: null });
    await expect(discord.guild(guild.id)).resolves.toEqual({ id: guild.id, name: 'Craft Realm' });
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /users/@me 200`, `GET /guilds/${guild.id} 200`]);
    expect(fake.requests.every((r) => r.auth === 'ok')).toBe(true);
  });

  it('adds and removes a member role with the audit-log reason', async () => {
    const { guild, role, user } = voteGuild();
    const discord = api();
    await discord.addMemberRole(guild.id, user.id, role.id, 'Voted on top.gg — thanks ✓');
    expect(guild.members.get(user.id)).toEqual(new Set([role.id]));
    await discord.removeMemberRole(guild.id, user.id, role.id, 'Vote expired');
    expect(guild.members.get(user.id)).toEqual(new Set());
    expect(fake.requests.map((r) => [r.method, r.status, r.reason])).toEqual([
      ['PUT', 204, 'Voted on top.gg — thanks ✓'],
      ['DELETE', 204, 'Vote expired'],
    ]);
  });

  it('cuts the reason to the 512 characters Discord takes, and sends none for an empty one', async () => {
    const { guild, role, user } = voteGuild();
    const discord = api();
    await discord.addMemberRole(guild.id, user.id, role.id, '🎉'.repeat(600));
    await discord.addMemberRole(guild.id, user.id, role.id, '  ');
    expect(Array.from(fake.requests[0].reason ?? '')).toHaveLength(512);
    expect(fake.requests[1].reason).toBeNull();
  });

  it('opens a DM and posts a message with its allowed mentions', async () => {
    const user = fake.addUser({ username: 'bob' });
    const discord = api();
    const { channelId } = await discord.openDm(user.id);
    expect(fake.channels.get(channelId)?.recipientId).toBe(user.id);
    // Discord returns the same DM channel when one is open already.
    await expect(discord.openDm(user.id)).resolves.toEqual({ channelId });
    const sent = await discord.createMessage(channelId, { content: `Thanks for voting, <@${user.id}>!`, allowed_mentions: { users: [user.id] } });
    expect(sent.channelId).toBe(channelId);
    expect(fake.messages).toEqual([
      expect.objectContaining({ id: sent.id, content: `Thanks for voting, <@${user.id}>!`, allowedMentions: { users: [user.id] } }),
    ]);
    expect(fake.requests[0].body).toEqual({ recipient_id: user.id });
  });

  it('does not post twice for a retried send with the same enforced nonce', async () => {
    const channel = fake.addChannel({ guildId: fake.addGuild().id });
    const discord = api();
    const body = { content: 'hello', allowed_mentions: { parse: [] }, nonce: 'vote-42', enforce_nonce: true };
    const first = await discord.createMessage(channel.id, body);
    await expect(discord.createMessage(channel.id, body)).resolves.toEqual(first);
    expect(fake.messages).toHaveLength(1);
  });

  it('refuses ids that are not snowflakes before sending anything', async () => {
    const discord = api();
    const err = await failure(discord.addMemberRole('../../users/@me', '123456789012345678', '123456789012345678', 'x'));
    expect([err.kind, err.status, err.permanent]).toEqual(['unknown_guild', null, true]);
    expect((await failure(discord.openDm('12'))).kind).toBe('unknown_user');
    const channel = await failure(discord.createMessage('abc', { content: 'x', allowed_mentions: {} }));
    expect([channel.kind, channel.permanent]).toEqual(['other', true]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('errors', () => {
  const scripted: Array<[string, FakeRoute, FakeAnswer, DiscordErrorKind, boolean]> = [
    ['10007 Unknown Member', 'memberRole', discordErrors.unknownMember, 'unknown_member', true],
    ['10011 Unknown Role', 'memberRole', discordErrors.unknownRole, 'unknown_role', true],
    ['50013 Missing Permissions', 'memberRole', discordErrors.missingPermissions, 'missing_permissions', true],
    ['10004 Unknown Guild', 'guild', discordErrors.unknownGuild, 'unknown_guild', true],
    ['50001 Missing Access', 'guild', discordErrors.missingAccess, 'missing_access', true],
    ['10013 Unknown User', 'createDm', discordErrors.unknownUser, 'unknown_user', true],
    ['50007 Cannot send messages to this user', 'createMessage', discordErrors.cannotDm, 'cannot_dm', true],
    ['50035 Invalid Form Body', 'createMessage', { status: 400, code: 50035, message: 'Invalid Form Body' }, 'other', true],
    ['500 twice (REST retries once)', 'memberRole', discordErrors.serverError, 'server', false],
  ];

  it.each(scripted)('%s', async (_name, route, answer, kind, permanent) => {
    const { guild, role, user } = voteGuild();
    const channel = fake.addChannel({ guildId: guild.id });
    fake.failNext(route, answer, 2);
    const discord = api();
    const call = {
      me: () => discord.me(),
      guild: () => discord.guild(guild.id),
      memberRole: () => discord.addMemberRole(guild.id, user.id, role.id, 'vote'),
      createDm: () => discord.openDm(user.id),
      createMessage: () => discord.createMessage(channel.id, { content: 'hi', allowed_mentions: {} }),
    }[route];
    const err = await failure(call());
    expect({ kind: err.kind, permanent: err.permanent, status: err.status }).toEqual({ kind, permanent, status: answer.status });
    if ('code' in answer && answer.status < 500) expect(err.code).toBe(answer.code);
    expect(err.message).not.toContain(fake.token);
  });

  it('words a role permission failure for the owner', async () => {
    const { guild, user } = voteGuild();
    const high = guild.addRole({ name: 'Admin', manageable: false });
    const err = await failure(api().addMemberRole(guild.id, user.id, high.id, 'vote'));
    expect(err.kind).toBe('missing_permissions');
    expect(err.message).toBe("the bot may not manage this role: move the bot's role above the vote role in Server Settings → Roles, and give it Manage Roles");
  });

  it('maps what the state answers: not a member, not in the server, DMs closed', async () => {
    const { guild, role } = voteGuild();
    const stranger = fake.addUser();
    const closedDms = fake.addUser({ acceptsDms: false });
    const elsewhere = fake.addGuild({ botIsMember: false });
    const discord = api();
    expect((await failure(discord.addMemberRole(guild.id, stranger.id, role.id, 'vote'))).kind).toBe('unknown_member');
    expect((await failure(discord.guild(elsewhere.id))).kind).toBe('missing_access');
    expect((await failure(discord.guild(fake.nextId()))).kind).toBe('unknown_guild');
    const { channelId } = await discord.openDm(closedDms.id);
    const err = await failure(discord.createMessage(channelId, { content: 'hi', allowed_mentions: {} }));
    expect([err.kind, err.status, err.code, err.permanent]).toEqual(['cannot_dm', 403, 50007, true]);
  });

  it('a bad token is bad_token, and is not sent again (Discord bans IPs for too many 401s)', async () => {
    const wrong = 'wrong-token-for-tests';
    const { guild, role, user } = voteGuild();
    const discord = api({ token: wrong });
    // Ten calls queued together in one bucket: the first is answered 401, the nine behind it are not sent.
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => discord.addMemberRole(guild.id, user.id, role.id, 'vote')));
    const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as DiscordError) : null));
    expect(errors.map((e) => e?.kind)).toEqual(Array(10).fill('bad_token'));
    expect([errors[0]?.status, errors[0]?.code, errors[0]?.permanent]).toEqual([401, 0, true]);
    expect(errors.every((e) => !e?.message.includes(wrong))).toBe(true);
    expect((await failure(discord.me())).kind).toBe('bad_token');
    expect(fake.requests.map((r) => [r.auth, r.status])).toEqual([['invalid', 401]]);
  });

  it('a network failure is network, transient', async () => {
    const closed = await new Promise<Server>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(api({ baseUrl: `http://127.0.0.1:${port}/api/v10` }).me());
    expect([err.kind, err.status, err.permanent]).toEqual(['network', null, false]);
    expect(err.message).toMatch(/could not reach Discord/);
  });

  it('a server that never answers fails the call at its deadline', async () => {
    const sockets = new Set<Socket>();
    const silent = await new Promise<Server>((resolve) => {
      const s = createServer((socket) => void sockets.add(socket));
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const started = Date.now();
      const err = await failure(api({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v10`, timeoutMs: 400 }).me());
      expect([err.kind, err.permanent]).toEqual(['network', false]);
      expect(err.message).toBe('Discord did not answer within 0.4 s');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('rate limits', () => {
  it('waits out a scripted 429 (retry_after and Retry-After) and then succeeds', async () => {
    const { guild, role, user } = voteGuild();
    fake.failNext('memberRole', { status: 429, retryAfter: 0.6 });
    const started = Date.now();
    await api().addMemberRole(guild.id, user.id, role.id, 'vote');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(guild.members.get(user.id)?.has(role.id)).toBe(true);
    // One 429, then one request after the wait: no early retry the fake would have refused again.
    expect(fake.sent429).toBe(1);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 204]);
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(600);
  });

  it('waits out a global 429 and a shared (per-resource) 429', async () => {
    const { guild } = voteGuild();
    fake.failNext('me', { status: 429, retryAfter: 0.3, scope: 'global' });
    fake.failNext('guild', { status: 429, retryAfter: 0.3, scope: 'shared' });
    const discord = api();
    await expect(discord.me()).resolves.toMatchObject({ username: 'Vote Bot' });
    await expect(discord.guild(guild.id)).resolves.toMatchObject({ name: 'Craft Realm' });
    expect(fake.sent429).toBe(2);
    expect(fake.requests.map((r) => `${r.route} ${r.status}`)).toEqual(['me 429', 'me 200', 'guild 429', 'guild 200']);
  });

  it('fails at once, rate_limited, when Discord asks for a wait longer than a call may take', async () => {
    const { guild, role, user } = voteGuild();
    fake.failNext('memberRole', { status: 429, retryAfter: 120 });
    const discord = api({ timeoutMs: 2_000 });
    const started = Date.now();
    const err = await failure(discord.addMemberRole(guild.id, user.id, role.id, 'vote'));
    expect([err.kind, err.permanent]).toEqual(['rate_limited', false]);
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(119_000);
    // The 429 taught REST the route's bucket hash: the next call runs in that bucket's new queue, which knows nothing
    // yet and asks once (a second 429); from then on the bucket is known closed and calls fail without a request.
    expect((await failure(discord.addMemberRole(guild.id, user.id, role.id, 'vote'))).kind).toBe('rate_limited');
    expect(fake.requests).toHaveLength(2);
    expect((await failure(discord.addMemberRole(guild.id, user.id, role.id, 'vote'))).kind).toBe('rate_limited');
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a call queued behind bucket waits gives up at its deadline, rate_limited, and is never sent', { timeout: 10_000 }, async () => {
    const { guild, role, user } = voteGuild();
    fake.setLimit('memberRole', { limit: 2, windowMs: 1_500 });
    const discord = api({ timeoutMs: 2_000 });
    await discord.addMemberRole(guild.id, user.id, role.id, 'vote');
    // Window 1 holds that call and the next; the two after wait ~1.5 s for window 2; the last would need window 3 (~3 s).
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => discord.addMemberRole(guild.id, user.id, role.id, 'vote')));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    const last = results[3].status === 'rejected' ? (results[3].reason as DiscordError) : null;
    expect([last?.kind, last?.permanent]).toEqual(['rate_limited', false]);
    // REST's bucket sleep ends after the deadline; the aborted call must not be sent then.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fake.requests.map((r) => r.status)).toEqual([204, 204, 204, 204]);
    expect(fake.sent429).toBe(0);
  });

  it('2,000 role changes in one shared bucket: no 429, never more in a window than the bucket allows', { timeout: 30_000 }, async () => {
    const windowMs = 500;
    const limit = 200;
    fake.setLimit('memberRole', { limit, windowMs });
    fake.setGlobalLimit(null);
    const guild = fake.addGuild();
    const voter = guild.addRole({ name: 'Voter' });
    const former = guild.addRole({ name: 'Former voter' });
    const users = Array.from({ length: 1_000 }, () => fake.addUser());
    for (const user of users) guild.addMember(user.id, [former.id]);
    // Raised client-side global limit: this bot is taken to have a higher one, so the route bucket is what binds.
    const discord = api({ globalRequestsPerSecond: 100_000 });
    // One add and one remove first: REST learns that both methods answer with the same X-RateLimit-Bucket and
    // queues them together from then on (calls queued before that are in a queue per method).
    await discord.addMemberRole(guild.id, users[0].id, voter.id, 'vote');
    await discord.removeMemberRole(guild.id, users[0].id, former.id, 'vote');
    const started = Date.now();
    await Promise.all(
      users.flatMap((user) => [discord.addMemberRole(guild.id, user.id, voter.id, 'vote'), discord.removeMemberRole(guild.id, user.id, former.id, 'vote')]),
    );
    const elapsed = Date.now() - started;
    expect(users.every((u) => guild.members.get(u.id)?.has(voter.id) && !guild.members.get(u.id)?.has(former.id))).toBe(true);
    const burst = fake.requests.slice(2);
    expect(burst).toHaveLength(2_000);
    const buckets = new Set(fake.requests.map((r) => r.bucket));
    expect(buckets.size).toBe(1);
    expect(fake.sent429).toBeLessThanOrEqual(buckets.size);
    expect(fake.sent429).toBe(0);
    expect(
      maxPerWindow(
        fake.requests.map((r) => r.at),
        windowMs,
      ),
    ).toBeLessThanOrEqual(limit);
    // 2,002 requests at 200 a window need at least ten windows.
    expect(elapsed).toBeGreaterThanOrEqual(9 * windowMs);
    expect(elapsed).toBeLessThan(15_000);
  });

  it("honours the bot's global limit (50/s) across many buckets", { timeout: 30_000 }, async () => {
    fake.setGlobalLimit({ limit: 50, windowMs: 1_000 });
    fake.setLimit('memberRole', { limit: 1_000, windowMs: 1_000 });
    const servers = Array.from({ length: 10 }, () => {
      const guild = fake.addGuild();
      const role = guild.addRole();
      const users = Array.from({ length: 20 }, () => fake.addUser());
      for (const user of users) guild.addMember(user.id);
      return { guild, role, users };
    });
    const discord = api();
    const started = Date.now();
    await Promise.all(servers.flatMap(({ guild, role, users }) => users.map((user) => discord.addMemberRole(guild.id, user.id, role.id, 'vote'))));
    const elapsed = Date.now() - started;
    const buckets = new Set(fake.requests.map((r) => r.bucket));
    expect(buckets.size).toBe(10);
    expect(fake.requests.filter((r) => r.status === 204)).toHaveLength(200);
    expect(fake.sent429).toBeLessThanOrEqual(buckets.size);
    expect(
      maxPerWindow(
        fake.requests.filter((r) => !r.global429).map((r) => r.at),
        1_000,
      ),
    ).toBeLessThanOrEqual(50);
    // 200 requests at 50 a second: four windows.
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
  });
});

describe('one client per bot', () => {
  it('reuses the client for the same base and token, and makes a new one after close', () => {
    const a = discordApiFor(fake.url, fake.token);
    expect(discordApiFor(`${fake.url}/`, fake.token)).toBe(a);
    expect(discordApiFor(fake.url, 'another-token')).not.toBe(a);
    a.close();
    expect(discordApiFor(fake.url, fake.token)).not.toBe(a);
  });

  it('close fails waiting calls and later ones', async () => {
    const { guild, role, user } = voteGuild();
    fake.failNext('memberRole', { status: 429, retryAfter: 1 });
    const discord = discordApiFor(fake.url, fake.token);
    const waiting = discord.addMemberRole(guild.id, user.id, role.id, 'vote');
    await new Promise((resolve) => setTimeout(resolve, 100));
    closeAllDiscordApis();
    const err = await failure(waiting);
    expect([err.kind, err.permanent]).toEqual(['network', false]);
    expect((await failure(discord.me())).message).toBe('the Discord client was closed');
  });
});

describe('checkBot', () => {
  it('names the bot and the server', async () => {
    const { guild } = voteGuild();
    await expect(checkBot(api(), guild.id)).resolves.toEqual({ ok: true, botName: 'Vote Bot', guildName: 'Craft Realm' });
  });

  it('points at the field to fix', async () => {
    const outside = fake.addGuild({ botIsMember: false });
    await expect(checkBot(api({ token: 'nope' }), outside.id)).resolves.toEqual({
      ok: false,
      field: 'discord_bot_token',
      message: 'the token was not accepted by Discord',
    });
    const notIn = { ok: false, field: 'discord_guild_id', message: 'the bot is not in that server (or the id is wrong): invite it first' };
    await expect(checkBot(api(), outside.id)).resolves.toEqual(notIn);
    await expect(checkBot(api(), fake.nextId())).resolves.toEqual(notIn);
    await expect(checkBot(api(), 'my server')).resolves.toMatchObject({ ok: false, field: 'discord_guild_id' });
  });

  it('throws what says nothing about the settings', async () => {
    fake.failNext('me', discordErrors.serverError, 2);
    const err = await failure(checkBot(api(), fake.nextId()));
    expect(err.kind).toBe('server');
  });
});
