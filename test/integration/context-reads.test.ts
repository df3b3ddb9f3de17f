// The delivery worker's context reads (src/storage/*/context-reads.ts) give each row exactly as Prisma gives it:
// every column, dates as UTC instants whatever the process's time zone, flags as booleans, nulls kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('context reads: rows as Prisma gives them', () => {
  let app: TestApp;
  const zone = process.env.TZ;

  beforeAll(async () => {
    app = await startTestApp({ DELIVERY_ENABLED: 'false' });
  });
  afterAll(async () => {
    // The worker runs other files after this one (isolate: false): its time zone as it was, unset if it was.
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    await app?.stop();
  });

  it('reads votes, providers, callbacks, organizations and Minecraft UUIDs by id, with every column', async () => {
    // Far from UTC: a timestamp read as local time would be off by hours.
    process.env.TZ = 'Pacific/Chatham';
    const org = await app.createOrg({ plan: 'business' });
    const settings = { chat_webhook_url: 'https://discord.com/api/webhooks/1/a', chat_notifications_enabled: false, time_zone: 'Asia/Kolkata' };
    expect((await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings } })).status).toBe(200);
    const provider = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'mc', name: 'Craft List', auth_method: 'url_path', auth_field: 's', votee_path: 'user', voter_kind: 'minecraft' },
    });
    expect(provider.status, provider.text).toBe(201);
    const callback = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Game', url: 'https://game.example/vote', max_per_second: 5, enabled: false },
    });
    expect(callback.status, callback.text).toBe(201);
    const hook = new URL(provider.body.data.webhook_url).pathname;
    const ids: string[] = [];
    for (const user of ['Steve', 'Alex']) {
      const res = await app.request('POST', hook, { body: { user } });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.data.vote_id);
    }
    const plugin = await app.request('POST', '/v1/plugin-tokens', { key: org.key, body: { name: 'Survival' } });
    const uuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
    const report = await app.request('POST', '/v1/plugin/players', { key: plugin.body.data.token, body: [{ name: 'Steve', uuid }] });
    expect(report.status, report.text).toBe(200);

    const { prisma, contexts } = app.deps.db;
    const votes = await prisma.vote.findMany({ where: { publicId: { in: ids } } });
    expect(votes).toHaveLength(2);
    const sorted = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    const voteIds = votes.map((v) => v.id);
    expect(sorted(await contexts.byIds('Vote', [...voteIds, 'no-such-vote']))).toEqual(sorted(votes));
    expect(await contexts.byIds('Provider', [votes[0].providerId])).toEqual(await prisma.provider.findMany({ where: { id: votes[0].providerId } }));
    expect(await contexts.byIds('Callback', [callback.body.data.id])).toEqual(await prisma.callback.findMany({ where: { id: callback.body.data.id } }));
    const orgs = await contexts.byIds('Organization', [org.id]);
    expect(orgs).toEqual(await prisma.organization.findMany({ where: { id: org.id } }));
    // What the rows hold, not only that both ways agree.
    expect(orgs[0]).toMatchObject({ chatNotificationsEnabled: false, timeZone: 'Asia/Kolkata', votePartyEvery: null });
    expect(Math.abs(orgs[0].updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await contexts.byIds('Vote', [])).toEqual([]);

    const steve = votes.find((v) => v.voterName === 'Steve')!;
    const alex = votes.find((v) => v.voterName === 'Alex')!;
    expect(await contexts.minecraftUuids([steve.voterKey, alex.voterKey])).toEqual([{ voterId: steve.voterKey, value: uuid }]);
    expect(await contexts.minecraftUuids([])).toEqual([]);
  });
});
