// The contract of the basement, run against both implementations (this file runs once per database project): the
// JobQueue (claim order, leases, attempt records, pull claims, requeue, enqueue inside a caller's transaction) and
// the batch writer (one transaction for many submits, a bad item failing alone, promises settling after commit,
// close). Its own database (PostgreSQL) or file (SQLite), deliveries off, so only this test's jobs are in the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { commitEach, createGroupCommit } from '../../src/storage/group-commit.js';
import type { BatchWriter } from '../../src/storage/index.js';
import { inlineParameters, pgTransaction } from '../../src/storage/postgres/transaction.js';
import type { ClaimedJob } from '../../src/domain/jobs.js';
import { NEW_ORG_DEFAULTS } from '../../src/domain/votes.js';
import { voterOfVote } from '../../src/domain/voter-identity.js';
import { createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('JobQueue and batch writer contract', () => {
  let app: TestApp;
  let drop: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    const own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
    drop = own?.drop ?? null;
    app = await startTestApp({ DELIVERY_ENABLED: 'false' }, own ? { databaseUrl: own.url } : {});
  });
  afterAll(async () => {
    await app?.stop();
    await drop?.();
  });

  it('takes due pending, retrying and lease-expired jobs by (runAt, vote, priority), a batch at a time, never the others', async () => {
    const { prisma } = app.deps.db;
    const org = await app.createOrg({ plan: 'business' });
    const provider = await prisma.provider.create({
      data: { organizationId: org.id, key: 'p', name: 'P', authMethod: 'header', authField: 'Authorization', authValueEnc: 'x', voteePath: 'user' },
    });
    const now = new Date();
    const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
    const vote = async (name: string) =>
      (
        await prisma.vote.create({
          data: {
            publicId: `vt_${name}_${org.id}`,
            organizationId: org.id,
            providerId: provider.id,
            voterName: name,
            voterKey: name,
            rawPayload: '{}',
            dedupKey: name,
          },
        })
      ).id;
    const [v1, v2, v3] = [await vote('a'), await vote('b'), await vote('c')];
    const job = async (name: string, data: { voteId: string | null; status: string; runAt: Date; priority?: number; kind?: string; lockedUntil?: Date }) => {
      const row = await prisma.deliveryJob.create({
        data: {
          organizationId: org.id,
          kind: data.kind ?? 'callback',
          maxAttempts: 3,
          priority: data.priority ?? 0,
          voteId: data.voteId,
          status: data.status,
          runAt: data.runAt,
          lockedBy: data.lockedUntil ? 'another-worker' : null,
          lockedUntil: data.lockedUntil ?? null,
        },
      });
      return [row.id, name] as const;
    };
    const names = new Map([
      // Expected order: runAt first, then the vote, then priority.
      await job('v1-p0', { voteId: v1, status: 'pending', runAt: at(-5_000), priority: 0 }),
      await job('v1-p5', { voteId: v1, status: 'pending', runAt: at(-5_000), priority: 5 }),
      await job('expired', { voteId: v2, status: 'running', runAt: at(-4_000), lockedUntil: at(-1_000) }),
      await job('retry', { voteId: v3, status: 'retrying', runAt: at(-3_000) }),
      await job('v1-chat', { voteId: v1, status: 'pending', runAt: at(-2_000), kind: 'chat' }),
      // Never claimed: not due, leased by another worker, waiting for a plugin, finished.
      await job('future', { voteId: v2, status: 'pending', runAt: at(60_000) }),
      await job('future-retry', { voteId: v3, status: 'retrying', runAt: at(60_000) }),
      await job('leased', { voteId: v2, status: 'running', runAt: at(-6_000), lockedUntil: at(60_000) }),
      await job('pull', { voteId: v3, status: 'pending', runAt: at(-7_000), kind: 'pull' }),
      await job('sent', { voteId: v3, status: 'sent', runAt: at(-8_000) }),
      await job('failed', { voteId: v3, status: 'failed', runAt: at(-8_000) }),
    ]);
    const order = ['v1-p0', 'v1-p5', 'expired', 'retry', 'v1-chat'];
    // Within one runAt the vote decides; v1's two jobs share a runAt and a vote, so priority orders them.
    const first = await app.deps.jobs.claim('worker-a', now, 60_000, 3);
    expect(first.map((j) => names.get(j.id))).toEqual(order.slice(0, 3));
    const second = await app.deps.jobs.claim('worker-b', now, 60_000, 3);
    expect(second.map((j) => names.get(j.id))).toEqual(order.slice(3));
    expect(await app.deps.jobs.claim('worker-c', now, 60_000, 10)).toEqual([]);

    const rows = await prisma.deliveryJob.findMany({ where: { organizationId: org.id } });
    const state = Object.fromEntries(rows.map((r) => [names.get(r.id), `${r.status}:${r.lockedBy ?? ''}`]));
    expect(state).toEqual({
      'v1-p0': 'running:worker-a',
      'v1-p5': 'running:worker-a',
      expired: 'running:worker-a',
      retry: 'running:worker-b',
      'v1-chat': 'running:worker-b',
      future: 'pending:',
      'future-retry': 'retrying:',
      leased: 'running:another-worker',
      pull: 'pending:',
      sent: 'sent:',
      failed: 'failed:',
    });
    // Once their leases run out, the claimed jobs are due again (a crashed worker's jobs are not lost).
    const later = await app.deps.jobs.claim('worker-d', at(120_000), 60_000, 10);
    expect(later.map((j) => names.get(j.id)).sort()).toEqual([...order, 'future', 'future-retry', 'leased'].sort());
  });

  /** An organization, a provider and one vote with one job of `kind` in `status`; returns their ids. */
  async function oneJob(kind = 'callback', status = 'pending', extra: { maxAttempts?: number; attempts?: number } = {}) {
    const { prisma } = app.deps.db;
    const org: TestOrg = await app.createOrg({ plan: 'business' });
    const provider = await prisma.provider.create({
      data: { organizationId: org.id, key: 'p', name: 'P', authMethod: 'header', authField: 'Authorization', authValueEnc: 'x', voteePath: 'user' },
    });
    const vote = await prisma.vote.create({
      data: {
        publicId: `vt_${kind}_${org.id}`,
        organizationId: org.id,
        providerId: provider.id,
        voterName: 'n',
        voterKey: 'n',
        rawPayload: '{}',
        dedupKey: 'n',
        callbackStatus: 'pending',
      },
    });
    const job = await prisma.deliveryJob.create({
      data: {
        organizationId: org.id,
        kind,
        maxAttempts: extra.maxAttempts ?? 3,
        attempts: extra.attempts ?? 0,
        voteId: vote.id,
        status,
        runAt: new Date(Date.now() - 1_000),
      },
    });
    return { org, voteId: vote.id, jobId: job.id };
  }
  const attempt = (n: number, success: boolean) => ({
    attempt: n,
    target: 'http://127.0.0.1:9/x',
    statusCode: success ? 200 : 500,
    success,
    durationMs: 3,
    error: success ? null : 'HTTP 500',
    responseExcerpt: null,
  });

  it('finish records the attempt and the vote status for the lease holder only; renew extends a live lease only', async () => {
    const { prisma } = app.deps.db;
    const { voteId, jobId } = await oneJob();
    const now = new Date();
    // Claims may include other tests' due jobs: pick this one.
    const claimed = (await app.deps.jobs.claim('w1', now, 1_000, 100)).find((j) => j.id === jobId)!;
    expect(claimed).toBeTruthy();
    // The lease still covers the next 500 ms: nothing to write. Asked to cover 5 s, it is renewed.
    expect(await app.deps.jobs.renew(claimed, 'w1', now, 1_000, 500)).toBe(true);
    expect(await app.deps.jobs.renew({ ...claimed }, 'w2', now, 60_000, 5_000)).toBe(false);
    expect(await app.deps.jobs.renew(claimed, 'w1', now, 60_000, 5_000)).toBe(true);
    expect((await prisma.deliveryJob.findUniqueOrThrow({ where: { id: jobId } })).lockedUntil!.getTime()).toBe(now.getTime() + 60_000);
    // Another worker cannot record an attempt on it.
    expect(await app.deps.jobs.finish(claimed, 'w2', now, attempt(1, true), { status: 'sent' }, null)).toBe(false);
    expect(await prisma.deliveryAttempt.count({ where: { jobId } })).toBe(0);
    // The holder can: a failed attempt, retried later.
    const retryAt = new Date(now.getTime() + 30_000);
    expect(await app.deps.jobs.finish(claimed, 'w1', now, attempt(1, false), { status: 'retrying', runAt: retryAt }, 'HTTP 500')).toBe(true);
    const row = await prisma.deliveryJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(row).toMatchObject({ status: 'retrying', attempts: 1, lockedBy: null, lastError: 'HTTP 500' });
    expect(row.runAt.getTime()).toBe(retryAt.getTime());
    expect(await prisma.vote.findUniqueOrThrow({ where: { id: voteId } })).toMatchObject({ callbackStatus: 'retrying', callbackAttempts: 1 });
    // Due again at retryAt; its lease lost to a second claim after expiry, the first worker's finish is refused.
    const again = (await app.deps.jobs.claim('w3', retryAt, 1_000, 100)).find((j) => j.id === jobId)!;
    const thief = (await app.deps.jobs.claim('w4', new Date(retryAt.getTime() + 2_000), 60_000, 100)).find((j) => j.id === jobId)!;
    expect(thief).toBeTruthy();
    expect(await app.deps.jobs.finish(again, 'w3', retryAt, attempt(2, true), { status: 'sent' }, null)).toBe(false);
    expect(await app.deps.jobs.finish(thief, 'w4', retryAt, attempt(2, true), { status: 'sent' }, null)).toBe(true);
    expect(await prisma.vote.findUniqueOrThrow({ where: { id: voteId } })).toMatchObject({ callbackStatus: 'sent', callbackAttempts: 2 });
    expect((await prisma.deliveryAttempt.findMany({ where: { jobId }, orderBy: { attempt: 'asc' } })).map((a) => [a.attempt, a.success])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('a claim marks the jobs of enabled, unpaced callbacks of the kinds it names, and answers the mark a job had before', async () => {
    const { prisma } = app.deps.db;
    const { org, voteId } = await oneJob('chat');
    const callback = async (name: string, kind: string, extra: { enabled?: boolean; maxPerSecond?: number } = {}) => {
      const row = await prisma.callback.create({
        data: { organizationId: org.id, name, kind, payloadTemplateJson: '{}', signingSecretEnc: 'x', ...extra },
      });
      const job = await prisma.deliveryJob.create({
        data: { organizationId: org.id, kind: 'callback', maxAttempts: 3, voteId, callbackId: row.id, status: 'pending', runAt: new Date(Date.now() - 1_000) },
      });
      return job.id;
    };
    const jobs = {
      votifier: await callback('V', 'votifier'),
      paced: await callback('Paced', 'votifier', { maxPerSecond: 5 }),
      disabled: await callback('Off', 'votifier', { enabled: false }),
      http: await callback('H', 'http'),
    };
    const sendingAt = async (id: string) => (await prisma.deliveryJob.findUniqueOrThrow({ where: { id } })).sendingAt;
    const now = new Date();
    const claimed = new Map((await app.deps.jobs.claim('w1', now, 1_000, 100, ['votifier'])).map((j) => [j.id, j]));
    // Only the enabled, unpaced Votifier callback's job: marked by the claim, and told so; none was leaving.
    expect(Object.values(jobs).map((id) => claimed.get(id)?.markedWhenClaimed ?? false)).toEqual([true, false, false, false]);
    expect(Object.values(jobs).map((id) => claimed.get(id)?.sendingAt ?? null)).toEqual([null, null, null, null]);
    expect(await Promise.all([jobs.paced, jobs.disabled, jobs.http].map(sendingAt))).toEqual([null, null, null]);
    expect((await sendingAt(jobs.votifier))?.getTime()).toBe(now.getTime());
    // Its lease lapsed with the mark set: the next claim answers the mark as it was, and keeps it.
    const later = new Date(now.getTime() + 2_000);
    const again = (await app.deps.jobs.claim('w2', later, 60_000, 100, ['votifier'])).find((j) => j.id === jobs.votifier)!;
    expect(again.markedWhenClaimed).toBeFalsy();
    expect(new Date(again.sendingAt!).getTime()).toBe(now.getTime());
    expect((await sendingAt(jobs.votifier))?.getTime()).toBe(now.getTime());
    // A restarted instance's reclaim of its own jobs answers the same, and marks an unmarked one as a claim does.
    const disabledCallback = (await prisma.deliveryJob.findUniqueOrThrow({ where: { id: jobs.disabled } })).callbackId!;
    await prisma.callback.update({ where: { id: disabledCallback }, data: { enabled: true } });
    const restart = new Date(later.getTime() + 120_000);
    const reclaimed = new Map((await app.deps.jobs.reclaimOwn('w2', restart, 60_000, 100, restart, ['votifier'])).map((j) => [j.id, j]));
    expect([reclaimed.get(jobs.votifier)!.markedWhenClaimed ?? false, new Date(reclaimed.get(jobs.votifier)!.sendingAt!).getTime()]).toEqual([
      false,
      now.getTime(),
    ]);
    expect([reclaimed.get(jobs.disabled)!.markedWhenClaimed, reclaimed.get(jobs.disabled)!.sendingAt ?? null]).toEqual([true, null]);
    expect((await sendingAt(jobs.disabled))?.getTime()).toBe(restart.getTime());
    expect(await sendingAt(jobs.paced)).toBeNull();
    // A claim that names no kind marks nothing.
    await prisma.deliveryJob.update({ where: { id: jobs.http }, data: { status: 'pending', lockedBy: null, lockedUntil: null } });
    const plain = (await app.deps.jobs.claim('w3', later, 60_000, 100)).find((j) => j.id === jobs.http)!;
    expect([plain.markedWhenClaimed ?? false, await sendingAt(jobs.http)]).toEqual([false, null]);
  });

  it('claimPull hands an organization its own pull jobs once per lease; hold lets a plugin settle one', async () => {
    const { prisma } = app.deps.db;
    const mine = await oneJob('pull');
    const other = await oneJob('pull');
    const now = new Date();
    const first = await app.deps.jobs.claimPull('token-a', mine.org.id, now, 60_000, 10);
    expect(first.map((j: ClaimedJob) => j.id)).toEqual([mine.jobId]);
    expect(await app.deps.jobs.claimPull('token-b', mine.org.id, now, 60_000, 10)).toEqual([]);
    // Worker claims never take pull jobs.
    expect((await app.deps.jobs.claim('worker', now, 60_000, 1_000)).some((j) => j.id === other.jobId)).toBe(false);
    await app.deps.jobs.hold(mine.jobId, 'token-b');
    expect(await app.deps.jobs.finish(first[0], 'token-b', now, attempt(1, true), { status: 'sent' }, null)).toBe(true);
    expect(await prisma.deliveryJob.findUniqueOrThrow({ where: { id: mine.jobId } })).toMatchObject({ status: 'sent', lockedBy: null });
    expect(await prisma.vote.findUniqueOrThrow({ where: { id: mine.voteId } })).toMatchObject({ callbackStatus: 'sent' });
  });

  it('requeueFailed gives failed jobs a fresh budget and resets the vote; enqueue joins the caller’s transaction', async () => {
    const { prisma } = app.deps.db;
    const { org, voteId, jobId } = await oneJob('callback', 'failed', { attempts: 3, maxAttempts: 3 });
    await prisma.vote.update({ where: { id: voteId }, data: { callbackStatus: 'failed', callbackAttempts: 3 } });
    const now = new Date();
    expect(await app.deps.jobs.requeueFailed(voteId, now, (kind) => (kind === 'callback' ? 4 : 1))).toBe(1);
    expect(await prisma.deliveryJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: 'pending', maxAttempts: 7, attempts: 3 });
    expect(await prisma.vote.findUniqueOrThrow({ where: { id: voteId } })).toMatchObject({ callbackStatus: 'retrying' });
    expect(await app.deps.jobs.requeueFailed(voteId, now, () => 4)).toBe(0);
    // Inside a transaction that rolls back, the job is never there; inside one that commits, it is, once.
    const alert = {
      organizationId: org.id,
      voteId: null,
      callbackId: null,
      kind: 'alert',
      priority: 0,
      maxAttempts: 5,
      runAt: now,
      uniqueKey: `contract:${org.id}`,
      payloadJson: '{"content":"x"}',
    };
    await expect(
      prisma.$transaction(async (tx) => {
        await app.deps.jobs.enqueue(tx, [alert]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await prisma.deliveryJob.count({ where: { uniqueKey: alert.uniqueKey } })).toBe(0);
    await prisma.$transaction((tx) => app.deps.jobs.enqueue(tx, [alert]));
    expect(await prisma.deliveryJob.findMany({ where: { uniqueKey: alert.uniqueKey } })).toEqual([
      expect.objectContaining({ kind: 'alert', status: 'pending', payloadJson: '{"content":"x"}' }),
    ]);
  });

  it('the write thread: each of 40 votes submitted at once settles after its commit, a bad one fails alone, a repeat is the first', async () => {
    const { prisma } = app.deps.db;
    const org = await app.createOrg({ plan: 'business' });
    const row = await prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    const provider = await prisma.provider.create({
      data: { organizationId: org.id, key: 'wt', name: 'WT', authMethod: 'header', authField: 'Authorization', authValueEnc: 'x', voteePath: 'user' },
    });
    const hookOrg = {
      id: org.id,
      slug: org.slug,
      plan: row.plan,
      status: row.status,
      chatNotificationsEnabled: false,
      chatWebhookUrl: null,
      serverCallbackUrl: null,
      ...NEW_ORG_DEFAULTS,
    };
    const hookProvider = { ...provider, enabled: true } as never;
    const vote = (name: string, providerId = provider.id) => ({
      org: hookOrg,
      provider: { ...(hookProvider as object), id: providerId } as never,
      voterName: name,
      voter: voterOfVote(name, null, 'name', null),
      rawPayload: JSON.stringify({ user: name }),
      dedupKey: `wt-${name}`,
      idempotencyKey: null,
      receivedAt: new Date(),
    });
    const committed = (publicId: string) => prisma.vote.count({ where: { publicId } });
    // 40 votes at once, one of them for a provider that does not exist (its foreign key fails): the rest are stored.
    const submitted = Array.from({ length: 40 }, (_, i) => (i === 7 ? vote(`v${i}`, 'no-such-provider') : vote(`v${i}`)));
    const settled = await Promise.allSettled(
      submitted.map((v) => app.deps.db.votes.write(v).then(async (stored) => ({ stored, visible: await committed(stored.publicId) }))),
    );
    expect(settled.map((r) => r.status)).toEqual(submitted.map((_, i) => (i === 7 ? 'rejected' : 'fulfilled')));
    for (const r of settled) if (r.status === 'fulfilled') expect(r.value).toMatchObject({ stored: { duplicate: false }, visible: 1 });
    expect(await prisma.vote.count({ where: { organizationId: org.id } })).toBe(39);
    expect(await prisma.providerDailyCount.aggregate({ where: { providerId: provider.id }, _sum: { count: true } })).toEqual({ _sum: { count: 39 } });
    // The same delivery again is the first vote, not a new one.
    const again = await app.deps.db.votes.write(vote('v3'));
    expect(again.duplicate).toBe(true);
    expect(await prisma.vote.count({ where: { organizationId: org.id } })).toBe(39);
    expect(app.deps.db.alive()).toBe(true);
  });

  describe('batch writer', () => {
    const table = 'BatchWriterProbe';
    let writes = 0;
    let writer: BatchWriter<string, number>;

    beforeAll(async () => {
      // The one group-commit engine (src/storage/group-commit.ts) over each database's own transaction.
      if (dialect === 'sqlite') {
        const db = new Sqlite(app.deps.db.describe().location, { timeout: 15_000 });
        db.exec(`CREATE TABLE IF NOT EXISTS "${table}" (id TEXT PRIMARY KEY)`);
        const insert = db.prepare(`INSERT INTO "${table}" (id) VALUES (?)`);
        const tx = db.transaction((ids: string[]) => (writes++, ids.map((id) => insert.run(id).changes)));
        writer = createGroupCommit<string, number>({ maxBatch: 256, commit: (ids) => commitEach(ids, (b) => tx.immediate(b)) });
      } else {
        const pool = new pg.Pool({ connectionString: app.config.databaseUrl, max: 2, idleTimeoutMillis: 100 });
        // The test's own database is dropped at the end, under any idle connection.
        pool.on('error', () => {});
        await pool.query(`CREATE TABLE IF NOT EXISTS "${table}" (id TEXT PRIMARY KEY)`);
        const transaction = pgTransaction<string, number>(pool, async (query, ids) => {
          writes++;
          const inserted = await query({ text: `INSERT INTO "${table}" (id) SELECT unnest($1::text[])`, values: [ids] });
          return ids.map(() => (inserted.rowCount === ids.length ? 1 : 0));
        });
        writer = createGroupCommit<string, number>({ maxBatch: 256, commit: (ids) => commitEach(ids, transaction) });
      }
    });
    const committed = async (ids: string[]) =>
      Number(
        (
          await app.deps.db.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
            `SELECT COUNT(*) AS n FROM "${table}" WHERE id IN (${ids.map((id) => `'${id}'`).join(',')})`,
          )
        )[0].n,
      );

    it('writes 300 concurrent submits in far fewer transactions; each promise settles after its commit', async () => {
      writes = 0;
      const ids = Array.from({ length: 300 }, (_, i) => `many-${i}`);
      // Read from another connection at the moment each promise settles: the row must already be committed.
      const seen = await Promise.all(ids.map((id) => writer.submit(id).then(async (n) => [n, await committed([id])])));
      expect(seen.every(([n, visible]) => n === 1 && visible === 1)).toBe(true);
      expect(await committed(ids)).toBe(300);
      expect(writes).toBeGreaterThanOrEqual(2); // at most 256 per transaction
      expect(writes).toBeLessThan(30);
    });

    it('a bad item fails alone: the rest of its batch is written', async () => {
      await writer.submit('taken');
      const ids = ['ok-1', 'ok-2', 'taken', 'ok-3'];
      const results = await Promise.allSettled(ids.map((id) => writer.submit(id)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await committed(['ok-1', 'ok-2', 'ok-3'])).toBe(3);
    });

    it('close writes what was queued and refuses what comes after', async () => {
      const queued = writer.submit('before-close');
      writer.close();
      await expect(queued).resolves.toBe(1);
      await expect(writer.submit('after-close')).rejects.toThrow(/closed/);
      expect(await committed(['before-close', 'after-close'])).toBe(1);
    });
  });

  describe.skipIf(dialect !== 'postgresql')('values written into the simple query sent with BEGIN (the vote batch read)', () => {
    it('read back exactly as sent, hostile text included; NUL refused before anything is sent', async () => {
      const pool = new pg.Pool({ connectionString: app.config.databaseUrl, max: 1, idleTimeoutMillis: 100 });
      pool.on('error', () => {});
      const texts = [
        "it's",
        "back\\slash \\'",
        '\'); DROP TABLE "Vote"; --',
        '$1 $2 $$ $x$',
        'Ünïcødé 🗳️',
        '',
        "E'\\x41'",
        'say "hi"',
        'NULL',
        '{a,b}',
        'a,b',
        ' spaced ',
        'trailing\\',
        '\\"',
      ];
      const sql = 'SELECT t, n, b, at FROM unnest($1::text[], $2::int[], $3::boolean[], $4::timestamp(3)[]) AS u(t, n, b, at)';
      const values = [
        texts,
        texts.map((_, i) => (i % 2 ? null : i)),
        texts.map((_, i) => i % 3 === 0),
        texts.map((_, i) => new Date(Date.UTC(2026, 0, i + 1, 12)).toISOString()),
      ];
      try {
        const read = pgTransaction<number, unknown[]>(
          pool,
          async (_query, _items, begun) => begun!.at(-1)!.rows.map((r) => [r.t, r.n, r.b, (r.at as Date).toISOString()]),
          () => `SET LOCAL statement_timeout = 5000; ${inlineParameters(sql, values)}`,
        );
        expect(await read([1])).toEqual(texts.map((t, i) => [t, values[1][i], values[2][i], values[3][i]]));
        // The hostile text stayed a value: the table it names is still there.
        await expect(pool.query('SELECT 1 FROM "Vote" LIMIT 1')).resolves.toBeDefined();
        expect(() => inlineParameters(sql, [['a\u0000b'], [1], [true], [null]])).toThrow(/NUL/);
        expect(() => inlineParameters('SELECT $2', [1])).toThrow(/\$2/);
      } finally {
        await pool.end();
      }
    });
  });
});
