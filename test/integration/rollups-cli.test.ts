import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, startTestApp, testDatabaseUrl, type TestApp } from '../kit/app.js';
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
