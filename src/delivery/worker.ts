// The delivery worker: sends jobs with bounded concurrency — a vote's callbacks one after another in priority
// order — and records every attempt. A new vote's jobs arrive leased to it, handed over in memory right after their
// commit (dispatch, handoff.ts): no claim. It claims (with a lease) from the database queue what is left: retries
// that come due, jobs of an instance that died (once their lease lapses), and at start its own leased jobs from
// before a restart (reclaimOwn), at once. An attempt to a target that cannot drop a repeat is marked before it
// leaves (JobQueue.mark); a job claimed with its mark set ends `uncertain` instead of being sent again (README
// "Delivery guarantees"), with one line in the log and one admin alert per organization and restart.
// This file is the scheduling (slots, claims, hand-overs, wake-ups); its named steps are worker-contexts.ts,
// worker-uncertain.ts, worker-send.ts and worker-log.ts.
import type { AppDeps } from '../app/deps.js';
import { wasLeaving, type ClaimedJob } from '../domain/jobs.js';
import { jobKindOf } from './job-kinds/registry.js';
import { CALLBACK_KINDS, MARKED_WHEN_CLAIMED } from './callback-kinds/registry.js';
import { createMinHeap } from './min-heap.js';
import { loadJobContexts } from './worker-contexts.js';
import { createDeliveryLog } from './worker-log.js';
import { createJobRunner } from './worker-send.js';
import { createUncertainDeliveries } from './worker-uncertain.js';

const WAKE_COALESCE_MS = 5;

export interface DeliveryWorkerOptions {
  concurrency: number;
  /** How long a claimed job is ours; must exceed the longest attempt (callback timeouts reach 30 s). */
  leaseMs: number;
  pollMs: number;
  /** The lease holder: this process's INSTANCE_ID, stable across restarts (its own leases are taken back at start). */
  workerId: string;
  /**
   * From when (epoch ms) jobs leased to `workerId` are handed to this worker (delivery/handoff.ts): those leased
   * earlier belong to an earlier run and are taken back at start; default: the worker's start.
   */
  handedSince?: number;
}

export interface DeliveryWorker {
  start(): void;
  stop(): Promise<void>;
  /** Claim now (jobs were queued for claiming). */
  wake(): void;
  /** Jobs committed leased to this worker (a new vote's): sent at once, in their vote's priority order. */
  dispatch(jobs: ClaimedJob[]): void;
}

