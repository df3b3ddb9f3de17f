// The template values of one vote, as chat messages and callback payloads see them.
import type { VoteTemplateValues } from './template.js';
import { discordIdIn } from '../domain/discord-id.js';
import { TEST_VOTER_PREFIX } from '../domain/voter-identity.js';

/** A vote's standing columns (README "Rewards"); null where the vote does not count. */
export interface VoteStandingColumns {
  voterTotal: number | null;
  voterMonthTotal: number | null;
  voterStreakDays: number | null;
  voterBestStreakDays: number | null;
  providerVoterTotal: number | null;
  nextVoteAt: Date | null;
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function voteTemplateValues(
  vote: {
    publicId: string;
    voterName: string;
    receivedAt: Date;
    rawPayload: string;
    test: boolean;
    voterKey?: string;
    voterUuid?: string | null;
  } & Partial<VoteStandingColumns>,
  provider: { key: string; name: string; discordIdPath?: string | null },
  org: { slug: string; name: string },
): VoteTemplateValues {
  return {
    voter_total: text(vote.voterTotal),
    voter_month_total: text(vote.voterMonthTotal),
    voter_streak_days: text(vote.voterStreakDays),
    voter_best_streak_days: text(vote.voterBestStreakDays),
    provider_voter_total: text(vote.providerVoterTotal),
    next_vote_at: vote.nextVoteAt ? vote.nextVoteAt.toISOString() : '',
    voter_name: vote.voterName,
    voter_id: vote.voterKey && !vote.voterKey.startsWith(TEST_VOTER_PREFIX) ? vote.voterKey : '',
    voter_uuid: vote.voterUuid ?? '',
    voter_discord_id: discordIdIn(vote.rawPayload, provider.discordIdPath) ?? '',
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
