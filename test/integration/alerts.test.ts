import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, type TestApp } from '../kit/app.js';
import type { Receiver } from '../kit/receiver.js';
import { chatJobs, exactly, startAlertApps, tickBoth, type AlertApps } from '../kit/alerts.js';

/** Time under the test's control. */
const clock = {
  at: new Date('2026-03-10T09:00:00.000Z'),
  now() {
    return new Date(this.at);
  },
};
const setTime = (iso: string) => (clock.at = new Date(iso));

describe.skipIf(databaseUnavailable)('admin alerts and summaries (injectable clock)', () => {
  let apps: AlertApps;
  let app: TestApp;
  let twin: TestApp | null;
  let admin: Receiver;

  beforeAll(async () => {
    apps = await startAlertApps(clock);
    ({ app, twin, admin } = apps);
  });
  afterAll(() => apps?.stop());

  async function org(settings: Record<string, unknown>, plan: 'growth' | 'pro' = 'growth') {
    const o = await app.createOrg({ plan });
    const path = `/admin/${o.slug}`;
    const res = await app.request('PATCH', '/v1/organization', {
      key: o.key,
      body: { settings: { chat_admin_webhook_url: `${admin.url}${path}`, ...settings } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const providers: Record<string, string> = {};
    for (const key of ['alpha', 'beta']) {
      const made = (
        await app.request('POST', '/v1/providers', {
          key: o.key,
          body: { key, name: key === 'alpha' ? 'Alpha List' : 'Beta List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
        })
      ).body.data;
      providers[key] = new URL(made.webhook_url).pathname;
    }
    const vote = async (provider: string, user: string, at: string) => {
      setTime(at);
      expect((await app.request('POST', providers[provider], { body: { user, at, n: Math.random() } })).status).toBe(200);
    };
    const received = () => admin.requests.filter((r) => r.path === path).map((r) => r.json);
    return { o, vote, received, path };
  }

  it('sends the daily summary of yesterday exactly once, across two instances, and only the latest after an outage', async () => {
    const s = await org({ admin_daily_summary: true });
    await s.vote('alpha', 'Steve', '2026-03-10T00:00:00.000Z');
    await s.vote('alpha', 'steve', '2026-03-10T12:00:00.000Z');
    await s.vote('beta', 'Alex', '2026-03-10T23:59:59.999Z');
    await s.vote('beta', 'Outside', '2026-03-11T00:00:00.000Z');

    setTime('2026-03-11T00:01:00.000Z');
    await tickBoth(app, twin);
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    expect(s.received()).toEqual([
      {
        embeds: [
          {
            color: 0x3498db,
            title: 'Daily summary · 2026-03-10',
            description: '**3** votes on 2026-03-10 (UTC).',
            fields: [
              { name: 'By provider', value: 'Alpha List: 2\nBeta List: 1', inline: true },
              { name: 'Top voters', value: expect.stringMatching(/^(Steve|steve): 2\nAlex: 1$/), inline: true },
              { name: 'Failed deliveries', value: '0', inline: false },
            ],
            footer: { text: 'Vote Relay admin summary' },
          },
        ],
        allowed_mentions: { parse: [] },
      },
    ]);

    // Down for three days: on start only the latest finished day is summarised, once.
    setTime('2026-03-14T08:00:00.000Z');
    await tickBoth(app, twin);
    await tickBoth(app, twin);
    await exactly(s.received, 2, app, s.o.id);
    expect(s.received()[1].embeds[0].title).toBe('Daily summary · 2026-03-13');
    expect(s.received()[1].embeds[0].description).toBe('**0** votes on 2026-03-13 (UTC).');
  });

  it('sends the weekly summary of the previous ISO week on Monday', async () => {
    const s = await org({ admin_weekly_summary: true });
    await s.vote('alpha', 'Weekly', '2026-03-02T00:00:00.000Z'); // Monday, first day of the week summarised
    await s.vote('alpha', 'Weekly', '2026-03-08T23:59:59.999Z'); // Sunday, its last moment
    await s.vote('alpha', 'NextWeek', '2026-03-09T00:00:00.000Z');
    setTime('2026-03-09T00:00:30.000Z');
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    const embed = s.received()[0].embeds[0];
    expect(embed.title).toBe('Weekly summary · 2026-03-02 to 2026-03-08');
    expect(embed.description).toBe('**2** votes in the week 2026-03-02 to 2026-03-08 (UTC).');
    expect(embed.fields[1].value).toBe('Weekly: 2');
  });

  it('raises a vote spike at most once per window', async () => {
    const s = await org({ admin_vote_spike_alerts: true });
    for (let i = 0; i < 25; i++) await s.vote('alpha', `fan${i}`, `2026-03-20T10:${String(10 + i).padStart(2, '0')}:00.000Z`);
    setTime('2026-03-20T10:40:00.000Z');
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id); // before moving time on: a lease is measured on this clock too
    setTime('2026-03-20T11:00:00.000Z');
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    expect(s.received()[0].embeds[0]).toMatchObject({
      title: 'Vote spike',
      description: '**25** votes in the last hour, against an average of 0.0 per hour over the previous 7 days.',
    });
  });

  it('warns at 80% and 100% of the month’s votes and of the provider limit, once each', async () => {
    const s = await org({ admin_usage_warnings: true });
    const provider = await app.deps.db.prisma.provider.findFirstOrThrow({ where: { organizationId: s.o.id, key: 'alpha' } });
    // The month's count comes from the rollups: stand in for 8,000 earlier votes there.
    await app.deps.db.prisma.providerDailyCount.create({ data: { organizationId: s.o.id, providerId: provider.id, day: '2026-04-01', count: 8_000 } });
    setTime('2026-04-02T10:00:00.000Z');
    await tickBoth(app, twin);
    await tickBoth(app, twin);
    await exactly(s.received, 1, app, s.o.id);
    expect(s.received()[0].embeds[0]).toMatchObject({ title: 'Usage at 80%', description: '8000 of 10000 votes this month used.' });

    await app.deps.db.prisma.providerDailyCount.update({ where: { providerId_day: { providerId: provider.id, day: '2026-04-01' } }, data: { count: 10_000 } });
    for (let i = 0; i < 6; i++) {
      await app.request('POST', '/v1/providers', {
        key: s.o.key,
        body: { key: `extra${i}`, name: 'x', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
    }
    await tickBoth(app, twin);
    await exactly(s.received, 3, app, s.o.id);
    const titles = s
      .received()
      .slice(1)
      .map((m) => `${m.embeds[0].title}: ${m.embeds[0].description}`)
      .sort();
    expect(titles).toEqual([
      'Usage at 100%: 10000 of 10000 votes this month used. Votes are still recorded, but chat notifications and callbacks are skipped until next month or an upgrade.',
      'Usage at 80%: 8 of 10 providers used.',
    ]);
  });

  it('sends nothing for organizations that did not turn alerts on', async () => {
    const s = await org({});
    await s.vote('alpha', 'Quiet', '2026-03-10T10:00:00.000Z');
    setTime('2026-03-11T00:01:00.000Z');
    await tickBoth(app, twin);
    // The ticks are done: an alert they made would be a job by now.
    expect(await chatJobs(app, s.o.id)).toBe(0);
    expect(s.received()).toEqual([]);
  });
});
