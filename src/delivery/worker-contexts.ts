// The delivery worker's first step for a batch of jobs it starts: each job's context (its vote with the provider and
// the voter's Minecraft UUID, its callback, its organization), read in one query per table for the whole batch.
import type { Db } from '../storage/ports.js';
import type { ClaimedJob } from '../domain/jobs.js';
import { TEST_VOTER_PREFIX } from '../domain/voter-identity.js';
import type { JobContext } from './senders.js';

export async function loadJobContexts(prisma: Db, jobs: ClaimedJob[]): Promise<Map<string, JobContext>> {
  const voteIds = [...new Set(jobs.map((j) => j.voteId).filter((id): id is string => !!id))];
  const callbackIds = [...new Set(jobs.map((j) => j.callbackId).filter((id): id is string => !!id))];
  const orgIds = [...new Set(jobs.map((j) => j.organizationId))];
  const [votes, callbacks, orgs] = await Promise.all([
    voteIds.length ? prisma.vote.findMany({ where: { id: { in: voteIds } }, include: { provider: true } }) : [],
    callbackIds.length ? prisma.callback.findMany({ where: { id: { in: callbackIds } } }) : [],
    prisma.organization.findMany({ where: { id: { in: orgIds } } }),
  ]);
  // The voters' Minecraft UUIDs, where a plugin reported one ({{voter_uuid}}, README "Voters").
  const voterKeys = [...new Set(votes.map((v) => v.voterKey).filter((k) => !k.startsWith(TEST_VOTER_PREFIX)))];
  const uuids = voterKeys.length
    ? await prisma.voterIdentity.findMany({ where: { voterId: { in: voterKeys }, kind: 'minecraft_uuid' }, select: { voterId: true, value: true } })
    : [];
  const uuidOf = new Map(uuids.map((u) => [u.voterId, u.value]));
  for (const vote of votes) (vote as NonNullable<JobContext['vote']>).voterUuid = uuidOf.get(vote.voterKey) ?? null;
  const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
  const [voteMap, callbackMap, orgMap] = [byId(votes), byId(callbacks), byId(orgs)];
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
