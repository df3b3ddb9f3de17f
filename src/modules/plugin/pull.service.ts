// Pull delivery for game-server plugins behind NAT: plugin tokens (shown once, stored hashed, limited to the
// pull endpoints) and the pull queue — poll (long-poll up to 25 s), claim (idempotent) and fail (the vote comes
// back after a back-off). Each vote is handed to one poller at a time, even with many polling one token. A vote
// failed with the reason `player_offline` is parked instead (README "Offline players"): no attempt counted, never
// given up for it, out of ordinary polls, and returned by the poll that names its player (`player`).
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { notFound, validationError } from '../../base/errors.js';
import { PLUGIN_TOKEN_PREFIX, generateToken } from '../../auth/api-key-token.js';
import { nameSchema, pageOf } from '../../base/validation.js';
import { voterIdByName } from '../../storage/voter-lookup.js';
import type { ClaimedJob } from '../../domain/jobs.js';

/** How long a polled vote is reserved for its poller before it may be handed out again. */
export const PULL_LEASE_MS = 5 * 60_000;
export const PULL_MAX_WAIT_S = 25;
export const PULL_DEFAULT_BATCH = 50;
export const PULL_MAX_BATCH = 100;
/** Back-off after a reported failure: 30 s, 1 min, 2 min, … capped at 30 min. */
export function pullBackoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 30 * 60_000);
}
const DB_POLL_MS = 1_000;
/** The failure reason that parks a vote for its player instead of retrying it (README "Offline players"). */
export const PLAYER_OFFLINE = 'player_offline';
const MAX_PLAYER_NAME = 64;
export const PARKED_DEFAULT_LIMIT = 50;
export const PARKED_MAX_LIMIT = 500;
/** Parked pull jobs: parked, or held right now by their player's own poll (still parked if it is never settled). */
const PARKED = { kind: 'pull', parkedAt: { not: null }, status: { in: ['parked', 'running'] } };

export type Connection = 'connected' | 'intermittent' | 'disconnected' | 'never';
export function connectionOf(lastPolledAt: Date | null, now: Date): Connection {
  if (!lastPolledAt) return 'never';
  const age = now.getTime() - lastPolledAt.getTime();
  return age <= 30_000 ? 'connected' : age <= 5 * 60_000 ? 'intermittent' : 'disconnected';
}

/** createPluginToken's arguments, its rule (graphql/input-rules.ts). */
export const createPluginTokenArgs = z.object({ name: nameSchema });
/** failPulledVote's arguments, its rule. */
export const failPulledVoteArgs = z.object({ id: z.string(), reason: z.string().max(500).nullish() });

