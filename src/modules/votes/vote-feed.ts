// One subscriber's stream of its organization's new votes: filtered by provider, bounded (a consumer that falls
// MAX_BUFFERED events behind is cut off instead of buffering without end), and closed as soon as its API key is
// revoked (revocations are published on the feed; a periodic re-check covers a missed message).
import { GraphQLError } from 'graphql';
import type { AppDeps } from '../../app-deps.js';
import type { Viewer } from '../../auth/access.js';
import type { VoteEvent } from '../../live/vote-events.js';

export const MAX_BUFFERED = 1_000;
const KEY_RECHECK_MS = 15_000;
/** Subscribers woken per turn of the event loop; the network (hooks above all) is served between turns. */
const WAKES_PER_TURN = 100;

// Waking a subscriber runs its whole delivery (execution, serialisation, socket write) as microtasks, which Node
// runs before any I/O. Waking a thousand at once per vote starved the hooks (bench/live: 231 of 5,000 votes
// answered). So wakes are queued and handed out WAKES_PER_TURN at a time, one batch per event-loop turn.
const ready = new Set<() => void>();
let dispatching = false;

function dispatch() {
  let woken = 0;
  for (const wake of ready) {
    ready.delete(wake);
    wake();
    if (++woken >= WAKES_PER_TURN) break;
  }
  if (ready.size > 0) setImmediate(dispatch);
  else dispatching = false;
}

function wakeSoon(wake: (() => void) | null) {
  if (!wake) return;
  ready.add(wake);
  if (!dispatching) {
    dispatching = true;
    setImmediate(dispatch);
  }
}

export function subscribeToVotes(deps: AppDeps, viewer: Viewer, provider: string | null | undefined): AsyncIterableIterator<VoteEvent> {
  const queue: VoteEvent[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  let failure: Error | null = null;
  const votes = deps.feed.pubsub.subscribe('voteReceived', viewer.organizationId)[Symbol.asyncIterator]();
  const revocations = deps.feed.pubsub.subscribe('apiKeyRevoked', viewer.organizationId)[Symbol.asyncIterator]();

  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    failure = error ?? null;
    clearInterval(recheck);
    void votes.return?.();
    void revocations.return?.();
    waiter.wake?.();
  };

  void (async () => {
    for (;;) {
      const next = await votes.next();
      if (next.done || ended) return;
      if (provider && next.value.providerKey !== provider) continue;
      if (queue.length >= MAX_BUFFERED) return finish(new GraphQLError('This subscriber fell too far behind; reconnect to resume', { extensions: { code: 'RATE_LIMITED' } }));
      queue.push(next.value);
      wakeSoon(waiter.wake);
    }
  })();
  void (async () => {
    for (;;) {
      const next = await revocations.next();
      if (next.done || ended) return;
      if (next.value.apiKeyId === viewer.apiKeyId) return finish();
    }
  })();
  const recheck = setInterval(async () => {
    const key = await deps.db.prisma.apiKey.findUnique({ where: { id: viewer.apiKeyId }, select: { revokedAt: true } }).catch(() => undefined);
    if (key === null || key?.revokedAt) finish();
  }, KEY_RECHECK_MS);
  recheck.unref();

  const iterator: AsyncIterableIterator<VoteEvent> = {
    async next() {
      for (;;) {
        if (queue.length > 0) return { done: false, value: queue.shift()! };
        if (ended) {
          if (failure) {
            const error = failure;
            failure = null;
            throw error;
          }
          return { done: true, value: undefined };
        }
        await new Promise<void>((resolve) => (waiter.wake = resolve));
        waiter.wake = null;
      }
    },
    async return() {
      finish();
      queue.length = 0;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
