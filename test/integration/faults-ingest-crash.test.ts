// Fault injection, a process killed mid-transaction on the ingest side (issue 7; delivery-crash.test.ts covers
// deliveries in flight). A real server process taking a flood of hook votes is SIGKILLed; a new process on the
// same database must hold every vote that was acknowledged, no partial vote (each stored vote has its delivery
// job, the per-day counts match the raw votes), and take votes again. Deliveries the kill left unanswered are
// retried like a voting site does: each either finds its vote (it was committed) or makes it now, never twice.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect } from '../kit/app.js';
import { runCli } from '../kit/processes.js';
import { killAll, startTrackedServer, waitUntil } from '../kit/crash.js';
import { deliverLikeAVotingSite, ownDatabase, setUpHookOrg, storedVotes, type VotingSiteDelivery } from '../kit/faults.js';

const CONCURRENCY = 32;

describe.skipIf(databaseUnavailable)('a server process SIGKILLed while votes are being written', () => {
  const children: ChildProcess[] = [];
  let drop: () => Promise<void> = async () => {};
  afterAll(async () => {
    await killAll(children);
    await drop();
  });

  it('keeps every acknowledged vote, leaves no partial one, and takes votes again after a restart', async () => {
    const started = Date.now();
    const own = await ownDatabase();
    drop = own.drop;
    const env = {
      DATABASE_URL: own.url,
      SECRET_KEY: TEST_SECRET_KEY,
      ALLOW_PRIVATE_TARGETS: 'true',
      // The jobs stay as the ingest wrote them: this test is about the vote's transaction, not about sending.
      DELIVERY_ENABLED: 'false',
      HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
      API_RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const first = await startTrackedServer(env, children);
    // Nothing listens on the discard port; with delivery off, nothing is sent there anyway.
    const org = await setUpHookOrg(env, first.url, ['http://127.0.0.1:9/votes']);

    const run = randomBytes(4).toString('hex');
    let next = 0;
    let flooding = true;
    const firstRound: VotingSiteDelivery[] = [];
    const flood = Array.from({ length: CONCURRENCY }, async () => {
      while (flooding) {
        const n = next++;
        const body = JSON.stringify({ user: `Voter${n % 97}`, run, n });
        // One try each: what the kill cuts off is retried below, against the new process.
        firstRound.push(await deliverLikeAVotingSite(() => first.url, org.hookPath, body, { retryDelayMs: 0, deadline: 0, requestTimeoutMs: 10_000 }));
      }
    });
    const acked = () => firstRound.filter((d) => d.voteId).length;
    await waitUntil(
      () => acked() >= 200,
      30_000,
      () => `only ${acked()} votes acknowledged`,
    );
    flooding = false;
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(flood);

    const ackedBeforeKill = firstRound.filter((d) => d.voteId);
    const cutOff = firstRound.filter((d) => !d.voteId);
    // Every try that did not get its 200 was cut by the kill (no answer), not refused by the server.
    expect(cutOff.filter((d) => d.failures.some((f) => f.status !== null)).map((d) => d.failures)).toEqual([]);
    expect(cutOff.length, 'the kill landed while no vote was in flight').toBeGreaterThan(0);

    const second = await startTrackedServer(env, children);
    try {
      // The voting sites retry what got no answer, with the same body.
      const deadline = Date.now() + 10_000;
      const retried = await Promise.all(cutOff.map((d) => deliverLikeAVotingSite(() => second.url, org.hookPath, d.body, { retryDelayMs: 200, deadline })));
      expect(retried.filter((d) => !d.voteId).map((d) => d.failures)).toEqual([]);
      const fresh = await deliverLikeAVotingSite(() => second.url, org.hookPath, JSON.stringify({ user: 'AfterRestart', run }), {
        retryDelayMs: 0,
        deadline: 0,
      });
      expect(fresh).toMatchObject({ duplicate: false, failures: [] });

      const all = [...ackedBeforeKill, ...retried, fresh];
      const stored = await storedVotes(own.url, org.orgId);
      const storedIds = new Set(stored.map((v) => v.publicId));
      expect(
        ackedBeforeKill.filter((d) => !storedIds.has(d.voteId!)).map((d) => d.voteId),
        'acknowledged votes lost by the kill',
      ).toEqual([]);
      // One vote per body: a retry of a vote committed just before the kill found it instead of making another.
      expect(stored.length).toBe(all.length);
      expect(new Set(all.map((d) => d.voteId)).size).toBe(all.length);
      expect(new Set(stored.map((v) => v.rawPayload)).size).toBe(stored.length);
      // No partial vote: each has the one callback job written in its transaction.
      expect(stored.filter((v) => v.callbackJobs !== 1).map((v) => v.publicId)).toEqual([]);
      // The per-day counts (written in the same transaction) match the raw votes.
      const verify = await runCli(['stats', 'verify', '--json'], env);
      expect(verify.json, verify.stderr).toEqual({ consistent: true, differences: [] });

      const foundCommitted = retried.filter((d) => d.duplicate).length;
      console.log(
        `[faults ingest crash ${dialect}] acknowledged-before-kill=${ackedBeforeKill.length} cut-off=${cutOff.length}` +
          ` (already committed: ${foundCommitted}, written after the restart: ${cutOff.length - foundCommitted}) stored=${stored.length} total=${Date.now() - started} ms`,
      );
    } finally {
      await killAll(children);
    }
  }, 90_000);
});