export function createPullService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function createToken(organizationId: string, input: z.output<typeof createPluginTokenArgs>) {
    const token = generateToken(PLUGIN_TOKEN_PREFIX);
    const row = await prisma.pluginToken.create({ data: { organizationId, name: input.name, prefix: token.prefix, tokenHash: token.hash } });
    return { id: row.id, name: row.name, token: token.value, prefix: row.prefix };
  }

  async function listTokens(organizationId: string) {
    const now = deps.clock.now();
    const [tokens, waiting, parked] = await Promise.all([
      prisma.pluginToken.findMany({ where: { organizationId, revokedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      prisma.deliveryJob.count({ where: { organizationId, kind: 'pull', status: { in: ['pending', 'retrying', 'running'] }, parkedAt: null } }),
      prisma.deliveryJob.groupBy({
        by: ['parkedBy'],
        where: { organizationId, ...PARKED },
        _count: { _all: true },
      }),
    ]);
    const parkedBy = new Map(parked.map((g) => [g.parkedBy, g._count._all]));
    return {
      tokens: tokens.map((t) => ({ ...t, connection: connectionOf(t.lastPolledAt, now), parked: parkedBy.get(t.id) ?? 0 })),
      waiting,
      parked: parked.reduce((sum, g) => sum + g._count._all, 0),
    };
  }

  /** The name of one of the organization's plugin tokens, revoked or not; null when it is gone. */
  async function tokenName(organizationId: string, id: string): Promise<string | null> {
    return (await prisma.pluginToken.findFirst({ where: { id, organizationId }, select: { name: true } }))?.name ?? null;
  }

  async function revokeToken(organizationId: string, id: string) {
    const result = await prisma.pluginToken.updateMany({ where: { id, organizationId, revokedAt: null }, data: { revokedAt: deps.clock.now() } });
    if (result.count === 0) throw notFound('Plugin token');
    return { message: 'Token revoked', id };
  }

  async function claimBatch(organizationId: string, tokenId: string, limit: number): Promise<ClaimedJob[]> {
    return deps.jobs.claimPull(tokenId, organizationId, deps.clock.now(), PULL_LEASE_MS, limit);
  }

  /**
   * Unclaimed votes, oldest first; with none waiting, holds the request up to `waitSeconds` for one to arrive. With
   * `player`: that player's waiting votes (parked ones included, whatever their back-off), answered at once.
   */
  async function poll(organizationId: string, tokenId: string, input: { limit?: number | null; waitSeconds?: number | null; player?: string | null }) {
    const limit = input.limit ?? PULL_DEFAULT_BATCH;
    if (!Number.isInteger(limit) || limit < 1 || limit > PULL_MAX_BATCH)
      throw validationError([{ field: 'limit', message: `must be an integer from 1 to ${PULL_MAX_BATCH}` }]);
    const player = input.player ?? null;
    if (player !== null) {
      if (player.trim() === '' || player.length > MAX_PLAYER_NAME)
        throw validationError([{ field: 'player', message: `must be a player's name of 1 to ${MAX_PLAYER_NAME} characters` }]);
      if (input.waitSeconds !== undefined && input.waitSeconds !== null)
        throw validationError([{ field: 'wait', message: "does not apply with player: a player's poll answers at once" }]);
    }
    const waitSeconds = player !== null ? 0 : (input.waitSeconds ?? PULL_MAX_WAIT_S);
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > PULL_MAX_WAIT_S)
      throw validationError([{ field: 'wait', message: `must be an integer from 0 to ${PULL_MAX_WAIT_S}` }]);
    await prisma.pluginToken.update({ where: { id: tokenId }, data: { lastPolledAt: deps.clock.now() } });
    // A poll that may wait listens for the votes this instance writes before its first look, so a vote written between
    // that look and the wait wakes it too; other instances' votes are found by the periodic look.
    const events = waitSeconds > 0 ? deps.events.subscribe('voteWritten')[Symbol.asyncIterator]() : null;
    // One waiter for the organization's next vote at a time, kept across looks: a second one would take turns with it
    // for the stream's events, and a vote taken by the one nobody awaits any more would wait for the next look.
    const nextVote = async (): Promise<'vote' | 'ended'> => {
      for (;;) {
        const next = await events!.next();
        if (next.done) return 'ended';
        if (next.value.organizationId === organizationId) return 'vote';
      }
    };
    let vote: Promise<'vote' | 'ended'> | null = events ? nextVote() : null;
    let jobs: ClaimedJob[];
    try {
      jobs =
        player !== null
          ? await deps.jobs.claimPlayerPull(
              tokenId,
              organizationId,
              // The voter the player's name names (README "Voters"); a name that names no one has no votes.
              (await voterIdByName(prisma, organizationId, player)) ?? '',
              deps.clock.now(),
              PULL_LEASE_MS,
              limit,
            )
          : await claimBatch(organizationId, tokenId, limit);
      const deadline = Date.now() + waitSeconds * 1000;
      while (vote && jobs.length === 0 && Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        const look = new Promise<'look'>((resolve) => (timer = setTimeout(() => resolve('look'), Math.min(DB_POLL_MS, deadline - Date.now()))));
        const woke = await Promise.race([look, vote]);
        clearTimeout(timer);
        // Woken by a vote: wait for the next one. Should the stream end, only the looks are left.
        if (woke === 'vote') vote = nextVote();
        else if (woke === 'ended') vote = new Promise<never>(() => {});
        jobs = await claimBatch(organizationId, tokenId, limit);
      }
    } finally {
      await events?.return?.();
    }
    const votes = await prisma.vote.findMany({
      where: { id: { in: jobs.map((j) => j.voteId!).filter(Boolean) } },
      include: { provider: { select: { key: true, name: true } } },
    });
    const byVote = new Map(votes.map((v) => [v.id, v]));
    return jobs
      .filter((j) => j.voteId && byVote.has(j.voteId))
      .map((j) => ({ vote: byVote.get(j.voteId!)!, attempt: j.attempts + 1 }))
      .sort((a, b) => a.vote.receivedAt.getTime() - b.vote.receivedAt.getTime());
  }

  async function jobFor(organizationId: string, publicId: string) {
    const vote = await prisma.vote.findFirst({ where: { publicId, organizationId }, select: { id: true } });
    const job = vote && (await prisma.deliveryJob.findFirst({ where: { voteId: vote.id, kind: 'pull' } }));
    if (!job) throw notFound('Pull delivery for this vote');
    return job;
  }

  /** The plugin gave the reward: the vote is done. Claiming again answers the same (idempotent). */
  async function claim(organizationId: string, tokenId: string, publicId: string) {
    const job = await jobFor(organizationId, publicId);
    if (job.status === 'sent') return { voteId: publicId, status: 'claimed' };
    const now = deps.clock.now();
    // Whoever holds the lease (or nobody): settle it as this token.
    await deps.jobs.hold(job.id, tokenId);
    await deps.jobs.finish(
      { ...job, attempts: job.attempts, priority: job.priority } as ClaimedJob,
      tokenId,
      now,
      { attempt: job.attempts + 1, target: `plugin:${tokenId}`, statusCode: null, success: true, durationMs: 0, error: null, responseExcerpt: 'claimed' },
      { status: 'sent' },
      null,
    );
    return { voteId: publicId, status: 'claimed' };
  }

  /**
   * The plugin could not give the reward: the vote comes back after a back-off; with the reason `player_offline`,
   * it is parked for its player instead (no attempt counted, never given up for this reason).
   */
  async function fail(organizationId: string, tokenId: string, input: z.output<typeof failPulledVoteArgs>) {
    const publicId = input.id;
    const job = await jobFor(organizationId, publicId);
    if (job.status === 'sent') return { voteId: publicId, status: 'claimed', retryAt: null };
    const now = deps.clock.now();
    if (input.reason === PLAYER_OFFLINE) {
      const parked = await deps.jobs.park(job.id, tokenId, now);
      return parked ? { voteId: publicId, status: 'parked', retryAt: null } : { voteId: publicId, status: 'claimed', retryAt: null };
    }
    const attempt = job.attempts + 1;
    const retryAt = new Date(now.getTime() + pullBackoffMs(attempt));
    await deps.jobs.hold(job.id, tokenId);
    const giveUp = attempt >= job.maxAttempts;
    await deps.jobs.finish(
      job as unknown as ClaimedJob,
      tokenId,
      now,
      {
        attempt,
        target: `plugin:${tokenId}`,
        statusCode: null,
        success: false,
        durationMs: 0,
        error: input.reason ?? 'reported failed by the plugin',
        responseExcerpt: null,
      },
      giveUp ? { status: 'failed' } : { status: 'retrying', runAt: retryAt },
      input.reason ?? 'reported failed by the plugin',
    );
    return { voteId: publicId, status: giveUp ? 'failed' : 'retrying', retryAt: giveUp ? null : retryAt };
  }

  /** The votes parked for offline players by one plugin token, most recently parked first (README "Offline players"). */
  async function listParked(organizationId: string, tokenId: string, input: { page?: number | null; limit?: number | null }) {
    const { page, limit } = pageOf(input, PARKED_DEFAULT_LIMIT, PARKED_MAX_LIMIT);
    const token = await prisma.pluginToken.findFirst({ where: { id: tokenId, organizationId }, select: { id: true } });
    if (!token) throw notFound('Plugin token');
    const where = { organizationId, parkedBy: tokenId, ...PARKED };
    const [total, jobs] = await Promise.all([
      prisma.deliveryJob.count({ where }),
      prisma.deliveryJob.findMany({
        where,
        orderBy: [{ parkedAt: 'desc' }, { id: 'asc' }],
        skip: (page - 1) * limit,
        take: limit,
        select: {
          parkedAt: true,
          vote: { select: { publicId: true, voterName: true, receivedAt: true, test: true, provider: { select: { key: true, name: true } } } },
        },
      }),
    ]);
    const votes = jobs.flatMap((j) => (j.vote && j.parkedAt ? [{ ...j.vote, parkedAt: j.parkedAt }] : []));
    return { page, limit, total, pages: Math.ceil(total / limit), votes };
  }

  return { createToken, listTokens, tokenName, revokeToken, poll, claim, fail, listParked };
}

export type PullService = ReturnType<typeof createPullService>;