export function createDeliveryWorker(deps: AppDeps, options: DeliveryWorkerOptions): DeliveryWorker {
  const { workerId } = options;
  let inFlight = 0;
  let running = false;
  let claiming = false;
  let again = false;
  /** A claim is due (the poll, a wake-up); without one, only handed-over jobs start. */
  let claimWanted = true;
  /** The last claim filled its capacity: more may be due. */
  let backlog = false;
  let timer: NodeJS.Timeout | null = null;
  const active = new Set<Promise<void>>();
  /** Attempt records not yet committed (stop waits for them). */
  const recordings = new Set<Promise<void>>();
  const track = (recording: Promise<void>) => {
    recordings.add(recording);
    void recording.finally(() => recordings.delete(recording));
  };
  /** Jobs handed over leased (dispatch), waiting for a free slot of the concurrency. */
  const handed: ClaimedJob[] = [];
  /** At start: this worker's jobs still leased from before a restart are taken back first. */
  let ownLeft = true;
  /** The last of them are back: the uncertain ones among them are told about once they are settled. */
  let reportAfterStart = false;
  let handedSince = 0;
  // The named steps (Svix's worker has the same shape): a batch's contexts loaded (worker-contexts.ts), the uncertain
  // ones settled (worker-uncertain.ts), each job run (worker-send.ts), with the operator's log lines (worker-log.ts).
  const log = createDeliveryLog(deps);
  const uncertain = createUncertainDeliveries(deps, workerId, () => wake());
  const runner = createJobRunner(deps, options, { wakeAt: (at) => wakeAt(at), wake: () => wake(), track, log });

  /** A vote's callbacks go one after another in priority order; everything else runs side by side. */
  function groups(jobs: ClaimedJob[]): ClaimedJob[][] {
    const byVote = new Map<string, ClaimedJob[]>();
    const singles: ClaimedJob[][] = [];
    for (const job of jobs) {
      if (jobKindOf(job.kind)?.inVoteOrder) {
        const key = job.voteId ?? job.id;
        byVote.set(key, [...(byVote.get(key) ?? []), job]);
      } else singles.push([job]);
    }
    return [...singles, ...[...byVote.values()].map((g) => g.sort((a, b) => a.priority - b.priority))];
  }

  /**
   * Up to `capacity` handed-over jobs, whole votes only (a vote's callbacks go one after another, so its jobs are
   * never split across two starts). Jobs of one vote arrive together, so they are next to each other.
   */
  function takeHanded(capacity: number): ClaimedJob[] {
    let n = Math.min(capacity, handed.length);
    while (n < handed.length && n > 0 && handed[n].voteId !== null && handed[n].voteId === handed[n - 1].voteId) n++;
    return handed.splice(0, n);
  }

  /** Starts the jobs' groups; each finished group lets the next waiting jobs start. */
  async function start(claimed: ClaimedJob[]): Promise<void> {
    const contexts = await loadJobContexts(deps.db.contexts, claimed);
    // Those with a mark end uncertain here, before the rest start: nothing of them is sent.
    const leaving = claimed.filter(wasLeaving);
    await Promise.all(leaving.map((job) => uncertain.settle(contexts.get(job.id)!)));
    const jobs = leaving.length > 0 ? claimed.filter((job) => !wasLeaving(job)) : claimed;
    for (const group of groups(jobs)) {
      inFlight += group.length;
      const task = (async () => {
        let after: Date | undefined;
        for (const job of group) {
          try {
            after = await runner.run(contexts.get(job.id)!, after);
          } catch (err) {
            deps.logger.error(
              { err, jobId: job.id },
              'could not record a delivery attempt in the database; the job is sent again when its lease ends (the receiver may get it twice)',
            );
          } finally {
            inFlight--;
          }
        }
      })();
      active.add(task);
      task.finally(() => {
        active.delete(task);
        // Room again: jobs handed over meanwhile, or a backlog the last claim could not take in full.
        if (running && (handed.length > 0 || backlog)) kick();
      });
    }
  }

  async function claimAndRun(): Promise<void> {
    if (!running) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        const capacity = options.concurrency - inFlight;
        if (capacity <= 0) break;
        let jobs = takeHanded(capacity);
        if (jobs.length === 0) {
          if (!claimWanted && !backlog) break;
          claimWanted = false;
          const now = deps.clock.now();
          jobs = ownLeft
            ? await deps.jobs.reclaimOwn(workerId, now, options.leaseMs, capacity, new Date(handedSince + options.leaseMs), MARKED_WHEN_CLAIMED)
            : await deps.jobs.claim(workerId, now, options.leaseMs, capacity, MARKED_WHEN_CLAIMED);
          backlog = jobs.length === capacity;
          if (ownLeft && !backlog) {
            // Our own leases from before a restart are all back: the due jobs next, and the ones found uncertain told
            // about now (once this batch is settled).
            reportAfterStart = uncertain.waiting() || jobs.some(wasLeaving);
            ownLeft = false;
            claimWanted = true;
            again = true;
          }
        }
        if (jobs.length > 0) {
          try {
            await start(jobs);
          } catch (err) {
            // Leased to us and not started (their vote or callback could not be read): tried again at the next
            // wake-up or poll, not left to their lease's end.
            handed.unshift(...jobs);
            throw err;
          }
        }
        if (reportAfterStart) {
          reportAfterStart = false;
          void uncertain.report();
        }
        if (handed.length > 0 || backlog) again = true;
      } while (again && running);
    } catch (err) {
      claimWanted = true;
      deps.logger.error({ err }, `could not read the delivery queue from the database; trying again within ${options.pollMs} ms (nothing is lost)`);
    } finally {
      claiming = false;
    }
  }

  // Jobs put back for their pacing slot are claimed when their slot comes (not at the next poll): the slots still
  // ahead in a min-heap (a replay may put back tens of thousands), and a timer for the earliest.
  const slotsAhead = createMinHeap();
  let slotTimer: NodeJS.Timeout | null = null;
  function wakeAt(at: Date) {
    if (!running) return;
    slotsAhead.push(at.getTime());
    armSlotTimer();
  }
  function armSlotTimer() {
    if (slotTimer) clearTimeout(slotTimer);
    slotTimer = null;
    const now = deps.clock.now().getTime();
    while (slotsAhead.size() > 0 && slotsAhead.peek()! <= now) slotsAhead.pop();
    if (slotsAhead.size() === 0 || !running) return;
    slotTimer = setTimeout(
      () => {
        wake();
        armSlotTimer();
      },
      slotsAhead.peek()! - now + 1,
    );
    slotTimer.unref();
  }

  // Wake-ups (each new vote, each finished job) are coalesced: one claim per WAKE_COALESCE_MS takes them all,
  // instead of a claim (and its loads) per event.
  let wakeTimer: NodeJS.Timeout | null = null;
  function wake() {
    claimWanted = true;
    if (!running || wakeTimer) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      void claimAndRun();
    }, WAKE_COALESCE_MS);
  }

  // Handed-over jobs start in the same event-loop turn's end: every vote committed by one batch starts together
  // (one load of their contexts).
  let kicked = false;
  function kick() {
    if (!running || kicked) return;
    kicked = true;
    setImmediate(() => {
      kicked = false;
      void claimAndRun();
    });
  }

  // The callback kinds' own background work (callback-kind.ts: background), while this worker runs.
  let kindWork: { stop(): Promise<void> }[] = [];

  return {
    start() {
      if (running) return;
      running = true;
      kindWork = CALLBACK_KINDS.flatMap((kind) => (kind.background ? [kind.background(deps, wake)] : []));
      handedSince = options.handedSince ?? deps.clock.now().getTime();
      timer = setInterval(() => {
        wake();
        log.leftOut();
      }, options.pollMs);
      timer.unref();
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      if (slotTimer) clearTimeout(slotTimer);
      await Promise.allSettled([...active]);
      await Promise.allSettled([...recordings]);
      await uncertain.report().catch(() => {});
      // After the sends under way: an RCON connection is closed once nothing runs on it.
      await Promise.allSettled(kindWork.map((work) => work.stop()));
      kindWork = [];
      log.leftOut(true);
    },
    wake,
    dispatch(jobs) {
      if (!running) return; // leased: sent when the lease lapses, or by this instance after its restart
      handed.push(...jobs);
      kick();
    },
  };
}
