// The vote event bus: each accepted vote is published here after its transaction commits. In-process by
// default; the live-feed layer can back it with Redis so subscribers on every instance see every vote.
import { createPubSub } from 'graphql-yoga';

export interface VoteEvent {
  organizationId: string;
  voteId: string;
  publicId: string;
  providerKey: string;
}

export type VotePubSub = ReturnType<typeof createVotePubSub>;

export function createVotePubSub() {
  return createPubSub<{
    /** Per organization (the live feed subscribes to its own). */
    voteReceived: [organizationId: string, event: VoteEvent];
    /** Every vote written by this instance (wakes the local delivery worker). */
    voteWritten: [event: VoteEvent];
  }>();
}
