// The dashboard's provider pages in a real browser (Debian's Chromium driven by playwright-core) against the real app:
// the one add-provider flow for top.gg, a Votifier list and a custom webhook, each ending with its numbered steps and
// a hook that takes a real delivery sent from here; the test vote button and its answer marking the vote as a test;
// a refused delivery appearing live in the provider's Requests view; long URLs that never break mid-token at 1280 and
// 390 px. SQLite only: these check the pages, and the database behind the GraphQL they read does not change them
// (test/integration/dashboard.test.ts and the API tests cover both databases).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOutside, expectAccessible, expectLayout, tablesScrolling } from '../kit/dashboard.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { signatureHeaders } from '../kit/signing.js';
import { freePort, v2Frame, votifierSession } from '../kit/votifier-sender.js';
import { findTemplate, PROVIDER_TEMPLATES } from '../../src/modules/providers/templates/catalogue.js';
import { API_WORDS, customSteps, templateSteps, votifierSteps, withReach } from '../../web/src/pages/providers/setup-steps.js';

/** axe-core's own script, evaluated in the page by the driver (no request leaves the machine; the CSP stays on). */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
/** PROVIDER_SCREENSHOTS=<dir>: every screen of these pages at 1280 px and 390 px, to look at. */
const SHOTS = process.env.PROVIDER_SCREENSHOTS ?? null;

