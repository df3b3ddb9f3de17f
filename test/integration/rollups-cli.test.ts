import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_SECRET_KEY, createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, testDatabaseUrl, type TestApp } from '../kit/app.js';
import { runCli } from '../kit/processes.js';

/** The voter a name's votes counted under in an organization (README "Voters"). */
async function voterIdOf(app: TestApp, organizationId: string, name: string): Promise<string> {
  const identity = await app.deps.db.prisma.voterIdentity.findFirstOrThrow({ where: { organizationId, value: name }, select: { voterId: true } });
  return identity.voterId;
}

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
    const voters = await app.deps.db.prisma.voterDailyCount.findMany({ where: { providerId: made.id }, orderBy: { voterName: 'asc' } });
    expect(voters.map((v) => [v.voterKey, v.voterName, v.count])).toEqual([
      [await voterIdOf(app, org.id, 'ann'), 'Ann', 2],
      [await voterIdOf(app, org.id, 'bob'), 'bob', 1],
    ]);
  }, 60_000);

  it('finds a voter standing that disagrees with the per-day counts, and rebuilds it; local days are checked too', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    for (const user of ['cat', 'Cat', 'dan']) expect((await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).status).toBe(200);
    const prisma = app.deps.db.prisma;
    const cat = await voterIdOf(app, org.id, 'cat');
    await prisma.voterStanding.updateMany({
      where: { organizationId: org.id, voterKey: cat },
      data: { streakDays: 9, total: 7, providerTotalsJson: JSON.stringify({ [made.id]: 5, 'gone-site': 1 }) },
    });

    const broken = await runCli(['stats', 'verify', '--org', org.slug, '--json'], env);
    expect(broken.code).toBe(1);
    expect(broken.json.differences).toEqual(
      expect.arrayContaining([
        { table: 'VoterStanding', key: `${org.id}/${cat}/total`, expected: 2, actual: 7 },
        { table: 'VoterStanding', key: `${org.id}/${cat}/streakDays`, expected: 1, actual: 9 },
        { table: 'VoterStanding', key: `${org.id}/${cat}/providerTotals/${made.id}`, expected: 2, actual: 5 },
        { table: 'VoterStanding', key: `${org.id}/${cat}/providerTotals/gone-site`, expected: 0, actual: 1 },
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
    expect(drifted.json.differences).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'VoterDay', key: `${zoned.id}/${await voterIdOf(app, zoned.id, 'gus')}` })]),
    );
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
    const eve = await voterIdOf(app, org.id, 'eve');
    const fay = await voterIdOf(app, org.id, 'fay');
    const byVoter = (rows: { voterKey: string }[]) => [...rows].sort((a, b) => [eve, fay].indexOf(a.voterKey) - [eve, fay].indexOf(b.voterKey));
    const before = byVoter(await prisma.voterStanding.findMany({ where: { organizationId: org.id } })) as Awaited<
      ReturnType<typeof prisma.voterStanding.findMany>
    >;
    expect(before.map((r) => [r.voterKey, r.total])).toEqual([
      [eve, 2],
      [fay, 1],
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
    const after = byVoter(await prisma.voterStanding.findMany({ where: { organizationId: org.id } })) as typeof before;
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

  it("the voters migration folds a populated database's name-keyed voters into voters, consistently", async () => {
    // A database of its own: the migration's data statements fold every organization's voters, as an upgrade does.
    const own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    const app = await startTestApp({}, { databaseUrl: own?.url ?? testDatabaseUrl() });
    try {
      await votersMigrationFolds(app);
    } finally {
      await app.stop();
      await own?.drop();
    }
  }, 60_000);

  async function votersMigrationFolds(app: TestApp) {
    const env = { DATABASE_URL: app.config.databaseUrl, SECRET_KEY: TEST_SECRET_KEY };
    const prisma = app.deps.db.prisma;
    const org = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', { key: org.key, body: { key: 'p', name: 'P', auth_method: 'url_path', auth_field: 's', votee_path: 'user' } })
    ).body.data;
    const hook = new URL(made.webhook_url).pathname;
    for (const user of ['eve', 'EVE', 'fay']) expect((await app.request('POST', hook, { body: { user } })).status).toBe(200);
    expect((await app.request('POST', '/v1/providers/p/test-vote', { key: org.key, body: { voter_name: 'Ghost' } })).status).toBe(200);
    expect((await app.request('POST', '/v1/voters/Zed/reminders', { key: org.key, body: { enabled: false } })).status).toBe(200);
    const standingsBefore = await prisma.voterStanding.findMany({ where: { organizationId: org.id } });
    const nameOfOld = new Map((await prisma.voter.findMany({ where: { organizationId: org.id } })).map((v) => [v.id, v.displayKey]));

    // As before voters: every per-voter row keyed by the lower-cased name, no Voter or VoterIdentity row.
    const byName = (table: string) =>
      prisma.$executeRawUnsafe(`UPDATE "${table}" SET "voterKey" = (SELECT v."displayKey" FROM "Voter" AS v WHERE v.id = "${table}"."voterKey")`);
    for (const table of ['VoterDailyCount', 'VoterStanding', 'VoterDay', 'Reminder', 'ReminderOptOut']) await byName(table);
    await prisma.$executeRawUnsafe(`UPDATE "Vote" SET "voterKey" = lower("voterName")`);
    await prisma.voterIdentity.deleteMany({});
    await prisma.voter.deleteMany({});
    await prisma.provider.updateMany({ data: { voterKind: 'name', voterAddressPath: null } });
    expect((await prisma.vote.findMany({ where: { organizationId: org.id }, select: { voterKey: true } })).map((v) => v.voterKey).sort()).toEqual([
      'eve',
      'eve',
      'fay',
      'ghost',
    ]);

    // The migration's data statements, as the upgrade runs them.
    const folder = join('prisma', dialect, 'migrations');
    const sql = readFileSync(join(folder, readdirSync(folder).find((name) => name.endsWith('_voters'))!, 'migration.sql'), 'utf8');
    for (const statement of sql
      .slice(sql.indexOf('-- Data'))
      .split(/;\s*\n/)
      .map((x) => x.trim())
      .filter((x) => x.replace(/--.*$/gm, '').trim()))
      await prisma.$executeRawUnsafe(statement);

    // One voter per name of before, known by that name, and every row keyed by its voter.
    const voters = await prisma.voter.findMany({ where: { organizationId: org.id }, orderBy: { displayKey: 'asc' } });
    expect(voters.map((v) => [v.displayName, v.displayKey])).toEqual([
      ['EVE', 'eve'],
      ['fay', 'fay'],
      ['Zed', 'zed'],
    ]);
    const idOf = new Map(voters.map((v) => [v.displayKey, v.id]));
    for (const v of voters) expect(v.id).toMatch(/^vtr_/);
    expect((await prisma.voterIdentity.findMany({ where: { organizationId: org.id } })).map((i) => [i.kind, i.value, i.voterId]).sort()).toEqual(
      [...idOf].map(([name, id]) => ['name', name, id]).sort(),
    );
    const votes = await prisma.vote.findMany({ where: { organizationId: org.id }, select: { voterKey: true, test: true } });
    expect(
      votes
        .filter((v) => !v.test)
        .map((v) => v.voterKey)
        .sort(),
    ).toEqual([idOf.get('eve'), idOf.get('eve'), idOf.get('fay')].sort());
    expect(votes.filter((v) => v.test).map((v) => v.voterKey)).toEqual(['test:ghost']);
    expect((await prisma.reminderOptOut.findMany({ where: { organizationId: org.id } })).map((o) => o.voterKey)).toEqual([idOf.get('zed')]);
    const standingsAfter = await prisma.voterStanding.findMany({ where: { organizationId: org.id } });
    const totals = (rows: typeof standingsAfter, key: (r: (typeof standingsAfter)[number]) => string) =>
      rows.map((r) => [key(r), r.total, r.streakDays]).sort();
    const nameOfId = new Map(voters.map((v) => [v.id, v.displayKey]));
    expect(totals(standingsAfter, (r) => nameOfId.get(r.voterKey)!)).toEqual(totals(standingsBefore, (r) => nameOfOld.get(r.voterKey)!));
    expect((await prisma.provider.findFirstOrThrow({ where: { organizationId: org.id } })).voterKind).toBe('name');
    expect((await runCli(['stats', 'verify', '--org', org.slug, '--json'], env)).json).toEqual({ consistent: true, differences: [] });

    // The next vote finds the migrated voter by their name and goes on counting; a Minecraft site links its identity.
    expect((await app.request('PATCH', '/v1/providers/p', { key: org.key, body: { voter_kind: 'minecraft' } })).status).toBe(200);
    const next = await app.request('POST', hook, { body: { user: 'Eve', n: 2 } });
    const read = (await app.request('GET', `/v1/votes/${next.body.data.vote_id}`, { key: org.key })).body.data;
    expect(read).toMatchObject({ voter_id: idOf.get('eve'), voter_total: 3 });
    expect(await prisma.voterIdentity.findMany({ where: { voterId: idOf.get('eve') }, select: { kind: true, value: true }, orderBy: { kind: 'asc' } })).toEqual(
      [
        { kind: 'minecraft', value: 'eve' },
        { kind: 'name', value: 'eve' },
      ],
    );
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
    const steve = await voterIdOf(app, org.id, 'steve');
    expect(await spelling()).toEqual([[steve, 'STEVE', 2]]);
    const rebuilt = await runCli(['stats', 'rebuild', '--org', org.slug, '--json'], env);
    expect(rebuilt.code).toBe(0);
    expect(await spelling()).toEqual([[steve, 'STEVE', 2]]);
  }, 60_000);
});
