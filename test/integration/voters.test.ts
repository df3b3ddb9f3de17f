// Voters (README "Voters"): one person across names, sites and platforms. Through the hooks with an injected clock
// placing each vote on a chosen day, read back from the vote reads (`voter_id`, the standing the vote made) and the
// name-based routes, on the test database (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

const clock = {
  at: new Date('2026-04-01T12:00:00Z').getTime(),
  now() {
    return new Date(this.at);
  },
};

const DISCORD_ID = '395526710101278721';

describe.skipIf(databaseUnavailable)('voters', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({}, { clock });
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function setup(settings: Record<string, unknown> = {}) {
    const org: TestOrg = await app.createOrg({ plan: 'pro' });
    if (Object.keys(settings).length > 0) {
      const set = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings } });
      expect(set.status, set.text).toBe(200);
    }
    const site = async (key: string, extra: Record<string, unknown> = {}) => {
      const made = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key, name: `${key} list`, auth_method: 'url_path', auth_field: 's', votee_path: 'user', ...extra },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.data as { key: string; webhook_url: string };
    };
    let seq = 0;
    /** A vote through the hook at `at`; answers the stored vote as the API reads it. */
    const vote = async (provider: { webhook_url: string }, body: Record<string, unknown>, at: string) => {
      clock.at = new Date(at).getTime();
      const res = await app.request('POST', new URL(provider.webhook_url).pathname, { body: { ...body, seq: seq++ } });
      expect(res.status, res.text).toBe(200);
      const read = await app.request('GET', `/v1/votes/${res.body.data.vote_id}`, { key: org.key });
      expect(read.status, read.text).toBe(200);
      return read.body.data as { voter_id: string; voter_name: string; voter_total: number; voter_streak_days: number };
    };
    return { org, site, vote };
  }

  it("a Discord user who renames keeps their streak: the third day's vote carries voter_streak_days 3", async () => {
    const s = await setup();
    const list = await s.site('bots', { discord_id_path: 'id' });
    const first = await s.vote(list, { user: 'cooluser', id: DISCORD_ID }, '2026-04-01T10:00:00Z');
    const second = await s.vote(list, { user: 'cool_user', id: DISCORD_ID }, '2026-04-02T10:00:00Z');
    const third = await s.vote(list, { user: 'TheCoolest', id: DISCORD_ID }, '2026-04-03T10:00:00Z');
    expect(first.voter_id).toMatch(/^vtr_/);
    expect([second.voter_id, third.voter_id]).toEqual([first.voter_id, first.voter_id]);
    expect(third).toMatchObject({ voter_name: 'TheCoolest', voter_total: 3, voter_streak_days: 3 });
    // Another Discord user who takes the old name is somebody else.
    const other = await s.vote(list, { user: 'cooluser', id: '395526710101278722' }, '2026-04-03T11:00:00Z');
    expect(other.voter_id).not.toBe(first.voter_id);
    expect(other).toMatchObject({ voter_total: 1, voter_streak_days: 1 });
    // The name routes find the voter by the name of their latest vote, and by their Discord id.
    for (const name of ['thecoolest', DISCORD_ID]) {
      const stats = await app.request('GET', `/v1/stats/voter/${name}`, { key: s.org.key });
      expect(stats.status, stats.text).toBe(200);
      expect(stats.body.data.summary.total, name).toBe(3);
    }
  });

  it('the same name on a site with no Discord id stays one voter, whatever its case', async () => {
    const s = await setup();
    const list = await s.site('names');
    const a = await s.vote(list, { user: 'Alex' }, '2026-04-05T10:00:00Z');
    const b = await s.vote(list, { user: 'ALEX' }, '2026-04-06T10:00:00Z');
    expect(b.voter_id).toBe(a.voter_id);
    expect(b).toMatchObject({ voter_total: 2, voter_streak_days: 2 });
  });

  describe('Bedrock names behind the prefix "." (README "Voters", the Bedrock table)', () => {
    const minecraft = { voter_kind: 'minecraft' };

    it('a name with the prefix is a Bedrock player', async () => {
      const s = await setup({ bedrock_prefix: '.' });
      const list = await s.site('mc', minecraft);
      const bedrock = await s.vote(list, { user: '.Steve' }, '2026-04-10T10:00:00Z');
      const again = await s.vote(list, { user: '.steve' }, '2026-04-10T11:00:00Z');
      expect(again.voter_id).toBe(bedrock.voter_id);
      expect(again.voter_total).toBe(2);
    });

    it('a name without the prefix, with no voter of that name yet, is a Java player', async () => {
      const s = await setup({ bedrock_prefix: '.' });
      const list = await s.site('mc', minecraft);
      const java = await s.vote(list, { user: 'Steve' }, '2026-04-10T10:00:00Z');
      const bedrock = await s.vote(list, { user: '.Steve' }, '2026-04-10T11:00:00Z');
      expect(bedrock.voter_id).not.toBe(java.voter_id);
    });

    it('a list that drops the prefix ("Steve" for ".Steve") reaches the Bedrock player when no Java player Steve exists', async () => {
      const s = await setup({ bedrock_prefix: '.' });
      const list = await s.site('mc', minecraft);
      const bedrock = await s.vote(list, { user: '.Steve' }, '2026-04-10T10:00:00Z');
      const dropped = await s.vote(list, { user: 'Steve' }, '2026-04-10T11:00:00Z');
      expect(dropped.voter_id).toBe(bedrock.voter_id);
      expect(dropped.voter_total).toBe(2);
    });

    it('when both a Java Steve and a Bedrock .Steve exist, the exact name wins, each way', async () => {
      const s = await setup({ bedrock_prefix: '.' });
      const list = await s.site('mc', minecraft);
      const java = await s.vote(list, { user: 'Steve' }, '2026-04-10T10:00:00Z');
      const bedrock = await s.vote(list, { user: '.Steve' }, '2026-04-10T10:30:00Z');
      expect((await s.vote(list, { user: 'steve' }, '2026-04-10T11:00:00Z')).voter_id).toBe(java.voter_id);
      expect((await s.vote(list, { user: '.STEVE' }, '2026-04-10T11:30:00Z')).voter_id).toBe(bedrock.voter_id);
    });

    it('without a prefix set, a leading "." is part of a Java name', async () => {
      const s = await setup();
      const list = await s.site('mc', minecraft);
      const dotted = await s.vote(list, { user: '.Steve' }, '2026-04-10T10:00:00Z');
      const plain = await s.vote(list, { user: 'Steve' }, '2026-04-10T11:00:00Z');
      expect(plain.voter_id).not.toBe(dotted.voter_id);
    });
  });

  it('a test vote makes no voter, and finds the voter of its name when there is one', async () => {
    const s = await setup();
    const list = await s.site('names');
    const test = await app.request('POST', `/v1/providers/${list.key}/test-vote`, { key: s.org.key, body: { voter_name: 'Nobody' } });
    expect(test.status, test.text).toBe(200);
    const read = await app.request('GET', `/v1/votes/${test.body.data.vote_id}`, { key: s.org.key });
    expect(read.body.data).not.toHaveProperty('voter_id');
    expect(await app.deps.db.prisma.voter.count({ where: { organizationId: s.org.id } })).toBe(0);
    const real = await s.vote(list, { user: 'Known' }, '2026-04-12T10:00:00Z');
    const test2 = await app.request('POST', `/v1/providers/${list.key}/test-vote`, { key: s.org.key, body: { voter_name: 'known' } });
    const read2 = await app.request('GET', `/v1/votes/${test2.body.data.vote_id}`, { key: s.org.key });
    expect(read2.body.data.voter_id).toBe(real.voter_id);
    // `?voter=` lists both the voter's votes and the test votes under that name.
    const listed = await app.request('GET', '/v1/votes?voter=Known', { key: s.org.key });
    expect(listed.body.data.votes).toHaveLength(2);
  });

  it('erasing a voter by name removes the voter and their identities; their next vote starts a new voter', async () => {
    const s = await setup();
    const list = await s.site('bots', { discord_id_path: 'id' });
    const before = await s.vote(list, { user: 'gone', id: DISCORD_ID }, '2026-04-15T10:00:00Z');
    const erased = await app.request('DELETE', '/v1/voters/gone', { key: s.org.key });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.votes_deleted).toBe(1);
    expect(await app.deps.db.prisma.voterIdentity.count({ where: { organizationId: s.org.id } })).toBe(0);
    expect(await app.deps.db.prisma.voter.count({ where: { organizationId: s.org.id } })).toBe(0);
    const after = await s.vote(list, { user: 'gone', id: DISCORD_ID }, '2026-04-16T10:00:00Z');
    expect(after.voter_id).not.toBe(before.voter_id);
    expect(after.voter_total).toBe(1);
  });
});