if (!haveChromium && process.env.CI !== 'true') {
  console.warn(`dashboard provider browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

describe('setup steps are written for the dashboard', () => {
  it('leave no API word (auth_value, webhook_url, "create the provider here", …) for any template, custom or Votifier provider', () => {
    const steps = [
      ...PROVIDER_TEMPLATES.flatMap((t) => {
        const s = templateSteps(t, t.name);
        return [...s.before, ...s.after];
      }),
      ...votifierSteps(null, 'Votifier lists'),
      ...(['header', 'query', 'url_path', 'hmac'] as const).flatMap((authMethod) =>
        customSteps(
          { authMethod, authField: 'X-Secret', signatureFormat: 'plain', authTimestampField: 'X-Time', payloadSource: 'json', voteePath: 'user.name' },
          'My list',
        ),
      ),
    ];
    expect(steps.length).toBeGreaterThan(PROVIDER_TEMPLATES.length * 2);
    expect(steps.filter((s) => API_WORDS.test(s))).toEqual([]);
    // A site that makes the secret is given the URL first, then its secret is pasted; every flow ends with a test vote.
    const topgg = templateSteps(findTemplate('topgg')!, 'Top.gg');
    expect(topgg.before.at(-1)).toMatch(/^Paste that secret into the Top\.gg secret field below/);
    expect(topgg.before.join(' ')).toMatch(/the Webhook URL below/);
    expect(topgg.after.some((step) => /^Send a test vote: press Test vote beside Top\.gg/.test(step))).toBe(true);
  });

  it('a step that hands the site an address no site can reach says so first, and no other step changes', () => {
    const warnings = { hooks: 'This address can only be reached from this machine: set PUBLIC_BASE_URL', votifier: null };
    const custom = customSteps({ authMethod: 'header', authField: 'X-Secret', payloadSource: 'json', voteePath: 'user' }, 'My list');
    const reached = withReach(custom, warnings);
    expect(reached[0]).toMatch(
      /^Not yet: the address Vote Relay gives out can only be reached from this machine: set PUBLIC_BASE_URL \(README, First steps\) and restart Vote Relay; once it gives an address the site can reach: on the voting site, open its vote webhook/,
    );
    expect(reached.slice(1)).toEqual(custom.slice(1));
    // The Votifier host has a warning of its own: none here, so its steps stay as they are.
    expect(withReach(votifierSteps(null, 'Lists'), warnings)).toEqual(votifierSteps(null, 'Lists'));
    const votifierWarned = withReach(votifierSteps(null, 'Lists'), { hooks: null, votifier: warnings.hooks });
    expect(votifierWarned[1]).toMatch(/^Not yet: .*: enter the Host and the Port above/);
    expect([...reached, ...votifierWarned].filter((step) => API_WORDS.test(step))).toEqual([]);
  });
});

describe.skipIf(dialect !== 'sqlite' || (!haveChromium && process.env.CI !== 'true'))('provider pages in Chromium', () => {
  let app: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  let votifierPort: number;
  /** The service's public address (PUBLIC_BASE_URL's default, localhost): where an owner opens the dashboard. */
  let site: string;
  const topggSecret = 'whs_providers_page_secret_0123456789';

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
    if (!existsSync(DIST)) {
      const vite = await import('vite');
      await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
    }
    votifierPort = await freePort();
    // At most 3 refused requests kept per address: the 4th and later are counted as not kept (the drop notes).
    app = await startTestApp({
      VOTIFIER_PORT: String(votifierPort),
      VOTIFIER_HOST: 'votes.example.net',
      DELIVERY_POLL_MS: '100',
      HOOK_LOG_MAX_REFUSED_PER_ADDRESS: '3',
    });
    org = await app.createOrg({ plan: 'growth', name: 'Providers Page Network', slug: `providers-page-network-with-a-long-slug-${Date.now()}` });
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
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(8_000);
    site = app.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${site}/`);
    await page.getByLabel('API key').fill(org.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByText('full access').waitFor({ timeout: 10_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /**
   * The screen at 1280 px and at a phone's 390 px (into SHOTS when set): it passes axe (WCAG 2.1 A and AA) in light
   * and dark; at both widths the page never scrolls sideways, and no URL or time is broken inside a word (each wraps
   * only at its separators, or scrolls in its field).
   */
  async function look(name: string) {
    await expectAccessible(page, name);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
      const broken = await page.evaluate(() => {
        const bad: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('.breakable .segment, time, code, .vote-id')) {
          const range = document.createRange();
          // Each text node is one unbreakable token (a URL's separators are <wbr> between segments): it must sit on one line.
          for (const node of el.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
            range.selectNodeContents(node);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
            if (lines.size > 1) bad.push(node.textContent);
          }
          if (el.tagName === 'TIME' && new Set([...el.getClientRects()].map((r) => Math.round(r.bottom))).size > 1) bad.push(el.textContent ?? '');
        }
        return bad;
      });
      expect(broken, `${name} at ${width} px: tokens broken across lines`).toEqual([]);
      // Every action of the page (its buttons and button-like links) lies within the width: none is off-screen.
      expect(await actionsOutside(page, width), `${name}: actions outside the width at ${width} px`).toEqual([]);
      expect(await tablesScrolling(page), `${name}: tables wider than their box at ${width} px`).toEqual([]);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function openAddFlow() {
    await page.getByRole('link', { name: 'Providers', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Providers' }).waitFor();
    await page.getByRole('link', { name: 'Add provider' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add provider' }).waitFor();
  }

  const steps = () => page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem').allTextContents();

  it('adds a top.gg provider: the site first, its secret pasted after giving it the URL, then numbered steps; a signed delivery is accepted', async () => {
    await openAddFlow();
    // Every template is a choice, beside a custom webhook and a Votifier list.
    await page.getByRole('button', { name: /^Custom webhook/ }).waitFor();
    await page.getByRole('button', { name: /^Votifier list Any/ }).waitFor();
    expect(await page.locator('.site-choice').count()).toBe(PROVIDER_TEMPLATES.length - 1 + 2); // the generic Votifier entry is "Votifier list"
    await look('add-1-picker');
    await page.getByLabel('Find the voting site').fill('top.gg');
    expect(await page.getByRole('button', { name: /^Planet Minecraft/ }).count()).toBe(0);
    await page.getByRole('button', { name: /^Top\.gg top\.gg Discord bot and server list, current/ }).click();
    await page.getByRole('heading', { name: 'Get the secret from Top.gg' }).waitFor();
    // The URL the site asks for before it shows its secret; it follows the key as it is typed.
    const given = page.getByLabel('Webhook URL to give Top.gg');
    expect(await given.inputValue()).toBe(`${site}/hooks/${org.slug}/topgg`);
    await page.getByLabel('Key', { exact: true }).fill('Not A Key');
    expect(await given.inputValue()).toBe(`${site}/hooks/${org.slug}/Not%20A%20Key`);
    await page.getByLabel('Top.gg secret').fill(topggSecret);
    await page.getByRole('button', { name: 'Create provider' }).click();
    // Bad input: the error stands beside its field and what was typed stays.
    await page
      .locator('#new-provider-key + .field-error')
      .getByText(/^key: /)
      .waitFor({ timeout: 5_000 });
    expect(await page.getByLabel('Key', { exact: true }).inputValue()).toBe('Not A Key');
    expect(await page.getByLabel('Top.gg secret').inputValue()).toBe(topggSecret);
    await look('add-2-topgg-error');
    await page.getByLabel('Key', { exact: true }).fill('topgg');
    await page.getByRole('button', { name: 'Create provider' }).click();
    await page.getByRole('heading', { name: 'Top.gg is ready' }).waitFor({ timeout: 5_000 });
    const url = await page.getByLabel('Webhook URL', { exact: true }).inputValue();
    expect(url).toBe(`${site}/hooks/${org.slug}/topgg`);
    expect(await page.getByText('not the one shown before').count()).toBe(0);
    // PUBLIC_BASE_URL is left at its default here (localhost): the page says no site can reach that URL yet.
    await page.getByRole('alert').filter({ hasText: 'This address can only be reached from this machine: set PUBLIC_BASE_URL' }).waitFor();
    const list = await steps();
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.some((step) => /^Send a test vote: press Test vote beside Top\.gg/.test(step))).toBe(true);
    expect(list.at(-1)).toMatch(/^Open Requests/);
    expect(list.join(' ')).not.toMatch(API_WORDS);
    // The secret the site made is not shown back.
    expect(await page.content()).not.toContain(topggSecret);
    await look('add-3-topgg-ready');
    // The hook works: a delivery signed as top.gg signs it.
    const payload = structuredClone(findTemplate('topgg')!.payloadExample) as { data: { id: string; user: { name: string } } };
    payload.data.user.name = 'FlowVoter';
    payload.data.id = `flow-${Date.now()}`;
    const body = JSON.stringify(payload);
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...signatureHeaders('topgg', topggSecret, body, { header: 'x-topgg-signature' }) },
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).toMatch(/"vote_id":"vt_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { level: 1, name: 'Providers' }).waitFor();
    await page
      .getByRole('row', { name: /Top\.gg/ })
      .getByRole('cell', { name: '1', exact: true })
      .first()
      .waitFor({ timeout: 5_000 });
    // On a phone each provider is a card: the page does not scroll sideways, and every action of the row is in view.
    const row = () => page.getByTestId('providers-table').getByRole('row', { name: /Top\.gg/ });
    await expectLayout(page, 'providers', () => [
      row().getByRole('button', { name: 'Test vote' }),
      row().getByRole('link', { name: 'Requests' }),
      row().getByRole('button', { name: 'Edit' }),
      row().getByRole('button', { name: 'New secret' }),
      row().getByRole('button', { name: 'Delete' }),
    ]);
    // PUBLIC_BASE_URL is the default here: the list says no site can reach these addresses yet.
    await page.getByRole('alert').filter({ hasText: 'This address can only be reached from this machine: set PUBLIC_BASE_URL' }).waitFor();
    // The address it speaks of is on the page: under each provider's name, and at the top of its Edit form.
    await row().getByText('Webhook URL', { exact: true }).click();
    expect(await row().getByTestId('webhook-url-topgg').textContent()).toBe(url);
    await row().getByRole('button', { name: "Copy Top.gg's webhook URL" }).waitFor();
    await look('providers-webhook-url');
    await row().getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Webhook URL (what the site sends votes to)').inputValue()).toBe(url);
  });

  it('adds a Votifier list: key and name only, then host, port, key and token with numbered steps; a v2 vote with that token is received', async () => {
    await openAddFlow();
    await page.getByRole('button', { name: /^Votifier list Any/ }).click();
    await page.getByLabel('Key', { exact: true }).fill('mc-lists');
    await page.getByLabel('Name', { exact: true }).fill('Minecraft lists');
    expect(await page.getByLabel(/secret/i).count()).toBe(0);
    await look('add-2-votifier');
    await page.getByRole('button', { name: 'Create provider' }).click();
    await page.getByRole('heading', { name: 'Minecraft lists is ready' }).waitFor({ timeout: 5_000 });
    expect(await page.getByLabel('Host').inputValue()).toBe('votes.example.net');
    expect(await page.getByLabel('Port').inputValue()).toBe(String(votifierPort));
    const token = await page.getByLabel('Token (protocol v2)').inputValue();
    const list = await steps();
    expect(list[1]).toMatch(/Host and the Port above/);
    expect(list.some((step) => step.startsWith('Send a test vote'))).toBe(true);
    await look('add-3-votifier-ready');
    const answer = await votifierSession(votifierPort, (challenge) =>
      v2Frame({ serviceName: 'PlanetMinecraft', username: 'BlockVoter', address: '203.0.113.5', timestamp: Date.now() }, token, challenge),
    );
    expect(JSON.parse(answer.answer)).toEqual({ status: 'ok' });
    const votes = await app.request('GET', '/v1/votes?provider=mc-lists', { key: org.key });
    expect(votes.body.data.votes.map((v: { voter_name: string }) => v.voter_name)).toEqual(['BlockVoter']);
  });

  it('adds a custom webhook: its auth settings, a field error beside its field, then steps that follow the settings; a delivery with the secret is received', async () => {
    await openAddFlow();
    await page.getByRole('button', { name: /^Custom webhook/ }).click();
    await page.getByLabel('Key', { exact: true }).fill('my-list');
    await page.getByLabel('Name', { exact: true }).fill('My List');
    await page.getByLabel('How the site proves a delivery is its own').selectOption('header');
    await page.getByLabel('Header carrying the secret').fill('X-List-Secret');
    await page.getByLabel('Voter name path').fill('player..name');
    await page.getByRole('button', { name: 'Create provider' }).click();
    await page
      .locator('#custom-votee + .field-error')
      .getByText(/^votee_path: /)
      .waitFor({ timeout: 5_000 });
    expect(await page.getByLabel('Voter name path').inputValue()).toBe('player..name');
    await look('add-2-custom-error');
    await page.getByLabel('Voter name path').fill('player.name');
    await page.getByRole('button', { name: 'Create provider' }).click();
    await page.getByRole('heading', { name: 'My List is ready' }).waitFor({ timeout: 5_000 });
    const url = await page.getByLabel('Webhook URL', { exact: true }).inputValue();
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const list = await steps();
    expect(list.join(' ')).toContain('X-List-Secret header');
    expect(list.join(' ')).toContain('player.name in a JSON body');
    await look('add-3-custom-ready');
    const res = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ player: { name: 'HookVoter' } }),
      headers: { 'content-type': 'application/json', 'x-list-secret': secret },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await app.request('GET', '/v1/providers/my-list', { key: org.key })).body.data).toMatchObject({
      auth_method: 'header',
      auth_field: 'X-List-Secret',
      votee_path: 'player.name',
    });
  });

  it('the test vote button sends a fake voter by default and marks its vote as a test; game servers only after a confirmation', async () => {
    await page.getByRole('link', { name: 'Providers', exact: true }).click();
    await page
      .getByRole('row', { name: /My List/ })
      .getByRole('button', { name: 'Test vote' })
      .click();
    const panel = page.getByRole('region', { name: 'Test vote: My List' });
    expect(await panel.getByLabel('Voter name').inputValue()).toBe('VoteRelayTest');
    await panel.getByRole('button', { name: 'Send test vote' }).click();
    await panel.getByRole('status').getByText('Test vote', { exact: true }).waitFor({ timeout: 5_000 });
    const link = panel.getByRole('status').getByRole('link', { name: /^vt_/ });
    const voteId = await link.textContent();
    await panel.getByText(/Votifier callbacks and plugins do not get it/).waitFor();
    const stored = await app.request('GET', `/v1/votes/${voteId}`, { key: org.key });
    expect(stored.body.data).toMatchObject({ voter_name: 'VoteRelayTest', test: true });
    await look('test-vote');
    // Asking for game servers asks first; "cancel" sends nothing.
    const before = (await app.request('GET', '/v1/votes?provider=my-list&include_tests=true', { key: org.key })).body.meta?.total;
    await panel.getByLabel('Voter name').fill('DashTester');
    await panel.getByLabel(/Also deliver to game servers/).check();
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await panel.getByRole('button', { name: 'Send test vote' }).click();
    await expect.poll(() => asked).toMatch(/Votifier has no test flag/);
    expect((await app.request('GET', '/v1/votes?provider=my-list&include_tests=true', { key: org.key })).body.meta?.total).toBe(before);
    page.once('dialog', (d) => void d.accept());
    await panel.getByRole('button', { name: 'Send test vote' }).click();
    await panel.getByText(/get it too, and cannot tell it is a test/).waitFor({ timeout: 5_000 });
    const second = await panel.getByRole('status').getByRole('link', { name: /^vt_/ }).textContent();
    expect((await app.request('GET', `/v1/votes/${second}`, { key: org.key })).body.data).toMatchObject({ voter_name: 'DashTester', test: true });
    // The link opens the vote.
    await panel.getByRole('status').getByRole('link', { name: /^vt_/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Vote by DashTester' }).waitFor();
  });
  /** A top.gg delivery for `voter`, signed with `secret` (the provider's own, or a wrong one). */
  function topggDelivery(voter: string, secret: string) {
    const payload = structuredClone(findTemplate('topgg')!.payloadExample) as { data: { id: string; user: { name: string } } };
    payload.data.user.name = voter;
    payload.data.id = `${voter}-${Date.now()}`;
    const body = JSON.stringify(payload);
    const signed = signatureHeaders('topgg', secret, body, { header: 'x-topgg-signature' });
    return { body, headers: { 'content-type': 'application/json', ...signed }, signature: signed['x-topgg-signature']! };
  }

  it('a refused delivery (a wrong secret) appears in the Requests view within 2 s without a reload, saying what to fix; its full record opens, secrets redacted', async () => {
    await page.getByRole('link', { name: 'Providers', exact: true }).click();
    await page
      .getByRole('row', { name: /Top\.gg/ })
      .getByRole('link', { name: 'Requests', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Requests: Top.gg' }).waitFor();
    // What the add flow's hook test sent is there already.
    await page.getByTestId('requests-table').getByRole('row').filter({ hasText: 'accepted' }).first().waitFor();
    await page.waitForTimeout(500); // the live subscription is open
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
    const wrong = topggDelivery('WrongSecretVoter', 'whs_not_the_secret_pasted_into_the_site');
    const res = await fetch(`${site}/hooks/${org.slug}/topgg`, { method: 'POST', body: wrong.body, headers: wrong.headers });
    expect(res.status).toBe(401);
    const row = page.getByTestId('requests-table').getByRole('row').filter({ hasText: 'refused' }).first();
    await row.waitFor({ timeout: 10_000 }); // pushed live (no reload); how fast: bench/live.ts
    await row.getByText('The signature did not match: check the secret you pasted into the site').waitFor();
    expect(await row.getByRole('cell', { name: 'AUTH_FAILED' }).count()).toBe(1);
    expect(navigations).toEqual([]);
    await look('requests-live');
    // The full record: method, path, protocol, headers and body, the signature redacted.
    await row.getByRole('button').click();
    const detail = page.locator('.request-detail');
    await detail.getByText('What to fix: The signature did not match: check the secret you pasted into the site.').waitFor();
    await detail.getByText('HTTP (the webhook URL)').waitFor();
    expect(
      await detail
        .locator('dd')
        .filter({ hasText: `/hooks/${org.slug}/topgg` })
        .count(),
    ).toBe(1);
    expect(await detail.locator('.body-excerpt').textContent()).toContain('WrongSecretVoter');
    await detail.getByRole('rowheader', { name: 'x-topgg-signature' }).waitFor();
    expect(await page.content()).not.toContain(wrong.signature.split('v1=')[1]);
    await look('requests-detail');
    // The filter by outcome.
    await page.getByLabel('Outcome').selectOption('accepted');
    await page.getByRole('status').getByText('1 accepted request kept.').waitFor();
    const outcomes = await page.getByTestId('requests-table').locator('.outcome').allTextContents();
    expect(outcomes).toEqual(['accepted']);
    expect(new URL(page.url()).search).toBe('?outcome=accepted');
  });

  it('refused requests past what is kept per address are counted: "N more refused requests from ADDRESS not kept"', async () => {
    // One refused request is kept already; 3 are kept per address, so 2 of these 4 are only counted.
    for (let i = 0; i < 4; i++) {
      const wrong = topggDelivery(`Flood${i}`, 'whs_still_not_the_secret');
      expect((await fetch(`${site}/hooks/${org.slug}/topgg`, { method: 'POST', body: wrong.body, headers: wrong.headers })).status).toBe(401);
    }
    await page.getByLabel('Outcome').selectOption('refused');
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .getByRole('list', { name: 'Requests not kept' })
            .textContent({ timeout: 2_000 })
            .catch(() => '');
        },
        { timeout: 10_000 },
      )
      .toMatch(/^2 more refused requests from \S*127\.0\.0\.1 not kept/);
    expect(await page.getByTestId('requests-table').getByRole('row').filter({ hasText: 'refused' }).count()).toBe(3);
    await look('requests-drops');
  });

  it('a request to a key no provider has (a mistyped URL) appears live in the organization-level log, reachable from the providers page', async () => {
    await page.getByRole('link', { name: 'Providers', exact: true }).click();
    await page.getByRole('link', { name: 'Requests that matched no provider' }).click();
    await page.getByRole('heading', { level: 1, name: 'Requests that matched no provider' }).waitFor();
    await page.getByText('None: every request reached a provider.').waitFor();
    await page.waitForTimeout(500); // the live subscription is open
    const typo = topggDelivery('TypoVoter', topggSecret);
    expect((await fetch(`${site}/hooks/${org.slug}/topgq`, { method: 'POST', body: typo.body, headers: typo.headers })).status).toBe(404);
    const row = page.getByTestId('requests-table').getByRole('row').filter({ hasText: 'topgq' });
    await row.waitFor({ timeout: 10_000 }); // pushed live (no reload); how fast: bench/live.ts
    await row.getByText(/^No provider has the key topgq: check the URL you gave the site; your providers are /).waitFor();
    // Requests to real providers stay in their own logs.
    expect(await page.getByTestId('requests-table').getByRole('row').count()).toBe(2); // the header and this one
    await look('requests-unmatched');
  });
});
