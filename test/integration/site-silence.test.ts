// A site that goes quiet (README "A site that goes quiet"): with 14 days of history written into the database and a
// clock the test controls, a site that usually sends votes and stops gets one admin alert per silence (exactly once,
// across two instances on PostgreSQL) and one when it sends again; the overview shows it with its last request's
// refusal; a site too quiet to judge gets nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, type TestApp, type TestOrg } from '../kit/app.js';
import type { Receiver } from '../kit/receiver.js';
import { chatJobs, exactly, startAlertApps, tickBoth, type AlertApps } from '../kit/alerts.js';
import { until } from '../kit/wait.js';
import { expectAccessible, expectLayout, launchDashboardBrowser, signIn, skipDashboard } from '../kit/dashboard.js';

const HOUR = 3_600_000;
const clock = {
  at: new Date('2026-03-30T15:00:00.000Z'),
  now() {
    return new Date(this.at);
  },
};

describe.skipIf(databaseUnavailable)('a site that goes quiet (history in the database, a clock the test controls)', () => {
  let apps: AlertApps;
  let app: TestApp;
  let twin: TestApp | null;
  let admin: Receiver;

  beforeAll(async () => {
    apps = await startAlertApps(clock);
    ({ app, twin, admin } = apps);
  });
  afterAll(() => apps?.stop());

  /** An organization with an admin webhook and one site; `perHour` real votes every hour of the 14 days up to `until` (the last one then). */
  async function site(name: string, perHour: number, until: Date) {
    const o: TestOrg = await app.createOrg({ plan: 'growth' });
    const path = `/admin/${o.slug}`;
    expect((await app.request('PATCH', '/v1/organization', { key: o.key, body: { settings: { chat_admin_webhook_url: `${admin.url}${path}` } } })).status).toBe(
      200,
    );
    const made = await app.request('POST', '/v1/providers', {
      key: o.key,
      body: { key: 'list', name, auth_method: 'header', auth_field: 'X-Secret', auth_value: 'site-silence-secret-0123', votee_path: 'user' },
    });
    expect(made.status, made.text).toBe(201);
    const provider = await app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: o.id, key: 'list' } });
    const votes: { receivedAt: Date }[] = [];
    for (let hour = 14 * 24; hour >= 1; hour--) {
      for (let i = 0; i < perHour; i++) votes.push({ receivedAt: new Date(until.getTime() - hour * HOUR + ((i + 1) * HOUR) / perHour) });
    }
    const days = new Map<string, number>();
    for (const v of votes) days.set(v.receivedAt.toISOString().slice(0, 10), (days.get(v.receivedAt.toISOString().slice(0, 10)) ?? 0) + 1);
    const prisma = app.deps.db.prisma;
    for (let i = 0; i < votes.length; i += 500) {
      await prisma.vote.createMany({
        data: votes.slice(i, i + 500).map((v) => {
          const id = randomUUID();
          return {
            id,
            publicId: `vt_${id}`,
            organizationId: o.id,
            providerId: provider.id,
            voterName: 'History',
            voterKey: 'history',
            receivedAt: v.receivedAt,
            rawPayload: '{}',
            dedupKey: id,
          };
        }),
      });
    }
    await prisma.providerDailyCount.createMany({ data: [...days].map(([day, count]) => ({ organizationId: o.id, providerId: provider.id, day, count })) });
    const hook = new URL(made.body.data.webhook_url).pathname;
    const received = () => admin.requests.filter((r) => r.path === path).map((r) => r.json.embeds[0] as { title: string; description: string });
    const quiet = async () =>
      (await app.request('POST', '/graphql', { key: o.key, body: { query: '{ quietSites { providerKey message lastRequestOutcome lastRequestHint } }' } })).body
        .data.quietSites as { providerKey: string; message: string; lastRequestOutcome: string | null }[];
    return { o, hook, received, quiet };
  }

  it('40 votes an hour, then none: one alert naming the silence, its usual rate and its last refusal; shown on the overview; one alert when it sends again', async () => {
    const stopped = new Date('2026-03-30T15:00:00.000Z');
    const s = await site('Top List', 40, stopped);
    // 20 minutes on: nothing to say.
    clock.at = new Date(stopped.getTime() + 20 * 60_000);
    await tickBoth(app, twin);
    expect(await s.quiet()).toEqual([]);
    // A delivery with the wrong secret: refused, and the last request the alert will name.
    clock.at = new Date(stopped.getTime() + 2 * HOUR);
    const refused = await app.request('POST', s.hook, { body: { user: 'Eve' }, headers: { 'x-secret': 'not-the-secret-at-all' } });
    expect(refused.status).toBe(401);
    await until(
      () => app.deps.db.prisma.hookRequest.count({ where: { organizationId: s.o.id, outcome: 'refused' } }),
      (n) => n === 1,
    );
    // Three hours on: at 40 an hour, no vote at all is a silence.
    clock.at = new Date(stopped.getTime() + 3 * HOUR);
    await tickBoth(app, twin);
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    const [alert] = s.received();
    expect(alert.title).toBe('Top List has gone quiet');
    expect(alert.description).toBe(
      'Top List has sent no vote for 3 h; it usually sends 40 an hour at this time; its last request was refused: the secret did not match: check the secret you pasted into the site.',
    );
    const shown = await s.quiet();
    expect(shown).toEqual([
      { providerKey: 'list', message: alert.description.slice(0, -1), lastRequestOutcome: 'refused', lastRequestHint: expect.stringContaining('secret') },
    ]);
    // The overview says it first, with a way to its requests (Chromium, once: SQLite).
    if (dialect === 'sqlite' && !skipDashboard) {
      const browser = await launchDashboardBrowser();
      try {
        const page = await browser.newPage();
        await signIn(page, app.url, s.o.key);
        const section = page.getByTestId('quiet-sites');
        await section.getByText(alert.description.slice(0, -1)).waitFor({ timeout: 10_000 });
        expect(await section.getByRole('heading').textContent()).toBe('A site has gone quiet');
        await expectLayout(page, 'overview-quiet-site', () => [section.getByRole('link', { name: 'Its requests' })]);
        await expectAccessible(page, 'overview-quiet-site');
      } finally {
        await browser.close();
      }
    }
    // Still silent an hour later: the same silence, no second alert.
    clock.at = new Date(stopped.getTime() + 4 * HOUR);
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    // It sends again: one alert, and the overview has nothing to show.
    clock.at = new Date(stopped.getTime() + 5 * HOUR);
    const back = await app.request('POST', s.hook, { body: { user: 'Steve' }, headers: { 'x-secret': 'site-silence-secret-0123' } });
    expect(back.status, back.text).toBe(200);
    await tickBoth(app, twin);
    await tickBoth(app, twin);
    await exactly(s.received, 2, app, s.o.id);
    expect(s.received()[1]).toMatchObject({
      title: 'Top List is sending votes again',
      description: `Its first vote after 5 h of silence arrived at ${clock.at.toISOString()}.`,
    });
    expect(await s.quiet()).toEqual([]);
  });

  it('nothing for a site too quiet to judge (about 3 votes a day), however long its silence', async () => {
    const stopped = new Date('2026-04-20T12:00:00.000Z');
    clock.at = stopped;
    const s = await site('Small List', 0, stopped);
    // Three votes a day for two weeks (42): fewer than a site must have to be judged.
    const provider = await app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: s.o.id } });
    for (let day = 14; day >= 1; day--) {
      await app.deps.db.prisma.providerDailyCount.create({
        data: { organizationId: s.o.id, providerId: provider.id, day: new Date(stopped.getTime() - day * 24 * HOUR).toISOString().slice(0, 10), count: 3 },
      });
      for (const h of [8, 14, 20]) {
        const id = randomUUID();
        await app.deps.db.prisma.vote.create({
          data: {
            id,
            publicId: `vt_${id}`,
            organizationId: s.o.id,
            providerId: provider.id,
            voterName: 'Rare',
            voterKey: 'rare',
            receivedAt: new Date(stopped.getTime() - day * 24 * HOUR + (h - 12) * HOUR),
            rawPayload: '{}',
            dedupKey: id,
          },
        });
      }
    }
    clock.at = new Date(stopped.getTime() + 4 * 24 * HOUR);
    await tickBoth(app, twin);
    // The ticks are done: an alert they made would be a job by now.
    expect(await chatJobs(app, s.o.id)).toBe(0);
    expect(s.received()).toEqual([]);
    expect(await s.quiet()).toEqual([]);
  });
});
