// One subscriber's stream of its organization's new votes, filtered by provider: a key-bound stream
// (src/live/key-bound-stream.ts: bounded, ended when its key is revoked) whose wakes are spread over event-loop turns.
import type { AppDeps } from '../../app/deps.js';
import type { Viewer } from '../../auth/access.js';
import type { VoteEvent } from '../../live/vote-events.js';
import { keyBoundStream } from '../../live/key-bound-stream.js';

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

function wakeSoon(wake: () => void) {
  ready.add(wake);
  if (!dispatching) {
    dispatching = true;
    setImmediate(dispatch);
  }
}

export function subscribeToVotes(deps: AppDeps, viewer: Viewer, provider: string | null | undefined): AsyncIterableIterator<VoteEvent> {
  return keyBoundStream(deps, viewer, {
    source: deps.feed.pubsub.subscribe('voteReceived', viewer.organizationId)[Symbol.asyncIterator](),
    take: (vote: VoteEvent) => (provider && vote.providerKey !== provider ? [] : [vote]),
    wake: wakeSoon,
  });
}
