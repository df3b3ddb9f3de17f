// Votes left uncertain by a restart (README "Delivery guarantees"), as the owner sees them in Chromium: the Votes page
// says how many at the top and what it means, its button lists only them (on the starter plan too, where no other
// filter exists), `uncertain` is in the status filters with its own style and an explanation on hover, and each such
// vote has a one-click Resend that calls redeliverVote, says so in its row and leaves the uncertain list; a read key
// has no active Resend; a vote's page offers "Resend 1 uncertain delivery" with a warning that the server may already
// have it; at a phone's 390 px nothing scrolls sideways and the Resend buttons are in view; axe-core (WCAG 2.1 A and
// AA) in light and dark. The uncertain state is written into the test's own database as the service writes it (the
// crash itself is test/integration/uncertain.test.ts); an HTTP receiver on 127.0.0.1 stands in for the game server,
// as the page does not depend on the callback's kind. DASHBOARD_SHOTS_DIR=<dir> saves the views at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';
import {
  expectAccessible as accessible,
  expectLayout as layout,
  launchDashboardBrowser,
  recordOperations,
  READ_ONLY_REASON,
  signIn as signInAt,
  skipDashboard,
} from '../kit/dashboard.js';

/** What the service writes for an uncertain delivery (src/domain/jobs.ts UNCERTAIN_DELIVERY). */
const UNCERTAIN_TEXT = 'the relay stopped while sending: the server may or may not have it';

