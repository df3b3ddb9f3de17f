// The players' vote page (README "Vote page"), through HTTP on the test database: off by default (404, the same as an
// unknown organization), then on: the sites with their buttons, a click recorded with its address hashed and
// answered with a 302 to the site's URL for that player, a vote through the hook, and the page (HTML and JSON) telling
// the player where they stand and that their vote was delivered; bad names refused; the address's budget throttles
// the page without slowing hooks; and in Chromium at 1280 and 390 px, with JavaScript on and off, nothing scrolls
// sideways and every button is in view. VOTE_PAGE_SHOTS_DIR=<dir> saves the screenshots.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';
import { freePort, v2Frame, votifierSession } from '../kit/votifier-sender.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const SHOTS = process.env.VOTE_PAGE_SHOTS_DIR ?? null;

describe.skipIf(databaseUnavailable)('the vote page', () => {
  let app: TestApp;
  let game: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ VOTE_PAGE_RATE_LIMIT_PER_MINUTE: '40', VOTIFIER_PORT: String(await freePort()) });
    game = await startReceiver({ status: 200 });
  });
  afterAll(async () => {
    await app?.stop();
    await game?.close();
  });

  async function setup(votePage: Record<string, unknown> | null = { enabled: true, title: 'Vote for Craftland' }) {
    const org: TestOrg = await app.createOrg({ plan: 'pro' });
    if (votePage) {
      const set = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { vote_page: votePage } } });
      expect(set.status, set.text).toBe(200);
      expect(set.body.data.settings.vote_page).toEqual({ title: null, show_leaderboard: false, ...votePage });
    }
    const site = async (key: string, name: string, voteUrl: string) => {
      const made = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: {
          key,
          name,
          auth_method: 'url_path',
          auth_field: 's',
          votee_path: 'user',
          voter_kind: 'minecraft',
          vote_url: voteUrl,
          vote_cooldown: { hours: 12 },
        },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.data as { key: string; webhook_url: string };
    };
    return { org, site };
  }

  it('is off by default: 404 like an organization that does not exist, in HTML and JSON', async () => {
    const { org } = await setup(null);
    for (const path of [`/vote/${org.slug}`, `/vote/${org.slug}.json`, '/vote/no-such-org', '/vote/no-such-org.json']) {
      const res = await app.request('GET', path);
      expect(res.status, path).toBe(404);
    }
    expect((await app.request('GET', `/vote/${org.slug}.json`)).body.error.code).toBe('NOT_FOUND');
  });

  it('lists the sites, records a click and sends the player on, then shows their vote delivered', async () => {
    const { org, site } = await setup();
    const topg = await site('topg', 'TopG', 'https://topg.example/server-42/in-{{player}}');
    await site('mcsl', 'MC Server List', 'https://mcsl.example/vote/42');
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Survival', url: `${game.url}/${org.slug}` } });
    expect(callback.status, callback.text).toBe(201);

    const page = await app.request('GET', `/vote/${org.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('<title>Vote for Craftland</title>');
    expect(page.text).not.toMatch(/<script|style=/);
    expect(page.text).toContain(`href="/vote/${org.slug}/go/topg"`);

    // The click: recorded (hashed address, never the address), then a 302 to the site with the name filled in.
    const go = await app.request('GET', `/vote/${org.slug}/go/topg?player=Steve_01`, { redirect: 'manual' });
    expect(go.status).toBe(302);
    expect(go.headers.get('location')).toBe('https://topg.example/server-42/in-Steve_01');
    const clicks = await app.deps.db.prisma.voteClick.findMany({ where: { organizationId: org.id } });
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({ voterName: 'Steve_01', voterId: null });
    expect(clicks[0].addressHash).not.toContain('127.0.0.1');
    expect((await app.request('GET', `/vote/${org.slug}/go/nope?player=Steve_01`, { redirect: 'manual' })).status).toBe(404);

    // The vote arrives through the hook; the page now tells the player where they stand, and the receipt.
    const voted = await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user: 'Steve_01' } });
    expect(voted.status, voted.text).toBe(200);
    await until(
      () => app.deps.db.prisma.vote.findFirst({ where: { organizationId: org.id } }),
      (v) => v?.callbackStatus === 'sent',
      10_000,
    );
    const json = await app.request('GET', `/vote/${org.slug}.json?player=steve_01`);
    expect(json.status, json.text).toBe(200);
    expect(json.headers.get('access-control-allow-origin')).toBe('*');
    const data = json.body.data;
    expect(data.sites.map((s: { key: string }) => s.key)).toEqual(['topg', 'mcsl']);
    expect(data.sites[0]).toMatchObject({ key: 'topg', name: 'TopG', go_url: expect.stringMatching(/\/vote\/.+\/go\/topg\?player=steve_01$/) });
    expect(data.sites[0].voted_at).toEqual(expect.any(String));
    expect(data.sites[0].next_vote_at).toEqual(expect.any(String));
    expect(data.sites[0].status).toMatch(/^you can vote again in (11 h|12 h)/);
    expect(data.sites[1]).toMatchObject({ voted_at: null, next_vote_at: null, status: 'vote now' });
    expect(data.player).toMatchObject({ name: 'steve_01', known: true, total: 1, streak_days: 1 });
    expect(data.player.receipt).toEqual([
      {
        vote_id: voted.body.data.vote_id,
        provider: 'TopG',
        received_at: expect.any(String),
        over_limit: false,
        deliveries: [{ target: 'Survival', status: 'delivered', time: expect.any(String) }],
      },
    ]);
    // Nothing of another player, and nothing an owner keeps: no address, no payload, no URL of the callback.
    expect(json.text).not.toContain(game.url);
    expect(json.text).not.toContain('127.0.0.1');
    const html = await app.request('GET', `/vote/${org.slug}?player=Steve_01`);
    expect(html.text).toMatch(/delivered to Survival \d\d:\d\d/);
    expect(html.text).toContain('you can vote again in');
    const stranger = await app.request('GET', `/vote/${org.slug}.json?player=Alex`);
    expect(stranger.body.data.player).toMatchObject({ name: 'Alex', known: false, total: 0, receipt: [] });
    expect(stranger.body.data.sites.every((s: { voted_at: string | null }) => s.voted_at === null)).toBe(true);
  });

  it("a vote past the organization's monthly limit: the receipt says it was received and why nothing was passed on", async () => {
    const { org, site } = await setup();
    const topg = await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Survival', url: `${game.url}/${org.slug}` } });
    expect(callback.status, callback.text).toBe(201);
    const provider = await app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: org.id, key: 'topg' } });
    // The month's count comes from the rollups: stand in for the pro plan's 25,000 votes there.
    await app.deps.db.prisma.providerDailyCount.create({
      data: { organizationId: org.id, providerId: provider.id, day: new Date().toISOString().slice(0, 10), count: 25_000 },
    });
    const voted = await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user: 'Late' } });
    expect(voted.status, voted.text).toBe(200);
    const json = await app.request('GET', `/vote/${org.slug}.json?player=Late`);
    expect(json.body.data.player.receipt).toEqual([
      { vote_id: voted.body.data.vote_id, provider: 'TopG', received_at: expect.any(String), over_limit: true, deliveries: [] },
    ]);
    const html = await app.request('GET', `/vote/${org.slug}?player=Late`);
    expect(html.text).toContain('received, but not passed on to the server: this server&#39;s monthly vote limit was reached');
    expect(html.text).not.toContain('this server gives nothing for votes yet');
  });

  it('refuses a bad name clearly, in JSON and on the page', async () => {
    const { org, site } = await setup();
    await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
    const long = await app.request('GET', `/vote/${org.slug}.json?player=${'x'.repeat(33)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.details[0].field).toBe('player');
    const html = await app.request('GET', `/vote/${org.slug}?player=${encodeURIComponent('bad\nname')}`);
    expect(html.status).toBe(400);
    expect(html.text).toContain('That name cannot be looked up');
    expect(html.text).toContain('TopG');
  });

  it("shows the last 30 days' top voters only when the owner turned that on", async () => {
    const off = await setup();
    expect((await app.request('GET', `/vote/${off.org.slug}.json`)).body.data.leaderboard).toBeNull();
    const on = await setup({ enabled: true, show_leaderboard: true });
    const topg = await on.site('topg', 'TopG', 'https://topg.example/in-{{player}}');
    for (const user of ['Ann', 'Ann', 'Bob'])
      expect((await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user, n: Math.random() } })).status).toBe(200);
    const board = (await app.request('GET', `/vote/${on.org.slug}.json`)).body.data.leaderboard;
    expect(board).toEqual([
      { name: 'Ann', votes: 2 },
      { name: 'Bob', votes: 1 },
    ]);
  });

  it("a click, its redirect, then a Votifier vote over TCP from the clicker's address with a garbled name: the vote is repaired, delivered, and counted in conversion", async () => {
    const { org } = await setup();
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'mcsl', name: 'MC Server List', auth_method: 'votifier', vote_url: 'https://mcsl.example/server/42/vote?user={{player}}' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.votifier.token).toEqual(expect.any(String));
    const read = await app.request('GET', '/v1/providers/mcsl', { key: org.key });
    expect(read.body.data).toMatchObject({ voter_kind: 'minecraft', voter_address_path: 'address' });
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Lobby', url: `${game.url}/${org.slug}-repair` } });
    expect(callback.status, callback.text).toBe(201);

    // The player clicks with their real name ...
    const go = await app.request('GET', `/vote/${org.slug}/go/mcsl?player=Notch_42`, { redirect: 'manual' });
    expect(go.status).toBe(302);
    expect(go.headers.get('location')).toBe('https://mcsl.example/server/42/vote?user=Notch_42');
    // ... and the list sends the vote by Votifier with their address and the name mistyped.
    const frame = { serviceName: 'MC Server List', username: 'Notch_4', address: '127.0.0.1', timestamp: Date.now() };
    const sent = await votifierSession(app.votifierPort!, (challenge) => v2Frame(frame, made.body.data.votifier.token, challenge));
    expect(JSON.parse(sent.answer)).toEqual({ status: 'ok' });
    const vote = await until(
      () => app.deps.db.prisma.vote.findFirst({ where: { organizationId: org.id } }),
      (v) => v?.callbackStatus === 'sent',
      10_000,
    );
    expect(vote).toMatchObject({ voterName: 'Notch_42', repairedFrom: 'Notch_4' });
    const api = await app.request('GET', `/v1/votes/${vote!.publicId}`, { key: org.key });
    expect(api.body.data).toMatchObject({ voter_name: 'Notch_42', repaired_from: 'Notch_4' });
    // The request log is written a moment after the answer (src/modules/hook-requests/recorder.ts).
    const log = await until(
      () => app.request('GET', '/v1/providers/mcsl/requests', { key: org.key }),
      (r) => r.body.data.requests.length > 0,
      10_000,
    );
    expect(log.body.data.requests[0]).toMatchObject({ voter_name: 'Notch_42', repaired_from: 'Notch_4', protocol: 'votifier_v2' });
    // The receipt shows it delivered, under the clicker's name.
    const page = await app.request('GET', `/vote/${org.slug}.json?player=Notch_42`);
    expect(page.body.data.player).toMatchObject({ known: true, total: 1 });
    expect(page.body.data.player.receipt[0].deliveries).toEqual([{ target: 'Lobby', status: 'delivered', time: expect.any(String) }]);
    // Conversion: one click, one vote, converted.
    const conversion = await app.request('GET', '/v1/stats/conversion', { key: org.key });
    expect(conversion.status, conversion.text).toBe(200);
    expect(conversion.body.data.sites).toEqual([
      { provider: 'mcsl', name: 'MC Server List', clicks: 1, votes: 1, converted_clicks: 1, conversion: 1, median_seconds_to_vote: expect.any(Number) },
    ]);

    // No repair when the name is far from the click's, or when two clicks could match.
    const far = { ...frame, username: 'Zed', timestamp: Date.now() + 1 };
    await votifierSession(app.votifierPort!, (challenge) => v2Frame(far, made.body.data.votifier.token, challenge));
    await app.request('GET', `/vote/${org.slug}/go/mcsl?player=Jeb_99`, { redirect: 'manual' });
    const twice = { ...frame, username: 'Jeb_9', timestamp: Date.now() + 2 };
    await votifierSession(app.votifierPort!, (challenge) => v2Frame(twice, made.body.data.votifier.token, challenge));
    const names = (await app.deps.db.prisma.vote.findMany({ where: { organizationId: org.id }, orderBy: { receivedAt: 'asc' } })).map((v) => [
      v.voterName,
      v.repairedFrom,
    ]);
    expect(names).toEqual([
      ['Notch_42', 'Notch_4'],
      ['Zed', null],
      ['Jeb_9', null],
    ]);
  });

  it('clicks go with the payloads (RAW_PAYLOAD_RETENTION_DAYS): an old click is deleted by retention, a recent one kept', async () => {
    const { org, site } = await setup();
    await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
    expect((await app.request('GET', `/vote/${org.slug}/go/topg?player=Recent`, { redirect: 'manual' })).status).toBe(302);
    const recent = await app.deps.db.prisma.voteClick.findFirstOrThrow({ where: { organizationId: org.id } });
    // A click as one made 31 days ago would be stored (RAW_PAYLOAD_RETENTION_DAYS is 30 by default).
    await app.deps.db.prisma.voteClick.create({
      data: { ...recent, id: `${recent.id}-old`, voterName: 'Old', at: new Date(Date.now() - 31 * 86_400_000) },
    });
    const run = await app.retention.tick();
    expect(run.clicksDeleted).toBeGreaterThanOrEqual(1);
    expect((await app.deps.db.prisma.voteClick.findMany({ where: { organizationId: org.id } })).map((c) => c.voterName)).toEqual(['Recent']);
  });

  it('conversion: each vote answers one click, within a day and not before it, over more clicks than one read takes (400)', async () => {
    const { org, site } = await setup();
    const topg = await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
    await site('mcsl', 'MC Server List', 'https://mcsl.example/vote/42');
    const providers = await app.deps.db.prisma.provider.findMany({ where: { organizationId: org.id } });
    const idOf = (key: string) => providers.find((p) => p.key === key)!.id;
    const now = Date.now();
    // Clicks as the service stores them (GET /vote/:slug/go/:provider), written straight in: 1,100 that no vote
    // answers, Ann's two clicks an hour apart before her one vote, Bob's click after all of those (in the second read),
    // Dan's two days before his vote, and Ann's click on the other site, where she did not vote.
    const click = (i: number, providerId: string, voterName: string, at: number) => ({
      id: `click-${String(i).padStart(6, '0')}`,
      organizationId: org.id,
      providerId,
      voterName,
      addressHash: 'h',
      at: new Date(at),
    });
    const rows = Array.from({ length: 1_100 }, (_, i) => click(i + 10, idOf('topg'), `Filler_${i}`, now - 2 * 3_600_000 + i));
    rows.push(
      click(1, idOf('topg'), 'Ann', now - 3 * 3_600_000),
      click(2, idOf('topg'), 'Ann', now - 3_600_000),
      click(3, idOf('mcsl'), 'Ann', now - 3_600_000),
      click(4, idOf('topg'), 'Dan', now - 2 * 86_400_000),
      click(999_999, idOf('topg'), 'Bob', now - 60_000),
    );
    for (let i = 0; i < rows.length; i += 1_000) await app.deps.db.prisma.voteClick.createMany({ data: rows.slice(i, i + 1_000) });
    for (const user of ['Ann', 'Bob', 'Dan']) expect((await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user } })).status).toBe(200);

    const res = await app.request('GET', '/v1/stats/conversion', { key: org.key });
    expect(res.status, res.text).toBe(200);
    const bySite = Object.fromEntries((res.body.data.sites as { provider: string; median_seconds_to_vote: number | null }[]).map((s) => [s.provider, s]));
    expect(bySite.topg).toMatchObject({ clicks: 1_104, votes: 3, converted_clicks: 2, conversion: Math.round((2 / 1_104) * 10_000) / 10_000 });
    // Ann's vote answers her first click (3 h before), Bob's his (1 min): the median of about 10,800 s and 60 s.
    expect(bySite.topg.median_seconds_to_vote).toBeGreaterThan(5_000);
    expect(bySite.topg.median_seconds_to_vote).toBeLessThan(5_600);
    expect(bySite.mcsl).toMatchObject({ clicks: 1, votes: 0, converted_clicks: 0, conversion: 0, median_seconds_to_vote: null });
  });

  describe.skipIf(!haveChromium && process.env.CI !== 'true')('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('at 1280 and 390 px, with JavaScript on and off: no sideways scroll, every button in view, the form works', async () => {
      const { org, site } = await setup();
      const topg = await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
      await site('long', 'A site with a very long name that goes on and on for a while', 'https://long.example/vote');
      expect((await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user: 'Herobrine_Longname' } })).status).toBe(200);
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
      for (const javaScriptEnabled of [true, false])
        for (const width of [1280, 390]) {
          const context = await browser.newContext({ viewport: { width, height: 844 }, javaScriptEnabled });
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
          await page.goto(`${app.url}/vote/${org.slug}`);
          // The form is a plain GET form: it works with JavaScript off.
          await page.fill('input[name=player]', 'Herobrine_Longname');
          await Promise.all([page.waitForURL(/player=Herobrine_Longname/), page.click('button[type=submit]')]);
          await page.waitForSelector('.receipt');
          const layout = await page.evaluate(() => ({
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            buttons: [...document.querySelectorAll('a.go')].map((a) => {
              const r = a.getBoundingClientRect();
              return { left: r.left, right: r.right };
            }),
            styled: getComputedStyle(document.body).backgroundColor,
          }));
          expect(layout.overflow, `${width} px, JavaScript ${javaScriptEnabled}`).toBeLessThanOrEqual(0);
          expect(layout.buttons).toHaveLength(2);
          for (const b of layout.buttons) {
            expect(b.left).toBeGreaterThanOrEqual(0);
            expect(b.right).toBeLessThanOrEqual(width);
          }
          // The stylesheet loaded under the CSP (a dark page), and nothing was refused.
          expect(layout.styled).toBe('rgb(15, 17, 21)');
          expect(errors).toEqual([]);
          if (SHOTS) await page.screenshot({ path: join(SHOTS, `vote-page-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`), fullPage: true });
          await context.close();
        }
    }, 60_000);
  });

  // Last: it spends this address's budget (every request here comes from 127.0.0.1). The budget is counted in memory,
  // not in the database: run once, on SQLite.
  it.skipIf(dialect !== 'sqlite')(
    "throttles 10,000 requests from one address past its budget, while the organization's hooks are all taken",
    async () => {
      const { org, site } = await setup();
      const topg = await site('topg', 'TopG', 'https://topg.example/in-{{player}}');
      const statuses = new Map<number, number>();
      let next = 0;
      const flood = async () => {
        while (next < 10_000) {
          next += 1;
          const res = await fetch(`${app.url}/vote/${org.slug}.json?player=Flood`);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      };
      // Hooks during the flood: each vote is taken (its own budgets), and their times go to the log for a reader.
      const hookTimes: number[] = [];
      const hooks = (async () => {
        for (let i = 0; i < 20; i++) {
          const started = performance.now();
          const hook = await app.request('POST', new URL(topg.webhook_url).pathname, { body: { user: `Steve${i}` } });
          hookTimes.push(performance.now() - started);
          expect(hook.status, hook.text).toBe(200);
        }
      })();
      await Promise.all([...Array.from({ length: 20 }, flood), hooks]);
      console.log(
        `[vote-page flood] ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}; 20 hooks during it: median ${Math.round(
          hookTimes.sort((x, y) => x - y)[10],
        )} ms, max ${Math.round(hookTimes.at(-1)!)} ms`,
      );
      expect(statuses.get(200)).toBeLessThanOrEqual(40);
      expect(statuses.get(429)).toBe(10_000 - (statuses.get(200) ?? 0));
      const limited = await app.request('GET', `/vote/${org.slug}.json`);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(20);
    },
    120_000,
  );
});
