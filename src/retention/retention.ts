// Retention (the README's Retention and erasure): votes older than VOTE_RETENTION_DAYS are deleted, whole UTC days
// at a time, with their delivery jobs and attempts (foreign-key cascades); their per-day rollups stay, so
// statistics stay exact, and `votes_kept_from` (ServiceState) tells `stats verify`/`rebuild` which days have no raw
// votes any more. Stored inbound bodies older than RAW_PAYLOAD_RETENTION_DAYS are cleared, and hook request log
// entries older than HOOK_LOG_RETENTION (through the log's own write, so its bounds' counts follow). All work in
// small batches, each its own short transaction, resting between them, so hooks keep their pace.
import type { AppDeps } from '../app/deps.js';
import { addDays, utcDay, utcDayStart } from '../base/time.js';
import { backgroundLoop } from '../base/background-loop.js';

/** Rows per batch: each batch is one short transaction (a vote's jobs and attempts go with it). */
export const RETENTION_BATCH = 100;
/** Hook request log entries per batch (small rows, one index range per provider). */
export const HOOK_LOG_RETENTION_BATCH = 500;
/** Batches per run and kind; the rest waits for the next run. */
export const MAX_BATCHES_PER_RUN = 1_000;
/**
 * After each batch retention rests this many times as long as the batch took, so it uses at most a fifth of the
 * database and of the thread it runs on: hooks keep their pace while a backlog is deleted (bench/retention.ts;
 * on embedded SQLite every write shares one lock and the statements run synchronously on this thread).
 */
const REST_FACTOR = 4;
const MIN_REST_MS = 10;
export const VOTES_KEPT_FROM = 'votes_kept_from';
/** The day before which every stored body has been cleared: the next run starts there. */
const PAYLOADS_CLEARED_BEFORE = 'payloads_cleared_before';

export interface RetentionRun {
  votesDeleted: number;
  /** Finished delivery jobs of no vote (admin alerts, reminders whose vote was gone) older than the votes kept. */
  jobsDeleted: number;
  payloadsCleared: number;
  hookRequestsDeleted: number;
  /** Vote page clicks older than the payloads kept (README "Vote page"). */
  clicksDeleted: number;
  /** The first UTC day whose raw votes are all kept (null: retention never deleted votes). */
  keptFrom: string | null;
}

export interface Retention {
  start(): void;
  stop(): Promise<void>;
  tick(): Promise<RetentionRun>;
}

/** The first day raw votes are kept from, as retention recorded it; null when it never deleted any. */
export async function votesKeptFrom(prisma: AppDeps['db']['prisma']): Promise<string | null> {
  const row = await prisma.serviceState.findUnique({ where: { key: VOTES_KEPT_FROM } });
  return row?.value ?? null;
}

