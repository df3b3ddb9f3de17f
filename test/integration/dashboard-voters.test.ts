// The Voters pages in Chromium (README "Voters"): the list, found by the start of a name or an identity, each voter
// with identities, votes, streak and last vote; a voter's page with identities, standing per site and votes; merging
// another voter in (found by the search, confirmed, sent as mergeVoters, the history moved as the API then reads it)
// and splitting an identity off again (a new voter with the votes that came with it); a dismissed confirmation
// changes nothing; a read key has neither, and is told why; a vote's page links to its voter. At 1280 and 390 px
// nothing scrolls sideways and the actions are in view; axe-core in light and dark. Votes come through the real hook
// path. On SQLite only: the pages are the database's no more than any GraphQL client is, and merge and split are
// tested on both databases through HTTP (test/integration/voters.test.ts). DASHBOARD_SHOTS_DIR=<dir> saves the views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { expectAccessible, expectLayout, launchDashboardBrowser, recordOperations, READ_ONLY_REASON, signIn, skipDashboard } from '../kit/dashboard.js';

describe.skipIf(databaseUnavailable || skipDashboard || dialect !== 'sqlite')(
  'dashboard: voters, in Chromium (SQLite: merge and split on both databases are test/integration/voters.test.ts)',
  () => {
    let app: TestApp;
    let org: TestOrg;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let hook = '';
    /** The GraphQL operations the page sent, by operation name. */
    let sent: ReturnType<typeof recordOperations> = [];
    const voterIds: Record<string, string> = {};

    let sentVotes = 0;
    async function vote(user: string): Promise<string> {
      // Each its own body: the same body again would be a duplicate.
      const res = await app.request('POST', hook, { body: { user, n: ++sentVotes } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    }
    const standingOf = async (id: string) => (await app.request('GET', `/v1/voters/${id}`, { key: org.key })).body.data;
    const table = () => page.getByTestId('voters-table');
    const listed = async () => table().locator('tbody td.voter a').allTextContents();
    const searchForm = () => page.getByRole('form', { name: 'Search voters' });
    const mergeForm = () => page.getByRole('form', { name: 'Find a voter to merge' });
    async function openVoters(p: Page = page) {
      await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Voters', exact: true }).click();
      await p.getByRole('heading', { level: 1, name: 'Voters' }).waitFor();
    }
    async function openVoter(name: string, p: Page = page) {
      await openVoters(p);
      await p.getByTestId('voters-table').getByRole('link', { name, exact: true }).click();
      await p.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    }

    beforeAll(async () => {
      app = await startTestApp();
      org = await app.createOrg({ plan: 'growth', name: 'Block Network' });
      const made = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'list', name: 'The List', auth_method: 'url_path', auth_field: 's', votee_path: 'user', voter_kind: 'minecraft' },
      });
      expect(made.status, made.text).toBe(201);
      hook = new URL(made.body.data.webhook_url).pathname;
      // Steve's vote is the latest: after the merge the voter's name is still Steve (the name follows the latest vote).
      await vote('Steve_Old');
      await vote('Steve_Old');
      await vote('Steve');
      await vote('Alex');
      const all = (await app.request('GET', '/v1/voters', { key: org.key })).body.data.voters as { id: string; display_name: string }[];
      for (const v of all) voterIds[v.display_name] = v.id;
      expect(Object.keys(voterIds).sort()).toEqual(['Alex', 'Steve', 'Steve_Old']);

      browser = await launchDashboardBrowser();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.setDefaultTimeout(8_000);
      sent = recordOperations(page);
      await signIn(page, app.url, org.key);
      await page.getByText('full access').waitFor();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
    });

    it('the list: every voter with identities, votes and streak; a prefix search; a search that finds nobody says so', async () => {
      await openVoters();
      await table().waitFor();
      expect(await listed()).toEqual(['Alex', 'Steve', 'Steve_Old']);
      await page.getByText('Page 1 of 1 (3 voters)').waitFor();
      const old = table().getByRole('row', { name: /Steve_Old/ });
      expect(await old.locator('td.identities').textContent()).toBe('Minecraft (Java) steve_old');
      expect(await old.locator('td[data-label="Votes"]').textContent()).toBe('2');
      expect(await old.locator('td[data-label="Streak"]').textContent()).toBe('1 d');
      await expectAccessible(page, 'voters');
      await expectLayout(page, 'voters', () => [searchForm().getByRole('button', { name: 'Search' })]);

      await searchForm().getByLabel('Name or identity').fill('STE');
      await searchForm().getByRole('button', { name: 'Search' }).click();
      await page.getByText('Page 1 of 1 (2 voters)').waitFor();
      expect(await listed()).toEqual(['Steve', 'Steve_Old']);
      expect(sent.filter((s) => s.operation === 'Voters').at(-1)?.variables).toMatchObject({ search: 'STE', page: 1 });

      await searchForm().getByLabel('Name or identity').fill('zz');
      await searchForm().getByRole('button', { name: 'Search' }).click();
      await page.getByText("No voter's name or identity starts with “zz”.").waitFor();
      await searchForm().getByRole('button', { name: 'Show all' }).click();
      await page.getByText('Page 1 of 1 (3 voters)').waitFor();
    });

    it("a voter's page: identities, standing per site and votes; another voter merged in after a confirmation", async () => {
      await openVoter('Steve');
      await page.getByText(voterIds.Steve, { exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Votes (1)' }).waitFor();
      expect(await page.getByRole('region', { name: 'Identities' }).locator('li').allTextContents()).toEqual([
        expect.stringMatching(/^Minecraft \(Java\) steve since /),
      ]);
      expect(await page.getByRole('region', { name: 'Sites' }).locator('tbody tr td').first().textContent()).toBe('The List');
      // One identity: nothing to split it from.
      expect(await page.getByRole('button', { name: /^Split off/ }).count()).toBe(0);
      await expectAccessible(page, 'voter');

      await mergeForm().getByLabel('Name or identity').fill('steve');
      await mergeForm().getByRole('button', { name: 'Find' }).click();
      const merge = page.getByRole('button', { name: 'Merge Steve_Old into Steve', exact: true });
      await merge.waitFor();
      // The voter itself is never offered.
      expect(await page.getByRole('button', { name: /^Merge Steve into/ }).count()).toBe(0);
      await expectLayout(page, 'voter-merge', () => [mergeForm().getByRole('button', { name: 'Find' }), merge]);

      // Dismissed: nothing is sent, nothing moves.
      page.once('dialog', (dialog) => void dialog.dismiss());
      await merge.click();
      expect(sent.some((s) => s.operation === 'MergeVoters')).toBe(false);
      expect((await standingOf(voterIds.Steve)).standing.total).toBe(1);

      let question = '';
      page.once('dialog', (dialog) => {
        question = dialog.message();
        void dialog.accept();
      });
      await merge.click();
      await page.getByRole('status').getByText('Steve_Old was merged into Steve.').waitFor();
      expect(question).toContain(`Steve_Old (${voterIds.Steve_Old}) is gone`);
      expect(sent.filter((s) => s.operation === 'MergeVoters').map((s) => s.variables)).toEqual([{ id: voterIds.Steve, other: voterIds.Steve_Old }]);
      await page.getByRole('heading', { name: 'Votes (3)' }).waitFor();
      expect(await page.getByTestId('voter-votes').locator('td.voter a').allTextContents()).toEqual(['Steve', 'Steve_Old', 'Steve_Old']);
      const merged = await standingOf(voterIds.Steve);
      expect(merged.standing.total).toBe(3);
      expect(merged.identities.map((i: { value: string }) => i.value).sort()).toEqual(['steve', 'steve_old']);
      expect((await app.request('GET', `/v1/voters/${voterIds.Steve_Old}`, { key: org.key })).status).toBe(404);
    });

    it('a read key sees voters but can neither merge nor split, and is told why', async () => {
      const reader = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const p = await reader.newPage();
        p.setDefaultTimeout(8_000);
        await signIn(p, app.url, org.readKey);
        await p.getByText('read only').waitFor();
        await openVoter('Steve', p);
        for (const button of [
          p.getByRole('button', { name: 'Split off Minecraft (Java) steve_old' }),
          p.getByRole('form', { name: 'Find a voter to merge' }).getByRole('button', { name: 'Find' }),
        ]) {
          expect(await button.isDisabled()).toBe(true);
          expect(await button.getAttribute('title')).toBe(READ_ONLY_REASON);
        }
      } finally {
        await reader.close();
      }
    });

    it('an identity split off becomes a voter of its own, with the votes that came with it', async () => {
      const split = page.getByRole('button', { name: 'Split off Minecraft (Java) steve_old' });
      await expectLayout(page, 'voter-split', () => [split]);
      page.once('dialog', (dialog) => void dialog.accept());
      await split.click();
      await page.getByRole('status').getByText('Minecraft (Java) steve_old is now its own voter.').waitFor();
      await page.getByRole('heading', { name: 'Votes (1)' }).waitFor();
      expect(sent.filter((s) => s.operation === 'SplitVoterIdentity').map((s) => s.variables)).toEqual([
        { id: voterIds.Steve, kind: 'minecraft', value: 'steve_old' },
      ]);
      expect((await standingOf(voterIds.Steve)).standing.total).toBe(1);

      await page.getByRole('status').getByRole('link', { name: 'Open Steve_Old' }).click();
      await page.getByRole('heading', { level: 1, name: 'Steve_Old' }).waitFor();
      await page.getByRole('heading', { name: 'Votes (2)' }).waitFor();
      const newId = new URL(page.url()).pathname.split('/').at(-1)!;
      expect(newId).toMatch(/^vtr_/);
      expect(newId).not.toBe(voterIds.Steve_Old);
      expect((await standingOf(newId)).standing.total).toBe(2);
    });

    it("a vote's page links to its voter", async () => {
      await page.getByTestId('voter-votes').locator('td.voter a').first().click();
      // Steve_Old's page (after the split): its latest vote.
      await page.getByRole('heading', { level: 1, name: /Vote by Steve_Old/ }).waitFor();
      await page.locator('dl.facts').getByRole('link', { name: 'Steve_Old' }).click();
      await page.getByRole('heading', { level: 1, name: 'Steve_Old' }).waitFor();
    });
  },
);
