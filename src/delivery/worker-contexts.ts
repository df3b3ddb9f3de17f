// The delivery worker's first step for a batch of jobs it starts: each job's context (its vote with the provider and
// the voter's Minecraft UUID, its callback, its organization), read in one statement per table for the whole batch
// (the storage's context reads: plain statements prepared once, not Prisma's per-query work on this hot path).
import type { ContextReads } from '../storage/ports.js';
import type { ClaimedJob } from '../domain/jobs.js';
import { TEST_VOTER_PREFIX } from '../domain/voter-identity.js';
import type { JobContext } from './senders.js';

const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => !!id))];
const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

export async function loadJobContexts(reads: ContextReads, jobs: ClaimedJob[]): Promise<Map<string, JobContext>> {
  const [votes, callbacks, orgs] = await Promise.all([
    reads.byIds('Vote', distinct(jobs.map((j) => j.voteId))),
    reads.byIds('Callback', distinct(jobs.map((j) => j.callbackId))),
    reads.byIds('Organization', distinct(jobs.map((j) => j.organizationId))),
  ]);
  // The votes' providers, and the voters' Minecraft UUIDs where a plugin reported one ({{voter_uuid}}, README "Voters").
  const [providers, uuids] = await Promise.all([
    reads.byIds('Provider', distinct(votes.map((v) => v.providerId))),
    reads.minecraftUuids(distinct(votes.map((v) => v.voterKey).filter((k) => !k.startsWith(TEST_VOTER_PREFIX)))),
  ]);
  const providerMap = byId(providers);
  const uuidOf = new Map(uuids.map((u) => [u.voterId, u.value]));
  // A vote whose provider was deleted between the two reads is gone too (the delete cascades): no context.
  const voteMap = new Map(
    votes.flatMap((vote) => {
      const provider = providerMap.get(vote.providerId);
      return provider ? [[vote.id, { ...vote, provider, voterUuid: uuidOf.get(vote.voterKey) ?? null }] as const] : [];
    }),
  );
  const [callbackMap, orgMap] = [byId(callbacks), byId(orgs)];
  return new Map(
    jobs.map((job) => [
      job.id,
      {
        job,
        org: orgMap.get(job.organizationId)!,
        vote: job.voteId ? (voteMap.get(job.voteId) ?? null) : null,
        callback: job.callbackId ? (callbackMap.get(job.callbackId) ?? null) : null,
      },
    ]),
  );
}
