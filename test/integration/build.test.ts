// The compiled build (README: Compiled build): `npm run build` emits JavaScript that runs the service, its CLI and
// its worker threads without tsx. The SQLite project runs `npm run build` into a folder of this test's own
// (`--out-dir`), so it never replaces a dist/ that a developer's service or the benchmark is running from. What is
// built does not depend on the database, what runs does: the PostgreSQL project runs the build the suite's set-up made
// with the same script (test/kit/service-build.ts) on its database, rather than compiling everything a second time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { ROOT, runCli, startServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

function npmBuild(outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'build', '--', '--out-dir', outDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.skipIf(databaseUnavailable)('compiled build', () => {
  const ownBuild = dialect === 'sqlite';
  const outDir = ownBuild ? join('.test-builds', `${dialect}-${randomBytes(4).toString('hex')}`) : inject('serviceBuild');
  const out = join(ROOT, outDir);
  // Both threads on: the write thread (the default) and the delivery thread, each started from thread-boot.mjs.
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    SECRET_KEY: TEST_SECRET_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    WRITE_THREAD: 'true',
    DELIVERY_THREAD: 'true',
    DELIVERY_POLL_MS: '100',
  };
  const children: ChildProcess[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    if (ownBuild) {
      const built = await npmBuild(outDir);
      expect(built.code, built.output).toBe(0);
    }
    receiver = await startReceiver({ status: 200 });
  }, 300_000); // a whole tsc compile, on two cores another test run may be using
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    if (ownBuild) rmSync(out, { recursive: true, force: true });
  });

  it('emits JavaScript only, with the migrations, the dashboard and the thread bootstrap where the modules look for them', async () => {
    const files = filesUnder(out);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => /\.test\.js$/.test(f))).toEqual([]);
    for (const file of [
      'src/main.js',
      'src/cli/main.js',
      'src/threads/thread-boot.mjs',
      'src/storage/write-thread.js',
      'src/storage/sqlite/writes.js',
      'src/storage/postgres/writes.js',
      'src/app/delivery-thread.js',
      'src/generated/sqlite/client.js',
      'src/generated/postgresql/client.js',
      'rest-compat/router.js',
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    for (const db of ['sqlite', 'postgresql']) {
      const migrations = (dir: string) =>
        readdirSync(dir)
          .filter((name) => existsSync(join(dir, name, 'migration.sql')))
          .sort();
      expect(migrations(join(out, 'prisma', db, 'migrations'))).toEqual(migrations(join(ROOT, 'prisma', db, 'migrations')));
    }
    if (existsSync(join(ROOT, 'web/dist/index.html'))) expect(existsSync(join(out, 'web/dist/index.html'))).toBe(true);
  });

  it('runs the service from JavaScript: health, an organization by the compiled CLI, a vote stored and delivered by its threads, exit 0 on SIGTERM', async () => {
    const server = await startServerProcess(env, children, `${outDir}/src/main.js`);
    expect(server.child.spawnargs.join(' ')).not.toMatch(/tsx/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    const slug = uniqueSlug('build');
    const created = await runCli(['org', 'create', '--slug', slug, '--name', 'Built', '--plan', 'business', '--json'], env, `${outDir}/src/cli/main.js`);
    expect(created.code, created.stderr).toBe(0);
    const key = created.json.api_key.key as string;
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });

    const provider = await call('POST', '/v1/providers', { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' });
    expect(provider.status).toBe(201);
    const hook = new URL((await provider.json()).data.webhook_url).pathname;
    expect((await call('POST', '/v1/callbacks', { name: 'Game', url: `${receiver.url}/votes` })).status).toBe(201);

    const vote = await fetch(`${server.url}${hook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'Compiled' }),
    });
    expect(vote.status).toBe(200);
    const voteId = (await vote.json()).data.vote_id as string;
    const stored = await call('GET', `/v1/votes/${voteId}`);
    expect(stored.status).toBe(200);
    expect((await stored.json()).data).toMatchObject({ public_id: voteId, voter_name: 'Compiled' });
    const [delivered] = await until(
      () => Promise.resolve(receiver.requests.filter((r) => r.path === '/votes')),
      (got) => got.length > 0,
      20_000,
    );
    expect(delivered.json.vote_id).toBe(voteId);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
