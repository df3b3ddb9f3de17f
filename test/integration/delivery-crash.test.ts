// Crash safety of delivery (the README's Connect a game server): "work is never lost on a crash: a job claimed by a process that
// dies is retried". Real server processes are SIGKILLed while callbacks are in flight; a fresh process (and,
// on PostgreSQL, a surviving second instance) must deliver every acknowledged vote at least once, and no
// delivery id may ever be worked on by two workers at the same time.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, dialect, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { processApi as api, runCli, type ServerProcess } from '../kit/processes.js';
import {
  killAll,
  orgDeliveryCounts,
  overlappingDeliveries,
  runPool,
  startTimingReceiver,
  startTrackedServer,
  waitUntil,
  type TimingReceiver,
} from '../kit/crash.js';

const VOTES = 1_000;
const POST_CONCURRENCY = 20;
const RECEIVER_DELAY_MS = 150;
const TEST_TIMEOUT_MS = 150_000;

describe.skipIf(databaseUnavailable)('delivery after a crashed server process', () => {
  const databaseUrl = testDatabaseUrl();
  const env = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: TEST_SECRET_KEY,
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_LEASE_MS: '3000',
    DELIVERY_POLL_MS: '100',
    RETRY_SCHEDULE: '200ms,200ms,500ms,1s,1s,1s,1s,1s',
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    DELIVERY_CONCURRENCY: '16',
  };
  const children: ChildProcess[] = [];
  const receivers: TimingReceiver[] = [];

  afterAll(async () => {
    await killAll(children);
    await Promise.all(receivers.map((r) => r.close()));
  });

  const startServer = () => startTrackedServer(env, children);

  /** A business org (CLI), one url_path provider and one callback to `receiver`. */
  async function setupOrg(server: ServerProcess, receiver: TimingReceiver) {
    const created = await runCli(['org', 'create', '--slug', uniqueSlug('crash'), '--name', 'Crash Org', '--plan', 'business', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const key: string = created.json.api_key.key;
    const orgId: string = created.json.organization.id;
    const provider = await api(server, 'POST', '/v1/providers', key, {
      key: 'site',
      name: 'Crash List',
      auth_method: 'url_path',
      auth_field: 'secret',
      votee_path: 'user',
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const hookPath = new URL(provider.body.data.webhook_url).pathname;
    const callback = await api(server, 'POST', '/v1/callbacks', key, { name: 'game', url: `${receiver.url}/votes`, timeout_ms: 1000 });
    expect(callback.status, JSON.stringify(callback.body)).toBe(201);
    return { key, orgId, hookPath };
  }

  interface HookAnswer {
    voteId: string;
    duplicate: boolean;
    /** 5xx answers (and the server's error log line for each) before the 200. */
    serverErrors: string[];
    /** Posted again after the instance it first went to was killed without answering. */
    afterKill?: boolean;
  }

  /** The first error log line of `server` about `requestId` (a 5xx's cause), waiting briefly for it to arrive. */
  async function errorCause(server: ServerProcess, text: string): Promise<string> {
    const requestId = /"request_id":"([^"]+)"/.exec(text)?.[1];
    const find = () => server.logs.find((l) => /"level":(50|60)/.test(l) && (!requestId || l.includes(requestId)));
    for (let i = 0; i < 100 && !find(); i++) await new Promise((r) => setTimeout(r, 20));
    const line = find();
    if (!line) return text;
    try {
      return String(JSON.parse(line).err?.message ?? line)
        .replace(/\s+/g, ' ')
        .slice(-400);
    } catch {
      return line.slice(0, 400);
    }
  }

  /**
   * Posts vote `i` (a body no other vote has) to one server. Like a voting site, retries a 5xx (the hook promises
   * a 5xx only when nothing was stored); throws on a network error, a 4xx, or when the 5xx persist.
   */
  async function postVote(server: ServerProcess, hookPath: string, run: string, i: number): Promise<HookAnswer> {
    const serverErrors: string[] = [];
    for (;;) {
      const res = await fetch(`${server.url}${hookPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: `Voter${i}`, run, n: i }),
      });
      const text = await res.text();
      if (res.status === 200) {
        const data = JSON.parse(text).data;
        return { voteId: data.vote_id, duplicate: data.duplicate, serverErrors };
      }
      if (res.status < 500 || serverErrors.length >= 5) throw new Error(`hook answered ${res.status}: ${text} (${await errorCause(server, text)})`);
      serverErrors.push(`${res.status} ${await errorCause(server, text)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  /** The 5xx seen while posting: how many, a few distinct causes, and any 5xx whose vote was stored after all. */
  function serverErrorReport(answers: HookAnswer[]) {
    const errored = answers.filter((a) => a.serverErrors.length > 0);
    // A 5xx promises "not stored": the retry of the same body must then make a new vote, not find a duplicate.
    expect(
      errored.filter((a) => a.duplicate && !a.afterKill).map((a) => [a.voteId, a.serverErrors]),
      'votes stored although the hook answered 5xx',
    ).toEqual([]);
    const causes = [...new Set(errored.flatMap((a) => a.serverErrors).map((e) => e.replace(/\d+ ms/g, 'N ms')))].slice(0, 3);
    return `hook-5xx=${errored.reduce((n, a) => n + a.serverErrors.length, 0)} (votes affected=${errored.length}${causes.length ? `; causes: ${causes.join(' | ')}` : ''})`;
  }

  /** Every acknowledged vote received, then every vote of the org `sent` in the database and over the API. */
  async function verifyDelivered(options: {
    receiver: TimingReceiver;
    acked: string[];
    orgId: string;
    key: string;
    apiServer: () => ServerProcess;
    label: string;
    /** Date.now() by which everything must be done (inside the test's own timeout, so failures say why). */
    deadline: number;
  }) {
    const { receiver, acked, orgId, key, label, deadline } = options;
    const left = (reserveMs: number, capMs: number) => Math.max(1_000, Math.min(capMs, deadline - reserveMs - Date.now()));
    const missing = () => acked.filter((id) => !receiver.voteIds().has(id));
    await waitUntil(
      () => missing().length === 0,
      left(15_000, 90_000),
      () => `${missing().length} acknowledged votes never reached the receiver, e.g. ${missing().slice(0, 3).join(', ')}`,
    );
    const receivedAllAt = Date.now();

    // The receiver's 200 and the worker's bookkeeping are not the same instant: wait for the statuses to settle.
    let counts = await orgDeliveryCounts(databaseUrl, orgId);
    await waitUntil(
      async () => {
        counts = await orgDeliveryCounts(databaseUrl, orgId);
        return counts.votes >= acked.length && counts.voteStatuses.sent === counts.votes;
      },
      left(8_000, 20_000),
      () => `${label}: statuses did not settle: ${JSON.stringify(counts)}`,
    );
    expect(counts.voteStatuses).toEqual({ sent: counts.votes });
    expect(counts.jobStatuses).toEqual({ sent: counts.votes });

    // Every acknowledged vote exists and reads `sent` through the API.
    const views = await runPool(acked.length, POST_CONCURRENCY, (i) => api(options.apiServer(), 'GET', `/v1/votes/${acked[i]}`, key));
    const notFound = views.filter((v) => v.status !== 200);
    expect(
      notFound.map((v) => v.body),
      'acknowledged votes missing from the API',
    ).toEqual([]);
    const notSent = views.filter((v) => v.body.data.callback_status !== 'sent').map((v) => [v.body.data.public_id, v.body.data.callback_status]);
    expect(notSent, 'acknowledged votes not sent').toEqual([]);

    // At-least-once is allowed (reported), overlapping work on one delivery id is not.
    const perVote = new Map<string, number>();
    const perDelivery = new Map<string, number>();
    for (const r of receiver.requests) {
      if (r.voteId) perVote.set(r.voteId, (perVote.get(r.voteId) ?? 0) + 1);
      if (r.webhookId) perDelivery.set(r.webhookId, (perDelivery.get(r.webhookId) ?? 0) + 1);
    }
    const overlaps = overlappingDeliveries(receiver.requests);
    expect(
      overlaps.map((o) => ({
        webhookId: o.webhookId,
        first: { start: Math.round(o.first.start), end: o.first.end && Math.round(o.first.end), aborted: o.first.aborted },
        second: { start: Math.round(o.second.start), end: o.second.end && Math.round(o.second.end), aborted: o.second.aborted },
      })),
      'the same delivery id was being delivered twice at the same time',
    ).toEqual([]);
    return {
      receivedAllAt,
      counts,
      requests: receiver.requests.length,
      abortedRequests: receiver.requests.filter((r) => r.aborted).length,
      votesReceivedTwiceOrMore: [...perVote.values()].filter((n) => n > 1).length,
      deliveryIdsReceivedTwiceOrMore: [...perDelivery.values()].filter((n) => n > 1).length,
    };
  }

  /** Requests a live sender gave up on (its timeout), as opposed to those cut by the kill. */
  const abortedAfter = (receiver: TimingReceiver, at: number) => receiver.requests.filter((r) => r.aborted && r.start > at).length;

  const workerWarnings = (server: ServerProcess) => ({
    leaseLost: server.logs.filter((l) => l.includes('lease lost')).length,
    claimFailed: server.logs.filter((l) => l.includes('claiming delivery jobs failed')).length,
    recordFailed: server.logs.filter((l) => l.includes('could not record a delivery attempt')).length,
  });

  it(
    'a SIGKILLed instance loses no acknowledged vote: a fresh process on the same database delivers every one',
    async () => {
      const started = Date.now();
      const receiver = await startTimingReceiver({ delayMs: RECEIVER_DELAY_MS });
      receivers.push(receiver);
      const first = await startServer();
      const { key, orgId, hookPath } = await setupOrg(first, receiver);
      const run = randomBytes(4).toString('hex');

      const ingestStarted = Date.now();
      const answers = await runPool(VOTES, POST_CONCURRENCY, (i) => postVote(first, hookPath, run, i));
      const ingestMs = Date.now() - ingestStarted;
      const acked = answers.map((a) => a.voteId);
      expect(new Set(acked).size).toBe(VOTES);
      const hook5xx = serverErrorReport(answers);
      expect(answers.filter((a) => a.duplicate)).toEqual([]);
      const receivedAtAck = receiver.voteIds().size;

      await waitUntil(
        () => receiver.voteIds().size >= 50,
        30_000,
        () => `only ${receiver.voteIds().size} callbacks arrived`,
      );
      const receivedBeforeKill = receiver.voteIds().size;
      const openAtKill = receiver.requests.filter((r) => r.end === null).length;
      const killedAt = performance.now();
      first.child.kill('SIGKILL');
      await first.exited;
      // The crash must land while most of the work is still queued or in flight.
      expect(receivedBeforeKill).toBeLessThan(VOTES * 0.9);

      const restarted = Date.now();
      const second = await startServer();
      try {
        const result = await verifyDelivered({
          receiver,
          acked,
          orgId,
          key,
          apiServer: () => second,
          label: dialect,
          deadline: started + TEST_TIMEOUT_MS - 5_000,
        });
        console.log(
          `[delivery-crash ${dialect}, one instance] acknowledged=${acked.length} (ingest ${ingestMs} ms; ${receivedAtAck} delivered by then) ${hook5xx}` +
            ` received-before-kill=${receivedBeforeKill} open-at-kill=${openAtKill}` +
            ` finish-after-restart=${result.receivedAllAt - restarted} ms total=${Date.now() - started} ms` +
            ` requests=${result.requests} aborted=${result.abortedRequests} (started after the kill: ${abortedAfter(receiver, killedAt)})` +
            ` votes-received-twice=${result.votesReceivedTwiceOrMore} delivery-ids-received-twice=${result.deliveryIdsReceivedTwiceOrMore}` +
            ` db=${JSON.stringify(result.counts)} worker-warnings(first)=${JSON.stringify(workerWarnings(first))} (second)=${JSON.stringify(workerWarnings(second))}`,
        );
      } finally {
        second.child.kill('SIGKILL');
        await second.exited;
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.runIf(dialect === 'postgresql')(
    'two instances share the queue: one is SIGKILLed mid-way, the survivor and a restarted one finish the work',
    async () => {
      const started = Date.now();
      const receiver = await startTimingReceiver({ delayMs: RECEIVER_DELAY_MS });
      receivers.push(receiver);
      const a = await startServer();
      const b = await startServer();
      const { key, orgId, hookPath } = await setupOrg(a, receiver);
      const run = randomBytes(4).toString('hex');

      const state = {
        aDead: false,
        aRestarted: null as ServerProcess | null,
        retriedAfterKill: 0,
        duplicatesOnRetry: 0,
        acked: 0,
        kill: null as { perf: number; receivedBeforeKill: number; ackedBeforeKill: number; openAtKill: number; at: number } | null,
      };
      // Alternate between the two instances; once A is dead, its share goes to B, then to the restarted A.
      const target = (i: number) => (i % 2 === 1 ? b : !state.aDead ? a : (state.aRestarted ?? b));

      const killer = (async () => {
        await waitUntil(
          () => state.acked >= VOTES / 2 && receiver.voteIds().size >= 50,
          60_000,
          () => `kill condition not reached: ${state.acked} acknowledged, ${receiver.voteIds().size} received`,
        );
        state.kill = {
          perf: performance.now(),
          receivedBeforeKill: receiver.voteIds().size,
          ackedBeforeKill: state.acked,
          openAtKill: receiver.requests.filter((r) => r.end === null).length,
          at: Date.now(),
        };
        state.aDead = true;
        a.child.kill('SIGKILL');
        await a.exited;
        state.aRestarted = await startServer();
      })().then(
        () => null,
        (err: unknown) => err,
      );

      const ingestStarted = Date.now();
      const answers = await runPool(VOTES, POST_CONCURRENCY, async (i) => {
        // A voting site retries a delivery that got no answer; the same body must come back as the same vote.
        for (let tries = 0; ; tries++) {
          const server = target(i);
          try {
            const answer = await postVote(server, hookPath, run, i);
            state.acked++;
            if (tries > 0 && answer.duplicate) state.duplicatesOnRetry++;
            return { ...answer, afterKill: tries > 0 };
          } catch (err) {
            if (server !== a || !state.aDead || tries > 3) throw err;
            state.retriedAfterKill++;
          }
        }
      });
      const ingestMs = Date.now() - ingestStarted;
      const killerError = await killer;
      if (killerError) throw killerError;
      const acked = answers.map((x) => x.voteId);
      expect(new Set(acked).size).toBe(VOTES);
      const hook5xx = serverErrorReport(answers);
      expect(answers.filter((x) => x.duplicate).length).toBe(state.duplicatesOnRetry);
      const kill = state.kill!;
      const aRestarted = state.aRestarted!;
      expect(kill.receivedBeforeKill).toBeLessThan(VOTES * 0.9);

      try {
        const result = await verifyDelivered({
          receiver,
          acked,
          orgId,
          key,
          apiServer: () => b,
          label: `${dialect} x2`,
          deadline: started + TEST_TIMEOUT_MS - 5_000,
        });
        // Votes A stored without answering may exist on top of the acknowledged ones; all of them were sent.
        console.log(
          `[delivery-crash ${dialect}, two instances] acknowledged=${acked.length} (ingest ${ingestMs} ms; ${kill.ackedBeforeKill} before the kill) ${hook5xx}` +
            ` received-before-kill=${kill.receivedBeforeKill} open-at-kill=${kill.openAtKill}` +
            ` posts-retried-after-kill=${state.retriedAfterKill} (answered duplicate=${state.duplicatesOnRetry}) votes-in-db=${result.counts.votes}` +
            ` finish-after-kill=${result.receivedAllAt - kill.at} ms total=${Date.now() - started} ms` +
            ` requests=${result.requests} aborted=${result.abortedRequests} (started after the kill: ${abortedAfter(receiver, kill.perf)})` +
            ` votes-received-twice=${result.votesReceivedTwiceOrMore} delivery-ids-received-twice=${result.deliveryIdsReceivedTwiceOrMore}` +
            ` db=${JSON.stringify(result.counts)} worker-warnings(a)=${JSON.stringify(workerWarnings(a))} (b)=${JSON.stringify(workerWarnings(b))}` +
            ` (a restarted)=${JSON.stringify(workerWarnings(aRestarted))}`,
        );
      } finally {
        await killAll(children);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