// A page over GraphQL, whatever the database: run once, on SQLite.
describe.skipIf(databaseUnavailable || skipDashboard || dialect !== 'sqlite')('dashboard: votes left uncertain by a restart, in Chromium', () => {
  let app: TestApp;
  let org: TestOrg;
  let starter: TestOrg;
  let game: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const hooks = new Map<string, string>();
  const ids: Record<string, string> = {};
  /** The GraphQL operations the page sent, by operation name. */
  let sent: ReturnType<typeof recordOperations> = [];

  /** A provider whose votes go to `game` by an HTTP callback. */
  async function setUp(o: TestOrg) {
    const made = await app.request('POST', '/v1/providers', {
      key: o.key,
      body: { key: 'list', name: 'The List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(made.status, made.text).toBe(201);
    hooks.set(o.id, new URL(made.body.data.webhook_url).pathname);
    const callback = await app.request('POST', '/v1/callbacks', { key: o.key, body: { name: 'Survival', url: `${game.url}/vote` } });
    expect(callback.status, callback.text).toBe(201);
  }

  /** A vote through the real hook, waited for until its callback was sent. */
  async function vote(o: TestOrg, user: string): Promise<string> {
    const res = await app.request('POST', hooks.get(o.id)!, { body: { user } });
    expect(res.status, res.text).toBe(200);
    const id = res.body.data.vote_id as string;
    // Read from the database: a starter plan has no GET /v1/votes/:id.
    await until(
      async () => (await app.deps.db.prisma.vote.findFirst({ where: { organizationId: o.id, publicId: id } }))?.callbackStatus,
      (status) => status === 'sent',
      10_000,
    );
    return id;
  }

  /**
   * What the worker writes for a callback found marked and unfinished after a restart: an attempt nobody knows the
   * outcome of, the job `uncertain` with that error, and the vote's callback_status `uncertain`.
   */
  async function makeUncertain(o: TestOrg, publicId: string) {
    const prisma = app.deps.db.prisma;
    const row = await prisma.vote.findFirstOrThrow({ where: { organizationId: o.id, publicId } });
    const job = await prisma.deliveryJob.findFirstOrThrow({ where: { voteId: row.id, kind: 'callback' } });
    await prisma.deliveryAttempt.create({
      data: {
        organizationId: o.id,
        jobId: job.id,
        voteId: row.id,
        attempt: job.attempts + 1,
        target: `${game.url}/vote`,
        statusCode: null,
        success: false,
        durationMs: 0,
        error: UNCERTAIN_TEXT,
      },
    });
    await prisma.deliveryJob.update({
      where: { id: job.id },
      data: { status: 'uncertain', attempts: job.attempts + 1, sentAt: null, lastError: UNCERTAIN_TEXT, lockedBy: null, lockedUntil: null },
    });
    await prisma.vote.update({ where: { id: row.id }, data: { callbackStatus: 'uncertain', callbackSentAt: null, callbackAttempts: { increment: 1 } } });
  }

  /** How many times the game server received the voter's vote. */
  const received = (user: string) => game.requests.filter((r) => r.body.includes(`"${user}"`)).length;
  const uncertainIds = async (o: TestOrg) =>
    ((await app.request('GET', '/v1/votes?callback_status=uncertain', { key: o.key })).body.data.votes as { public_id: string }[]).map((v) => v.public_id);

  const signIn = (p: Page, key: string) => signInAt(p, app.url, key);
  async function openVotes(p: Page) {
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Votes', exact: true }).click();
    await p.getByRole('heading', { level: 1, name: 'Votes' }).waitFor();
  }
  const notice = (p: Page = page) => p.getByTestId('uncertain-notice');
  const filters = () => page.getByRole('form', { name: 'Filter votes' });
  const table = (p: Page = page) => p.getByTestId('votes-table');
  const voters = async (p: Page = page) => (await table(p).locator('tbody td.voter a').allTextContents()).sort();
  const resendOf = (user: string, p: Page = page) => p.getByRole('button', { name: `Resend the vote by ${user}`, exact: true });

  const expectLayout = (label: string, actions: () => ReturnType<Page['getByRole']>[]) => layout(page, label, actions);
  const expectAccessible = (label: string) => accessible(page, label);

  beforeAll(async () => {
    app = await startTestApp({ DELIVERY_POLL_MS: '100' });
    game = await startReceiver({ status: 200, body: { ok: true } });
    org = await app.createOrg({ plan: 'growth', name: 'Crashed Network' });
    starter = await app.createOrg({ plan: 'starter', name: 'Small Server' });
    await setUp(org);
    await setUp(starter);
    for (const user of ['Steve', 'Alex', 'Sam', 'Kim']) ids[user] = await vote(org, user);
    for (const user of ['Steve', 'Alex', 'Kim']) await makeUncertain(org, ids[user]);
    expect((await uncertainIds(org)).sort()).toEqual([ids.Steve, ids.Alex, ids.Kim].sort());

    browser = await launchDashboardBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(8_000);
    sent = recordOperations(page);
    await signIn(page, org.key);
    await page.getByText('full access').waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await game?.close();
  });

  it('the notice says how many votes are uncertain and what it means; its button lists only them; uncertain has its own style and is in the filters', async () => {
    await openVotes(page);
    await notice().getByRole('heading', { name: '3 votes may or may not have reached your game servers' }).waitFor();
    expect(await notice().textContent()).toMatch(
      /The relay sent them but cannot tell whether they arrived .* nobody was sent a vote twice\. Check the server or ask the player/,
    );
    await table().waitFor();
    expect(await voters()).toEqual(['Alex', 'Kim', 'Sam', 'Steve']);

    // Its own style, apart from failed, and what it means on hover.
    const badge = table().getByRole('row', { name: /Steve/ }).locator('td.callbacks .status');
    expect(await badge.textContent()).toBe('uncertain');
    expect(await badge.getAttribute('class')).toBe('status uncertain');
    expect(await badge.getAttribute('title')).toContain(UNCERTAIN_TEXT);
    const style = await badge.evaluate((el) => ({ color: getComputedStyle(el).color, background: getComputedStyle(el).backgroundColor }));
    const failedColor = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'status failed';
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    expect(style.color).not.toBe(failedColor);
    expect(style.background).not.toBe('rgba(0, 0, 0, 0)');
    // A sent vote has no Resend; each uncertain one has its own.
    expect(await table().getByRole('row', { name: /Sam/ }).getByRole('button').count()).toBe(0);
    for (const user of ['Steve', 'Alex', 'Kim']) expect(await resendOf(user).isEnabled()).toBe(true);

    // `uncertain` is in both status filters (growth), and the callbacks one lists the same votes.
    for (const label of ['Chat', 'Callbacks']) expect(await filters().getByLabel(label).locator('option').allTextContents()).toContain('uncertain');

    await notice().getByRole('button', { name: 'Show only these 3 votes' }).click();
    await page.getByText('Page 1 of 1 (3 votes)').waitFor();
    expect(await voters()).toEqual(['Alex', 'Kim', 'Steve']);
    expect(await filters().getByLabel('Callbacks').inputValue()).toBe('uncertain');
    await expectAccessible('votes, only the uncertain ones');
    await expectLayout('votes-uncertain', () => ['Steve', 'Alex', 'Kim'].map((u) => resendOf(u)));

    await notice().getByRole('button', { name: 'Show all votes' }).click();
    await page.getByText('Page 1 of 1 (4 votes)').waitFor();
    expect(await voters()).toEqual(['Alex', 'Kim', 'Sam', 'Steve']);
  });

  it('a read key sees the notice and the list, but no active Resend, and says why', async () => {
    const reader = await context.browser()!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await reader.newPage();
      p.setDefaultTimeout(8_000);
      await signIn(p, org.readKey);
      await p.getByText('read only').waitFor();
      await openVotes(p);
      await notice(p).getByRole('heading', { name: '3 votes may or may not have reached your game servers' }).waitFor();
      await notice(p).getByRole('button', { name: 'Show only these 3 votes' }).click();
      await p.getByText('Page 1 of 1 (3 votes)').waitFor();
      const buttons = table(p).getByRole('button', { name: /^Resend/ });
      expect(await buttons.count()).toBe(3);
      for (const button of await buttons.all()) {
        expect(await button.isDisabled()).toBe(true);
        expect(await button.getAttribute('title')).toBe(READ_ONLY_REASON);
      }
      await p.goto(`${app.url}/votes/${ids.Alex}`);
      const detail = p.getByRole('button', { name: 'Resend 1 uncertain delivery' });
      await detail.waitFor();
      expect(await detail.isDisabled()).toBe(true);
      expect(await detail.getAttribute('title')).toBe(READ_ONLY_REASON);
    } finally {
      await reader.close();
    }
    expect(await uncertainIds(org)).toHaveLength(3);
  });

  it('Resend calls redeliverVote, says so, and the vote leaves the uncertain list; sent again once, on purpose', async () => {
    await notice().getByRole('button', { name: 'Show only these 3 votes' }).click();
    await page.getByText('Page 1 of 1 (3 votes)').waitFor();
    expect(received('Steve')).toBe(1);
    await resendOf('Steve').click();
    await notice().getByRole('status').getByText('The vote by Steve: queued again (1 delivery).').waitFor();
    expect(sent.filter((s) => s.operation === 'ResendVote').map((s) => s.variables)).toEqual([{ publicId: ids.Steve }]);
    // The list and the count are read again: Steve is no longer uncertain.
    await page.getByText('Page 1 of 1 (2 votes)').waitFor();
    expect(await voters()).toEqual(['Alex', 'Kim']);
    await notice().getByRole('heading', { name: '2 votes may or may not have reached your game servers' }).waitFor();
    expect((await uncertainIds(org)).sort()).toEqual([ids.Alex, ids.Kim].sort());
    await until(
      async () => received('Steve'),
      (n) => n === 2,
      10_000,
    );
    await until(
      async () => (await app.request('GET', `/v1/votes/${ids.Steve}`, { key: org.key })).body.data.callback_status,
      (status) => status === 'sent',
      10_000,
    );

    // From the whole list, the row itself says what happened.
    await notice().getByRole('button', { name: 'Show all votes' }).click();
    await page.getByText('Page 1 of 1 (4 votes)').waitFor();
    await resendOf('Kim').click();
    const kim = table().getByRole('row', { name: /Kim/ });
    await kim.getByRole('status').getByText('queued again (1 delivery)').waitFor();
    expect(await resendOf('Kim').count()).toBe(0);
    await until(
      async () => received('Kim'),
      (n) => n === 2,
      10_000,
    );
    await notice().getByRole('heading', { name: '1 vote may or may not have reached your game servers' }).waitFor();
    expect(await uncertainIds(org)).toEqual([ids.Alex]);
    await page.reload();
    await expect(kim.locator('td.callbacks .status').textContent()).resolves.not.toBe('uncertain');
    await expectLayout('votes-after-resend', () => [resendOf('Alex')]);
  });

  it('a vote\'s page: "Resend 1 uncertain delivery", a warning that the server may already have it, the job\'s status in words', async () => {
    await table().getByRole('link', { name: 'Alex' }).click();
    await page.getByRole('heading', { level: 1, name: /Alex/ }).waitFor();
    const button = page.getByRole('button', { name: 'Resend 1 uncertain delivery' });
    await button.waitFor();
    expect(await button.isEnabled()).toBe(true);
    expect(await button.getAttribute('title')).toMatch(/^Send its 1 uncertain delivery again on purpose \(the server may already have it\)$/);
    await page.getByText('Sent, and nothing says whether it arrived: the server may already have it. Check the server or ask the player first.').waitFor();
    const job = page.getByTestId('delivery-jobs').locator('.status.uncertain');
    expect(await job.textContent()).toBe(`uncertain: ${UNCERTAIN_TEXT}`);
    expect(await page.locator('dl.facts .status.uncertain').textContent()).toBe('uncertain');
    expect(await page.getByTestId('delivery-attempts').locator('.status.uncertain').textContent()).toBe(UNCERTAIN_TEXT);
    await expectAccessible('an uncertain vote');
    await expectLayout('vote-uncertain', () => [button]);

    await button.click();
    await page.getByRole('status').getByText('1 delivery queued again.').waitFor();
    await until(
      async () => received('Alex'),
      (n) => n === 2,
      10_000,
    );
    expect(await uncertainIds(org)).toEqual([]);
    await page.getByRole('link', { name: '← Votes' }).click();
    await table().waitFor();
    // Read again on the way back (not the count cached before the resend): the notice goes.
    await notice().waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('on the starter plan, an uncertain vote older than the last 10 is announced and listed by the notice’s button', async () => {
    const early = await vote(starter, 'Early');
    for (let i = 1; i <= 10; i++) await vote(starter, `Later${i}`);
    await makeUncertain(starter, early);
    await context.clearCookies();
    await page.evaluate(() => sessionStorage.clear());
    await signIn(page, starter.key);
    await openVotes(page);
    await notice().getByRole('heading', { name: '1 vote may or may not have reached your game servers' }).waitFor();
    await table().waitFor();
    expect(await voters()).not.toContain('Early');
    expect(await page.getByRole('form', { name: 'Filter votes' }).count()).toBe(0);
    await notice().getByRole('button', { name: 'Show only this vote' }).click();
    await page.getByText('Page 1 of 1 (1 vote)').waitFor();
    expect(await voters()).toEqual(['Early']);
    await expectLayout('votes-starter-uncertain', () => [resendOf('Early')]);
    await resendOf('Early').click();
    await notice().getByText('The vote by Early: queued again (1 delivery).').waitFor();
    await page.getByText('No vote is uncertain now.').waitFor();
    await until(
      async () => received('Early'),
      (n) => n === 2,
      10_000,
    );
  });
});
