// The template values of one vote, as chat messages and callback payloads see them.
import type { VoteTemplateValues } from './template.js';

export function voteTemplateValues(
  vote: { publicId: string; voterName: string; receivedAt: Date; rawPayload: string; test: boolean },
  provider: { key: string; name: string },
  org: { slug: string; name: string },
): VoteTemplateValues {
  return {
    voter_name: vote.voterName,
    provider_name: provider.name,
    provider_key: provider.key,
    vote_id: vote.publicId,
    received_at: vote.receivedAt.toISOString(),
    organization_slug: org.slug,
    organization_name: org.name,
    raw_payload: vote.rawPayload,
    test: vote.test,
  };
}
