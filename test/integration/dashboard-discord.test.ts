// Discord rewards and RCON answers in the dashboard, in Chromium, against a local Discord API
// (test/kit/discord-api-server.ts) and a local RCON server (test/kit/rcon-server.ts): Settings → Discord checks the
// bot with Discord when saved (a wrong token or a server the bot is not in is refused beside its field, and nothing
// is saved), never shows the token, keeps it unless one is typed, and "Remove bot" sends null; the leaderboard posts
// and the Bedrock name prefix are saved as typed; the Callbacks page lists the vote roles given (only while a
// discord_role callback exists), each in words, filtered and paged; a vote's page shows an RCON callback's answer to
// each command, a few lines until "Show all"; a read key finds the new controls disabled; at 390 px nothing scrolls
// sideways and the actions are in view. SQLite only (the browser is what is tested). DASHBOARD_SHOTS_DIR=<dir> saves
// screenshots of the Discord settings, the vote roles and the vote's answers at 1280 and 390 px.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible as accessible } from '../kit/dashboard.js';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startFakeDiscordApi, type FakeDiscordApi, type FakeGuild, type FakeRole } from '../kit/discord-api-server.js';
import { startRconServer, type RconServer } from '../kit/rcon-server.js';
import { until } from '../kit/wait.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
const SHOTS = process.env.DASHBOARD_SHOTS_DIR ?? null;
const RCON_PASSWORD = 'rcon-password-for-the-dashboard-test';
/** axe-core's own script, evaluated in the page by the driver (the page's Content-Security-Policy refuses inline scripts). */

