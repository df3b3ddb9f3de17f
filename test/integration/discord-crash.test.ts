// Discord vote roles across a kill -9 between the grant and the expiry, with two service processes on one PostgreSQL
// database: each role is given once and taken away once (test/kit/discord-api-server.ts records every request).
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, TEST_SECRET_KEY, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { killAll, startTrackedServer, waitUntil } from '../kit/crash.js';
import { processApi as api, runCli } from '../kit/processes.js';
import { startFakeDiscordApi, type FakeDiscordApi } from '../kit/discord-api-server.js';

const USERS = 10;

// Two instances share the database only on PostgreSQL (embedded SQLite has one writer).
describe.skipIf(databaseUnavailable || dialect !== 'postgresql')('Discord vote roles across a kill -9, two instances', () => {
  const databaseUrl = testDatabaseUrl();
  const children: ChildProcess[] = [];
  let discord: FakeDiscordApi;
  afterAll(async () => {
    await killAll(children);
    await discord?.close();
  });

  it('each role is given once and taken away once, though one instance was killed between', { timeout: 150_000 }, async () => {
    discord = await startFakeDiscordApi();
    const env = {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: TEST_SECRET_KEY,
      DISCORD_API_URL: discord.url,
      ROLE_EXPIRY_INTERVAL: '200ms',
      DELIVERY_POLL_MS: '100',
      DELIVERY_LEASE_MS: '3000',
    };
    const start = () => startTrackedServer(env, children);
    const [a, b] = await Promise.all([start(), start()]);
    const created = await runCli(['org', 'create', '--slug', uniqueSlug('roles'), '--name', 'Roles', '--plan', 'business', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const key: string = created.json.api_key.key;
    const guild = discord.addGuild();
    const role = guild.addRole({ name: 'Voter' });
    expect((await api(a, 'PATCH', '/v1/organization', key, { settings: { discord_bot_token: discord.token, discord_guild_id: guild.id } })).status).toBe(200);
    expect((await api(a, 'POST', '/v1/callbacks', key, { name: 'Role', kind: 'discord_role', role_id: role.id, duration: '1m' })).status).toBe(201);
    const provider = await api(a, 'POST', '/v1/providers', key, {
      key: 'dbl',
      name: 'Bot list',
      auth_method: 'url_path',
      auth_field: 's',
      votee_path: 'username',
      discord_id_path: 'id',
    });
    const hook = new URL(provider.body.data.webhook_url).pathname;
    const users = Array.from({ length: USERS }, () => discord.addUser());
    for (const u of users) guild.addMember(u.id);
    // Votes spread over both instances.
    for (const [i, u] of users.entries()) {
      const res = await fetch(`${(i % 2 ? a : b).url}${hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: u.id, username: u.username }),
      });
      expect(res.status).toBe(200);
    }
    const holds = () => users.filter((u) => guild.members.get(u.id)?.has(role.id)).length;
    await waitUntil(
      () => holds() === USERS,
      30_000,
      () => `${holds()} of ${USERS} hold the role`,
    );
    // Each grant's attempt recorded too: a kill before that record leaves the job to be sent again (at least once:
    // an idempotent PUT), which is not what this test is about.
    const sentVotes = async () => {
      const votes = await api(b, 'GET', '/v1/votes?limit=100&callback_status=sent', key);
      return votes.body.meta.total as number;
    };
    let sent = 0;
    await waitUntil(
      async () => (sent = await sentVotes()) === USERS,
      30_000,
      () => `${sent} of ${USERS} votes recorded sent`,
    );
    // Between the grant and the expiry, one instance dies without a word.
    a.child.kill('SIGKILL');
    await a.exited;
    // The role's minute runs out; the living instance takes every role away, and the killed one comes back meanwhile.
    const again = await start();
    await waitUntil(
      () => holds() === 0,
      90_000,
      () => `${holds()} of ${USERS} still hold the role`,
    );
    const grants = await api(again, 'GET', '/v1/discord/role-grants?limit=100', key);
    expect(grants.body.data.grants.map((g: { status: string }) => g.status)).toEqual(Array(USERS).fill('removed'));
    for (const u of users) {
      const requests = discord.requests.filter((r) => r.route === 'memberRole' && r.path.includes(u.id));
      expect(requests.filter((r) => r.method === 'PUT').length, u.id).toBe(1);
      expect(requests.filter((r) => r.method === 'DELETE').length, u.id).toBe(1);
    }
  });
});
