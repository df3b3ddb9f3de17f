// `cli backup` under a steady stream of votes and `cli restore` into a fresh data folder (README: Backups), with the
// service and the commands as real processes: every vote acknowledged before the backup began is in the restored
// database, which passes `cli stats verify`. On PostgreSQL both commands refuse and point to pg_dump / pg_restore.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { runCli, startServerProcess, type ServerProcess } from '../kit/processes.js';

interface Acknowledged {
  voter: string;
  at: number;
}

/** Senders in closed loops until `stop()`; each records the votes the hook acknowledged (200) and when. */
function steadyVotes(url: string, hook: string, senders: number) {
  const acknowledged: Acknowledged[] = [];
  const refused: string[] = [];
  let stopped = false;
  let sent = 0;
  const loops = Array.from({ length: senders }, async () => {
    while (!stopped) {
      const voter = `Load${sent++}`;
      const res = await fetch(`${url}${hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: voter }),
      }).catch(() => null);
      if (res?.status === 200) acknowledged.push({ voter, at: Date.now() });
      else refused.push(`${voter}: ${res?.status ?? 'no answer'}`);
      await res?.arrayBuffer();
    }
  });
  return {
    acknowledged,
    refused,
    async until(count: number) {
      while (acknowledged.length < count) await new Promise((r) => setTimeout(r, 20));
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(databaseUnavailable || dialect !== 'postgresql')('backup and restore on PostgreSQL', () => {
  it('refuse, change nothing and point to pg_dump and pg_restore', async () => {
    const env = { DATABASE_URL: testDatabaseUrl(), SECRET_KEY: TEST_SECRET_KEY };
    const file = join(mkdtempSync(join(tmpdir(), 'vote-relay-backup-')), 'backup.db');
    const backup = await runCli(['backup', '--to', file, '--json'], env);
    expect(backup.code).toBe(2);
    expect(backup.json.error).toMatch(/PostgreSQL.*pg_dump/);
    // The database it was asked about, then the one-line refusal.
    expect(backup.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^database: postgresql /), expect.stringMatching(/PostgreSQL.*pg_dump/)]);
    expect(existsSync(file)).toBe(false);
    const restore = await runCli(['restore', '--from', file], env);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toMatch(/PostgreSQL.*pg_restore/);
  }, 60_000);
});

describe.skipIf(dialect !== 'sqlite')('backup and restore on SQLite', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('a backup taken under load restores every vote acknowledged before it began, with consistent counts', async () => {
    const base = {
      SECRET_KEY: TEST_SECRET_KEY,
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000',
      DELIVERY_ENABLED: 'false',
    };
    const env = { ...base, DATABASE_URL: testDatabaseUrl() };
    const backupFile = join(mkdtempSync(join(tmpdir(), 'vote-relay-backup-')), 'backup.db');

    let server: ServerProcess = await startServerProcess(env, children);
    const org = await runCli(['org', 'create', '--slug', uniqueSlug('backup'), '--name', 'Backup', '--plan', 'business', '--json'], env);
    expect(org.code, org.stderr).toBe(0);
    const key = org.json.api_key.key as string;
    const provider = await fetch(`${server.url}/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' }),
    });
    expect(provider.status).toBe(201);
    const hook = new URL((await provider.json()).data.webhook_url).pathname;

    const load = steadyVotes(server.url, hook, 4);
    await load.until(200);
    // The votes acknowledged before the copy began, by the order of events, not by clock: a vote answered in the same
    // millisecond as the copy's start is one of them.
    const before = load.acknowledged.map((v) => v.voter);
    const backupBegan = Date.now();
    const backup = await runCli(['backup', '--to', backupFile, '--json'], env);
    const backupEnded = Date.now();
    const ackedDuring = load.acknowledged.filter((v) => v.at >= backupBegan && v.at <= backupEnded).length;
    await load.until(load.acknowledged.length + 200); // the service keeps taking votes after the copy
    await load.stop();
    expect(backup.code, backup.stderr).toBe(0);
    expect(load.refused).toEqual([]); // the copy never made the service turn a vote away
    expect(backup.json.backup).toMatchObject({ to: backupFile, bytes: expect.any(Number), secret_key: 'SECRET_KEY' });

    // While the service has the database open, restore refuses and leaves it alone.
    const refused = await runCli(['restore', '--from', backupFile], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/open in another process: stop the service/);
    const after = await fetch(`${server.url}${hook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'AfterRefusal' }),
    });
    expect(after.status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const restoredEnv = { ...base, DATABASE_URL: `file:${join(mkdtempSync(join(tmpdir(), 'vote-relay-restored-')), 'data', 'vote-relay.db')}` };
    const restore = await runCli(['restore', '--from', backupFile, '--json'], restoredEnv);
    expect(restore.code, restore.stderr).toBe(0);
    const verify = await runCli(['stats', 'verify', '--json'], restoredEnv);
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.json).toEqual({ consistent: true, differences: [] });

    server = await startServerProcess(restoredEnv, children);
    const exported = await fetch(`${server.url}/v1/votes/export`, { headers: { authorization: `Bearer ${key}` } });
    expect(exported.status).toBe(200);
    const restored = new Set(
      (await exported.text())
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    );

    expect(before.length).toBeGreaterThanOrEqual(200);
    expect(before.filter((voter) => !restored.has(voter))).toEqual([]);
    // Nothing that was never acknowledged, and not the votes sent long after the copy was taken.
    const all = new Set(load.acknowledged.map((v) => v.voter));
    expect([...restored].filter((voter) => !all.has(voter))).toEqual([]);
    expect(restored.has('AfterRefusal')).toBe(false);
    console.log(
      `backup: ${before.length} votes acknowledged before, ${ackedDuring} during (${backupEnded - backupBegan} ms), ${load.acknowledged.length} in all; ${restored.size} restored`,
    );

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 240_000);
});
