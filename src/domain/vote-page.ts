// The players' vote page (README "Vote page"): its settings, the words a player reads for each site and each
// delivery, and the name a player may type. Rules only: no database here.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** settings.vote_page: off unless enabled; the page's title, and whether it shows this month's top voters. */
export const votePageSchema = z.strictObject({
  enabled: z.boolean('must be true or false'),
  title: z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters').nullable().optional(),
  showLeaderboard: z.boolean('must be true or false').optional(),
});

export interface VotePageSettings {
  enabled: boolean;
  title: string | null;
  showLeaderboard: boolean;
}

export function votePageOf(json: string | null | undefined): VotePageSettings | null {
  if (!json) return null;
  const parsed = JSON.parse(json) as Partial<VotePageSettings>;
  return { enabled: parsed.enabled === true, title: parsed.title ?? null, showLeaderboard: parsed.showLeaderboard === true };
}

/** A player's name as the page takes it: 1 to 32 characters, no control characters, no spaces at its ends. */
export function playerNameProblem(name: string): string | null {
  if (!name || name.length > 32) return 'must be a player name of 1 to 32 characters';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  if (name !== name.trim()) return 'must not start or end with a space';
  return null;
}

/** "2 h", "3 h 12 min", "45 min", "less than a minute", "3 days": a span as a player reads it. */
export function spanWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 || hours >= 10 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

export type SiteState = { kind: 'vote_now' } | { kind: 'voted'; ago: string } | { kind: 'wait'; left: string };

/**
 * Where a player stands on one site: voted within the site's cooldown ("you can vote again in …", or "voted ✓ … ago"
 * when the cooldown is unknown but the vote is from today), else "vote now".
 */
export function siteState(votedAt: Date | null, nextVoteAt: Date | null, now: Date): SiteState {
  if (!votedAt) return { kind: 'vote_now' };
  if (nextVoteAt && nextVoteAt > now) return { kind: 'wait', left: spanWords(nextVoteAt.getTime() - now.getTime()) };
  if (!nextVoteAt && now.getTime() - votedAt.getTime() < 24 * 3_600_000) return { kind: 'voted', ago: spanWords(now.getTime() - votedAt.getTime()) };
  return { kind: 'vote_now' };
}

export function siteStateWords(state: SiteState): string {
  if (state.kind === 'wait') return `you can vote again in ${state.left}`;
  if (state.kind === 'voted') return `voted ✓ ${state.ago} ago`;
  return 'vote now';
}

/** A delivery of a player's vote as the page tells it: the owner's target name, never an address or a secret. */
export interface ReceiptDelivery {
  target: string;
  status: 'delivered' | 'waiting_online' | 'on_its_way' | 'paused' | 'failed' | 'uncertain';
  at: Date | null;
  /** For a failure: what the server answered, in words ("the server answered 503"), never its body. */
  reason?: string;
}

/**
 * A receipt's line for a vote received past the organization's monthly vote limit: stored, passed on to no server
 * (README "Vote page"), so the player knows the vote counted and why nothing came.
 */
export const OVER_LIMIT_WORDS = "received, but not passed on to the server: this server's monthly vote limit was reached";

export function deliveryWords(d: ReceiptDelivery, timeOf: (at: Date) => string): string {
  switch (d.status) {
    case 'delivered':
      return `delivered to ${d.target}${d.at ? ` ${timeOf(d.at)}` : ''}`;
    case 'waiting_online':
      return `waiting until you are online on ${d.target}`;
    case 'on_its_way':
      return `on its way to ${d.target}`;
    case 'paused':
      return `waiting: ${d.target} is paused by the server's staff`;
    case 'uncertain':
      return `${d.target} may or may not have it: ask the server's staff`;
    case 'failed':
      return `failed: ${d.reason ?? 'the server could not be reached'}`;
  }
}

/** A job's status and last attempt, as a receipt line's status. */
export function receiptStatus(jobStatus: string): ReceiptDelivery['status'] {
  if (jobStatus === 'sent') return 'delivered';
  if (jobStatus === 'parked') return 'waiting_online';
  if (jobStatus === 'held') return 'paused';
  if (jobStatus === 'failed') return 'failed';
  if (jobStatus === 'uncertain') return 'uncertain';
  return 'on_its_way';
}

/**
 * A click's address, hashed with a salt of the day (UTC) made from the service's secret: the same address on the
 * same day gives the same hash (a click and the vote behind it meet), and nothing gives back the address.
 */
export function addressHash(secret: Buffer, address: string, at: Date): string {
  const salt = createHash('sha256')
    .update(secret)
    .update(`vote-page-salt:${at.toISOString().slice(0, 10)}`)
    .digest();
  return createHash('sha256').update(salt).update(address).digest('base64url');
}

/** A provider's vote URL for a player: {{player}} filled in (URL-encoded) where the site takes the name in its URL. */
export function voteUrlFor(voteUrl: string, player: string | null): string {
  return voteUrl.replaceAll('{{player}}', player ? encodeURIComponent(player) : '');
}

/** How long before a vote its click may be (README "Vote page", name repair). */
export const REPAIR_WINDOW_MS = 15 * 60_000;

/** Edits (insertions, deletions, substitutions) from `a` to `b`, stopping above `limit`. */
function editsWithin(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = row[0];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length];
}

/**
 * Whether the name a site sent is close enough to the name a player typed for a vote to be repaired (README "Vote
 * page"): they differ in case only, in the Bedrock prefix, by one being a prefix of the other, or by at most two
 * letters.
 */
export function namesClose(sent: string, typed: string, bedrockPrefix: string | null): boolean {
  const a = sent.toLowerCase();
  const b = typed.toLowerCase();
  if (!a || !b) return false;
  if (a === b) return true;
  const prefix = bedrockPrefix?.toLowerCase();
  if (prefix && (a === `${prefix}${b}` || b === `${prefix}${a}`)) return true;
  if (a.startsWith(b) || b.startsWith(a)) return true;
  return editsWithin(a, b, 2) <= 2;
}
