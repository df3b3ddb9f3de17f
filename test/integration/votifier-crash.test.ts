// A server process SIGKILLed while Votifier v2 votes arrive over TCP: every session that was answered
// {"status":"ok"} holds a stored vote in a new process on the same database (the answer comes only after the
// commit), and the listener takes votes again after the restart.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable } from '../kit/app.js';
import { runCli } from '../kit/processes.js';
import { killAll, startTrackedServer, waitUntil } from '../kit/crash.js';
import { ownDatabase, storedVotes } from '../kit/faults.js';
import { freePort, v2Frame, votifierSession, type SessionResult } from '../kit/votifier-sender.js';

const CONCURRENCY = 16;

describe.skipIf(databaseUnavailable)('a server process SIGKILLed while Votifier votes are being received', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void> = async () => {};
  afterAll(async () => {
    await killAll(children);
    await drop();
  });

  it('never answered ok for a vote it had not stored, and serves again after a restart', async () => {
    const own = await ownDatabase();
    drop = own.drop;
    const port = await freePort();
    const env = {
      DATABASE_URL: own.url,
      SECRET_KEY: TEST_SECRET_KEY,
      DELIVERY_ENABLED: 'false',
      VOTIFIER_PORT: String(port),
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
      IP_RATE_LIMIT_PER_MINUTE: '1000000',
      VOTIFIER_MAX_CONNECTIONS_PER_IP: '100',
    };
    const first = await startTrackedServer(env, children);
    const created = await runCli(
      ['org', 'create', '--slug', `vtf-${randomBytes(4).toString('hex')}`, '--name', 'Votifier crash', '--plan', 'business', '--json'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const provider = await fetch(`${first.url}/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.json.api_key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'mc', name: 'Minecraft lists', auth_method: 'votifier' }),
    }).then((r) => r.json());
    const token: string = provider.data.votifier.token;

    const run = randomBytes(3).toString('hex');
    let next = 0;
    let flooding = true;
    const sessions: { username: string; result: SessionResult }[] = [];
    const flood = Array.from({ length: CONCURRENCY }, async () => {
      while (flooding) {
        const username = `${run}_${next++}`;
        const vote = { serviceName: 'crash-test', username, address: '203.0.113.9', timestamp: Date.now() };
        sessions.push({ username, result: await votifierSession(port, (challenge) => v2Frame(vote, token, challenge), 5_000) });
      }
    });
    const ok = () => sessions.filter((s) => s.result.answer.includes('"ok"')).length;
    await waitUntil(
      () => ok() >= 150,
      30_000,
      () => `only ${ok()} votes answered ok`,
    );
    flooding = false;
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(flood);

    const answeredOk = sessions.filter((s) => s.result.answer.includes('"ok"')).map((s) => s.username);
    const cutOff = sessions.filter((s) => !s.result.answer);
    const second = await startTrackedServer(env, children);
    try {
      const stored = new Set((await storedVotes(own.url, created.json.organization.id)).map((v) => JSON.parse(v.rawPayload).username as string));
      expect(
        answeredOk.filter((u) => !stored.has(u)),
        'votes answered ok but not stored',
      ).toEqual([]);
      // Nothing but ok answers and cut sessions (no error answers) in the first process's life.
      expect(sessions.filter((s) => s.result.answer && !s.result.answer.includes('"ok"')).map((s) => s.result.answer)).toEqual([]);
      console.log(`[votifier-crash] answered-ok=${answeredOk.length} cut-by-the-kill=${cutOff.length} stored=${stored.size}`);
      const after = { serviceName: 'crash-test', username: `${run}_after`, address: '203.0.113.9', timestamp: Date.now() };
      await waitUntil(
        async () => (await votifierSession(port, (c) => v2Frame(after, token, c), 2_000)).answer.includes('"ok"'),
        20_000,
        () => 'the restarted listener never answered ok',
      );
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 120_000);
});
