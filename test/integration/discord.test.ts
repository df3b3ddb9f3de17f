// Discord rewards through HTTP, against a local Discord API written from discord.com/developers/docs
// (test/kit/discord-api-server.ts): the bot's settings checked on save, vote roles given, extended and taken away at
// expiry exactly once (also with two instances), a member not in the server, a missing permission (one admin alert),
// DMs with the 50007 refusal and its fallback channel, and a burst of votes paced to the buckets Discord announces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait.js';
import { databaseUnavailable, dialect, startTestApp, testDatabaseUrl, type TestApp, type TestOrg } from '../kit/app.js';
import { discordErrors, startFakeDiscordApi, type FakeDiscordApi, type FakeGuild } from '../kit/discord-api-server.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

/** Time under the test's control: role expiry reads it. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

describe.skipIf(databaseUnavailable)('Discord rewards with the organization’s own bot', () => {
  const databaseUrl = testDatabaseUrl();
  let discord: FakeDiscordApi;
  let app: TestApp;
  let admin: Receiver;
  // The burst sends 600 hook requests in a few seconds: the hook limits are lifted for it.
  const env = () => ({
    DISCORD_API_URL: discord.url,
    ROLE_EXPIRY_INTERVAL: '100ms',
    RETRY_SCHEDULE: '100ms,100ms',
    DELIVERY_POLL_MS: '50',
    HOOK_RATE_LIMIT_PER_MINUTE: '100000',
    IP_RATE_LIMIT_PER_MINUTE: '100000',
  });

  beforeAll(async () => {
    discord = await startFakeDiscordApi();
    admin = await startReceiver({ status: 204 });
    app = await startTestApp(env(), { databaseUrl, clock });
  });
  afterAll(async () => {
    await app?.stop();
    await discord?.close();
    await admin?.close();
  });

  /** An organization with the bot set on a new server, a Discord site (Discord id at `id`) and a callback. */
  async function setup(callback: Record<string, unknown>, guildOptions: Partial<Pick<FakeGuild, 'botCanManageRoles'>> = {}) {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const guild = discord.addGuild(guildOptions);
    const role = guild.addRole({ name: 'Voter' });
    const saved = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: {
        settings: {
          discord_bot_token: discord.token,
          discord_guild_id: guild.id,
          chat_admin_webhook_url: `${admin.url}/${org.slug}`,
          admin_permanent_fail_alerts: true,
        },
      },
    });
    expect(saved.status, saved.text).toBe(200);
    const cb = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Discord', ...callback, ...(callback.kind === 'discord_role' ? { role_id: role.id } : {}) },
    });
    expect(cb.status, cb.text).toBe(201);
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'dbl', name: 'Bot list', auth_method: 'url_path', auth_field: 's', votee_path: 'username', discord_id_path: 'id' },
      })
    ).body.data;
    const vote = async (username: string, id: string) => {
      const res = await app.request('POST', new URL(made.webhook_url).pathname, { body: { id, username, nonce: Math.random() } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    };
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    const grants = () => app.request('GET', '/v1/discord/role-grants', { key: org.key }).then((r) => r.body.data.grants);
    return { org, guild, role, cb: cb.body.data, vote, read, grants };
  }
  const settled = (v: { callback_status: string }) => !['pending', 'retrying'].includes(v.callback_status);
  const roleRequests = (userId: string, method: string) =>
    discord.requests.filter((r) => r.route === 'memberRole' && r.method === method && r.path.includes(userId));

  it('checks the bot when its settings are saved, and never returns the token', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const guild = discord.addGuild();
    const stranger = discord.addGuild({ botIsMember: false });
    const patch = (settings: Record<string, unknown>) => app.request('PATCH', '/v1/organization', { key: org.key, body: { settings } });
    const bad = await patch({ discord_bot_token: 'not-the-token-but-long-enough-0123456789', discord_guild_id: guild.id });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'settings.discord_bot_token', message: expect.stringMatching(/not accepted|token/i) }]);
    const away = await patch({ discord_bot_token: discord.token, discord_guild_id: stranger.id });
    expect(away.status).toBe(400);
    expect(away.body.error.details[0].field).toBe('settings.discord_guild_id');
    expect((await patch({ discord_bot_token: discord.token })).body.error.details[0].field).toBe('settings.discord_guild_id');
    const good = await patch({ discord_bot_token: discord.token, discord_guild_id: guild.id });
    expect(good.status, good.text).toBe(200);
    expect(good.body.data.settings).toMatchObject({ discord_bot_token_set: true, discord_guild_id: guild.id });
    expect(good.text).not.toContain(discord.token);
    expect((await app.request('GET', '/v1/organization', { key: org.key })).text).not.toContain(discord.token);
  });

  it('a vote gives the role, a second vote extends it, and expiry takes it away once', async () => {
    const s = await setup({ kind: 'discord_role', duration: '12h' });
    const user = discord.addUser({ username: 'cooluser' });
    s.guild.addMember(user.id);
    const first = await s.vote('cooluser', user.id);
    expect(await until(() => s.read(first), settled)).toMatchObject({ callback_status: 'sent', voter_discord_id: user.id });
    expect(s.guild.members.get(user.id)?.has(s.role.id)).toBe(true);
    expect(roleRequests(user.id, 'PUT')[0].reason).toMatch(/^Voted on Bot list/);
    const [grant] = await s.grants();
    expect(grant).toMatchObject({ voter: 'cooluser', discord_id: user.id, role_id: s.role.id, status: 'active' });
    const firstExpiry = Date.parse(grant.expires_at);
    expect(firstExpiry - clock.now().getTime()).toBeGreaterThan(11.9 * 3_600_000);

    offsetMs += 3_600_000; // an hour later, a second vote: 12 hours from then
    const second = await s.vote('cooluser', user.id);
    await until(() => s.read(second), settled);
    const extended = Date.parse((await s.grants())[0].expires_at);
    expect(extended - firstExpiry).toBeGreaterThanOrEqual(3_600_000 - 1_000);

    offsetMs += 13 * 3_600_000; // past the expiry
    await until(s.grants, (g) => g[0].status === 'removed');
    expect(s.guild.members.get(user.id)?.has(s.role.id)).toBe(false);
    // Taken away once, whatever further passes do.
    const deletes = roleRequests(user.id, 'DELETE').length;
    const passes = discord.requests.length;
    await until(
      async () => discord.requests.length,
      (n) => n >= passes,
    );
    expect(deletes).toBe(1);
    expect(roleRequests(user.id, 'PUT')).toHaveLength(2);
  });

  it('a member not in the server is recorded as such and not retried; a missing permission is retried, with one admin alert', async () => {
    const s = await setup({ kind: 'discord_role', duration: '1h' });
    const ghost = discord.addUser();
    const lost = await s.vote('ghost', ghost.id);
    expect(await until(() => s.read(lost), settled)).toMatchObject({ callback_status: 'failed' });
    expect(roleRequests(ghost.id, 'PUT')).toHaveLength(1);
    expect((await s.grants()).find((g: { discord_id: string }) => g.discord_id === ghost.id)).toMatchObject({ status: 'not_member' });

    const locked = await setup({ kind: 'discord_role', duration: '1h' });
    const member = discord.addUser();
    locked.guild.addMember(member.id);
    const before = admin.requests.filter((r) => r.path === `/${locked.org.slug}`).length;
    // Refused until the owner fixes the role order: both votes are retried, and the owner told once what to fix.
    discord.failNext('memberRole', discordErrors.missingPermissions, 6);
    const a = await locked.vote('m1', member.id);
    const b = await locked.vote('m1', member.id);
    for (const id of [a, b]) expect(await until(() => locked.read(id), settled)).toMatchObject({ callback_status: 'failed' });
    const alerts = await until(
      async () => admin.requests.filter((r) => r.path === `/${locked.org.slug}` && /the bot may not give the role/.test(r.body)),
      (list) => list.length >= 1,
    );
    expect(alerts).toHaveLength(1);
    expect(before).toBe(0);
  });

  it('DMs a thank-you; a voter who refuses DMs gets the fallback channel with a mention, and is not DMed again', async () => {
    const s = await setup({ kind: 'discord_dm', events: ['vote'], message: 'Thanks for voting on {{provider_name}}, {{voter_name}}! @everyone' });
    const fan = discord.addUser({ username: 'fan' });
    const shy = discord.addUser({ username: 'shy', acceptsDms: false });
    const id = await s.vote('fan', fan.id);
    expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent' });
    const dm = discord.messages.find((m) => discord.channels.get(m.channelId)?.recipientId === fan.id);
    expect(dm).toMatchObject({ content: 'Thanks for voting on Bot list, fan! @everyone', allowedMentions: { parse: [] } });

    const channel = discord.addChannel({ guildId: s.guild.id });
    const patched = await app.request('PATCH', `/v1/callbacks/${s.cb.id}`, { key: s.org.key, body: { fallback_channel_id: channel.id } });
    expect(patched.status, patched.text).toBe(200);
    const refused = await s.vote('shy', shy.id);
    expect(await until(() => s.read(refused), settled)).toMatchObject({ callback_status: 'sent' });
    expect(discord.messages.find((m) => m.channelId === channel.id)).toMatchObject({
      content: `<@${shy.id}> Thanks for voting on Bot list, shy! @everyone`,
      allowedMentions: { users: [shy.id] },
    });

    const opens = discord.requests.filter((r) => r.route === 'createDm' && JSON.stringify(r.body).includes(shy.id)).length;
    const again = await s.vote('shy', shy.id);
    await until(() => s.read(again), settled);
    expect(discord.requests.filter((r) => r.route === 'createDm' && JSON.stringify(r.body).includes(shy.id))).toHaveLength(opens);
    expect(discord.messages.filter((m) => m.channelId === channel.id)).toHaveLength(2);
  });

  it('two instances (PostgreSQL; one on SQLite) take an expired role away once, across a restart of one', async () => {
    const other = dialect === 'postgresql' ? await startTestApp(env(), { databaseUrl, clock }) : null;
    try {
      const s = await setup({ kind: 'discord_role', duration: '1m' });
      const users = Array.from({ length: 10 }, () => discord.addUser());
      for (const u of users) s.guild.addMember(u.id);
      const ids = [];
      for (const u of users) ids.push(await s.vote(u.username, u.id));
      for (const id of ids) await until(() => s.read(id), settled);
      // One instance stops (as after a crash) and comes back while the roles expire.
      await app.stop();
      offsetMs += 2 * 60_000;
      app = await startTestApp(env(), { databaseUrl, clock });
      await until(s.grants, (g) => g.every((x: { status: string }) => x.status === 'removed'));
      for (const u of users) {
        expect(roleRequests(u.id, 'PUT')).toHaveLength(1);
        expect(roleRequests(u.id, 'DELETE')).toHaveLength(1);
        expect(s.guild.members.get(u.id)?.has(s.role.id)).toBe(false);
      }
    } finally {
      await other?.stop();
    }
  });

  it('posts the period’s top voters to the chat webhook once, with mentions where the Discord id is known', async () => {
    const s = await setup({ kind: 'discord_dm', events: ['vote'], message: 'thanks' });
    // A second instance on PostgreSQL; embedded SQLite has one (its ticks race each other instead).
    const other = dialect === 'postgresql' ? await startTestApp(env(), { databaseUrl, clock }) : app;
    try {
      const [ann, bob] = [discord.addUser({ username: 'ann' }), discord.addUser({ username: 'bob' })];
      for (const [name, id] of [
        ['ann', ann.id],
        ['bob', bob.id],
        ['ann', ann.id],
        ['Steve', ''],
      ] as const)
        await s.vote(name, id);
      // Due two minutes from now (UTC), so it falls due after it was set.
      const due = new Date(clock.now().getTime() + 120_000);
      const at = `${String(due.getUTCHours()).padStart(2, '0')}:${String(due.getUTCMinutes()).padStart(2, '0')}`;
      const set = await app.request('PATCH', '/v1/organization', {
        key: s.org.key,
        body: { settings: { chat_webhook_url: `${admin.url}/chat-${s.org.slug}`, leaderboard_posts: { period: 'day', top: 3, at } } },
      });
      expect(set.status, set.text).toBe(200);
      expect(set.body.data.settings.leaderboard_posts).toEqual({ period: 'day', top: 3, at });
      const posts = () => admin.requests.filter((r) => r.path === `/chat-${s.org.slug}`);
      await app.scheduler.tick();
      expect(posts()).toHaveLength(0); // not due yet
      offsetMs += 5 * 60_000;
      await Promise.all([app.scheduler.tick(), other.scheduler.tick(), app.scheduler.tick()]);
      const [post] = await until(
        async () => posts(),
        (list) => list.length >= 1,
      );
      const embed = post.json.embeds[0];
      expect(embed.title).toBe('Top voters of the day');
      expect(embed.description).toBe(`1. <@${ann.id}> · 2 votes\n2. Steve · 1 vote\n3. <@${bob.id}> · 1 vote`);
      expect(post.json.allowed_mentions).toEqual({ parse: [] });
      await Promise.all([app.scheduler.tick(), other.scheduler.tick()]);
      expect(posts()).toHaveLength(1);
    } finally {
      if (other !== app) await other.stop();
    }
  });

  // About Discord's buckets, not the database: run once. 600 votes at the bot's global 50 a second is 12 windows of
  // it, each full, and three of the route's bucket.
  it.skipIf(dialect !== 'sqlite')('a burst of 600 votes is paced to the buckets Discord announces', { timeout: 180_000 }, async () => {
    discord.setLimit('memberRole', { limit: 200, windowMs: 500 });
    const s = await setup({ kind: 'discord_role', duration: '12h' });
    const users = Array.from({ length: 600 }, () => discord.addUser());
    for (const u of users) s.guild.addMember(u.id);
    const before429 = discord.sent429;
    const ids: string[] = [];
    for (let i = 0; i < users.length; i += 50) {
      ids.push(...(await Promise.all(users.slice(i, i + 50).map((u) => s.vote(u.username, u.id)))));
    }
    await until(
      async () => users.filter((u) => s.guild.members.get(u.id)?.has(s.role.id)).length,
      (n) => n === users.length,
      150_000,
    );
    // At most one 429 per bucket while the client learns it (src/discord/discord-api.ts).
    expect(discord.sent429 - before429).toBeLessThanOrEqual(2);
    const puts = discord.requests.filter((r) => r.route === 'memberRole' && r.method === 'PUT' && r.path.includes(s.guild.id) && r.status === 204);
    // Never more requests in a window than the bucket allows (counted from the fake's record, not from timings).
    const times = puts.map((r) => r.at).sort((x, y) => x - y);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 500) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(200);
  });
});
