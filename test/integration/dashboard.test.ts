// The dashboard in a real browser (Debian's Chromium driven by playwright-core) against the real app: sign in,
// a provider from the top.gg template, a signed vote that appears live on the overview, the votes table and its
// CSV export, a field error where it belongs, callbacks routed to chosen providers at a chosen rate, resending a
// window of votes, a delivery log with its origins and pacing waits, a top.gg API token that is never shown back,
// a read key's disabled write controls, rewards (milestone rules, a vote party that moves live on the overview, chat
// messages for events, reminders and a voter's opt-out, a callback's events), and not one request to a host other
// than the service. Without Chromium (outside CI) the suite says it was skipped; in CI it must run.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { signatureHeaders } from '../kit/signing.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { startTcpProxy } from '../kit/tcp-proxy.js';
import { freePort, v2Frame, votifierSession } from '../kit/votifier-sender.js';
import { until } from '../kit/wait.js';
import { expectLayout } from '../kit/dashboard.js';
import { findTemplate } from '../../src/modules/providers/templates/catalogue.js';
import { createRequire } from 'node:module';

/** axe-core's own script, put into the page inline (no request leaves the machine). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
/** Where screenshots go: docs/dashboard when DASHBOARD_SCREENSHOTS=1 (how the README's pictures are made). */
const SHOTS = process.env.DASHBOARD_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'dashboard') : null;