export function createRetention(deps: AppDeps, options: { intervalMs: number }): Retention {
  const { prisma } = deps.db;
  const { voteRetentionDays, rawPayloadRetentionDays } = deps.config;
  /** Runs one batch, then rests in proportion to how long it took (REST_FACTOR). */
  async function paced<T>(batch: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await batch();
    const rest = Math.max(MIN_REST_MS, (performance.now() - started) * REST_FACTOR);
    await new Promise((resolve) => setTimeout(resolve, rest));
    return result;
  }

  const organizations = async () => (await prisma.organization.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((o) => o.id);
  const state = async (key: string) => (await prisma.serviceState.findUnique({ where: { key } }))?.value ?? null;
  const setState = (key: string, value: string) => prisma.serviceState.upsert({ where: { key }, create: { key, value }, update: { value } });

  /** Per organization, along its (organization, receivedAt) index; deleted rows are gone, so nothing is read twice. */
  async function deleteVotes(before: Date): Promise<{ deleted: number; done: boolean }> {
    let deleted = 0;
    let batches = 0;
    for (const organizationId of await organizations()) {
      for (;;) {
        if (batches++ >= MAX_BATCHES_PER_RUN) return { deleted, done: false };
        const count = await paced(async () => {
          const ids = await prisma.vote.findMany({ where: { organizationId, receivedAt: { lt: before } }, select: { id: true }, take: RETENTION_BATCH });
          return ids.length === 0 ? 0 : (await prisma.vote.deleteMany({ where: { id: { in: ids.map((v) => v.id) } } })).count;
        });
        if (count === 0) break;
        deleted += count;
      }
    }
    return { deleted, done: true };
  }

  /**
   * Finished jobs that belong to no vote (a vote's go with it): admin alerts, and reminder events sent after the vote
   * that set them was gone, which carry the voter's name. Along the queue's (status, runAt) index.
   */
  async function deleteVotelessJobs(before: Date): Promise<number> {
    let deleted = 0;
    for (let batches = 0; batches < MAX_BATCHES_PER_RUN; batches++) {
      const count = await paced(async () => {
        const ids = await prisma.deliveryJob.findMany({
          where: { status: { in: ['sent', 'failed', 'skipped'] }, runAt: { lt: before }, voteId: null },
          select: { id: true },
          take: RETENTION_BATCH,
        });
        return ids.length === 0 ? 0 : (await prisma.deliveryJob.deleteMany({ where: { id: { in: ids.map((j) => j.id) } } })).count;
      });
      if (count === 0) break;
      deleted += count;
    }
    return deleted;
  }

  /** Per organization from where the last run finished, moving on by time, so cleared rows are not read again. */
  async function clearPayloads(from: Date, before: Date): Promise<{ cleared: number; done: boolean }> {
    let cleared = 0;
    let batches = 0;
    for (const organizationId of await organizations()) {
      let after = from;
      for (;;) {
        if (batches++ >= MAX_BATCHES_PER_RUN) return { cleared, done: false };
        const rows = await paced(async () => {
          const found = await prisma.vote.findMany({
            where: { organizationId, receivedAt: { gte: after, lt: before }, rawPayload: { not: '' } },
            select: { id: true, receivedAt: true },
            orderBy: { receivedAt: 'asc' },
            take: RETENTION_BATCH,
          });
          if (found.length > 0) cleared += (await prisma.vote.updateMany({ where: { id: { in: found.map((v) => v.id) } }, data: { rawPayload: '' } })).count;
          return found;
        });
        if (rows.length === 0) break;
        after = rows[rows.length - 1].receivedAt;
      }
    }
    return { cleared, done: true };
  }

  /**
   * Vote page clicks (README "Vote page") older than `before`, per organization along its (organization, time)
   * index: their hashed addresses go with the payloads' addresses.
   */
  async function deleteClicks(before: Date): Promise<number> {
    let deleted = 0;
    let batches = 0;
    const orgs = await prisma.organization.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    for (const { id: organizationId } of orgs) {
      for (;;) {
        if (batches >= MAX_BATCHES_PER_RUN) return deleted;
        const ids = await prisma.voteClick.findMany({ where: { organizationId, at: { lt: before } }, select: { id: true }, take: HOOK_LOG_RETENTION_BATCH });
        if (ids.length === 0) break;
        batches++;
        deleted += await paced(async () => (await prisma.voteClick.deleteMany({ where: { id: { in: ids.map((c) => c.id) } } })).count);
        if (ids.length < HOOK_LOG_RETENTION_BATCH) break;
      }
    }
    return deleted;
  }

  /** Per provider along its (providerId, receivedAt) index, then the organization-level entries and old drop counts. */
  async function deleteHookRequests(before: Date): Promise<number> {
    let deleted = 0;
    let batches = 0;
    const providers = (await prisma.provider.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((p) => p.id);
    for (const providerId of [...providers, null]) {
      for (;;) {
        // Batches that deleted something count toward the bound: every provider is visited each run.
        if (batches >= MAX_BATCHES_PER_RUN) return deleted;
        const result = await paced(() => deps.db.hookLog.submit({ kind: 'retain', providerId, before: before.getTime(), limit: HOOK_LOG_RETENTION_BATCH }));
        const count = 'deleted' in result ? result.deleted : 0;
        if (count > 0) batches++;
        deleted += count;
        if (count < HOOK_LOG_RETENTION_BATCH) break;
      }
    }
    return deleted;
  }

  async function run(): Promise<RetentionRun> {
    const today = utcDayStart(deps.clock.now());
    let votesDeleted = 0;
    let jobsDeleted = 0;
    let payloadsCleared = 0;
    if (voteRetentionDays > 0) {
      // Whole days: a day is either all kept or all gone, so its rollups can be checked against raw votes or not.
      const before = addDays(today, -voteRetentionDays);
      const keptFrom = utcDay(before);
      // The horizon is recorded first: a verify meanwhile never counts a day being emptied.
      const current = await state(VOTES_KEPT_FROM);
      if (!current || current < keptFrom) await setState(VOTES_KEPT_FROM, keptFrom);
      votesDeleted = (await deleteVotes(before)).deleted;
      jobsDeleted = await deleteVotelessJobs(before);
    }
    if (rawPayloadRetentionDays > 0) {
      const before = addDays(today, -rawPayloadRetentionDays);
      const from = await state(PAYLOADS_CLEARED_BEFORE);
      const run = await clearPayloads(from ? new Date(`${from}T00:00:00.000Z`) : new Date(0), before);
      payloadsCleared = run.cleared;
      if (run.done) await setState(PAYLOADS_CLEARED_BEFORE, utcDay(before));
    }
    const hookRequestsDeleted =
      deps.config.hookLogRetentionMs > 0 ? await deleteHookRequests(new Date(deps.clock.now().getTime() - deps.config.hookLogRetentionMs)) : 0;
    // Clicks keep a hashed address: they go when the payloads (which hold voters' addresses) go, else with the votes.
    const clickDays = rawPayloadRetentionDays > 0 ? rawPayloadRetentionDays : voteRetentionDays;
    const clicksDeleted = clickDays > 0 ? await deleteClicks(addDays(today, -clickDays)) : 0;
    if (votesDeleted + jobsDeleted + payloadsCleared + hookRequestsDeleted + clicksDeleted > 0)
      deps.logger.info({ votesDeleted, jobsDeleted, payloadsCleared, hookRequestsDeleted, clicksDeleted }, 'retention run');
    return { votesDeleted, jobsDeleted, payloadsCleared, hookRequestsDeleted, clicksDeleted, keptFrom: await state(VOTES_KEPT_FROM) };
  }

  // One run at a time in this process; a second caller shares it.
  const loop = backgroundLoop({
    everyMs: options.intervalMs,
    atStart: true,
    pass: run,
    failed: (err) => deps.logger.error({ err }, 'retention run failed; will retry'),
  });
  return { start: loop.start, stop: loop.stop, tick: loop.runNow };
}
