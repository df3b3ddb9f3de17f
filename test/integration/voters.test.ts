// Voters (README "Voters"): one person across names, sites and platforms. Through the hooks with an injected clock
// placing each vote on a chosen day, read back from the vote reads (`voter_id`, the standing the vote made) and the
// name-based routes, on the test database (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

const clock = {
  at: new Date('2026-04-01T12:00:00Z').getTime(),
  now() {
    return new Date(this.at);
  },
};

const DISCORD_ID = '395526710101278721';

describe.skipIf(databaseUnavailable)('voters', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp({}, { clock });
    receiver = await startReceiver({ status: 200 });
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
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

  it('reads a voter by id with identities and standing, and finds voters by a prefix of their name or identity, paged', async () => {
    const s = await setup();
    const bots = await s.site('bots', { discord_id_path: 'id' });
    const a = await s.vote(bots, { user: 'Marigold', id: DISCORD_ID }, '2026-04-20T10:00:00Z');
    await s.vote(bots, { user: 'Marius', id: '395526710101278723' }, '2026-04-20T10:05:00Z');
    await s.vote(bots, { user: 'Zelda', id: '395526710101278724' }, '2026-04-20T10:10:00Z');
    const read = await app.request('GET', `/v1/voters/${a.voter_id}`, { key: s.org.key });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({
      id: a.voter_id,
      display_name: 'Marigold',
      identities: [{ kind: 'discord', value: DISCORD_ID }],
      standing: { total: 1, streak_days: 1, sites: [{ key: 'bots', total: 1 }] },
    });
    const mar = await app.request('GET', '/v1/voters?search=MAR&limit=1', { key: s.org.key });
    expect(mar.status, mar.text).toBe(200);
    expect(mar.body.data).toMatchObject({ page: 1, limit: 1, total: 2, pages: 2 });
    expect(mar.body.data.voters.map((v: { display_name: string }) => v.display_name)).toEqual(['Marigold']);
    const page2 = await app.request('GET', '/v1/voters?search=mar&limit=1&page=2', { key: s.org.key });
    expect(page2.body.data.voters.map((v: { display_name: string }) => v.display_name)).toEqual(['Marius']);
    const byId = await app.request('GET', '/v1/voters?search=3955267101012787', { key: s.org.key });
    expect(byId.body.data.total).toBe(3);
    expect((await app.request('GET', '/v1/voters/vtr_nobody', { key: s.org.key })).status).toBe(404);
    // Another organization's voter is not found.
    const stranger = await setup();
    expect((await app.request('GET', `/v1/voters/${a.voter_id}`, { key: stranger.org.key })).status).toBe(404);
    // GraphQL: the voter with a connection of their votes.
    const gql = await app.request('POST', '/graphql', {
      key: s.org.key,
      body: {
        query: `{ voter(id: "${a.voter_id}") { displayName identities { kind value } votes(first: 5) { totalCount edges { node { voterName voterId } } } } }`,
      },
    });
    expect(gql.body.data.voter).toEqual({
      displayName: 'Marigold',
      identities: [{ kind: 'discord', value: DISCORD_ID }],
      votes: { totalCount: 1, edges: [{ node: { voterName: 'Marigold', voterId: a.voter_id } }] },
    });
  });

  it('merges two voters: the history moves exactly, one standing is made again, and stats verify stays consistent', async () => {
    const s = await setup();
    const mc = await s.site('mc', { voter_kind: 'minecraft' });
    const other = await s.site('other', { voter_kind: 'minecraft' });
    // One player under two names (a rename the relay could not see), on consecutive days and on two sites.
    const old = await s.vote(mc, { user: 'Notch' }, '2026-04-21T10:00:00Z');
    await s.vote(other, { user: 'Notch' }, '2026-04-21T11:00:00Z');
    const renamed = await s.vote(mc, { user: 'Notch2' }, '2026-04-22T10:00:00Z');
    const latest = await s.vote(other, { user: 'Notch2' }, '2026-04-23T10:00:00Z');
    expect(renamed.voter_id).not.toBe(old.voter_id);
    expect(latest).toMatchObject({ voter_total: 2, voter_streak_days: 2 });
    const merged = await app.request('POST', `/v1/voters/${old.voter_id}/merge`, { key: s.org.key, body: { other: renamed.voter_id } });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.data).toMatchObject({
      id: old.voter_id,
      display_name: 'Notch2',
      standing: { total: 4, streak_days: 3, best_streak_days: 3 },
    });
    expect(merged.body.data.identities.map((i: { kind: string; value: string }) => `${i.kind}:${i.value}`).sort()).toEqual([
      'minecraft:notch',
      'minecraft:notch2',
    ]);
    expect(merged.body.data.standing.sites.map((x: { key: string; total: number }) => [x.key, x.total]).sort()).toEqual([
      ['mc', 2],
      ['other', 2],
    ]);
    expect((await app.request('GET', `/v1/voters/${renamed.voter_id}`, { key: s.org.key })).status).toBe(404);
    const listed = await app.request('GET', `/v1/votes?voter=notch2&limit=10`, { key: s.org.key });
    expect(listed.body.data.votes).toHaveLength(4);
    const verify = await app.deps.db.rollups.verify('2000-01-01', s.org.id);
    expect(verify).toEqual([]);
    // The next vote under either name counts on the merged voter.
    const next = await s.vote(mc, { user: 'notch' }, '2026-04-24T10:00:00Z');
    expect(next).toMatchObject({ voter_id: old.voter_id, voter_total: 5, voter_streak_days: 4 });
    // The name whose voter the merge took in (the write path had found it there before the merge).
    const nextRenamed = await s.vote(other, { user: 'Notch2' }, '2026-04-25T10:00:00Z');
    expect(nextRenamed).toMatchObject({ voter_id: old.voter_id, voter_total: 6, voter_streak_days: 5 });
    // Refusals name the field.
    const self = await app.request('POST', `/v1/voters/${old.voter_id}/merge`, { key: s.org.key, body: { other: old.voter_id } });
    expect(self.status).toBe(400);
    expect(self.body.error.details[0].field).toBe('other');
    const unknown = await app.request('POST', `/v1/voters/${old.voter_id}/merge`, { key: s.org.key, body: { other: renamed.voter_id, into: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('into');
  });

  it('splits an identity off a voter into a new voter with the votes sent under it; both standings are made again', async () => {
    const s = await setup();
    const mc = await s.site('mc', { voter_kind: 'minecraft' });
    const a = await s.vote(mc, { user: 'Alpha' }, '2026-04-25T10:00:00Z');
    const b = await s.vote(mc, { user: 'Beta' }, '2026-04-26T10:00:00Z');
    const merged = await app.request('POST', `/v1/voters/${a.voter_id}/merge`, { key: s.org.key, body: { other: b.voter_id } });
    expect(merged.body.data.standing.total).toBe(2);
    const split = await app.request('POST', `/v1/voters/${a.voter_id}/split`, { key: s.org.key, body: { kind: 'minecraft', value: 'Beta' } });
    expect(split.status, split.text).toBe(201);
    expect(split.body.data).toMatchObject({ display_name: 'Beta', identities: [{ kind: 'minecraft', value: 'beta' }], standing: { total: 1 } });
    const left = await app.request('GET', `/v1/voters/${a.voter_id}`, { key: s.org.key });
    expect(left.body.data).toMatchObject({ identities: [{ kind: 'minecraft', value: 'alpha' }], standing: { total: 1 } });
    // The next vote under the split name counts on the new voter, not on either voter it was held by before.
    const again = await s.vote(mc, { user: 'Beta' }, '2026-04-27T10:00:00Z');
    expect(again).toMatchObject({ voter_id: split.body.data.id, voter_total: 2 });
    expect(await app.deps.db.rollups.verify('2000-01-01', s.org.id)).toEqual([]);
    const lone = await app.request('POST', `/v1/voters/${a.voter_id}/split`, { key: s.org.key, body: { kind: 'minecraft', value: 'alpha' } });
    expect(lone.status).toBe(400);
    const badKind = await app.request('POST', `/v1/voters/${a.voter_id}/split`, { key: s.org.key, body: { kind: 'steam', value: 'x' } });
    expect(badKind.status).toBe(400);
    expect(badKind.text).toContain('kind');
  });

  it("a plugin's report of online players links names to UUIDs: a renamed Minecraft player keeps their standing", async () => {
    const s = await setup();
    const mc = await s.site('mc', { voter_kind: 'minecraft' });
    const made = await app.request('POST', '/v1/plugin-tokens', { key: s.org.key, body: { name: 'Survival' } });
    expect(made.status, made.text).toBe(201);
    const plugin = made.body.data.token as string;
    const uuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
    const report = (players: unknown) => app.request('POST', '/v1/plugin/players', { key: plugin, body: players });

    const first = await s.vote(mc, { user: 'Steve' }, '2026-05-01T10:00:00Z');
    // The player is online as Steve: the name's voter gains the UUID (the body is the array of players itself).
    const seen = await report([{ name: 'Steve', uuid: uuid.replaceAll('-', '').toUpperCase(), platform: 'java' }]);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data).toEqual({ players: 1, linked: 1, merged: 0 });
    expect((await report([{ name: 'Steve', uuid }])).body.data).toEqual({ players: 1, linked: 0, merged: 0 });

    // Renamed to Steve2: a vote under the new name before the plugin sees it makes a voter of its own ...
    const early = await s.vote(mc, { user: 'Steve2' }, '2026-05-02T10:00:00Z');
    expect(early.voter_id).not.toBe(first.voter_id);
    // ... which the next report merges into the player's voter; votes under the new name then count there.
    const renamed = await report({ players: [{ name: 'Steve2', uuid }] });
    expect(renamed.body.data).toEqual({ players: 1, linked: 0, merged: 1 });
    const third = await s.vote(mc, { user: 'steve2' }, '2026-05-03T10:00:00Z');
    expect(third).toMatchObject({ voter_id: first.voter_id, voter_total: 3, voter_streak_days: 3 });
    expect(await app.deps.db.rollups.verify('2000-01-01', s.org.id)).toEqual([]);

    // Callbacks carry the voter's id and UUID.
    const callback = await app.request('POST', '/v1/callbacks', {
      key: s.org.key,
      body: { name: 'Ids', url: `${receiver.url}/${s.org.slug}`, payload_template: { id: '{{voter_id}}', uuid: '{{voter_uuid}}', name: '{{voter_name}}' } },
    });
    expect(callback.status, callback.text).toBe(201);
    await s.vote(mc, { user: 'Steve2' }, '2026-05-03T11:00:00Z');
    const deadline = Date.now() + 10_000;
    while (!receiver.requests.some((r) => r.path === `/${s.org.slug}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(receiver.requests.find((r) => r.path === `/${s.org.slug}`)?.json).toEqual({ id: first.voter_id, uuid, name: 'Steve2' });

    // A player never seen before gets a voter of their own; their first vote finds it.
    expect((await report([{ name: '.Alex', uuid: '00000000-0000-0000-0009-01f64f3b5e2a', platform: 'bedrock' }])).body.data).toEqual({
      players: 1,
      linked: 2,
      merged: 0,
    });
    // Refusals name the field; an API key is not a plugin token.
    const bad = await report([{ name: 'X', uuid: 'not-a-uuid' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('players[0].uuid');
    const extra = await report([{ name: 'X', uuid, rank: 'vip' }]);
    expect(extra.status).toBe(400);
    expect(extra.text).toContain('rank');
    expect((await app.request('POST', '/v1/plugin/players', { key: s.org.key, body: [] })).status).toBe(403);
  });
});
