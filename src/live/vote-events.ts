// The in-process event bus: each vote this instance writes is published here after its transaction commits.
// The cross-instance live feed is feed.ts.
import { createPubSub } from '@graphql-yoga/subscription';

export interface VoteEvent {
  organizationId: string;
  voteId: string;
  publicId: string;
  providerKey: string;
}

export type VotePubSub = ReturnType<typeof createVotePubSub>;

export function createVotePubSub() {
  return createPubSub<{
    /** Every vote written by this instance (wakes the local delivery worker; never leaves the process). */
    voteWritten: [event: VoteEvent];
  }>();
}
