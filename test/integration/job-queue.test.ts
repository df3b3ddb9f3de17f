// The delivery queue's claim, against the real database: which jobs a worker takes, in which order, and that
// a job is handed out once while its lease holds. Its own database (PostgreSQL) or file (SQLite), deliveries off,
// so only this test's jobs are in the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJobs } from '../../src/delivery/job-queue.js';
import { createOwnPostgresDatabase, databaseUnavailable, dialect, startTestApp, type TestApp } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('delivery job claims', () => {
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
      (await prisma.vote.create({ data: { publicId: `vt_${name}_${org.id}`, organizationId: org.id, providerId: provider.id, voterName: name, voterKey: name, rawPayload: '{}', dedupKey: name } })).id;
    const [v1, v2, v3] = [await vote('a'), await vote('b'), await vote('c')];
    const job = async (name: string, data: { voteId: string | null; status: string; runAt: Date; priority?: number; kind?: string; lockedUntil?: Date }) => {
      const row = await prisma.deliveryJob.create({
        data: { organizationId: org.id, kind: data.kind ?? 'callback', maxAttempts: 3, priority: data.priority ?? 0, voteId: data.voteId, status: data.status, runAt: data.runAt,
          lockedBy: data.lockedUntil ? 'another-worker' : null, lockedUntil: data.lockedUntil ?? null },
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
    const first = await claimJobs(app.deps.db, 'worker-a', now, 60_000, 3);
    expect(first.map((j) => names.get(j.id))).toEqual(order.slice(0, 3));
    const second = await claimJobs(app.deps.db, 'worker-b', now, 60_000, 3);
    expect(second.map((j) => names.get(j.id))).toEqual(order.slice(3));
    expect(await claimJobs(app.deps.db, 'worker-c', now, 60_000, 10)).toEqual([]);

    const rows = await prisma.deliveryJob.findMany({ where: { organizationId: org.id } });
    const state = Object.fromEntries(rows.map((r) => [names.get(r.id), `${r.status}:${r.lockedBy ?? ''}`]));
    expect(state).toEqual({
      'v1-p0': 'running:worker-a', 'v1-p5': 'running:worker-a', expired: 'running:worker-a', retry: 'running:worker-b', 'v1-chat': 'running:worker-b',
      future: 'pending:', 'future-retry': 'retrying:', leased: 'running:another-worker', pull: 'pending:', sent: 'sent:', failed: 'failed:',
    });
    // Once their leases run out, the claimed jobs are due again (a crashed worker's jobs are not lost).
    const later = await claimJobs(app.deps.db, 'worker-d', at(120_000), 60_000, 10);
    expect(later.map((j) => names.get(j.id)).sort()).toEqual([...order, 'future', 'future-retry', 'leased'].sort());
  });
});
