// The in-process event bus: each vote this instance writes is published here after its transaction commits.
// The cross-instance live feed is feed.ts.
import { createPubSub } from '@graphql-yoga/subscription';
import { countingTarget } from './listener-count.js';

export interface VoteEvent {
  organizationId: string;
  voteId: string;
  publicId: string;
  providerKey: string;
}

export type VotePubSub = ReturnType<typeof createVotePubSub>;

export function createVotePubSub() {
  const target = countingTarget(new EventTarget());
  const pubsub = createPubSub<{
    /** Every vote written by this instance (wakes the plugin polls waiting on it; never leaves the process). */
    voteWritten: [event: VoteEvent];
  }>({ eventTarget: target as never });
  /** Subscriptions listening for written votes now (each plugin poll that waits). */
  return Object.assign(pubsub, { listenerCount: () => target.count('voteWritten') });
}