/** Time under the test's control: role expiry reads it. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

describe.skipIf(databaseUnavailable || dialect !== 'sqlite' || (!haveChromium && process.env.CI !== 'true'))(
  'dashboard: Discord settings, vote roles and command answers in Chromium (SQLite: the database does not matter here)',
  () => {
    let app: TestApp;
    let org: TestOrg;
    let browser: Browser;
    let page: Page;
    let discord: FakeDiscordApi;
    let rcon: RconServer;
    let guild: FakeGuild;
    /** The GraphQL operations the page sent, by operation name: what a save really sends. */
    const sent: { operation: string; variables: Record<string, any> }[] = [];

    beforeAll(async () => {
      if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}`);
      if (!existsSync(DIST)) {
        const vite = await import('vite');
        await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
      }
      discord = await startFakeDiscordApi();
      guild = discord.addGuild({ name: 'Realm Discord' });
      rcon = await startRconServer({ password: RCON_PASSWORD, players: ['Steve', 'Alex'] });
      app = await startTestApp(
        {
          DISCORD_API_URL: discord.url,
          ROLE_EXPIRY_INTERVAL: '100ms',
          RETRY_SCHEDULE: '100ms,100ms',
          DELIVERY_POLL_MS: '50',
          RCON_ONLINE_POLL: '100ms',
          HOOK_RATE_LIMIT_PER_MINUTE: '100000',
          IP_RATE_LIMIT_PER_MINUTE: '100000',
        },
        { clock },
      );
      org = await app.createOrg({ plan: 'business', name: 'Discord Realm' });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(8_000);
      page.on('request', (request) => {
        if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return;
        const body = request.postDataJSON() as { query?: string; operationName?: string; variables?: Record<string, any> } | null;
        const operation = body?.operationName ?? /(?:query|mutation)\s+(\w+)/.exec(body?.query ?? '')?.[1] ?? '';
        sent.push({ operation, variables: body?.variables ?? {} });
      });
      await signIn(org.key);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      await discord?.close();
      await rcon?.stop();
    });

    async function signIn(key: string) {
      await page.goto(`${app.url}/`);
      await page.getByLabel('API key').fill(key);
      await page.getByLabel('API key').press('Enter');
      await page.getByText(/^(full access|read only)$/).waitFor({ timeout: 10_000 });
    }
    const goTo = async (link: string, heading: string) => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    };
    const settings = async () => (await app.request('GET', '/v1/organization', { key: org.key })).body.data.settings;
    const lastSent = (operation: string) => sent.filter((s) => s.operation === operation).at(-1)!;
    /** Whether `first` comes before `second` in the page (a field's error stands under that field, before the next). */
    const before = async (first: Locator, second: Locator) => {
      const other = await second.elementHandle();
      return first.evaluate((a, b) => !!(a.compareDocumentPosition(b as Node) & Node.DOCUMENT_POSITION_FOLLOWING), other);
    };

    /** A screenshot of a region (or the whole page) at a width, when DASHBOARD_SHOTS_DIR is set. */
    async function shot(name: string, width: number, part?: Locator) {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
      const path = join(SHOTS, `${name}-${width}.png`);
      await (part ? part.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    /** At `width`: no sideways scroll of the page, and each of `actions` lies inside the viewport once scrolled to. */
    async function expectFits(width: number, label: string, actions: Locator[]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} at ${width} px`).toBeLessThanOrEqual(width);
      for (const action of actions) {
        await action.scrollIntoViewIfNeeded();
        const box = (await action.boundingBox())!;
        expect(box.x, `${label}: ${await action.textContent()} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${label}: ${await action.textContent()} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }

    const expectAccessible = (label: string) => accessible(page, label);

    it('Settings → Discord: a wrong token or a server the bot is not in is refused beside its field; the right ones are checked and saved, never shown back', async () => {
      await goTo('Settings', 'Settings');
      const bot = page.getByRole('region', { name: 'Your bot', exact: true });
      const token = bot.getByLabel(/^Bot token/);
      const server = bot.getByLabel('Server id');
      await token.waitFor();
      expect(await bot.locator('label[for="discord-bot-token"]').textContent()).toMatch(/not set$/);
      await bot.getByText('Your own bot gives vote roles and sends DMs; invite it to your server with Manage Roles.').waitFor();
      // A bot the service has no token for yet has nothing to remove.
      expect(await bot.getByRole('button', { name: 'Remove bot' }).count()).toBe(0);

      await token.fill('not-the-token-but-long-enough-0123456789');
      await server.fill(guild.id);
      await bot.getByRole('button', { name: 'Save bot' }).click();
      const tokenError = bot.getByText('settings.discord_bot_token: the token was not accepted by Discord');
      await tokenError.waitFor({ timeout: 5_000 });
      // Under the token field, before the server id's; the field is marked, and what was typed stays.
      expect(await before(token, tokenError)).toBe(true);
      expect(await before(tokenError, server)).toBe(true);
      expect(await token.getAttribute('aria-invalid')).toBe('true');
      expect(await token.inputValue()).toBe('not-the-token-but-long-enough-0123456789');
      expect(await settings()).toMatchObject({ discord_bot_token_set: false, discord_guild_id: null });

      // The right token, but a server the bot was never invited to: refused on the server id.
      const stranger = discord.addGuild({ botIsMember: false });
      await token.fill(discord.token);
      await server.fill(stranger.id);
      await bot.getByRole('button', { name: 'Save bot' }).click();
      const serverError = bot.getByText(/^settings\.discord_guild_id: the bot is not in that server/);
      await serverError.waitFor({ timeout: 5_000 });
      expect(await before(server, serverError)).toBe(true);
      expect(await tokenError.count()).toBe(0);
      expect(await settings()).toMatchObject({ discord_bot_token_set: false, discord_guild_id: null });

      await server.fill(guild.id);
      await bot.getByRole('button', { name: 'Save bot' }).click();
      await bot.getByText('Saved: Discord accepted the bot, and it is in the server.').waitFor({ timeout: 5_000 });
      expect(lastSent('UpdateDiscordBot').variables.input.settings).toEqual({ discordBotToken: discord.token, discordGuildId: guild.id });
      expect(await settings()).toMatchObject({ discord_bot_token_set: true, discord_guild_id: guild.id });
      // Checked with Discord: the bot and the server were asked for.
      expect(discord.requests.some((r) => r.route === 'guild' && r.path === `/guilds/${guild.id}` && r.status === 200)).toBe(true);
      // The token is write-only: the field is empty again, says "set", and the page holds it nowhere.
      await bot.locator('label[for="discord-bot-token"]').getByText('set', { exact: true }).waitFor();
      expect(await token.inputValue()).toBe('');
      expect(await token.getAttribute('placeholder')).toBe('unchanged');
      expect(await page.content()).not.toContain(discord.token);

      // Another server, the token left empty: only the server id is sent (the service checks it with the token it has).
      const other = discord.addGuild({ name: 'Second server' });
      await server.fill(other.id);
      await bot.getByRole('button', { name: 'Save bot' }).click();
      await until(
        async () => (await settings()).discord_guild_id,
        (id) => id === other.id,
        5_000,
      );
      expect(lastSent('UpdateDiscordBot').variables.input.settings).toEqual({ discordGuildId: other.id });
      expect(await settings()).toMatchObject({ discord_bot_token_set: true });

      // Remove: null for the token, and for the server id that needs it; then set again for the vote roles below.
      page.once('dialog', (dialog) => void dialog.accept());
      await bot.getByRole('button', { name: 'Remove bot' }).click();
      await bot.getByText(/^Bot removed: /).waitFor({ timeout: 5_000 });
      expect(lastSent('UpdateDiscordBot').variables.input.settings).toEqual({ discordBotToken: null, discordGuildId: null });
      expect(await settings()).toMatchObject({ discord_bot_token_set: false, discord_guild_id: null });
      await bot.locator('label[for="discord-bot-token"]').getByText('not set', { exact: true }).waitFor();
      await token.fill(discord.token);
      await server.fill(guild.id);
      await bot.getByRole('button', { name: 'Save bot' }).click();
      await bot.getByText('Saved: Discord accepted the bot, and it is in the server.').waitFor({ timeout: 5_000 });
      expect(await settings()).toMatchObject({ discord_bot_token_set: true, discord_guild_id: guild.id });
    });

    it('Settings → Discord: leaderboard posts are described in words and saved as typed; a refused day stands beside the fields; off sends null', async () => {
      const posts = page.getByRole('region', { name: 'Leaderboard posts', exact: true });
      await posts.getByRole('checkbox', { name: 'Post a leaderboard' }).check();
      // No chat webhook yet: the page says nothing is posted until there is one.
      await posts.getByText(/^No chat webhook is set: nothing is posted/).waitFor();
      await posts.getByLabel('Period').selectOption('week');
      await posts.getByLabel('On', { exact: true }).selectOption('Fri');
      await posts.getByLabel('At', { exact: true }).fill('18:30');
      await posts.getByLabel(/^Voters named/).fill('5');
      // The time as the browser writes it (the time field shows it so too): "6:30 PM" in Chromium's English.
      const at1830 = await page.evaluate(() => new Date(2000, 0, 1, 18, 30).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }));
      await posts.getByText(`Every Friday at ${at1830}: the top 5 voters of the 7 days before.`).waitFor();
      await posts.getByText("Times are in the organization's time zone, UTC.").waitFor();
      await posts.getByRole('button', { name: 'Save leaderboard posts' }).click();
      await posts.getByText('Saved.').waitFor({ timeout: 5_000 });
      expect((await settings()).leaderboard_posts).toEqual({ period: 'week', top: 5, at: 'Fri 18:30' });

      // A day of the month past 28 is refused by the service, beside the fields; nothing changes.
      await posts.getByLabel('Period').selectOption('month');
      await posts.getByLabel(/^Day of the month/).fill('31');
      await posts.getByRole('button', { name: 'Save leaderboard posts' }).click();
      await posts.getByText(/^settings\.leaderboard_posts\.at: must be "HH:MM" for a day/).waitFor({ timeout: 5_000 });
      expect(await posts.getByLabel(/^Day of the month/).getAttribute('aria-invalid')).toBe('true');
      expect((await settings()).leaderboard_posts).toEqual({ period: 'week', top: 5, at: 'Fri 18:30' });
      await posts.getByLabel(/^Day of the month/).fill('1');
      await posts.getByText(`On the 1st of each month at ${at1830}: the top 5 voters of the month before.`).waitFor();
      await posts.getByRole('button', { name: 'Save leaderboard posts' }).click();
      await until(settings, (s) => s.leaderboard_posts?.period === 'month', 5_000);
      expect((await settings()).leaderboard_posts).toEqual({ period: 'month', top: 5, at: '1 18:30' });

      await posts.getByRole('checkbox', { name: 'Post a leaderboard' }).uncheck();
      await posts.getByRole('button', { name: 'Save leaderboard posts' }).click();
      await until(settings, (s) => s.leaderboard_posts === null, 5_000);
      expect(lastSent('UpdateLeaderboardPosts').variables.input.settings).toEqual({ leaderboardPosts: null });
      // Back on for the screenshots: every day at 20:00, the top 10.
      await posts.getByRole('checkbox', { name: 'Post a leaderboard' }).check();
      await posts.getByLabel('Period').selectOption('day');
      await posts.getByLabel('At', { exact: true }).fill('20:00');
      await posts.getByLabel(/^Voters named/).fill('10');
      await posts.getByRole('button', { name: 'Save leaderboard posts' }).click();
      await until(settings, (s) => s.leaderboard_posts?.period === 'day', 5_000);
      expect((await settings()).leaderboard_posts).toEqual({ period: 'day', top: 10, at: '20:00' });
    });

    it('Settings → Rewards: the Bedrock name prefix is saved, a refused one is shown beside its field, and empty sends null', async () => {
      const bedrock = page.getByRole('region', { name: 'Bedrock players', exact: true });
      const prefix = bedrock.getByLabel(/^Bedrock name prefix/);
      await prefix.waitFor();
      await bedrock.getByText(/^Floodgate puts it before Bedrock players' names/).waitFor();
      await prefix.fill('a b');
      await bedrock.getByRole('button', { name: 'Save prefix' }).click();
      await bedrock.getByText(/^settings\.bedrock_prefix: must be 1 to 3 printable characters/).waitFor({ timeout: 5_000 });
      expect(await settings()).toMatchObject({ bedrock_prefix: null });
      await prefix.fill('.');
      await bedrock.getByRole('button', { name: 'Save prefix' }).click();
      await bedrock.getByText('Saved.').waitFor({ timeout: 5_000 });
      expect(await settings()).toMatchObject({ bedrock_prefix: '.' });
      await prefix.fill('');
      await bedrock.getByRole('button', { name: 'Save prefix' }).click();
      await until(settings, (s) => s.bedrock_prefix === null, 5_000);
      expect(lastSent('UpdateBedrockPrefix').variables.input.settings).toEqual({ bedrockPrefix: null });
      await prefix.fill('.');
      await bedrock.getByRole('button', { name: 'Save prefix' }).click();
      await until(settings, (s) => s.bedrock_prefix === '.', 5_000);
    });

    it('Settings → Rewards: the vote page is turned on with its title, and its address is given to hand to players', async () => {
      const card = page.getByRole('region', { name: 'Vote page', exact: true });
      await card.getByLabel('Players have a vote page').check();
      await card.getByLabel('Page title').fill('Vote for the Realm');
      await card.getByRole('button', { name: 'Save vote page' }).click();
      await until(settings, (s) => s.vote_page?.enabled === true, 5_000);
      expect((await settings()).vote_page).toEqual({ enabled: true, title: 'Vote for the Realm', show_leaderboard: false });
      const link = card.getByRole('link', { name: /\/vote\// });
      await link.waitFor({ timeout: 5_000 });
      const href = await link.getAttribute('href');
      const served = await fetch(href!);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('<title>Vote for the Realm</title>');
    });

    it('Settings → Discord at 1280 and 390 px: nothing scrolls sideways, and the section’s actions are in view; the page passes axe', async () => {
      const section = page.getByRole('region', { name: 'Discord', exact: true });
      await expectAccessible('Settings with Discord');
      for (const width of [1280, 390]) {
        await expectFits(width, 'Settings → Discord', [
          section.getByRole('button', { name: 'Save bot' }),
          section.getByRole('button', { name: 'Remove bot' }),
          section.getByRole('button', { name: 'Save leaderboard posts' }),
          page.getByRole('button', { name: 'Save prefix' }),
          page.getByRole('button', { name: 'Save vote page' }),
        ]);
        await shot('settings-discord', width, section);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    /** The Discord site (the voter's Discord id at `id`), a Minecraft list for RCON, and what each one's vote posts. */
    let roles: { daily: FakeRole; voter: FakeRole };
    let voteOn: (provider: 'dbl' | 'mc', body: Record<string, unknown>) => Promise<string>;

    it('Callbacks → Vote roles: shown once a discord_role callback exists; a grant is listed in words (held, taken away, not in the server), filtered and paged', async () => {
      await goTo('Callbacks', 'Callbacks');
      await page.getByRole('button', { name: 'Create callback' }).waitFor();
      // No discord_role callback: no panel.
      expect(await page.getByRole('region', { name: 'Vote roles' }).count()).toBe(0);

      const made = async (body: Record<string, unknown>) => {
        const res = await app.request('POST', '/v1/providers', { key: org.key, body });
        expect(res.status, res.text).toBe(201);
        return new URL(res.body.data.webhook_url).pathname;
      };
      const hooks = {
        dbl: await made({ key: 'dbl', name: 'Bot list', auth_method: 'url_path', auth_field: 's', votee_path: 'username', discord_id_path: 'id' }),
        mc: await made({ key: 'mc', name: 'MC List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' }),
      };
      voteOn = async (provider, body) => {
        const res = await app.request('POST', hooks[provider], { body: { ...body, nonce: Math.random() } });
        expect(res.status, res.text).toBe(200);
        return res.body.data.vote_id as string;
      };
      roles = { voter: guild.addRole({ name: 'Voter' }), daily: guild.addRole({ name: 'Daily voter' }) };
      const callback = async (name: string, role: FakeRole, duration: string) => {
        const res = await app.request('POST', '/v1/callbacks', {
          key: org.key,
          body: { name, kind: 'discord_role', role_id: role.id, duration, providers: ['dbl'] },
        });
        expect(res.status, res.text).toBe(201);
      };
      await callback('Voter role', roles.voter, '12h');
      await callback('Daily role', roles.daily, '1m');

      await goTo('Overview', 'Discord Realm');
      await goTo('Callbacks', 'Callbacks');
      const panel = page.getByRole('region', { name: 'Vote roles', exact: true });
      // Nothing given yet: the panel says how a voter gets one.
      await panel.getByText(/^No vote role given yet\. A voter gets the role when they vote on a site that sends their Discord id/).waitFor();

      const user = discord.addUser({ username: 'cooluser' });
      guild.addMember(user.id);
      const ghost = discord.addUser({ username: 'ghost' });
      await voteOn('dbl', { id: user.id, username: 'cooluser' });
      await voteOn('dbl', { id: ghost.id, username: 'ghost' });
      const grants = () => app.request('GET', '/v1/discord/role-grants', { key: org.key }).then((r) => r.body.data.grants as any[]);
      await until(grants, (g) => g.length === 4, 10_000);
      // Past the daily role's minute: it is taken away, the 12-hour one is still held.
      offsetMs += 2 * 60_000;
      await until(grants, (g) => g.some((x) => x.role_id === roles.daily.id && x.discord_id === user.id && x.status === 'removed'), 10_000);
      expect(guild.members.get(user.id)?.has(roles.voter.id)).toBe(true);
      expect(guild.members.get(user.id)?.has(roles.daily.id)).toBe(false);

      await goTo('Overview', 'Discord Realm');
      await goTo('Callbacks', 'Callbacks');
      const table = panel.getByTestId('role-grants');
      await table.waitFor();
      const row = (discordId: string, roleId: string) =>
        table
          .locator('tbody tr')
          .filter({ has: page.locator('td.discord-id', { hasText: discordId }) })
          .filter({ has: page.locator('td.role', { hasText: roleId }) });
      const held = row(user.id, roles.voter.id);
      expect(await held.locator('td.voter').textContent()).toBe('cooluser');
      expect(await held.locator('td.role').textContent()).toBe(`${roles.voter.id} from Voter role`);
      // Held until 12 hours after the vote: a time today or tomorrow, in words, with the UTC instant on hover.
      expect(await held.locator('td.state').textContent()).toMatch(/^holds it until \d{1,2}:\d{2}(\s?[AP]M)? (today|tomorrow)$/);
      const expires = (await grants()).find((g) => g.discord_id === user.id && g.role_id === roles.voter.id).expires_at as string;
      expect(await held.locator('td.state time').getAttribute('datetime')).toBe(new Date(expires).toISOString());
      expect(await held.locator('td.last-error').textContent()).toBe('none');
      expect(await row(user.id, roles.daily.id).locator('td.state').textContent()).toMatch(/^taken away \(expired .+\)$/);
      for (const roleId of [roles.voter.id, roles.daily.id]) {
        expect(await row(ghost.id, roleId).locator('td.state').textContent()).toBe('not in the server');
      }
      // Held ones first.
      expect(await table.locator('tbody tr').first().locator('td.state').textContent()).toMatch(/^holds it until/);

      // Filtered by state.
      await panel.getByLabel('Show').selectOption('not_member');
      await until(
        async () => table.locator('tbody tr').count(),
        (n) => n === 2,
        5_000,
      );
      expect(await table.locator('td.voter').allTextContents()).toEqual(['ghost', 'ghost']);
      await panel.getByLabel('Show').selectOption('');
      await row(user.id, roles.voter.id).waitFor();

      // Paged, 20 a page: 11 more voters not in the server make 26 grants.
      for (let i = 0; i < 11; i++) await voteOn('dbl', { id: discord.addUser().id, username: `stranger${i}` });
      await until(grants, (g) => g.length === 26, 15_000);
      await goTo('Overview', 'Discord Realm');
      await goTo('Callbacks', 'Callbacks');
      await panel.getByText('Page 1 of 2 (26 vote roles)').waitFor();
      expect(await table.locator('tbody tr').count()).toBe(20);
      await panel.getByRole('button', { name: 'Next' }).click();
      await panel.getByText('Page 2 of 2 (26 vote roles)').waitFor();
      expect(await table.locator('tbody tr').count()).toBe(6);
      await panel.getByRole('button', { name: 'Previous' }).click();
      await panel.getByText('Page 1 of 2 (26 vote roles)').waitFor();
    });

    it('Callbacks → Vote roles at 1280 and 390 px: nothing scrolls sideways, not even the list in its box; the filter and pager are in view; the page passes axe', async () => {
      const panel = page.getByRole('region', { name: 'Vote roles', exact: true });
      await expectAccessible('Callbacks with vote roles');
      for (const width of [1280, 390]) {
        await expectFits(width, 'Vote roles', [
          panel.getByLabel('Show'),
          panel.getByRole('button', { name: 'Next' }),
          page.getByRole('button', { name: 'Edit' }).first(),
        ]);
        const list = await panel.getByTestId('role-grants').evaluate((table) => ({ table: table.scrollWidth, box: table.parentElement!.clientWidth }));
        expect(list.table, `the vote roles at ${width} px`).toBeLessThanOrEqual(list.box);
        // A Discord id is read whole, on a phone too.
        const ids = await panel.locator('td.discord-id code').evaluateAll((codes) => codes.map((c) => c.getClientRects().length));
        expect(
          ids.every((n) => n === 1),
          `Discord ids on one line at ${width} px`,
        ).toBe(true);
        await shot('vote-roles', width, panel);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it("a vote's page shows an RCON callback's answer to each command, 4 lines until Show all, in a monospace box that wraps at 390 px", async () => {
      const long = `[LP] Set permission vote.reward.${'tier-three.'.repeat(8)}bonus to true for steve for a duration of 1 day in context global.`;
      rcon.answer('xp add', 'Gave 100 experience points to Steve');
      rcon.answer('effect give', 'Applied effect Speed to Steve');
      rcon.answer('lp user', long);
      rcon.answer('tell', 'You whisper to Steve: thanks for voting!');
      const res = await app.request('POST', '/v1/callbacks', {
        key: org.key,
        body: {
          name: 'Survival',
          kind: 'rcon',
          host: rcon.host,
          port: rcon.port,
          password: RCON_PASSWORD,
          providers: ['mc'],
          commands: [
            'give {{voter_name}} diamond 1',
            'xp add {{voter_name}} 100',
            'effect give {{voter_name}} minecraft:speed 60',
            'lp user {{voter_name}} permission settemp vote.reward true 1d',
            'tell {{voter_name}} thanks for voting!',
            'say {{voter_name}} voted on {{provider_name}}!',
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      const id = await voteOn('mc', { user: 'Steve' });
      const log = await until(
        () => app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key }).then((r) => r.body.data),
        (d) => d.attempts.some((a: { success: boolean }) => a.success),
      );
      const excerpt = log.attempts.find((a: { success: boolean }) => a.success).response_excerpt as string;
      expect(excerpt.split('\n')).toHaveLength(6);
      expect(excerpt).toMatch(/^1> Gave 1 \[Diamond\] to Steve\n2> Gave 100 experience points to Steve\n/);

      await page.goto(`${app.url}/votes/${id}`);
      await page.getByRole('heading', { name: 'Vote by Steve' }).waitFor({ timeout: 5_000 });
      const attempts = page.getByTestId('delivery-attempts');
      const answers = attempts.getByRole('figure', { name: 'Command answers (6 commands)' });
      const box = answers.getByTestId('response-excerpt');
      await box.waitFor();
      // As received, one answer a line, in a monospace box that keeps line breaks.
      expect(await box.textContent()).toBe(excerpt);
      const style = await box.evaluate((pre) => {
        const s = getComputedStyle(pre);
        return { font: s.fontFamily, whiteSpace: s.whiteSpace };
      });
      expect(style.font).toMatch(/monospace/);
      expect(style.whiteSpace).toBe('pre-wrap');
      // Four lines shown, the rest behind "Show all".
      const lineHeight = await box.evaluate((pre) => parseFloat(getComputedStyle(pre).fontSize) * 1.4);
      const shown = async () => box.evaluate((pre) => ({ client: pre.clientHeight, scroll: pre.scrollHeight }));
      const closed = await shown();
      expect(closed.scroll).toBeGreaterThan(closed.client);
      // Exactly four lines high: nothing of a fifth line peeks out under them.
      expect(Math.abs(closed.client - lineHeight * 4), `${closed.client} px for 4 lines of ${lineHeight} px`).toBeLessThan(2);
      const toggle = answers.getByRole('button', { name: 'Show all 6 lines' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await expectAccessible('Vote page with command answers');
      await shot('vote-answers', 1280);
      await toggle.click();
      const opened = await shown();
      expect(opened.scroll).toBeLessThanOrEqual(opened.client + 1);
      expect(await answers.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');

      // At a phone's width: the attempt is a card, the long answer wraps inside the page, the actions are in view.
      await expectFits(390, 'Vote page', [box, answers.getByRole('button', { name: 'Show less' }), page.getByRole('button', { name: 'Redeliver failed' })]);
      const inside = await box.evaluate((pre) => pre.scrollWidth <= pre.clientWidth + 1);
      expect(inside, 'no answer line scrolls sideways at 390 px').toBe(true);
      await shot('vote-answers-open', 390);
      await answers.getByRole('button', { name: 'Show less' }).click();
      await answers.getByRole('button', { name: 'Show all 6 lines' }).waitFor();
      await expectFits(390, 'Vote page, answers closed', [answers.getByRole('button', { name: 'Show all 6 lines' })]);
      await shot('vote-answers', 390);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('a read key sees the Discord settings, the prefix and the vote roles with every write control disabled, saying why', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(org.readKey);
      await goTo('Settings', 'Settings');
      const bot = page.getByRole('region', { name: 'Your bot', exact: true });
      await bot.locator('label[for="discord-bot-token"]').getByText('set', { exact: true }).waitFor();
      expect(await bot.getByLabel('Server id').inputValue()).toBe(guild.id);
      for (const name of ['Save bot', 'Remove bot', 'Save leaderboard posts', 'Save prefix']) {
        const button = page.getByRole('button', { name, exact: true });
        expect(await button.isDisabled(), name).toBe(true);
        expect(await button.getAttribute('title'), name).toMatch(/read scope/);
      }
      await goTo('Callbacks', 'Callbacks');
      await page.getByRole('region', { name: 'Vote roles', exact: true }).getByTestId('role-grants').waitFor();
    });
  },
);
