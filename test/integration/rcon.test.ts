// RCON callbacks through HTTP, against a local RCON server written from the protocol documents (test/kit/rcon-server.ts):
// commands in order, an offline player's vote parked and run once when they join (across a restart), hostile names
// that send no command, a refused password, the test endpoint, and the save-time refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait.js';
import { databaseUnavailable, dialect, startTestApp, testDatabaseUrl, type TestApp, type TestOrg } from '../kit/app.js';
import { startRconServer, type RconServer } from '../kit/rcon-server.js';

const PASSWORD = 'rcon-password-that-must-never-leak';
const ENV = { RETRY_SCHEDULE: '100ms,100ms', DELIVERY_POLL_MS: '50', RCON_ONLINE_POLL: '100ms' };

describe.skipIf(databaseUnavailable)('RCON callbacks (rewards with no plugin)', () => {
  const databaseUrl = testDatabaseUrl();
  let app: TestApp;
  let server: RconServer;

  beforeAll(async () => {
    app = await startTestApp(ENV, { databaseUrl });
    server = await startRconServer({ password: PASSWORD, players: ['Steve', 'Alex'] });
  });
  afterAll(async () => {
    await app?.stop();
    await server?.stop();
  });

  async function setup(callback: Record<string, unknown> = {}, target: RconServer = server) {
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const cb = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: {
        name: 'Survival',
        kind: 'rcon',
        host: target.host,
        port: target.port,
        password: PASSWORD,
        commands: ['give {{voter_name}} diamond 1', 'say {{voter_name}} voted on {{provider_name}}!'],
        ...callback,
      },
    });
    expect(cb.status, JSON.stringify(cb.body)).toBe(201);
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'mc', name: 'MC List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const vote = async (user: string) => {
      const res = await app.request('POST', new URL(made.webhook_url).pathname, { body: { user, nonce: Math.random() } });
      expect(res.status, res.text).toBe(200);
      return res.body.data.vote_id as string;
    };
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    const log = (id: string) => app.request('GET', `/v1/votes/${id}/deliveries`, { key: org.key }).then((r) => r.body.data);
    return { org, cb: cb.body.data, vote, read, log };
  }
  const settled = (v: { callback_status: string }) => !['pending', 'retrying'].includes(v.callback_status);
  const commandsFor = (name: string) => server.commands.filter((c) => c.includes(name) && c !== 'list');

  it('an online player’s vote runs its commands in order, and the log keeps each answer', async () => {
    const s = await setup();
    expect(s.cb).toMatchObject({
      kind: 'rcon',
      host: server.host,
      port: server.port,
      has_password: true,
      require_online: true,
      target: `rcon://${server.host}:${server.port}`,
    });
    expect(JSON.stringify(s.cb)).not.toContain(PASSWORD);
    const id = await s.vote('Steve');
    expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
    const mine = server.commands.slice(server.commands.lastIndexOf('list'));
    expect(mine).toEqual(['list', 'give Steve diamond 1', 'say Steve voted on MC List!']);
    const attempts = (await s.log(id)).attempts;
    expect(attempts[0]).toMatchObject({ success: true, target: `rcon://${server.host}:${server.port}` });
    expect(attempts[0].response_excerpt).toContain('Gave 1 [Diamond] to Steve');
  });

  it('an offline player’s vote is parked, and runs exactly once when they show in list, across a restart', async () => {
    const s = await setup();
    const id = await s.vote('Herobrine');
    // Parked: no attempt counted, nothing run, the vote still waiting.
    await until(
      () => s.read(id),
      (v) => v.callback_status !== 'pending' || server.commands.includes('list'),
    );
    await until(
      () => app.deps.db.prisma.deliveryJob.findFirst({ where: { vote: { publicId: id } } }),
      (j) => j?.status === 'parked',
    );
    const waiting = await s.read(id);
    expect(waiting.callback_attempts).toBe(0);
    // While the player is away, the server is asked who is online, and nothing else is run.
    const lists = () => server.commands.filter((c) => c === 'list').length;
    const asked = lists();
    await until(
      async () => lists(),
      (n) => n >= asked + 2,
    );
    expect(commandsFor('Herobrine')).toEqual([]);

    // A restart in between: the parked vote is still there, and runs once the player joins.
    await app.stop();
    app = await startTestApp(ENV, { databaseUrl });
    server.setPlayers(['Steve', 'Alex', 'herobrine']);
    expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
    // Parked no more: the job is sent, and the online check has nothing left to ask about.
    expect(await app.deps.db.prisma.deliveryJob.count({ where: { callbackId: s.cb.id, status: 'parked' } })).toBe(0);
    expect(commandsFor('Herobrine')).toEqual(['give Herobrine diamond 1', 'say Herobrine voted on MC List!']);
    server.setPlayers(['Steve', 'Alex']);
  });

  // Two instances share the database on PostgreSQL only (embedded SQLite has one writer).
  it.skipIf(dialect !== 'postgresql')('with two instances polling, a parked vote runs once when its player joins', async () => {
    const other = await startTestApp(ENV, { databaseUrl });
    try {
      const s = await setup();
      const ids = [];
      for (const name of ['Notch', 'Dinnerbone', 'Grumm']) ids.push(await s.vote(name));
      await until(
        () => app.deps.db.prisma.deliveryJob.count({ where: { callbackId: s.cb.id, status: 'parked' } }),
        (n) => n === 3,
      );
      server.setPlayers(['Steve', 'Alex', 'Notch', 'Dinnerbone', 'Grumm']);
      for (const id of ids) expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
      for (const name of ['Notch', 'Dinnerbone', 'Grumm']) expect(commandsFor(name)).toEqual([`give ${name} diamond 1`, `say ${name} voted on MC List!`]);
    } finally {
      server.setPlayers(['Steve', 'Alex']);
      await other.stop();
    }
  });

  it('20 hostile names send no command: the delivery fails with "not a player name"', async () => {
    const s = await setup({ require_online: false });
    const hostile = [
      'Steve diamond 64',
      'Steve;op Steve',
      'Steve*',
      '/op Steve',
      'Steve"',
      "Steve'",
      'Ste\\ve',
      '@a',
      '@e[type=player]',
      '{Steve}',
      '[Steve]',
      'Stéve',
      'Steve§c',
      'ThisNameIsTooLong1',
      'Steve$1',
      'Steve%20',
      'Steve&op',
      'Steve|op',
      'Ste ve',
      '.Steve', // no Bedrock prefix is set for this organization
    ];
    const before = server.commands.length;
    const ids = [];
    for (const name of hostile) ids.push(await s.vote(name));
    for (const [i, id] of ids.entries()) {
      const v = await until(() => s.read(id), settled);
      expect(v.callback_status, hostile[i]).toBe('failed');
      const attempts = (await s.log(id)).attempts;
      expect(attempts.map((a: { error: string }) => a.error)).toEqual([expect.stringMatching(/^not a player name/)]);
    }
    expect(server.commands.slice(before)).toEqual([]);
  });

  it('the organization’s Bedrock prefix lets a Floodgate name through', async () => {
    const s = await setup({ require_online: false, commands: ['give {{voter_name}} emerald 1'] });
    expect((await app.request('PATCH', '/v1/organization', { key: s.org.key, body: { settings: { bedrock_prefix: '.' } } })).status).toBe(200);
    server.setPlayers(['Steve', 'Alex', '.Bedrock_Bob']);
    const id = await s.vote('.Bedrock_Bob');
    expect(await until(() => s.read(id), settled), JSON.stringify((await s.log(id)).attempts)).toMatchObject({ callback_status: 'sent' });
    expect(server.commands).toContain('give .Bedrock_Bob emerald 1');
    server.setPlayers(['Steve', 'Alex']);
    const bad = await app.request('PATCH', '/v1/organization', { key: s.org.key, body: { settings: { bedrock_prefix: '; ' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('settings.bedrock_prefix');
  });

  it('a vote party’s commands run once per server, not once per player, and need nobody online', async () => {
    const s = await setup({
      events: ['vote', 'vote_party'],
      commands: ['say thanks {{voter_name}}'],
      event_commands: { vote_party: ['crate giveall voteparty {{party_count}}'] },
    });
    await app.request('PATCH', '/v1/organization', { key: s.org.key, body: { settings: { vote_party_every: 2 } } });
    await s.vote('Steve');
    await s.vote('Alex');
    await until(
      async () => server.commands.filter((c) => c.startsWith('crate giveall voteparty')),
      (list) => list.length >= 1,
    );
    await until(
      async () => server.commands.filter((c) => c.startsWith('say thanks')),
      (list) => list.includes('say thanks Alex'),
    );
    expect(server.commands.filter((c) => c === 'crate giveall voteparty 2')).toEqual(['crate giveall voteparty 2']);
  });

  it('a refused password fails the attempt with "RCON password refused" and follows the retry schedule', async () => {
    const s = await setup({ password: 'wrong-password' });
    const id = await s.vote('Steve');
    const v = await until(() => s.read(id), settled);
    expect(v).toMatchObject({ callback_status: 'failed', callback_attempts: 3 });
    const attempts = (await s.log(id)).attempts;
    expect(attempts.map((a: { error: string }) => a.error)).toEqual(['RCON password refused', 'RCON password refused', 'RCON password refused']);
  });

  it('an answer the server marks as failed fails the attempt, with the answer in the log', async () => {
    const s = await setup({ require_online: false, commands: ['frobnicate {{voter_name}}'] });
    const id = await s.vote('Steve');
    const v = await until(() => s.read(id), settled);
    expect(v.callback_status).toBe('failed');
    const attempts = (await s.log(id)).attempts;
    expect(attempts[0].error).toMatch(/refused "frobnicate Steve": Unknown or incomplete command/);
    expect(attempts[0].response_excerpt).toContain('Unknown or incomplete command');
  });

  it('a server that closes mid-command leaves that vote uncertain, not run again (it may have run); the next vote reconnects', async () => {
    const s = await setup({ require_online: false, commands: ['say hello {{voter_name}}'] });
    const before = server.commands.filter((c) => c === 'say hello Alex').length;
    server.closeNextCommand();
    const id = await s.vote('Alex');
    const v = await until(
      () => s.read(id),
      (x) => x.callback_status === 'uncertain',
    );
    expect(v).toMatchObject({ callback_status: 'uncertain', callback_attempts: 1 });
    const attempts = (await s.log(id)).attempts;
    expect(attempts[0].error).toMatch(/closed the connection while running "say hello Alex"; the vote's commands may or may not have run/);
    // Uncertain is final: only a redeliver sends the job again, so what the server ran is all it will run.
    expect(server.commands.filter((c) => c === 'say hello Alex').length - before).toBe(1);
    const next = await s.vote('Alex');
    expect(await until(() => s.read(next), settled)).toMatchObject({ callback_status: 'sent', callback_attempts: 1 });
    // Later still, the uncertain vote was not run again: one run for it, one for the next.
    expect(server.commands.filter((c) => c === 'say hello Alex').length - before).toBe(2);
    // On purpose: the redeliver runs it once more.
    expect((await app.request('POST', `/v1/votes/${id}/redeliver`, { key: s.org.key })).body.data.requeued).toBe(1);
    expect(await until(() => s.read(id), settled)).toMatchObject({ callback_status: 'sent' });
  });

  it('a command of the vote left unanswered past timeout_ms is not run again, nor the commands before it', async () => {
    const s = await setup({ require_online: false, commands: ['say hi {{voter_name}}', 'say thanks {{voter_name}}'], timeout_ms: 1000 });
    server.answer(/^say thanks Bea/, null);
    const id = await s.vote('Bea');
    const v = await until(
      () => s.read(id),
      (x) => x.callback_status !== 'pending',
    );
    expect(v.callback_attempts, JSON.stringify((await s.log(id)).attempts)).toBe(1);
    expect((await s.log(id)).attempts[0].error).toMatch(/"say thanks Bea".*may or may not have run/);
    // Its job ended for good (only a redeliver sends it again), so what the server ran is all it will run.
    expect((await s.log(id)).jobs.map((j: { status: string }) => j.status)).toEqual([expect.stringMatching(/^(uncertain|failed)$/)]);
    expect(server.commands.filter((c) => c === 'say hi Bea')).toHaveLength(1);
  });

  it('the test endpoint logs in and runs list only, and says what it saw', async () => {
    const s = await setup();
    const before = server.commands.length;
    const res = await app.request('POST', `/v1/callbacks/${s.cb.id}/test`, { key: s.org.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ method: 'RCON', sent: true, message: 'logged in; 2 players online: Steve, Alex' });
    expect(res.body.data.payload.commands).toEqual(['give TestVoter diamond 1', 'say TestVoter voted on Test Provider!']);
    // Only list (the online check of other tests' parked votes may list too).
    expect(new Set(server.commands.slice(before))).toEqual(new Set(['list']));
    expect(res.text).not.toContain(PASSWORD);
  });

  it('refuses on save what cannot go into a command safely, naming each', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const res = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: {
        name: 'Bad',
        kind: 'rcon',
        host: server.host,
        password: PASSWORD,
        commands: [
          'give {{voter_name}} {{payload.item}} 1',
          'say {{raw_payload}}',
          'tell {{voter_name}} {{vote_url}}',
          'say {{not_a_variable}}',
          'say a\nop Steve',
        ],
        url: 'http://example.com/',
      },
    });
    expect(res.status).toBe(400);
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain('url'); // another kind's field, refused by name
    const again = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: {
        name: 'Bad',
        kind: 'rcon',
        host: server.host,
        password: PASSWORD,
        commands: ['give {{voter_name}} {{payload.item}} 1', 'say {{raw_payload}}', 'tell {{voter_name}} {{vote_url}}', 'say {{not_a_variable}}'],
      },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.details.map((d: { field: string }) => d.field)).toEqual(['commands[0]', 'commands[1]', 'commands[2]', 'commands[3]']);
    const newline = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Bad', kind: 'rcon', host: server.host, password: PASSWORD, commands: ['say a\nop Steve'] },
    });
    expect(newline.status).toBe(400);
    expect(newline.body.error.details).toEqual([{ field: 'commands[0]', message: 'must be one line' }]);
    const missing = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Bad', kind: 'rcon' } });
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['host', 'password']);
  });
});
