import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { runCli, startServerProcess, type ServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

describe.skipIf(databaseUnavailable)('operator CLI and the server process', () => {
  const env = { DATABASE_URL: testDatabaseUrl(), SECRET_KEY: TEST_SECRET_KEY, ALLOW_PRIVATE_TARGETS: 'true' };
  let server: ServerProcess;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerProcess(env);
    receiver = await startReceiver();
  }, 60_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await receiver?.close();
  });

  it('org create --json prints the organization and a full key that works against the running server', async () => {
    const slug = uniqueSlug('cli');
    const res = await runCli(['org', 'create', '--slug', slug, '--name', 'CLI Org', '--plan', 'growth', '--json'], env);
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      organization: { id: expect.any(String), slug, name: 'CLI Org', plan: 'growth', status: 'active' },
      api_key: { id: expect.any(String), name: expect.any(String), key: expect.stringMatching(/^vr_live_/), prefix: expect.any(String), scope: 'full' },
    });
    const api = await fetch(`${server.url}/v1/organization`, { headers: { authorization: `Bearer ${res.json.api_key.key}` } });
    expect(api.status).toBe(200);
    expect((await api.json()).data).toMatchObject({ slug, plan: 'growth', usage: { votes_limit: 10_000 } });

    const plan = await runCli(['org', 'set-plan', '--slug', slug, '--plan', 'pro', '--json'], env);
    expect(plan.json).toEqual({ organization: expect.objectContaining({ slug, plan: 'pro' }) });
    const key = await runCli(['key', 'create', '--org', slug, '--name', 'ops', '--scope', 'read', '--json'], env);
    expect(key.json.api_key).toMatchObject({ name: 'ops', scope: 'read', key: expect.stringMatching(/^vr_live_/) });

    const suspended = await runCli(['org', 'suspend', '--slug', slug, '--json'], env);
    expect(suspended.json.organization.status).toBe('suspended');
    const blocked = await fetch(`${server.url}/v1/api-keys`, { headers: { authorization: `Bearer ${key.json.api_key.key}` } });
    expect(blocked.status).toBe(403);
    expect((await blocked.json()).error.code).toBe('ORG_SUSPENDED');
    const active = await runCli(['org', 'activate', '--slug', slug, '--json'], env);
    expect(active.json.organization.status).toBe('active');

    const human = await runCli(['key', 'create', '--org', slug, '--name', 'human', '--scope', 'full'], env);
    expect(human.stdout).toMatch(/vr_live_/);
  }, 120_000); // six CLI processes, each starting tsx and Prisma: slow when the whole suite shares two cores

  it("voter erase removes one voter's votes through the CLI, and refuses an unknown organization", async () => {
    const slug = uniqueSlug('erase');
    const created = await runCli(['org', 'create', '--slug', slug, '--name', 'Erase Org', '--plan', 'business', '--json'], env);
    const key = created.json.api_key.key as string;
    const provider = await fetch(`${server.url}/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' }),
    }).then((r) => r.json());
    const hook = new URL(provider.data.webhook_url).pathname;
    for (const user of ['Zed', 'zed', 'other']) {
      const res = await fetch(`${server.url}${hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user, n: Math.random() }),
      });
      expect(res.status).toBe(200);
    }
    const erased = await runCli(['voter', 'erase', '--org', slug, '--name', 'ZED', '--json'], env);
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.json).toEqual({ erased: { voter_name: 'ZED', votes_deleted: 2, attempts_deleted: 0, rollup_rows_deleted: expect.any(Number) } });
    const left = await fetch(`${server.url}/v1/votes`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
    expect(left.data.votes.map((v: { voter_name: string }) => v.voter_name)).toEqual(['other']);
    const verify = await runCli(['stats', 'verify', '--org', slug, '--json'], env);
    expect(verify.json).toEqual({ consistent: true, differences: [] });
    const unknown = await runCli(['voter', 'erase', '--org', uniqueSlug('none'), '--name', 'x', '--json'], env);
    expect(unknown.code).toBe(2);
  }, 120_000);

  it('migrate reports nothing to apply on a current database', async () => {
    const res = await runCli(['migrate', '--json'], env);
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ applied: [] });
  });

  // Refused by the argument checks or at the first read, the same on either database: run once, on SQLite.
  it.skipIf(dialect !== 'sqlite')(
    'bad arguments exit non-zero with a one-line reason',
    async () => {
      for (const args of [
        ['org', 'create', '--slug', 'x-y'],
        ['org', 'create', '--slug', 'ok-slug', '--name', 'N', '--plan', 'platinum'],
        ['org', 'frobnicate'],
        ['key', 'create', '--org', 'does-not-exist-anywhere', '--name', 'n', '--scope', 'read'],
        ['org', 'create', '--bogus-flag'],
      ]) {
        const res = await runCli(args, env);
        expect(res.code, args.join(' ')).not.toBe(0);
        // The reason, after the line naming the database where the command got that far.
        expect(
          res.stderr
            .trim()
            .split('\n')
            .filter((line) => !line.startsWith('database: ')),
          res.stderr,
        ).toHaveLength(1);
        expect(res.stderr).not.toMatch(/\n\s+at /);
      }
    },
    120_000,
  );
});

// SQLite files whatever the project's database: run once, in the SQLite project.
describe.skipIf(dialect === 'postgresql')('one configuration for the service and the CLI (.env)', () => {
  it('the CLI reads .env from the directory it runs in, the environment wins over it, and every command names its database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vote-relay-env-'));
    try {
      const file = join(dir, 'relay.db');
      writeFileSync(join(dir, '.env'), `# the service's settings\nDATABASE_URL=file:${file}\nSECRET_KEY="${TEST_SECRET_KEY}"\n`);
      const slug = uniqueSlug('dotenv');
      // No DATABASE_URL in the environment: the file's is used.
      const bare = { DATABASE_URL: undefined, SECRET_KEY: undefined };
      const created = await runCli(['org', 'create', '--slug', slug, '--name', 'Env', '--plan', 'growth', '--json'], bare, undefined, dir);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toBe(`database: sqlite ${file} (settings from ${join(dir, '.env')})\n`);
      // A second command from the same directory finds the organization: the same database.
      const key = await runCli(['key', 'create', '--org', slug, '--name', 'ops', '--scope', 'read', '--json'], bare, undefined, dir);
      expect(key.code, key.stderr).toBe(0);
      // A variable set in the environment wins over the file (and says so by the database it names).
      const other = join(dir, 'other.db');
      const elsewhere = await runCli(
        ['key', 'create', '--org', slug, '--name', 'ops', '--scope', 'read', '--json'],
        { DATABASE_URL: `file:${other}` },
        undefined,
        dir,
      );
      expect(elsewhere.stderr.split('\n')[0]).toBe(`database: sqlite ${other} (settings from ${join(dir, '.env')})`);
      expect(elsewhere.json).toEqual({ error: expect.stringContaining(slug) });
      // Without a .env file, the line names the database alone.
      const empty = mkdtempSync(join(tmpdir(), 'vote-relay-no-env-'));
      try {
        const plain = await runCli(['migrate', '--json'], { DATABASE_URL: `file:${other}` }, undefined, empty);
        expect(plain.stderr).toBe(`database: sqlite ${other}\n`);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
