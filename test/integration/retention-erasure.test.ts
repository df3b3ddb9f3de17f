// Retention and erasure (README: Retention and erasure): old votes go in batches while their per-day rollups stay
// (statistics exact, `stats verify` consistent), old stored bodies are cleared, and one voter's votes, payloads,
// attempts and rollup rows go on request; an injected clock places votes days in the past. Its own database on
// PostgreSQL: retention deletes across every organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_SECRET_KEY,
  createOwnPostgresDatabase,
  databaseUnavailable,
  dialect,
  startTestApp,
  testDatabaseUrl,
  type TestApp,
  type TestOrg,
} from '../kit/app.js';
import { runCli } from '../kit/processes.js';
import { verifyRollups } from '../kit/rollups.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const DAY = 86_400_000;
const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

describe.skipIf(databaseUnavailable)('retention and erasure', () => {
  let own: { url: string; drop(): Promise<void> } | null = null;
  let databaseUrl: string;
  let app: TestApp;
  let game: Receiver;

  beforeAll(async () => {
    own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    databaseUrl = own?.url ?? testDatabaseUrl();
    app = await startTestApp({ VOTE_RETENTION_DAYS: '30', RAW_PAYLOAD_RETENTION_DAYS: '7', DELIVERY_POLL_MS: '50' }, { clock, databaseUrl });
    game = await startReceiver({ status: 200 });
  });
  afterAll(async () => {
    await app?.stop();
    await game?.close();
    await own?.drop();
  });

  async function setup() {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const other = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'other', name: 'Other', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    expect((await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Game', url: `${game.url}/${org.slug}` } })).status).toBe(201);
    /** Votes `daysAgo` days in the past (the clock moves there and back), each delivered to the callback. */
    const vote = async (user: string, daysAgo: number, provider = made) => {
      clock.offset = -daysAgo * DAY;
      const res = await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user, ip: '203.0.113.9', n: Math.random() } });
      clock.offset = 0;
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    };
    const stats = async () => (await app.request('GET', '/v1/stats/dashboard', { key: org.key })).body.data.summary.all_time as number;
    const total = async () => (await app.request('GET', '/v1/votes?limit=100', { key: org.key })).body.meta.total as number;
    return { org, made, other, vote, stats, total };
  }

  it('deletes votes older than VOTE_RETENTION_DAYS, keeps the statistics exact and `stats verify` consistent, clears old bodies', async () => {
    const s = await setup();
    const old = [await s.vote('alice', 40), await s.vote('alice', 35), await s.vote('bob', 31, s.other)];
    const recent = [await s.vote('alice', 10), await s.vote('bob', 8)];
    const fresh = [await s.vote('carol', 0)];
    for (const id of [...old, ...recent, ...fresh]) {
      await until(
        () => app.request('GET', `/v1/votes/${id}`, { key: s.org.key }).then((r) => r.body.data.callback_status),
        (st) => st === 'sent',
      );
    }
    const allTime = old.length + recent.length + fresh.length;
    expect(await s.stats()).toBe(allTime);
    const oldRows = await app.deps.db.prisma.vote.findMany({ where: { publicId: { in: old } }, select: { id: true } });

    // Finished jobs of no vote (an admin alert, a reminder sent after its vote was gone): old ones go, recent ones stay.
    const votelessJob = (uniqueKey: string, runAt: Date) =>
      app.deps.db.prisma.$transaction((tx) =>
        app.deps.jobs.enqueue(tx, [
          { organizationId: s.org.id, voteId: null, callbackId: null, kind: 'alert', priority: 0, maxAttempts: 1, uniqueKey, payloadJson: '{}', runAt },
        ]),
      );
    await votelessJob(`old:${s.org.id}`, new Date(Date.now() - 60 * DAY));
    await votelessJob(`recent:${s.org.id}`, new Date(Date.now() - 2 * DAY));
    await app.deps.db.prisma.deliveryJob.updateMany({ where: { uniqueKey: { in: [`old:${s.org.id}`, `recent:${s.org.id}`] } }, data: { status: 'sent' } });

    const run = await app.retention.tick();
    expect(run.votesDeleted).toBeGreaterThanOrEqual(old.length);
    expect(run.jobsDeleted).toBeGreaterThanOrEqual(1);
    expect(
      (await app.deps.db.prisma.deliveryJob.findMany({ where: { uniqueKey: { in: [`old:${s.org.id}`, `recent:${s.org.id}`] } } })).map((j) => j.uniqueKey),
    ).toEqual([`recent:${s.org.id}`]);
    expect(run.keptFrom).toBe(
      new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 30 * DAY).toISOString().slice(0, 10),
    );
    expect(await s.total()).toBe(recent.length + fresh.length);
    for (const id of old) expect((await app.request('GET', `/v1/votes/${id}`, { key: s.org.key })).status).toBe(404);
    // Their delivery jobs and attempts went with them.
    const gone = oldRows.map((r) => r.id);
    expect(await app.deps.db.prisma.deliveryAttempt.count({ where: { voteId: { in: gone } } })).toBe(0);
    expect(await app.deps.db.prisma.deliveryJob.count({ where: { voteId: { in: gone } } })).toBe(0);
    // Statistics come from the rollups: still exact.
    expect(await s.stats()).toBe(allTime);
    expect((await app.request('GET', '/v1/stats/by-provider?from=2000-01-01', { key: s.org.key })).body.data.total).toBe(allTime);
    // Bodies older than RAW_PAYLOAD_RETENTION_DAYS are cleared; newer ones kept; the votes themselves stay.
    const rows = await app.deps.db.prisma.vote.findMany({ where: { publicId: { in: [...recent, ...fresh] } }, select: { publicId: true, rawPayload: true } });
    for (const row of rows) expect(row.rawPayload === '', row.publicId).toBe(recent.includes(row.publicId));

    expect(await verifyRollups(app.deps.db, s.org.id)).toEqual([]);
    const env = { DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY };
    const cli = await runCli(['stats', 'verify', '--org', s.org.slug, '--json'], env);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toEqual({ consistent: true, differences: [] });
    // A rebuild keeps the days retention emptied (it would otherwise lose them).
    expect((await runCli(['stats', 'rebuild', '--org', s.org.slug, '--json'], env)).code).toBe(0);
    expect(await s.stats()).toBe(allTime);

    // A second run finds nothing more to do.
    const again = await app.retention.tick();
    expect(again).toMatchObject({ votesDeleted: 0, payloadsCleared: 0 });
  }, 120_000);

  it('erases one voter in every provider (case-insensitive), with payloads, attempts and rollups, leaving statistics consistent', async () => {
    const s = await setup();
    const mine = [await s.vote('Dave', 2), await s.vote('dave', 1, s.other), await s.vote('DAVE', 0)];
    const theirs = [await s.vote('erin', 1), await s.vote('erin', 0, s.other)];
    for (const id of [...mine, ...theirs]) {
      await until(
        () => app.request('GET', `/v1/votes/${id}`, { key: s.org.key }).then((r) => r.body.data.callback_status),
        (st) => st === 'sent',
      );
    }
    const stranger = await setup();
    await stranger.vote('dave', 0);
    // Dave's votes count under one voter (README "Voters"), whatever the spelling.
    const dave = (await app.deps.db.prisma.voterIdentity.findFirstOrThrow({ where: { organizationId: s.org.id, value: 'dave' } })).voterId;
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: s.org.id, voterKey: dave } })).toBe(mine.length);
    const attempts = await app.deps.db.prisma.deliveryAttempt.count({ where: { organizationId: s.org.id, vote: { voterKey: dave } } });
    expect(attempts).toBe(mine.length);

    expect((await app.request('DELETE', '/v1/voters/dave', { key: s.org.readKey })).status).toBe(403);
    const erased = await app.request('DELETE', '/v1/voters/Dave', { key: s.org.key });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data).toEqual({ voter_name: 'Dave', votes_deleted: mine.length, attempts_deleted: attempts, rollup_rows_deleted: expect.any(Number) });
    expect(erased.body.data.rollup_rows_deleted).toBeGreaterThanOrEqual(2);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: s.org.id, voterKey: dave } })).toBe(0);
    expect(await app.deps.db.prisma.voterDailyCount.count({ where: { organizationId: s.org.id, voterKey: dave } })).toBe(0);
    expect(await app.deps.db.prisma.voter.count({ where: { id: dave } })).toBe(0);
    expect(await app.deps.db.prisma.voterIdentity.count({ where: { voterId: dave } })).toBe(0);
    expect(await s.stats()).toBe(theirs.length);
    expect(await s.total()).toBe(theirs.length);
    expect(await verifyRollups(app.deps.db, s.org.id)).toEqual([]);
    const board = (await app.request('GET', '/v1/stats/leaderboard', { key: s.org.key })).body.data;
    expect(JSON.stringify(board)).not.toMatch(/dave/i);
    // Their standing went too (README "Rewards"): a vote after the erasure is their first; erin's is untouched.
    for (const table of ['voterStanding', 'voterDay'] as const) {
      expect(await (app.deps.db.prisma[table] as { count(a: unknown): Promise<number> }).count({ where: { organizationId: s.org.id, voterKey: dave } })).toBe(
        0,
      );
    }
    const again = await s.vote('Dave', 0);
    expect((await app.request('GET', `/v1/votes/${again}`, { key: s.org.key })).body.data).toMatchObject({ voter_total: 1, provider_voter_total: 1 });
    const erin = await s.vote('erin', 0);
    expect((await app.request('GET', `/v1/votes/${erin}`, { key: s.org.key })).body.data).toMatchObject({ voter_total: 3 });
    // Another organization's voter of the same name is untouched.
    expect(await stranger.total()).toBe(1);
    // Nothing left but the vote after the erasure: 1 removed, not an error.
    expect((await app.request('DELETE', '/v1/voters/dave', { key: s.org.key })).body.data.votes_deleted).toBe(1);
    expect((await app.request('DELETE', '/v1/voters/dave', { key: s.org.key })).body.data.votes_deleted).toBe(0);
    expect((await app.request('DELETE', `/v1/voters/${'x'.repeat(300)}`, { key: s.org.key })).status).toBe(400);
  }, 120_000);

  it('erasing a voter whose older votes retention already removed takes their counts off the kept rollups too', async () => {
    const s = await setup();
    await s.vote('frank', 45);
    await s.vote('frank', 44);
    await s.vote('frank', 0);
    await s.vote('gina', 45);
    await app.retention.tick();
    expect(await s.stats()).toBe(4);
    const erased = await app.request('DELETE', '/v1/voters/frank', { key: s.org.key });
    expect(erased.body.data.votes_deleted).toBe(1);
    expect(await s.stats()).toBe(1);
    expect(await verifyRollups(app.deps.db, s.org.id)).toEqual([]);
  }, 120_000);
});
