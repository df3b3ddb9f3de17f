import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_SECRET_KEY, createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, testDatabaseUrl, type TestApp } from '../kit/app.js';
import { runCli } from '../kit/processes.js';

describe.skipIf(databaseUnavailable)('cli stats verify / rebuild', () => {
  const databaseUrl = testDatabaseUrl();
  const env = { DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY };
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({}, { databaseUrl });
  });
  afterAll(() => app?.stop());

  it('finds a corrupted count and repairs it from the raw votes', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    for (const user of ['ann', 'Ann', 'bob']) expect((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).status).toBe(200);

    const clean = await runCli(['stats', 'verify', '--org', org.slug, '--json'], env);
    expect(clean.code).toBe(0);
    expect(clean.json).toEqual({ consistent: true, differences: [] });

    await app.deps.db.prisma.providerDailyCount.updateMany({ where: { providerId: made.id }, data: { count: 99 } });
    const broken = await runCli(['stats', 'verify', '--org', org.slug, '--json'], env);
    expect(broken.code).toBe(1);
    expect(broken.json.differences).toEqual([{ table: 'ProviderDailyCount', key: expect.stringContaining(made.id), expected: 3, actual: 99 }]);

    const rebuilt = await runCli(['stats', 'rebuild', '--org', org.slug, '--json'], env);
    expect(rebuilt.code).toBe(0);
    const again = await runCli(['stats', 'verify', '--org', org.slug, '--json'], env);
    expect(again.json.consistent).toBe(true);
    const usage = (await app.request('GET', '/v1/organization', { key: org.key })).body.data.usage;
    expect(usage.votes_this_month).toBe(3);
    const voters = await app.deps.db.prisma.voterDailyCount.findMany({ where: { providerId: made.id }, orderBy: { voterKey: 'asc' } });
    expect(voters.map((v) => [v.voterKey, v.count])).toEqual([
      ['ann', 2],
      ['bob', 1],
    ]);
  }, 60_000);

  it('finds a voter standing that disagrees with the per-day counts, and rebuilds it; local days are checked too', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    for (const user of ['cat', 'Cat', 'dan']) expect((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).status).toBe(200);
    const prisma = app.deps.db.prisma;
    await prisma.voterStanding.updateMany({
      where: { organizationId: org.id, voterKey: 'cat' },
      data: { streakDays: 9, total: 7, providerTotalsJson: JSON.stringify({ [made.id]: 5, 'gone-site': 1 }) },
    });

    const broken = await runCli(['stats', 'verify', '--org', org.slug, '--json'], env);
    expect(broken.code).toBe(1);
    expect(broken.json.differences).toEqual(
      expect.arrayContaining([
        { table: 'VoterStanding', key: `${org.id}/cat/total`, expected: 2, actual: 7 },
        { table: 'VoterStanding', key: `${org.id}/cat/streakDays`, expected: 1, actual: 9 },
        { table: 'VoterStanding', key: `${org.id}/cat/providerTotals/${made.id}`, expected: 2, actual: 5 },
        { table: 'VoterStanding', key: `${org.id}/cat/providerTotals/gone-site`, expected: 0, actual: 1 },
      ]),
    );
    expect(broken.json.differences).toHaveLength(4);

    const rebuilt = await runCli(['stats', 'rebuild', '--org', org.slug, '--json'], env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.json.rebuilt.voterStandings).toBe(2);
    expect((await runCli(['stats', 'verify', '--org', org.slug, '--json'], env)).json).toEqual({ consistent: true, differences: [] });
    const next = await app.request('POST', new URL(made.webhook_url).pathname, { body: { user: 'cat', n: 2 } });
    expect((await app.request('GET', `/v1/votes/${next.body.data.vote_id}`, { key: org.key })).body.data).toMatchObject({
      voter_total: 3,
      voter_streak_days: 1,
      provider_voter_total: 3,
    });

    // An organization whose days are not UTC days keeps its voters' local days, from the UTC days counted so far.
    const zoned = await app.createOrg({ plan: 'business' });
    const site = (
      await app.request('POST', '/v1/providers', {
        key: zoned.key,
        body: { key: 'z', name: 'Z', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    expect((await app.request('POST', new URL(site.webhook_url).pathname, { body: { user: 'gus' } })).status).toBe(200);
    expect(await prisma.voterDay.count({ where: { organizationId: zoned.id } })).toBe(0);
    const set = await app.request('PATCH', '/v1/organization', { key: zoned.key, body: { settings: { time_zone: 'Asia/Tokyo' } } });
    expect(set.status, set.text).toBe(200);
    expect((await app.request('POST', new URL(site.webhook_url).pathname, { body: { user: 'gus', n: 2 } })).status).toBe(200);
    expect((await prisma.voterDay.findMany({ where: { organizationId: zoned.id } })).reduce((sum, d) => sum + d.count, 0)).toBe(2);
    expect((await runCli(['stats', 'verify', '--org', zoned.slug, '--json'], env)).json).toEqual({ consistent: true, differences: [] });
    await prisma.voterDay.updateMany({ where: { organizationId: zoned.id }, data: { count: 5 } });
    const drifted = await runCli(['stats', 'verify', '--org', zoned.slug, '--json'], env);
    expect(drifted.json.differences).toEqual(expect.arrayContaining([expect.objectContaining({ table: 'VoterDay', key: `${zoned.id}/gus` })]));
  }, 60_000);

  it("the upgrade's backfill (its migration) makes from the rollups the standings the writers keep", async () => {
    // A database of its own: the backfill fills every organization's standings, as an upgrade does.
    const own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    const app = await startTestApp({}, { databaseUrl: own?.url ?? testDatabaseUrl() });
    try {
      await backfillMatchesWriters(app);
    } finally {
      await app.stop();
      await own?.drop();
    }
  }, 60_000);

  async function backfillMatchesWriters(app: TestApp) {
    const env = { DATABASE_URL: app.config.databaseUrl, SECRET_KEY: TEST_SECRET_KEY };
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    for (const user of ['eve', 'EVE', 'fay']) expect((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).status).toBe(200);
    const prisma = app.deps.db.prisma;
    const before = await prisma.voterStanding.findMany({ where: { organizationId: org.id }, orderBy: { voterKey: 'asc' } });
    expect(before.map((r) => [r.voterKey, r.total])).toEqual([
      ['eve', 2],
      ['fay', 1],
    ]);
    // As before the upgrade: no standings at all (the backfill fills every organization's, so all are removed).
    await prisma.voterStanding.deleteMany({});
    await prisma.voterDay.deleteMany({});
    // The backfill as an upgrade from before standings runs it: the first migration's (but the site totals, whose
    // table a later migration drops), then the later ones' data statements (local days, site totals in the standing).
    const folder = join('prisma', dialect, 'migrations');
    const statementsOf = (suffix: string, from: string) => {
      const sql = readFileSync(join(folder, readdirSync(folder).find((name) => name.endsWith(suffix))!, 'migration.sql'), 'utf8');
      return sql
        .slice(sql.indexOf(from))
        .split(/;\s*\n/)
        .map((x) => x.trim())
        .filter((x) => x.replace(/--.*$/gm, '').trim() && !x.includes('ProviderVoterStanding'));
    };
    for (const statement of [
      ...statementsOf('_voter_standing', '-- Backfill'),
      ...statementsOf('_voter_days_when_needed', '-- Organizations whose days'),
      ...statementsOf('_voter_standing_provider_totals', '-- Each standing gets'),
    ])
      await prisma.$executeRawUnsafe(statement);
    const after = await prisma.voterStanding.findMany({ where: { organizationId: org.id }, orderBy: { voterKey: 'asc' } });
    // The site totals as JSON values (PostgreSQL's json_object_agg spaces its text differently).
    const comparable = ({ lastVoteAt, providerTotalsJson, ...rest }: (typeof before)[number]) => ({
      ...rest,
      lastVoteAt: new Date(lastVoteAt).getTime(),
      providerTotals: JSON.parse(providerTotalsJson) as unknown,
    });
    expect(after.map(comparable)).toEqual(before.map(comparable));
    expect(before.map((r) => JSON.parse(r.providerTotalsJson) as unknown)).toEqual([{ [made.id]: 2 }, { [made.id]: 1 }]);
    expect((await runCli(['stats', 'verify', '--org', org.slug, '--json'], env)).json).toEqual({ consistent: true, differences: [] });
  }

  it("rebuild keeps the spelling the writers show: the day's latest vote, not the greatest string", async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    // 'steve' > 'STEVE' as strings; the later vote's 'STEVE' is what the day's row must show.
    for (const user of ['steve', 'STEVE']) {
      expect((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 5));
    }
    const spelling = async () =>
      (await app.deps.db.prisma.voterDailyCount.findMany({ where: { providerId: made.id } })).map((v) => [v.voterKey, v.voterName, v.count]);
    expect(await spelling()).toEqual([['steve', 'STEVE', 2]]);
    const rebuilt = await runCli(['stats', 'rebuild', '--org', org.slug, '--json'], env);
    expect(rebuilt.code).toBe(0);
    expect(await spelling()).toEqual([['steve', 'STEVE', 2]]);
  }, 60_000);
});
