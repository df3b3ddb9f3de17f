// The dashboard's overview and vote pages in Chromium: the 30-day chart, the provider shares and the counters move
// with live votes (test votes are listed, marked, and move nothing); the failing-callbacks panel tells a callback to
// an unresolvable host that is retrying, with its failed attempts and last error; counts are pluralised; "Redeliver
// failed" is disabled when nothing failed; the chat previews render Discord markdown and never markup from the
// template; long URLs and times stay whole at 1280 px and at a phone's 390 px. The browser is what is tested here,
// so it runs on SQLite only (the database does not matter). DASHBOARD_SHOTS_DIR=<dir> saves a screenshot of each
// page at both widths there.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { actionsOutside, tablesScrolling } from '../kit/dashboard.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
const SHOTS = process.env.DASHBOARD_SHOTS_DIR ?? null;
const LONG_URL = `http://game-server.callback-target.invalid/votes/${'a-very-long-path-segment-'.repeat(6)}end?token=${'x'.repeat(60)}`;

describe.skipIf(databaseUnavailable || dialect !== 'sqlite' || (!haveChromium && process.env.CI !== 'true'))(
  'dashboard overview and vote pages in Chromium (SQLite: the database does not matter here)',
  () => {
    let app: TestApp;
    let org: TestOrg;
    let browser: Browser;
    let page: Page;
    let gone: Receiver;
    const hooks: Record<string, string> = {};

    beforeAll(async () => {
      if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}`);
      if (!existsSync(DIST)) {
        const vite = await import('vite');
        await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
      }
      // Three attempts 100 ms apart, then an hour's wait: a callback that cannot be reached sits in `retrying`.
      app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms,1h', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50' });
      org = await app.createOrg({ plan: 'growth', name: 'Overview Network' });
      gone = await startReceiver({ status: 410 });
      for (const [key, name] of [
        ['site', 'Site List'],
        ['other', 'Other List'],
        ['third', 'Third List'],
      ]) {
        const made = await app.request('POST', '/v1/providers', {
          key: org.key,
          body: { key, name, auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
        });
        expect(made.status, made.text).toBe(201);
        hooks[key] = new URL(made.body.data.webhook_url).pathname;
      }
      // site's votes go to a host that does not resolve (retrying); other's to a receiver that answers 410 (given up).
      for (const body of [
        { name: 'Nowhere', url: LONG_URL, providers: ['site'] },
        { name: 'Gone', url: `${gone.url}/votes`, providers: ['other'] },
      ]) {
        const res = await app.request('POST', '/v1/callbacks', { key: org.key, body });
        expect(res.status, res.text).toBe(201);
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(8_000);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      await gone?.close();
    });

    const vote = async (provider: string, user: string) => {
      const res = await app.request('POST', hooks[provider], { body: { user } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    };

    /** Today's bar in the chart, read from its text alternative (the chart is a canvas). */
    const todayInChart = async () => {
      const caption = await page.locator('figure.chart figcaption').textContent();
      const today = new Date().toISOString().slice(0, 10);
      return Number(new RegExp(`${today} (\\d+)`).exec(caption ?? '')?.[1] ?? Number.NaN);
    };
    const shareOf = async (name: string) =>
      page
        .getByTestId('provider-shares')
        .getByRole('row', { name: new RegExp(name) })
        .locator('td')
        .first()
        .textContent();
    const counter = async (label: string) => Number((await page.getByTestId(`counter-${label}`).textContent())?.replace(/\D/g, ''));

    /** The page fits the width (nothing scrolls sideways but a table's own box) and no time breaks across lines. */
    async function expectLayout(label: string) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} at ${width} px`).toBeLessThanOrEqual(width);
        const brokenTimes = await page.evaluate(() =>
          [...document.querySelectorAll('time')]
            .filter((t) => t.getClientRects().length > 1 || t.getBoundingClientRect().height > parseFloat(getComputedStyle(t).lineHeight || '24') * 1.5)
            .map((t) => t.textContent),
        );
        expect(brokenTimes, `${label}: times broken across lines at ${width} px`).toEqual([]);
        // Every action of the page (its buttons and button-like links) lies within the width: none is off-screen.
        expect(await actionsOutside(page, width), `${label}: actions outside the width at ${width} px`).toEqual([]);
        // No table hides columns past its box's edge: cards on a phone, or a table that fits.
        expect(await tablesScrolling(page), `${label}: tables wider than their box at ${width} px`).toEqual([]);
        // A voter's name is never broken inside (it fits the card's width at a phone's).
        const brokenNames = await page.evaluate(() => {
          const broken: string[] = [];
          for (const td of document.querySelectorAll<HTMLElement>('td.voter')) {
            // Each text of the cell (the name; a badge beside it may sit on the next line) on one line.
            const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!node.textContent?.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              if (new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size > 1) broken.push(node.textContent);
            }
          }
          return broken;
        });
        expect(brokenNames, `${label}: voter names broken across lines at ${width} px`).toEqual([]);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: join(SHOTS, `${label}-${width}.png`), fullPage: true });
        }
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    it('the chart, the shares and the counters move with each live vote; a test vote is listed, marked, and moves nothing', async () => {
      await vote('site', 'Early');
      await page.goto(`${app.url}/`);
      await page.getByLabel('API key').fill(org.key);
      await page.getByLabel('API key').press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Overview Network' }).waitFor();
      await page.getByTestId('latest-votes').getByText('Early').waitFor();
      expect(await todayInChart()).toBe(1);
      expect(await shareOf('Site List')).toBe('1 vote');
      await page.waitForTimeout(500); // the live subscription is open

      await vote('site', 'LiveOne');
      await page.getByTestId('latest-votes').getByText('LiveOne').waitFor({ timeout: 2_000 });
      await until(
        () => todayInChart(),
        (n) => n === 2,
        2_000,
      );
      // The shares and counters update from the same live event, not in the same frame as the list.
      await until(
        () => shareOf('Site List'),
        (text) => text === '2 votes',
        5_000,
      );
      await until(
        () => counter('today'),
        (n) => n === 2,
        5_000,
      );
      // A provider's first vote adds its row to the shares.
      await vote('third', 'NewRow');
      await page
        .getByTestId('provider-shares')
        .getByRole('row', { name: /Third List/ })
        .waitFor({ timeout: 2_000 });
      await until(
        () => shareOf('Third List'),
        (text) => text === '1 vote',
        5_000,
      );
      await until(
        () => todayInChart(),
        (n) => n === 3,
        5_000,
      );

      const test = await app.request('POST', '/v1/providers/site/test-vote', { key: org.key, body: { voter_name: 'TestPilot' } });
      expect(test.status, test.text).toBeLessThan(300);
      const item = page.getByTestId('latest-votes').getByRole('listitem').filter({ hasText: 'TestPilot' });
      await item.waitFor({ timeout: 2_000 });
      await expect(item.locator('.test-badge').textContent()).resolves.toBe('test');
      expect(await page.getByTestId('latest-votes').getByRole('listitem').filter({ hasText: 'LiveOne' }).locator('.test-badge').count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await todayInChart()).toBe(3);
      expect(await counter('today')).toBe(3);
      expect(await shareOf('Site List')).toBe('2 votes');
    });

    it('the failing-callbacks panel tells a retrying callback with its failed attempts and last error', async () => {
      await vote('other', 'GivenUp');
      // Every site vote fails three times against the unresolvable host, then waits an hour.
      await until(
        async () =>
          (await app.request('POST', '/graphql', { key: org.key, body: { query: '{ failingCallbacks { callback { name } failedAttemptsLast24h } }' } })).body
            .data.failingCallbacks,
        (list: { callback: { name: string }; failedAttemptsLast24h: number }[]) =>
          list.find((f) => f.callback.name === 'Nowhere')?.failedAttemptsLast24h === 9 && list.some((f) => f.callback.name === 'Gone'),
        15_000,
      );
      await page.reload();
      const panel = page.getByTestId('failing-callbacks');
      const nowhere = panel.getByRole('listitem').filter({ hasText: 'Nowhere' });
      await nowhere.waitFor();
      expect(await nowhere.textContent()).toMatch(/^Nowhere: 9 failed attempts in the last 24 hours, retrying 3 deliveries — last error .*ENOTFOUND/);
      expect(await panel.getByRole('listitem').filter({ hasText: 'Gone' }).textContent()).toMatch(
        /^Gone: 1 failed attempt in the last 24 hours, no retry left, 1 delivery given up — last error HTTP 410/,
      );
      await expectLayout('overview');
    });

    it('votes: test badge, pluralised totals; a vote: "Redeliver failed" only when a delivery failed', async () => {
      // A long name (a Discord display name may have 32 characters): on a phone it keeps its card's whole width.
      await vote('site', 'Herobrine_the_Destroyer_Of_All');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Votes', exact: true }).click();
      const table = page.getByTestId('votes-table');
      await table.waitFor();
      await expectLayout('votes-all');
      await expect(
        table
          .getByRole('row', { name: /TestPilot/ })
          .locator('.test-badge')
          .count(),
      ).resolves.toBe(1);
      expect(
        await table
          .getByRole('row', { name: /LiveOne/ })
          .locator('.test-badge')
          .count(),
      ).toBe(0);
      await page.getByText(/Page 1 of 1 \(\d+ votes\)/).waitFor();
      await page.getByLabel('Voter').fill('GivenUp');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Page 1 of 1 (1 vote)').waitFor();
      await expectLayout('votes');

      // Its callback gave up (410): redelivery has something to do.
      await table.getByRole('link', { name: 'GivenUp' }).click();
      await page.getByRole('heading', { level: 1, name: /GivenUp/ }).waitFor();
      await page.getByText('(1 attempt)').waitFor();
      expect(await page.getByRole('button', { name: 'Redeliver failed' }).isEnabled()).toBe(true);
      await expectLayout('vote-failed');

      // A site vote's deliveries are retrying, not failed: nothing to redeliver.
      await page.goBack();
      await page.getByLabel('Voter').fill('LiveOne');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Page 1 of 1 (1 vote)').waitFor();
      await table.getByRole('link', { name: 'LiveOne' }).click();
      await page.getByRole('heading', { level: 1, name: /LiveOne/ }).waitFor();
      await page.getByText('(3 attempts)').waitFor();
      const redeliver = page.getByRole('button', { name: 'Redeliver failed' });
      expect(await redeliver.isDisabled()).toBe(true);
      expect(await redeliver.getAttribute('title')).toMatch(/Nothing failed/);
      // The long target URL wraps inside its cell instead of widening the page.
      const target = page.getByTestId('delivery-attempts').locator('td.target').first();
      expect(await target.evaluate((td) => td.scrollWidth <= td.clientWidth + 1)).toBe(true);
      await expectLayout('vote-retrying');

      const testVote = (await app.request('GET', '/v1/votes?voter=TestPilot', { key: org.key })).body.data.votes[0];
      await page.goto(`${app.url}/votes/${testVote.public_id}`);
      await page
        .getByRole('heading', { level: 1, name: /TestPilot/ })
        .locator('.test-badge')
        .waitFor();
    });

    it('chat previews render Discord markdown as Discord does, and never markup from the template', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByLabel('Message type').selectOption('simple');
      await page
        .getByLabel(/^Message \(/)
        .fill(
          '**{{voter_name}}** voted on *{{provider_name}}*: __thanks__ ~~no~~ `code` [Vote again](https://example.com/vote) <img src=x onerror="window.__injected=1">',
        );
      const preview = page.getByLabel('Message preview');
      await preview.locator('strong', { hasText: 'Steve' }).waitFor();
      expect(await preview.locator('em').textContent()).toBe('Top.gg');
      expect(await preview.locator('u').textContent()).toBe('thanks');
      expect(await preview.locator('s').textContent()).toBe('no');
      expect(await preview.locator('code').textContent()).toBe('code');
      const link = preview.getByRole('link', { name: 'Vote again' });
      expect(await link.getAttribute('href')).toBe('https://example.com/vote');
      expect(await link.getAttribute('rel')).toContain('noopener');
      expect(await preview.locator('img').count()).toBe(0);
      expect(await preview.textContent()).toContain('<img src=x');
      expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

      await page.getByLabel('Message type').selectOption('embed');
      await page.getByLabel('Description').fill('**{{voter_name}}** — [open](https://example.com/x) and _soft_');
      const embed = page.getByLabel('Embed preview');
      await embed.locator('strong', { hasText: 'Steve' }).waitFor();
      expect(await embed.getByRole('link', { name: 'open' }).getAttribute('href')).toBe('https://example.com/x');
      expect(await embed.locator('em', { hasText: 'soft' }).count()).toBe(1);
      await expectLayout('settings');
    });

    it('the other pages fit both widths', async () => {
      for (const [link, label] of [
        ['Voters', 'voters'],
        ['Callbacks', 'callbacks'],
        ['Statistics', 'statistics'],
        ['Game servers', 'game-servers'],
      ] as const) {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        await expectLayout(label);
      }
      // The callbacks table keeps the long URL inside its cell.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Callbacks', exact: true }).click();
      const cell = page.getByTestId('callbacks-table').locator('td.target').filter({ hasText: 'callback-target.invalid' });
      expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth + 1)).toBe(true);
    });
  },
);
