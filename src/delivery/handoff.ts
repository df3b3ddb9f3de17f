// The fast path from a committed vote to its delivery (docs/architecture.md, "From vote to reward"): when this
// process runs a delivery worker, a new vote's jobs are written already leased to it, in the vote's own transaction,
// and handed to the worker in memory as soon as the commit returns; the worker sends at once, with no claim. Without
// a worker attached (one-shot commands), jobs are written pending and a service's worker claims them.
import type { ClaimedJob, JobLease } from '../domain/jobs.js';

/** What the handoff needs of a worker (in process, or the delivery thread's handle). */
export interface HandoffTarget {
  dispatch(jobs: ClaimedJob[]): void;
  wake(): void;
}

export interface DeliveryHandoff {
  /** The lease a new vote's jobs are written with when this process sends them itself; null otherwise. */
  lease(now: Date): JobLease | null;
  /** A committed vote's jobs, leased to this process's worker: sent at once. */
  dispatch(jobs: ClaimedJob[]): void;
  /** Jobs were queued for the worker to claim (a redelivery, an alert): claim now rather than at the next poll. */
  wake(): void;
  /** Jobs are leased to `holder` (this process's INSTANCE_ID) for `leaseMs` and handed to `target`. */
  attach(target: HandoffTarget, holder: string, leaseMs: number): void;
  detach(): void;
}

export function createDeliveryHandoff(): DeliveryHandoff {
  let attached: { target: HandoffTarget; holder: string; leaseMs: number } | null = null;
  return {
    lease: (now) => (attached ? { holder: attached.holder, until: now.getTime() + attached.leaseMs } : null),
    dispatch(jobs) {
      if (jobs.length > 0) attached?.target.dispatch(jobs);
    },
    wake: () => attached?.target.wake(),
    attach(target, holder, leaseMs) {
      attached = { target, holder, leaseMs };
    },
    detach() {
      attached = null;
    },
  };
}

/** Jobs handed over in one event-loop turn go on in one call of `send` (one message to a thread or a process). */
export function perTurn(send: (jobs: ClaimedJob[]) => void): (jobs: ClaimedJob[]) => void {
  let handed: ClaimedJob[] = [];
  return (jobs) => {
    if (handed.length === 0) {
      setImmediate(() => {
        const batch = handed;
        handed = [];
        send(batch);
      });
    }
    handed.push(...jobs);
  };
}