if (!haveChromium && process.env.CI !== 'true') {
  console.warn(`dashboard browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

// SQLite only, like the other browser suites: the dashboard is a GraphQL client, and every query and write it makes
// runs on both databases in the API's own tests.
describe.skipIf(databaseUnavailable || dialect !== 'sqlite' || (!haveChromium && process.env.CI !== 'true'))(
  'dashboard in Chromium (SQLite: the database does not matter here)',
  () => {
    let app: TestApp;
    let org: TestOrg;
    let browser: Browser;
    let page: Page;
    let chat: Receiver;
    let game: Receiver;
    /** Stands in for top.gg's API: a recovery read (once an API token is set) stays on this machine. */
    let topggApi: Receiver;
    /** Before this organization's first vote: a replay "since" this takes all of them. */
    let suiteStart: number;
    const foreign: string[] = [];
    const secret = 'whs_dashboard_test_secret_0123456789';
    let votifierPort: number;

    beforeAll(async () => {
      if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
      if (!existsSync(DIST)) {
        const vite = await import('vite');
        await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
      }
      votifierPort = await freePort();
      suiteStart = Date.now();
      topggApi = await startReceiver({ status: 200, body: [] });
      app = await startTestApp({
        RETRY_SCHEDULE: '200ms',
        DELIVERY_POLL_MS: '100',
        VOTIFIER_PORT: String(votifierPort),
        VOTIFIER_HOST: 'votes.mythlane.example',
        TOPGG_API_URL: topggApi.url,
      });
      chat = await startReceiver({ status: 204 });
      game = await startReceiver({ status: 200, body: { ok: true } });
      org = await app.createOrg({ plan: 'growth', name: 'Mythlane Network' });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      page = await context.newPage();
      page.setDefaultTimeout(8_000);
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(app.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
      });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      await chat?.close();
      await game?.close();
      await topggApi?.close();
    });

    async function signedVote(name: string) {
      const template = findTemplate('topgg')!;
      const payload = structuredClone(template.payloadExample) as { data: { id: string; user: { name: string } } };
      payload.data.user.name = name;
      payload.data.id = `${name}-${Date.now()}`;
      const body = JSON.stringify(payload);
      return app.request('POST', `/hooks/${org.slug}/topgg`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', ...signatureHeaders('topgg', secret, body, { header: 'x-topgg-signature' }) },
      });
    }

    const shot = async (name: string) => {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    };

    /** A screenshot at a width (a phone's 375 px, or 1280): of one part of the page, or of the whole page. */
    const shotAt = async (name: string, width: number, part?: Locator) => {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: width < 600 ? 800 : 900 });
      await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
      const path = join(SHOTS, `${name}.png`);
      await (part ? part.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
      await page.setViewportSize({ width: 1280, height: 900 });
    };

    /** Every page passes axe (WCAG A/AA) in light and dark, and fits a phone (wide tables scroll in their own box). */
    async function expectAccessible(label: string) {
      await page.waitForLoadState('networkidle');
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        // Evaluated by the driver, not as an inline <script>: the dashboard's Content-Security-Policy refuses those.
        await page.evaluate(AXE);
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
            }
          ).axe;
          const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
          return result.violations.map(
            (v) =>
              `${v.id} (${v.impact}): ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
          );
        });
        expect(violations, `${label} in ${scheme} mode`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 375, height: 800 });
      // (chart.js redraws for the new width on its next animation frame)
      await page.waitForFunction(() => document.documentElement.scrollWidth <= 375, undefined, { timeout: 2_000 }).catch(() => undefined);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} at 375 px`).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    /** A time as a datetime-local input takes it, in the browser's own zone (what a person would type). */
    const localInput = (ms: number) =>
      page.evaluate((at) => {
        const d = new Date(at);
        const two = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
      }, ms);

    const callbackNamed = async (name: string) =>
      (await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key })).body.data.callbacks.find((c: { name: string }) => c.name === name);

    async function signIn(key: string) {
      await page.goto(`${app.url}/`);
      await page.getByLabel('API key').fill(key);
      await page.getByLabel('API key').press('Enter');
    }

    it('serves the dashboard and API answers compressed, and event streams never', async () => {
      const encoding = { 'accept-encoding': 'gzip' };
      const html = await fetch(`${app.url}/`, { headers: { ...encoding, accept: 'text/html' } });
      const script = /<script[^>]+src="([^"]+\.js)"/.exec(await html.text())?.[1];
      expect(script).toBeTruthy();
      const js = await fetch(`${app.url}${script}`, { headers: encoding });
      expect(js.status).toBe(200);
      expect(js.headers.get('content-encoding')).toBe('gzip');
      expect(js.headers.get('cache-control')).toContain('immutable');
      const schema = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { ...encoding, authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ templates { slug name description setupInstructions } }' }),
      });
      expect(schema.headers.get('content-encoding')).toBe('gzip');
      expect((await schema.json()).data.templates.length).toBeGreaterThan(1);
      const stream = new AbortController();
      const sse = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        signal: stream.signal,
        headers: { ...encoding, authorization: `Bearer ${org.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: 'subscription { voteReceived { publicId } }' }),
      });
      expect(sse.headers.get('content-type')).toContain('text/event-stream');
      expect(['none', null]).toContain(sse.headers.get('content-encoding'));
      stream.abort();
    });

    it('signs in with a key (Enter) and lands on the overview', async () => {
      await signIn(org.key);
      await page.getByRole('heading', { level: 1, name: 'Mythlane Network' }).waitFor({ timeout: 10_000 });
      await page.getByText('full access').waitFor({ timeout: 5_000 });
    });

    it('creates a provider from the top.gg template (Add provider: the site, then its secret) and shows its webhook URL', async () => {
      await page.getByRole('link', { name: 'Providers', exact: true }).click();
      await page.getByRole('link', { name: 'Add provider' }).click();
      await page.getByRole('button', { name: /^Top\.gg top\.gg Discord bot and server list, current/ }).click();
      // Bad input: the error stands beside its field and what was typed stays.
      await page.getByLabel('Key', { exact: true }).fill('Not A Key');
      await page.getByLabel('Top.gg secret').fill(secret);
      await page.getByRole('button', { name: 'Create provider' }).click();
      await page.getByText(/^key: /).waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('Not A Key');
      await page.getByLabel('Key', { exact: true }).fill('topgg');
      await page.getByRole('button', { name: 'Create provider' }).click();
      await page.getByRole('heading', { name: 'Top.gg is ready' }).waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Webhook URL', { exact: true }).inputValue()).toContain(`/hooks/${org.slug}/topgg`);
      await shot('providers');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('cell', { name: 'top.gg' }).first().waitFor();
    });

    it('creates a custom hmac provider; a bad voter path shows its error beside the field', async () => {
      await page.getByRole('link', { name: 'Add provider' }).click();
      await page.getByRole('button', { name: /^Custom webhook/ }).click();
      await page.getByLabel('Key', { exact: true }).fill('mylist');
      await page.getByLabel('Name', { exact: true }).fill('My List');
      await page.getByLabel('How the site proves a delivery is its own').selectOption('hmac');
      await page.getByLabel(/^Timestamp header/).fill('X-My-Timestamp');
      await page.getByLabel('Voter name path').fill('user..name');
      await page.getByRole('button', { name: 'Create provider' }).click();
      await page.getByText(/^votee_path: /).waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Voter name path').inputValue()).toBe('user..name');
      await page.getByLabel('Voter name path').fill('user.name');
      await page.getByRole('button', { name: 'Create provider' }).click();
      await page.getByText('My List is ready').waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Secret', { exact: true }).inputValue()).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      await page.getByRole('button', { name: 'Done' }).click();
      const made = await app.request('GET', '/v1/providers/mylist', { key: org.key });
      expect(made.body.data).toMatchObject({
        auth_method: 'hmac',
        signature_format: 'plain',
        auth_timestamp_field: 'X-My-Timestamp',
        payload_source: 'json',
        votee_path: 'user.name',
      });
    });

    it('edits a provider: a bad voter path shows its error beside the field, a new key says the webhook URL moved', async () => {
      const row = page.getByRole('row', { name: /My List/ });
      await row.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit My List' }).waitFor();
      await page.locator('#edit-provider-votee').fill('a..b');
      await page.getByRole('button', { name: 'Save provider' }).click();
      await page.getByText(/^votee_path: /).waitFor({ timeout: 5_000 });
      expect(await page.locator('#edit-provider-votee').inputValue()).toBe('a..b');
      await page.locator('#edit-provider-votee').fill('voter.name');
      await page.locator('#edit-provider-key').fill('my-list');
      await page.getByText('A new key moves this provider').waitFor();
      await page.locator('#edit-provider-ts').fill('');
      await page.getByRole('button', { name: 'Save provider' }).click();
      await page.getByText(new RegExp(`My List saved\\. Its webhook URL is now .*/hooks/${org.slug}/my-list`)).waitFor({ timeout: 5_000 });
      expect((await app.request('GET', '/v1/providers/mylist', { key: org.key })).status).toBe(404);
      const edited = await app.request('GET', '/v1/providers/my-list', { key: org.key });
      expect(edited.body.data).toMatchObject({ votee_path: 'voter.name', auth_timestamp_field: null, signature_format: 'plain', auth_method: 'hmac' });
    });

    it('sends a test vote and shows the answer, marked as a test (the same one again is a duplicate)', async () => {
      await page
        .getByRole('row', { name: /top\.gg/i })
        .getByRole('button', { name: 'Test vote' })
        .click();
      const panel = page.getByRole('region', { name: 'Test vote: Top.gg' });
      await panel.getByRole('button', { name: 'Send test vote' }).click();
      await panel.getByText(/Recorded as test vote vt_/).waitFor({ timeout: 5_000 });
      await panel.getByRole('button', { name: 'Send test vote' }).click();
      await panel.getByText(/A duplicate of test vote vt_/).waitFor({ timeout: 5_000 });
    });

    it('a signed vote posted to the hook appears on the overview within 2 s, without a reload', async () => {
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: /Latest votes/ }).waitFor();
      await page.waitForTimeout(500); // the live subscription is open
      const template = findTemplate('topgg')!;
      const payload = structuredClone(template.payloadExample) as { data: { user: { name: string } } };
      payload.data.user.name = 'LiveVoter';
      const body = JSON.stringify(payload);
      const navigations: string[] = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
      const res = await app.request('POST', `/hooks/${org.slug}/topgg`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', ...signatureHeaders('topgg', secret, body, { header: 'x-topgg-signature' }) },
      });
      expect(res.status, res.text).toBe(200);
      await page.getByTestId('latest-votes').getByText('LiveVoter').waitFor({ timeout: 10_000 }); // pushed live (no reload); how fast: bench/live.ts
      expect(navigations).toEqual([]);
      expect(await page.getByTestId('counter-today').textContent()).toBe('1'); // this one: the test vote counts in no statistics
      await shot('overview');
    });

    it('lists the vote and downloads the CSV export', async () => {
      await page.getByRole('link', { name: 'Votes' }).click();
      await page.getByTestId('votes-table').getByText('LiveVoter').waitFor({ timeout: 5_000 });
      await shot('votes');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv.split('\n')[0]).toBe('voter_name,provider,received_at,chat_status,callback_status');
      expect(csv).toContain('LiveVoter,topgg,');
    });

    it('statistics show the trend and shares, and the pro-only parts as an upgrade badge (never an error page)', async () => {
      await page.getByRole('link', { name: 'Statistics' }).click();
      await page.getByRole('heading', { name: 'Votes per day' }).waitFor({ timeout: 5_000 });
      // LiveVoter's vote; the test vote counts in no statistics.
      await page.getByRole('heading', { name: /By provider \(1 votes?\)/ }).waitFor({ timeout: 5_000 });
      await page.getByLabel('Granularity').selectOption('week');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('heading', { name: 'Votes per week' }).waitFor({ timeout: 5_000 });
      expect(await page.getByText('Upgrade to pro').isVisible()).toBe(true);
      // From clicks to votes: no vote page click yet, and the card says how to get some.
      await page.getByRole('heading', { name: 'From clicks to votes' }).waitFor({ timeout: 5_000 });
      expect(await page.getByText(/No click on your vote page's buttons in this range/).isVisible()).toBe(true);
      await shot('statistics');
    });

    it('game servers: a plugin token is shown once and listed', async () => {
      await page.getByRole('link', { name: 'Game servers' }).click();
      await page.getByLabel('New token for').fill('Lobby');
      await page.getByRole('button', { name: 'Create token' }).click();
      expect(await page.getByLabel('Plugin token').inputValue()).toMatch(/^vr_plugin_/);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('cell', { name: 'Lobby' }).waitFor();
      expect(await page.getByRole('cell', { name: 'never' }).count()).toBe(1);
      await shot('game-servers');
    });

    it('game servers: a vote the plugin parked for an offline player is counted and listed with the player', async () => {
      const made = await app.request('POST', '/v1/plugin-tokens', { key: org.key, body: { name: 'Skyblock' } });
      const sent = await signedVote('AwayPlayer');
      expect(sent.status, sent.text).toBe(200);
      const parked = await app.request('POST', `/v1/plugin/votes/${sent.body.data.vote_id}/fail`, {
        key: made.body.data.token,
        body: { reason: 'player_offline' },
      });
      expect(parked.body.data.status).toBe('parked');
      await page.reload();
      const row = page.getByRole('row', { name: /Skyblock/ });
      await row.getByRole('button', { name: '1 vote' }).click();
      const section = page.getByRole('region', { name: 'Votes parked by Skyblock' });
      await section.getByRole('cell', { name: 'AwayPlayer' }).waitFor();
      expect(await page.getByText(/1 vote parked for players who were offline/).count()).toBe(1);
      await shot('game-servers-parked');
    });

    it('chat settings: the webhook is saved and a test message reaches a local chat server', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByLabel(/Chat webhook URL/).fill(`${chat.url}/api/webhooks/1/token`);
      await page.getByLabel(/^Message \(/).fill('{{voter_name}} voted on {{provider_name}}!');
      await page.getByRole('button', { name: 'Save' }).nth(1).click();
      await page.getByText('Saved.').waitFor({ timeout: 5_000 });
      const before = chat.requests.length;
      await page.getByRole('button', { name: 'Send test message' }).click();
      const [sent] = (await chat.waitFor(before + 1, 5_000)).slice(before);
      expect(sent.json.content).toMatch(/^\[TEST\] .+ voted on .+!$/);
      // An embed (growth plan), previewed in the page, then sent as a test.
      await page.getByLabel('Message type').selectOption('embed');
      const preview = page.getByLabel('Embed preview');
      await preview.waitFor();
      // Field by field: the preview follows each change with sample values.
      await page.getByLabel('Title', { exact: true }).fill('Thanks {{voter_name}}!');
      await page.getByRole('button', { name: 'Add field' }).click();
      await page.getByLabel('Field 1 name').fill('Server');
      await page.getByLabel('Field 1 value').fill('play.example.com');
      await preview.getByText('Thanks Steve!').waitFor();
      await preview.getByText('play.example.com').waitFor();
      // The JSON view shows the same embed; bad JSON there is refused before anything is sent.
      await page.getByRole('button', { name: 'JSON', exact: true }).click();
      expect(JSON.parse(await page.getByLabel('Embed JSON').inputValue())).toMatchObject({
        title: 'Thanks {{voter_name}}!',
        fields: [{ name: 'Server', value: 'play.example.com' }],
      });
      await page.getByRole('button', { name: 'Fields', exact: true }).click();
      await page.getByRole('button', { name: 'Send test message' }).click();
      const [embed] = (await chat.waitFor(before + 2, 5_000)).slice(before + 1);
      expect(embed.json.embeds[0]).toMatchObject({
        title: expect.stringMatching(/^Thanks .+!$/),
        fields: [{ name: 'Server', value: 'play.example.com' }],
        footer: { text: expect.stringMatching(/^Test message/) },
      });
      await page.getByRole('button', { name: 'Save' }).nth(1).click();
      await page.getByText('Saved.').first().waitFor({ timeout: 5_000 });
      // Admin alerts.
      await page.getByLabel('Admin chat webhook URL').fill(`${chat.url}/api/webhooks/2/admin`);
      await page.getByRole('checkbox', { name: /Daily summary/ }).check();
      await page.getByRole('button', { name: 'Save alerts' }).click();
      await page.getByRole('region', { name: 'Admin alerts' }).getByText('Saved.').waitFor({ timeout: 5_000 });
      const settings = (await app.request('GET', '/v1/organization', { key: org.key })).body.data.settings;
      expect(settings).toMatchObject({ chat_message_type: 'embed', admin_daily_summary: true, chat_admin_webhook_url: `${chat.url}/api/webhooks/2/admin` });
      expect(settings.chat_embed_template).toMatchObject({
        title: 'Thanks {{voter_name}}!',
        fields: [{ name: 'Server', value: 'play.example.com', inline: false }],
      });
      // The picture shows the Discord section (the bot, the leaderboard posts) and the admin alerts under it.
      await page.getByRole('heading', { level: 2, name: 'Discord', exact: true }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await shot('settings');
    });

    it('a callback to a local receiver gets the next vote, and the vote shows its delivery log', async () => {
      await page.getByRole('link', { name: 'Callbacks' }).click();
      // The settings page (with its own Name fields) may still be on screen for a moment on a busy machine.
      await page.getByRole('heading', { level: 1, name: 'Callbacks' }).waitFor();
      await page.getByLabel('Name').fill('Survival');
      // A bad URL: the error stands beside the field, and what was typed stays.
      await page.getByLabel('URL').fill('not a url');
      await page.getByRole('button', { name: 'Create callback' }).click();
      await page.getByText(/^url: /).waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('URL').inputValue()).toBe('not a url');
      await page.getByLabel('URL').fill(`${game.url}/vote`);
      await page.getByRole('button', { name: 'Create callback' }).click();
      await page.getByLabel('Signing secret').waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('callbacks-table').getByText('Survival').waitFor();
      // A Votifier callback (protocol v2) from the same form.
      await page.getByLabel('Name').fill('Lobby (Votifier)');
      await page.getByLabel('Kind').selectOption('votifier');
      await page.getByLabel('Host').fill('127.0.0.1');
      await page.getByLabel('Port').fill('8192');
      await page.getByLabel(/^Token/).fill('votifier-token-0123456789');
      await page.getByRole('button', { name: 'Create callback' }).click();
      // Not signed: no secret to show (an empty "Signing secret" would mislead).
      await page.getByText('Lobby (Votifier) is ready. A Votifier callback is not signed').waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Signing secret').count()).toBe(0);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('callbacks-table').getByText('127.0.0.1:8192').waitFor();
      await app.request(
        'PATCH',
        `/v1/callbacks/${(await app.request('GET', '/v1/callbacks', { key: org.key })).body.data.callbacks.find((c: { name: string }) => c.name === 'Lobby (Votifier)').id}`,
        { key: org.key, body: { enabled: false } },
      );
      await shot('callbacks');
      const before = game.requests.length;
      const res = await signedVote('CallbackVoter');
      expect(res.status, res.text).toBe(200);
      const [delivered] = (await game.waitFor(before + 1, 5_000)).slice(before);
      expect(delivered.json).toMatchObject({ event: 'vote', voter_name: 'CallbackVoter', vote_id: res.body.data.vote_id });
      await page.goto(`${app.url}/votes/${res.body.data.vote_id}`);
      await page.getByRole('heading', { name: 'Vote by CallbackVoter' }).waitFor({ timeout: 5_000 });
      const attempts = page.getByTestId('delivery-attempts');
      await attempts.getByText(`${game.url}/vote`).waitFor({ timeout: 5_000 });
      expect(await attempts.getByText('200').count()).toBeGreaterThan(0);
      await shot('vote');
    });

    it("edits a callback: the plan's timeout ceiling is shown beside the field, then the change is saved", async () => {
      await page.getByRole('link', { name: 'Callbacks' }).click();
      await page
        .getByRole('row', { name: /Survival/ })
        .getByRole('button', { name: 'Edit' })
        .click();
      await page.getByLabel('Timeout (ms)').fill('99999');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/^timeout_ms: must be between/).waitFor({ timeout: 5_000 });
      await page.getByLabel('Timeout (ms)').fill('3000');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached', timeout: 5_000 });
      const callbacks = await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key });
      expect(callbacks.body.data.callbacks.find((c: { name: string }) => c.name === 'Survival').timeout_ms).toBe(3000);
      // A Votifier callback: its own fields; the token is never shown, so an empty field keeps it.
      await page
        .getByRole('row', { name: /Lobby \(Votifier\)/ })
        .getByRole('button', { name: 'Edit' })
        .click();
      await page.getByRole('heading', { name: 'Edit Lobby (Votifier)' }).waitFor();
      const lobbyEdit = page.getByRole('region', { name: 'Edit Lobby (Votifier)' });
      expect(await lobbyEdit.getByLabel(/^Token/).inputValue()).toBe('');
      expect(await lobbyEdit.locator('label[for="edit-token"]').textContent()).toMatch(/\bset$/);
      await page.locator('#edit-port').fill('70000');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/^port: /).waitFor({ timeout: 5_000 });
      await page.locator('#edit-port').fill('25565');
      await page.locator('#edit-serviceName').fill('Lobby');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached', timeout: 5_000 });
      await page.getByTestId('callbacks-table').getByText('127.0.0.1:25565').waitFor();
      const lobby = (await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key })).body.data.callbacks.find(
        (c: { name: string }) => c.name === 'Lobby (Votifier)',
      );
      expect(lobby).toMatchObject({ port: 25565, service_name: 'Lobby', has_token: true, public_key: null });
    });

    it('routes a new callback to one of two providers at a chosen rate; the API holds exactly that, and an edit changes both', async () => {
      // The organization has two providers by now (top.gg and my-list, both made in this page above).
      const form = page.getByRole('region', { name: 'Add a callback' });
      await form.getByLabel('Name').fill('Hub');
      await form.getByLabel('URL').fill(`${game.url}/hub`);
      await form.getByText('All providers: none is ticked').waitFor();
      await form.getByRole('checkbox', { name: /my-list/ }).check();
      await form.getByText('Only votes from my-list.').waitFor();
      // A rate out of range: the error stands beside its field, and what was chosen stays.
      await form.getByLabel(/^Max deliveries per second/).fill('0');
      await form.getByRole('button', { name: 'Create callback' }).click();
      await form.getByText(/^max_per_second: /).waitFor({ timeout: 5_000 });
      expect(await form.getByRole('checkbox', { name: /my-list/ }).isChecked()).toBe(true);
      await form.getByLabel(/^Max deliveries per second/).fill('5');
      await form.getByRole('button', { name: 'Create callback' }).click();
      await page.getByLabel('Signing secret').waitFor({ timeout: 5_000 });
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await callbackNamed('Hub')).toMatchObject({ providers: ['my-list'], max_per_second: 5, enabled: true });
      const hub = page.getByRole('row', { name: /^Hub / });
      await hub.getByRole('cell', { name: 'my-list', exact: true }).waitFor();
      await hub.getByRole('cell', { name: '5/s', exact: true }).waitFor();
      await page
        .getByRole('row', { name: /Survival/ })
        .getByRole('cell', { name: 'All providers', exact: true })
        .waitFor();
      // The edit form starts from what it has; another provider and no limit are saved as such.
      await hub.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('region', { name: 'Edit Hub' });
      expect(await edit.getByRole('checkbox', { name: /my-list/ }).isChecked()).toBe(true);
      expect(await edit.getByRole('checkbox', { name: /topgg/ }).isChecked()).toBe(false);
      expect(await edit.getByLabel(/^Max deliveries per second/).inputValue()).toBe('5');
      await expectAccessible('Callbacks, editing');
      await edit.getByRole('checkbox', { name: /my-list/ }).uncheck();
      await edit.getByRole('checkbox', { name: /topgg/ }).check();
      await edit.getByLabel(/^Max deliveries per second/).fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      expect(await callbackNamed('Hub')).toMatchObject({ providers: ['topgg'], max_per_second: null });
      await hub.getByRole('cell', { name: 'no limit', exact: true }).waitFor();
    });

    it('"Resend since…" queues a window of votes to a callback again: the receiver gets them, the page counts them', async () => {
      // One delivery a second, so the resent votes wait for their turn (the vote page shows the wait below).
      await page
        .getByRole('row', { name: /Survival/ })
        .getByRole('button', { name: 'Edit' })
        .click();
      await page
        .getByRole('region', { name: 'Edit Survival' })
        .getByLabel(/^Max deliveries per second/)
        .fill('1');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('row', { name: /Survival/ })
        .getByRole('cell', { name: '1/s', exact: true })
        .waitFor({ timeout: 5_000 });
      await page
        .getByRole('row', { name: /Survival/ })
        .getByRole('button', { name: 'Resend since…' })
        .click();
      const resend = page.getByRole('region', { name: 'Resend votes to Survival' });
      // A window that ends before it starts: the error stands beside its field.
      await resend.getByLabel('Since').fill(await localInput(suiteStart));
      await resend.getByLabel(/^Until/).fill(await localInput(suiteStart - 3_600_000));
      await resend.getByRole('button', { name: 'Resend votes' }).click();
      await resend.getByText(/^since: must be before until/).waitFor({ timeout: 5_000 });
      await resend.getByLabel(/^Until/).fill('');
      await expectAccessible('Callbacks, resending');
      const before = game.requests.length;
      // Only failed deliveries: every vote that reached Survival got there, so there is nothing to resend.
      await resend.getByRole('checkbox', { name: /Only failed deliveries/ }).check();
      await resend.getByRole('button', { name: 'Resend votes' }).click();
      await resend.getByText(/^0 votes queued/).waitFor({ timeout: 5_000 });
      await resend.getByRole('checkbox', { name: /Only failed deliveries/ }).uncheck();
      // A test vote is not resent (the provider page's test vote made one).
      const votes = await app.deps.db.prisma.vote.findMany({ where: { organizationId: org.id, test: false }, select: { voterName: true } });
      expect(votes.length).toBeGreaterThan(1);
      await resend.getByRole('button', { name: 'Resend votes' }).click();
      await resend.getByText(new RegExp(`^${votes.length} votes queued`)).waitFor({ timeout: 5_000 });
      const again = (await game.waitFor(before + votes.length, 15_000)).slice(before);
      expect(again.map((r) => r.path)).toEqual(votes.map(() => '/vote'));
      expect(again.map((r) => r.json.voter_name).sort()).toEqual(votes.map((v) => v.voterName).sort());
    });

    it("the vote page shows a resent delivery's origin, the wait for the callback's rate, and a recovered vote's badge", async () => {
      const prisma = app.deps.db.prisma;
      const vote = await prisma.vote.findFirstOrThrow({ where: { organizationId: org.id, voterName: 'CallbackVoter' } });
      await page.goto(`${app.url}/votes/${vote.publicId}`);
      await page.getByRole('heading', { name: 'Vote by CallbackVoter' }).waitFor({ timeout: 5_000 });
      const jobs = page.getByTestId('delivery-jobs');
      await jobs.getByRole('row').filter({ hasText: 'replay' }).waitFor({ timeout: 5_000 });
      expect(await jobs.getByRole('row').filter({ hasText: 'replay' }).count()).toBe(1);
      // The vote's own deliveries carry no origin.
      expect(await jobs.getByText('vote', { exact: true }).count()).toBe(0);
      expect(await page.getByText('Recovered', { exact: true }).count()).toBe(0);
      // Rate 1/s: of the resent votes, all but the first waited for a slot.
      let paced = null;
      for (let i = 0; i < 50 && !paced; i++) {
        paced = await prisma.deliveryAttempt.findFirst({ where: { organizationId: org.id, pacedMs: { gt: 0 } }, include: { vote: true } });
        if (!paced) await new Promise((r) => setTimeout(r, 100));
      }
      expect(paced?.vote).toBeTruthy();
      await page.goto(`${app.url}/votes/${paced!.vote!.publicId}`);
      await page
        .getByTestId('delivery-attempts')
        .getByText(/waited [\d.]+ m?s for the callback's rate/)
        .first()
        .waitFor({ timeout: 5_000 });
      // A vote read back from the site's list after an outage (as recovery marks it) says so.
      await prisma.vote.update({ where: { id: vote.id }, data: { recovered: true } });
      try {
        await page.goto(`${app.url}/votes/${vote.publicId}`);
        await page.getByText('Recovered', { exact: true }).waitFor({ timeout: 5_000 });
        await expectAccessible('Vote');
      } finally {
        await prisma.vote.update({ where: { id: vote.id }, data: { recovered: false } });
      }
    });

    it('providers: a top.gg API token is set from the page (never shown back), replaced and removed; recovery says how it stands', async () => {
      await page.getByRole('link', { name: 'Providers' }).click();
      const card = page.getByRole('region', { name: 'Missed votes: Top.gg' });
      await card.getByText('off (no API token)').waitFor({ timeout: 5_000 });
      const field = card.getByLabel(/API token/);
      expect(await field.getAttribute('type')).toBe('password');
      await field.fill('short');
      await card.getByRole('button', { name: 'Save API token' }).click();
      await card.getByText(/^api_token: /).waitFor({ timeout: 5_000 });
      const token = 'topgg-project-token-0123456789abcdef';
      await field.fill(token);
      await card.getByRole('button', { name: 'Save API token' }).click();
      await card.getByText('API token saved').waitFor({ timeout: 5_000 });
      expect(await card.getByLabel(/^New Top\.gg API token/).inputValue()).toBe('');
      await card.getByText('on', { exact: true }).waitFor();
      const shown = await app.request('GET', '/v1/providers/topgg', { key: org.key });
      expect(shown.body.data.recovery).toMatchObject({ enabled: true });
      expect(shown.text).not.toContain(token);
      const listed = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ providers { providers { key recovery { enabled checkedAt since error } } } }' }),
      });
      const listedText = await listed.text();
      expect(JSON.parse(listedText).data.providers.providers.find((p: { key: string }) => p.key === 'topgg').recovery.enabled).toBe(true);
      expect(listedText).not.toContain(token);
      expect(await page.content()).not.toContain(token);
      await expectAccessible('Providers, recovery');
      // Removed: recovery is off again.
      await card.getByRole('button', { name: 'Remove API token' }).click();
      await card.getByText('off (no API token)').waitFor({ timeout: 5_000 });
      expect((await app.request('GET', '/v1/providers/topgg', { key: org.key })).body.data.recovery).toMatchObject({ enabled: false });
      await field.fill(token);
      await card.getByRole('button', { name: 'Save API token' }).click();
      await card.getByText('on', { exact: true }).waitFor({ timeout: 5_000 });
    });

    it('a read key sees everything with every write control disabled, saying why', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(org.readKey);
      await page.getByText('read only').waitFor({ timeout: 10_000 });
      await page.getByRole('link', { name: 'Providers' }).click();
      await page.getByLabel('top.gg enabled').waitFor();
      expect(await page.getByLabel('top.gg enabled').isDisabled()).toBe(true);
      for (const name of ['Test vote', 'Edit', 'New secret', 'Delete', 'Save API token', 'Remove API token'])
        expect(await page.getByRole('button', { name }).first().isDisabled(), name).toBe(true);
      await page.getByRole('link', { name: 'Add provider' }).click();
      await page.getByRole('button', { name: /^Top\.gg top\.gg Discord bot and server list, current/ }).click();
      const create = page.getByRole('button', { name: 'Create provider' });
      await create.waitFor();
      expect(await create.isDisabled()).toBe(true);
      expect(await create.getAttribute('title')).toMatch(/read scope/);
      await page.getByRole('link', { name: 'Callbacks' }).click();
      await page.getByRole('button', { name: 'Create callback' }).waitFor();
      for (const name of ['Create callback', 'Preview', 'Edit', 'Rotate secret', 'Delete']) {
        expect(await page.getByRole('button', { name }).first().isDisabled(), name).toBe(true);
      }
      expect(await page.getByLabel('Survival enabled').isDisabled()).toBe(true);
      // Resending sends real deliveries: a read key is not even offered it.
      expect(await page.getByRole('button', { name: 'Resend since…' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Send test message' }).waitFor();
      for (const button of await page.getByRole('button', { name: /^(Save|Save alerts|Send test message|Create key|Revoke)$/ }).all()) {
        expect(await button.isDisabled()).toBe(true);
      }
    });

    it('a provider deleted from the dashboard takes its votes (after a confirmation that counts them)', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(org.key);
      await page.getByText('full access').waitFor({ timeout: 10_000 });
      await page.getByRole('link', { name: 'Providers' }).click();
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.accept();
      });
      await page
        .getByRole('row', { name: /top\.gg/i })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByText(/votes deleted/).waitFor({ timeout: 5_000 });
      expect(asked).toMatch(/and its 3 votes\?/); // LiveVoter, AwayPlayer and CallbackVoter; a test vote is not counted among them
      expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(0);
    });

    it('a callback whose only provider was deleted says why it is disabled; it is enabled again once its providers are chosen', async () => {
      await page.getByRole('link', { name: 'Callbacks' }).click();
      const hub = page.getByRole('row', { name: /^Hub / });
      await hub.getByText('Its only provider (topgg) was deleted').waitFor({ timeout: 5_000 });
      // Not "All providers": it takes none until its providers are chosen.
      await hub.getByRole('cell', { name: 'None (its providers were deleted)' }).waitFor();
      expect(await hub.getByLabel('Hub enabled').isChecked()).toBe(false);
      await expectAccessible('Callbacks, a disabled callback');
      // Enabling it before its providers are chosen: the service asks for them, beside it.
      await hub.getByRole('button', { name: 'Enable again' }).click();
      await hub.getByText(/^providers: its providers were deleted/).waitFor({ timeout: 5_000 });
      await hub.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('region', { name: 'Edit Hub' });
      await edit.getByText('All providers: none is ticked').waitFor();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      await hub.getByRole('button', { name: 'Enable again' }).click();
      await hub.getByRole('button', { name: 'Enable again' }).waitFor({ state: 'detached', timeout: 5_000 });
      expect(await hub.getByLabel('Hub enabled').isChecked()).toBe(true);
      expect(await callbackNamed('Hub')).toMatchObject({ enabled: true, providers: [], disabled_reason: null });
    });

    it('GraphiQL at /graphql renders from local assets and loads the schema (docs) under the limits', async () => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${app.url}/graphql`);
      await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
      // The documentation explorer is filled from the standard introspection query GraphiQL sends itself.
      await page
        .getByRole('button', { name: /documentation explorer/i })
        .first()
        .click();
      await page.getByText('Query', { exact: true }).first().waitFor({ timeout: 10_000 });
      expect(await page.getByText('Error fetching schema').count()).toBe(0);
      expect(errors).toEqual([]);
      await shot('graphiql');
    });

    /** A pro organization with a url_path provider; returns a function that records a vote by `name` through its hook. */
    async function proOrganization() {
      const pro = await app.createOrg({ plan: 'pro', name: 'Pro Realm' });
      const made = await app.request('POST', '/v1/providers', {
        key: pro.key,
        body: { key: 'mc', name: 'MC List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      expect(made.status, made.text).toBe(201);
      const hook = new URL(made.body.data.webhook_url).pathname;
      let sent = 0;
      const vote = async (user: string) => {
        // Distinct bodies: the same body within the window is one vote delivered twice.
        const res = await app.request('POST', hook, { body: { user, n: ++sent } });
        expect(res.status, res.text).toBe(200);
      };
      return { pro, vote };
    }

    it('pro plan: the leaderboard ranks voters and a voter page opens from it', async () => {
      const { pro, vote } = await proOrganization();
      for (const name of ['Alex', 'Alex', 'Alex', 'Sam']) await vote(name);
      await page.goto(`${app.url}/`);
      await page.evaluate(() => sessionStorage.clear());
      await signIn(pro.key);
      await page.getByRole('link', { name: 'Statistics' }).click();
      const board = page.getByRole('region', { name: 'Leaderboard' });
      await board.getByRole('listitem').filter({ hasText: '3 votes' }).first().waitFor({ timeout: 5_000 });
      expect(await board.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Alex 3 votes/), expect.stringMatching(/^Sam 1 vote,/)]);
      expect(await page.getByText('Upgrade to pro').count()).toBe(0);
      await board.getByRole('button', { name: 'Alex' }).click();
      const voter = page.getByRole('region', { name: 'A voter' });
      await voter.getByText('MC List 3').waitFor({ timeout: 5_000 });
      expect(await voter.locator('dt:has-text("Total") + dd').textContent()).toBe('3');
      // Three votes today: a one-day streak, this month's three, and no cooldown known for this custom site.
      expect(await voter.getByTestId('voter-streak').textContent()).toBe('1 day in a row (best 1 day)');
      expect(await voter.locator('dt:has-text("This month") + dd').textContent()).toBe('3 votes');
      expect(await voter.locator('dt:has-text("Can vote again") + dd').textContent()).toBe('MC List: unknown (no vote cooldown set)');
      await shot('voter');
      // A voter with no votes is an answer, not an error page.
      await voter.getByLabel('Name').fill('Nobody');
      await voter.getByRole('button', { name: 'Show' }).click();
      await voter.locator('dt:has-text("Voter") + dd', { hasText: 'Nobody' }).waitFor({ timeout: 5_000 });
      expect(await voter.locator('dt:has-text("Total") + dd').textContent()).toBe('0');
    });

    it('a lost connection says so, and the live list resumes by itself with what arrived meanwhile', async () => {
      const { pro, vote } = await proOrganization();
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(app.url).port) });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const cut = await context.newPage();
      cut.setDefaultTimeout(8_000);
      try {
        const via = `http://127.0.0.1:${proxy.port}`;
        await cut.goto(`${via}/`);
        await cut.getByLabel('API key').fill(pro.key);
        await cut.getByLabel('API key').press('Enter');
        await cut.getByRole('heading', { level: 1, name: 'Pro Realm' }).waitFor({ timeout: 10_000 });
        await cut.waitForTimeout(500); // the live subscription is open
        await vote('BeforeCut');
        await cut.getByTestId('latest-votes').getByText('BeforeCut').waitFor({ timeout: 3_000 });
        await proxy.cut();
        await cut.getByText('Connection lost').waitFor({ timeout: 5_000 });
        await vote('DuringCut');
        await proxy.restore();
        await cut.getByText('Connection lost').waitFor({ state: 'detached', timeout: 15_000 });
        // The vote that arrived while cut off is fetched again on reconnection; the next one arrives live.
        await cut.getByTestId('latest-votes').getByText('DuringCut').waitFor({ timeout: 5_000 });
        await vote('AfterCut');
        await cut.getByTestId('latest-votes').getByText('AfterCut').waitFor({ timeout: 3_000 });
        await cut.waitForFunction(() => document.querySelector('[data-testid="counter-today"]')?.textContent === '3', undefined, { timeout: 3_000 });
      } finally {
        await context.close();
        await proxy.close();
      }
    });

    it('a wrong key is refused on the sign-in form: it says the key was not accepted, and where keys come from', async () => {
      await page.goto(`${app.url}/`);
      await page.evaluate(() => sessionStorage.clear());
      await page.goto(`${app.url}/`);
      await page.getByLabel('API key').fill('vr_live_short');
      await page.getByLabel('API key').press('Enter');
      await page.getByRole('alert').filter({ hasText: 'This key was not accepted: a Vote Relay API key starts with vr_live_' }).waitFor({ timeout: 5_000 });
      await page.getByLabel('API key').fill(`vr_live_${'x'.repeat(40)}`);
      await page.getByLabel('API key').press('Enter');
      await page.getByRole('alert').filter({ hasText: 'This key was not accepted: no organization of this Vote Relay has it' }).waitFor({ timeout: 5_000 });
      expect(await page.getByText('npm run -s cli -- key create').count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      // The sign-in page and its message fit a phone, its button in view.
      await expectLayout(page, 'sign-in', () => [page.getByRole('button', { name: 'Sign in' })]);
    });

    it('keyboard and screen reader: signing in and moving between pages by keys alone; every page passes axe (WCAG A/AA), light and dark, and fits a phone', async () => {
      const { pro, vote } = await proOrganization();
      await vote('Keyboard');
      await page.goto(`${app.url}/`);
      await page.evaluate(() => sessionStorage.clear());
      await page.goto(`${app.url}/`);
      // The key field has the focus on arrival; Enter submits.
      await page.waitForFunction(() => document.activeElement?.id === 'api-key');
      await page.keyboard.type(pro.key);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Pro Realm' }).waitFor({ timeout: 10_000 });
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          const style = el ? getComputedStyle(el) : null;
          return { text: el?.textContent?.trim() ?? '', tag: el?.tagName ?? '', outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : '' };
        });
      /**
       * Tabs forward until the focused element reads `name` (or gives up), as a keyboard user would. From the last
       * page's own link the way to the first link goes through that page's controls (Settings has many).
       */
      const tabTo = async (name: string) => {
        for (let i = 0; i < 100; i++) {
          await page.keyboard.press('Tab');
          const now = await focused();
          if (now.text === name) return now;
        }
        throw new Error(`Tab never reached ${name}`);
      };
      const pages: [string, RegExp][] = [
        ['Providers', /^Providers$/],
        ['Votes', /^Votes$/],
        ['Voters', /^Voters$/],
        ['Statistics', /^Statistics$/],
        ['Callbacks', /^Callbacks$/],
        ['Game servers', /^Game servers$/],
        ['Settings', /^Settings$/],
        ['Overview', /^Pro Realm$/],
      ];
      for (const [link, heading] of pages) {
        await page.locator('body').focus();
        const reached = await tabTo(link);
        expect(reached.outline, `${link}: the focused link shows a focus ring`).not.toMatch(/^none/);
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 5_000 });
        await expectAccessible(link);
      }
    });

    /** The rewards tests' own organization (two url_path providers), so their votes and events leave the others' counts alone. */
    let realm: TestOrg;
    let realmVote: (provider: 'mc' | 'other', user: string) => Promise<void>;

    it('rewards: milestone rules are shown in plain words and saved exactly; a bad rule shows its error beside it, wherever it moves', async () => {
      realm = await app.createOrg({ plan: 'growth', name: 'Reward Realm' });
      const hooks: Record<string, string> = {};
      for (const [key, name] of [
        ['mc', 'MC List'],
        ['other', 'Other List'],
      ]) {
        const made = await app.request('POST', '/v1/providers', {
          key: realm.key,
          body: { key, name, auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
        });
        expect(made.status, made.text).toBe(201);
        hooks[key] = new URL(made.body.data.webhook_url).pathname;
      }
      let sent = 0;
      realmVote = async (provider, user) => {
        // Distinct bodies: the same body within the window is one vote delivered twice.
        const res = await app.request('POST', hooks[provider], { body: { user, n: ++sent } });
        expect(res.status, res.text).toBe(200);
      };
      await page.goto(`${app.url}/`);
      await page.evaluate(() => sessionStorage.clear());
      await signIn(realm.key);
      await page.getByRole('heading', { level: 1, name: 'Reward Realm' }).waitFor({ timeout: 10_000 });
      await page.getByRole('link', { name: 'Settings' }).click();
      const card = page.getByRole('region', { name: 'Milestones', exact: true });
      await card.getByText('No rule: no milestone events are sent.').waitFor();
      const rule = (n: number) => card.getByRole('group', { name: new RegExp(`^Rule ${n}:`) });
      const add = () => card.getByRole('button', { name: 'Add a rule' }).click();

      await add();
      await rule(1).getByLabel('Every', { exact: true }).fill('10');
      await rule(1).getByText('Every 10 votes', { exact: true }).waitFor();
      await add();
      await rule(2).getByLabel('Counts', { exact: true }).selectOption('streak');
      await rule(2).getByLabel('At', { exact: true }).fill('3, 7, 30');
      await rule(2).getByText('At 3, 7 and 30 day streaks', { exact: true }).waitFor();
      // Streaks count days across every site: the site is offered for vote totals only.
      expect(await rule(2).getByLabel('On', { exact: true }).count()).toBe(0);
      await add();
      await rule(3).getByLabel('Every', { exact: true }).fill('5');
      await rule(3).getByLabel('On', { exact: true }).selectOption('mc');
      await rule(3).getByText('Every 5 votes on MC List', { exact: true }).waitFor();
      // A rule with neither "every" nor "at": the service refuses it, and says so beside that rule only.
      await add();
      await card.getByRole('button', { name: 'Save milestones' }).click();
      await rule(4)
        .getByText(/^settings\.milestones\[3\]: needs every or at/)
        .waitFor({ timeout: 5_000 });
      for (const n of [1, 2, 3]) expect(await rule(n).locator('.field-error').count(), `rule ${n}`).toBe(0);
      expect((await app.request('GET', '/v1/organization', { key: realm.key })).body.data.settings.milestones).toEqual([]);
      // The error follows its rule when a rule above it goes: the fourth rule is now the third.
      await rule(2).getByRole('button', { name: 'Remove rule 2' }).click();
      await rule(3)
        .getByText(/^settings\.milestones\[3\]: needs every or at/)
        .waitFor();
      await expectAccessible('Settings, a refused milestone rule');
      await rule(3).getByRole('button', { name: 'Remove rule 3' }).click();
      await add();
      await rule(3).getByLabel('Counts', { exact: true }).selectOption('streak');
      await rule(3).getByLabel('At', { exact: true }).fill('3 7 30');
      await card.getByRole('button', { name: 'Save milestones' }).click();
      await card.getByText('Saved.').waitFor({ timeout: 5_000 });
      expect(await card.locator('.field-error').count()).toBe(0);
      expect((await app.request('GET', '/v1/organization', { key: realm.key })).body.data.settings.milestones).toEqual([
        { type: 'total', every: 10, at: null, provider: null },
        { type: 'total', every: 5, at: null, provider: 'mc' },
        { type: 'streak', every: null, at: [3, 7, 30], provider: null },
      ]);
      // Read again, the page shows what was saved, in the same words.
      await page.reload();
      await card.locator('.rule-words').nth(2).waitFor();
      expect(await card.locator('.rule-words').allTextContents()).toEqual(['Every 10 votes', 'Every 5 votes on MC List', 'At 3, 7 and 30 day streaks']);
    });

    it('rewards: a vote party set from Settings (which says the count starts over) is saved exactly; the overview shows it and moves live', async () => {
      const card = page.getByRole('region', { name: 'Vote party', exact: true });
      await card.getByRole('checkbox', { name: 'Hold a vote party' }).check();
      await card.getByLabel('Votes per party').fill('1');
      await card.getByLabel('Votes that count').selectOption('mc');
      await card.getByText('Changing the number of votes or the site starts the count over').waitFor();
      // Under 2: refused beside its field.
      await card.getByRole('button', { name: 'Save vote party' }).click();
      await card.getByText(/^settings\.vote_party_every: must be at least 2/).waitFor({ timeout: 5_000 });
      await card.getByLabel('Votes per party').fill('3');
      await card.getByRole('button', { name: 'Save vote party' }).click();
      await card.getByText('Saved.').waitFor({ timeout: 5_000 });
      expect((await app.request('GET', '/v1/organization', { key: realm.key })).body.data.settings).toMatchObject({
        vote_party_every: 3,
        vote_party_provider: 'mc',
      });

      // The page's load settles here, before the overview's live streams open (they never close, so the network is
      // never idle again until the next full load: expectAccessible waits for that idle).
      await page.waitForLoadState('networkidle');
      await page.getByRole('link', { name: 'Overview' }).click();
      const party = page.getByRole('region', { name: 'Vote party', exact: true });
      await party.getByText('0 of 3').waitFor({ timeout: 5_000 });
      await party.getByText('0 parties so far.').waitFor();
      const bar = party.getByRole('progressbar', { name: 'Vote party' });
      await page.waitForTimeout(500); // the live subscriptions are open
      await realmVote('mc', 'PartyGoer');
      await realmVote('mc', 'PartyGoer');
      await party.getByText('2 of 3').waitFor({ timeout: 10_000 }); // pushed live (no reload); how fast: bench/live.ts
      expect(await bar.evaluate((el) => [(el as HTMLProgressElement).value, (el as HTMLProgressElement).max])).toEqual([2, 3]);
      await party.getByText('1 vote to the next party (only MC List').waitFor();
      await shotAt('overview-vote-party', 1280);
      await shotAt('overview-vote-party-phone', 375);
      // Only MC List's votes count: another site's vote moves nothing, the third on MC List completes the party.
      await realmVote('other', 'PartyGoer');
      await realmVote('mc', 'PartyGoer');
      await party.getByText('1 party so far.').waitFor({ timeout: 10_000 }); // pushed live (no reload); how fast: bench/live.ts
      await party.getByText('0 of 3').waitFor();
      expect((await app.request('GET', '/v1/vote-party', { key: realm.key })).body.data).toMatchObject({ count: 3, progress: 0, completed: 1 });
      await expectAccessible('Overview, vote party');
    });

    it('rewards: chat messages for events are off until ticked, previewed and saved as typed; reminders are turned on, and a voter opted out and back in', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      const messages = page.getByRole('region', { name: 'Chat messages for milestones and parties', exact: true });
      await messages.getByRole('checkbox', { name: 'Post a message when a voter reaches a milestone' }).waitFor();
      expect(await messages.getByRole('textbox').count()).toBe(0);
      // No chat webhook here: the page says nothing is posted until there is one.
      await messages.getByText(/set the webhook first/).waitFor();
      await messages.getByRole('checkbox', { name: 'Post a message when a voter reaches a milestone' }).check();
      await messages.getByLabel('Milestone message', { exact: true }).fill('**{{voter_name}}** reached {{milestone_value}} votes!');
      // The preview fills the variables with the API's own examples.
      await messages.getByLabel('Milestone message, as Discord shows it').locator('strong', { hasText: 'Steve' }).waitFor();
      expect(await messages.getByLabel('Milestone message, as Discord shows it').textContent()).toBe('Steve reached 100 votes!');
      await messages.getByRole('button', { name: 'Save chat messages' }).click();
      await messages.getByText('Saved.').waitFor({ timeout: 5_000 });

      const reminders = page.getByRole('region', { name: 'Reminders', exact: true });
      await reminders.getByRole('checkbox', { name: 'Send reminders' }).check();
      await reminders.getByRole('button', { name: 'Save reminders' }).click();
      await reminders.getByText('Saved.').waitFor({ timeout: 5_000 });
      expect((await app.request('GET', '/v1/organization', { key: realm.key })).body.data.settings).toMatchObject({
        chat_milestone_template: '**{{voter_name}}** reached {{milestone_value}} votes!',
        chat_vote_party_template: null,
        reminders_enabled: true,
      });

      await reminders.getByText('No voter turned them off.').waitFor();
      await reminders.getByLabel('Turn reminders off for').fill('Steve');
      await reminders.getByRole('button', { name: 'Turn off', exact: true }).click();
      await reminders.getByText('Reminders are off for Steve.').waitFor({ timeout: 5_000 });
      const list = reminders.getByTestId('reminder-opt-outs');
      await list.getByRole('listitem').filter({ hasText: 'Steve' }).waitFor();
      const optedOut = await app.request('GET', '/v1/reminders/opt-outs', { key: realm.key });
      expect(optedOut.body.data).toMatchObject({ total: 1, opt_outs: [{ voter_name: 'Steve' }] });
      await expectAccessible('Settings, rewards');
      await shotAt('settings-rewards', 1280, page.getByRole('region', { name: 'Rewards', exact: true }));
      await shotAt('settings-rewards-phone', 375, page.getByRole('region', { name: 'Rewards', exact: true }));
      await list.getByRole('button', { name: 'Turn back on for Steve' }).click();
      await reminders.getByText('Reminders are on again for Steve.').waitFor({ timeout: 5_000 });
      await reminders.getByText('No voter turned them off.').waitFor();
      expect((await app.request('GET', '/v1/reminders/opt-outs', { key: realm.key })).body.data).toMatchObject({ total: 0, opt_outs: [] });
    });

    it('rewards: a callback created with the milestone box ticked takes vote and milestone (over REST) and gets the milestone a vote reaches; a Votifier one offers votes only', async () => {
      await page.getByRole('link', { name: 'Callbacks' }).click();
      const form = page.getByRole('region', { name: 'Add a callback' });
      await form.getByLabel('Name').fill('Rewards');
      await form.getByLabel('URL').fill(`${game.url}/rewards`);
      expect(await form.getByRole('checkbox', { name: /^vote\W/ }).isChecked()).toBe(true);
      await form.getByRole('checkbox', { name: /^milestone\W/ }).check();
      await form.getByText('It takes: vote, milestone.').waitFor();
      await form.getByLabel(/^Event payloads/).waitFor();
      await form.getByRole('button', { name: 'Create callback' }).click();
      await page.getByLabel('Signing secret').waitFor({ timeout: 5_000 });
      await page.getByRole('button', { name: 'Done' }).click();
      const made = (await app.request('GET', '/v1/callbacks', { key: realm.key })).body.data.callbacks.find((c: { name: string }) => c.name === 'Rewards');
      expect(made.events).toEqual(['vote', 'milestone']);
      await page
        .getByRole('row', { name: /^Rewards / })
        .getByRole('cell', { name: 'vote, milestone', exact: true })
        .waitFor();
      // PartyGoer has 3 votes on MC List: the fifth reaches "every 5 votes on MC List".
      const before = game.requests.length;
      await realmVote('mc', 'PartyGoer');
      await realmVote('mc', 'PartyGoer');
      await until(
        async () => game.requests.slice(before).filter((r) => r.path === '/rewards' && r.json?.event === 'milestone'),
        (found) => found.length === 1,
        5_000,
      );
      const milestone = game.requests.slice(before).find((r) => r.path === '/rewards' && r.json?.event === 'milestone')!;
      expect(milestone.json).toMatchObject({ event: 'milestone', voter_name: 'PartyGoer', milestone: { type: 'total', value: 5 }, provider: 'mc' });
      // A Votifier server takes votes only: only its own event is offered, and the page says which kinds take the others.
      await form.getByLabel('Kind').selectOption('votifier');
      for (const event of ['milestone', 'vote_party', 'reminder'])
        expect(await form.getByRole('checkbox', { name: new RegExp(`^${event}\\W`) }).count()).toBe(0);
      expect(await form.getByRole('checkbox', { name: /^vote\W/ }).isEnabled()).toBe(true);
      await form.getByText(/A Votifier callback takes vote only; milestone, vote_party and reminder need another kind \(HTTP\b/).waitFor();
      await form.getByLabel('Kind').selectOption('http');
    });

    it('rewards: a read key sees the reward settings and the party with every write control disabled, saying why', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(realm.readKey);
      await page.getByText('read only').waitFor({ timeout: 10_000 });
      await page
        .getByRole('region', { name: 'Vote party', exact: true })
        .getByText(/ of 3$/)
        .waitFor({ timeout: 5_000 });
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('region', { name: 'Milestones', exact: true }).getByText('Every 10 votes', { exact: true }).waitFor({ timeout: 5_000 });
      for (const name of ['Save milestones', 'Save vote party', 'Save chat messages', 'Save reminders', 'Turn off']) {
        const button = page.getByRole('button', { name, exact: true });
        expect(await button.isDisabled(), name).toBe(true);
        expect(await button.getAttribute('title'), name).toMatch(/read scope/);
      }
    });

    it('creates a Votifier provider: host, port, public key and token with copy buttons; a vote with that token is received', async () => {
      await page.goto(`${app.url}/`);
      await page.evaluate(() => sessionStorage.clear());
      await signIn(org.key);
      await page.getByRole('heading', { level: 1, name: 'Mythlane Network' }).waitFor({ timeout: 10_000 });
      await page.getByRole('link', { name: 'Providers', exact: true }).click();
      await page.getByRole('link', { name: 'Add provider' }).click();
      await page.getByRole('button', { name: /^Votifier list Any/ }).click();
      const card = page.locator('section.add-flow');
      await card.getByLabel('Key', { exact: true }).fill('mc-lists');
      await card.getByLabel('Name', { exact: true }).fill('Minecraft lists');
      await card.getByRole('button', { name: 'Create provider' }).click();
      await card.getByText('Minecraft lists is ready').waitFor({ timeout: 5_000 });
      expect(await card.getByLabel('Host').inputValue()).toBe('votes.mythlane.example');
      expect(await card.getByLabel('Port').inputValue()).toBe(String(votifierPort));
      const publicKey = await card.getByLabel('Public key (protocol v1)').inputValue();
      const token = await card.getByLabel('Token (protocol v2)').inputValue();
      expect(await card.getByRole('button', { name: 'Copy' }).count()).toBe(5);
      const shown = (await app.request('GET', '/v1/providers/mc-lists', { key: org.key })).body.data.votifier;
      expect(shown.public_key).toBe(publicKey);
      const answer = await votifierSession(votifierPort, (challenge) =>
        v2Frame({ serviceName: 'PlanetMinecraft', username: 'DashVoter', address: '203.0.113.5', timestamp: Date.now() }, token, challenge),
      );
      expect(JSON.parse(answer.answer)).toEqual({ status: 'ok' });
      await card.getByRole('button', { name: 'Done' }).click();
      // In the list, the setup stays one click away (without the token).
      await page.getByText('votifier', { exact: true }).click();
      expect(await page.getByLabel('Public key (protocol v1)').inputValue()).toBe(publicKey);
      expect(await page.getByLabel('Token (protocol v2)').count()).toBe(0);
    });

    it('made no request to any host but the service', () => {
      expect(foreign).toEqual([]);
    });
  },
);
