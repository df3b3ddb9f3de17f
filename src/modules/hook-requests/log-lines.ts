// The operator's log lines about hook deliveries (README "Logs"): one line per refused delivery, held to one line per
// provider (or slug) and client address every ten seconds, with the count of what was left out; at debug, each vote
// stored. A watcher of deps.hookObservers: it prints what was decided, never a secret, a header value or a body.
// A slug or key is printed only once it named an organization or provider: what a stranger typed there may be a
// secret (a URL of the form /hooks/<key>/<secret>, the slug left out).
import type { Logger } from '../../base/logger.js';
import { SLUG_PATTERN } from '../organization/organization.service.js';
import { PROVIDER_KEY_PATTERN } from '../providers/providers.service.js';
import { hookRequestHint } from './hints.js';
import type { HookObservation, HookObservers } from './observation.js';
import { backgroundLoop } from '../../base/background-loop.js';

/** One line per provider (or slug) and address per this long: a flood of junk cannot flood the log. */
const LINE_INTERVAL_MS = 10_000;
/**
 * Pairs tracked at once; refusals from more pairs than this (a flood from many addresses) share one pair, "other
 * senders", so memory stays bounded whatever arrives.
 */
const MAX_TRACKED_PAIRS = 1_000;
/** Slugs, keys and reasons are a stranger's text: printed short and on one line. */
const MAX_TEXT = 100;
const MAX_REASON = 300;

export interface HookLogLines {
  /** Stops watching and prints what is still counted (on shutdown). */
  close(): void;
}

export interface HookLogLinesOptions {
  intervalMs?: number;
  maxTrackedPairs?: number;
  now?: () => number;
}

interface Pair {
  /** What the summary line names: "acme/topgg", "acme (unknown provider keys)", "unknown organizations", … */
  label: string;
  /** "hook deliveries" or "Votifier sessions". */
  noun: string;
  clientIp: string;
  lastLineAt: number;
  suppressed: number;
  codes: Map<string, number>;
}

/** What to fix, in the request log's words (hints.ts); an unknown slug or key in this log's own (no key list here). */
function hintFor(obs: HookObservation): string | null {
  if (obs.errorCode === 'NOT_FOUND' && !obs.provider) {
    return obs.organizationId
      ? 'this organization has no provider with this key: check the hook URL given to the site'
      : 'no organization has this slug: check the hook URL given to the site';
  }
  return hookRequestHint({ ...obs, providerKeys: [] });
}

function printable(text: string | null | undefined, max = MAX_TEXT): string {
  if (!text) return '-';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const count = (n: number) => n.toLocaleString('en-US');

/** What is printed instead of a slug or key that named nothing (or was never looked up): only its length. */
function unnamed(obs: HookObservation, what: 'slug' | 'key', text: string): string {
  const length = `${text.length} character${text.length === 1 ? '' : 's'}`;
  // Refused before any lookup (a rate limit, a body over the limit, a Votifier session): not known to be wrong.
  const lookedUp = obs.errorCode === 'NOT_FOUND' || obs.organizationId !== null;
  return lookedUp ? `(unknown ${what}, ${length})` : `(${what} not looked up, ${length})`;
}

/** The slug as printed: itself once it named an organization, otherwise only its length. */
function slugOf(obs: HookObservation): string {
  if (!obs.orgSlug) return '-';
  return obs.organizationId && SLUG_PATTERN.test(obs.orgSlug) ? obs.orgSlug : unnamed(obs, 'slug', obs.orgSlug);
}

/** The key as printed: itself once it named a provider, otherwise only its length. */
function keyOf(obs: HookObservation): string {
  if (!obs.providerKey) return '-';
  return obs.provider && PROVIDER_KEY_PATTERN.test(obs.providerKey) ? obs.providerKey : unnamed(obs, 'key', obs.providerKey);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The reason with an unknown slug or key it quotes ("Provider … not found") replaced as slugOf/keyOf print them. */
function reasonOf(obs: HookObservation, org: string, provider: string): string {
  let reason = obs.reason ?? '';
  for (const [typed, shown] of [
    [obs.orgSlug, org],
    [obs.providerKey, provider],
  ]) {
    if (!typed || typed === shown) continue;
    reason = reason.replace(new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(typed)}(?![A-Za-z0-9_-])`, 'gi'), shown);
  }
  return printable(reason, MAX_REASON);
}

export function logHookOutcomes(observers: HookObservers, logger: Logger, options: HookLogLinesOptions = {}): HookLogLines {
  const intervalMs = options.intervalMs ?? LINE_INTERVAL_MS;
  const maxPairs = options.maxTrackedPairs ?? MAX_TRACKED_PAIRS;
  const now = options.now ?? Date.now;
  const pairs = new Map<string, Pair>();

  function pairOf(obs: HookObservation, org: string, provider: string, votifier: boolean): Pair {
    // Mistyped keys under one slug share one pair per address, and so do refusals before any organization was found
    // (an unknown slug, a body too large, an address over its limit) per code: random names cannot add pairs.
    const [target, label] = obs.provider
      ? [`provider:${obs.provider.id}`, `${org}/${provider}`]
      : obs.organizationId
        ? [`organization:${obs.organizationId}`, `${org} (unknown provider keys)`]
        : obs.errorCode === 'NOT_FOUND'
          ? ['unknown', 'unknown organizations']
          : votifier
            ? [`votifier:${obs.errorCode}`, 'the Votifier listener']
            : [`before-lookup:${obs.errorCode}`, 'any hook URL'];
    const noun = votifier ? 'Votifier sessions' : 'hook deliveries';
    const key = `${target}|${obs.clientIp}`;
    let pair = pairs.get(key);
    if (!pair && pairs.size >= maxPairs) {
      pair = pairs.get('*');
      if (!pair)
        pairs.set(
          '*',
          (pair = {
            label: 'many providers',
            noun: 'hook deliveries and Votifier sessions',
            clientIp: 'other senders',
            lastLineAt: -Infinity,
            suppressed: 0,
            codes: new Map(),
          }),
        );
    }
    if (!pair) pairs.set(key, (pair = { label, noun, clientIp: obs.clientIp, lastLineAt: -Infinity, suppressed: 0, codes: new Map() }));
    return pair;
  }

  function leftOut(pair: Pair, at: number) {
    return { suppressed: pair.suppressed, seconds: Math.max(1, Math.round((at - pair.lastLineAt) / 1000)), codes: Object.fromEntries(pair.codes) };
  }

  function refused(obs: HookObservation) {
    const at = now();
    const org = slugOf(obs);
    const provider = keyOf(obs);
    const votifier = obs.protocol === 'votifier_v1' || obs.protocol === 'votifier_v2';
    const pair = pairOf(obs, org, provider, votifier);
    if (at - pair.lastLineAt < intervalMs) {
      pair.suppressed++;
      const code = obs.errorCode ?? 'UNKNOWN';
      pair.codes.set(code, (pair.codes.get(code) ?? 0) + 1);
      return;
    }
    const earlier = pair.suppressed > 0 ? leftOut(pair, at) : null;
    const reason = reasonOf(obs, org, provider);
    const hint = hintFor(obs);
    const via = obs.protocol === 'http' ? obs.method : obs.protocol;
    // A Votifier session that matched no provider names none.
    const to = obs.orgSlug || obs.providerKey ? `${org}/${provider}` : 'no provider matched';
    const more = earlier ? ` (and ${count(earlier.suppressed)} more like it from ${pair.clientIp} in the last ${earlier.seconds} s)` : '';
    logger.warn(
      {
        organization: org,
        provider,
        clientIp: obs.clientIp,
        protocol: obs.protocol,
        method: obs.method,
        status: obs.status,
        code: obs.errorCode,
        reason,
        ...(hint ? { hint } : {}),
        ...(earlier ? { alsoRefused: earlier } : {}),
      },
      `${votifier ? 'Votifier session' : 'hook delivery'} refused: ${to} from ${obs.clientIp} (${via}): ${obs.errorCode ?? 'refused'} ${obs.status}, ${reason}${hint ? ` — ${hint}` : ''}${more}`,
    );
    pair.lastLineAt = at;
    pair.suppressed = 0;
    pair.codes.clear();
  }

  /** The count of what was left out, once its pair's interval is over (also when its flood has stopped). */
  function sweep(all = false) {
    const at = now();
    for (const [key, pair] of pairs) {
      if (pair.suppressed > 0 && (all || at - pair.lastLineAt >= intervalMs)) {
        const earlier = leftOut(pair, at);
        const codes = Object.entries(earlier.codes)
          .map(([code, n]) => `${code} ×${count(n)}`)
          .join(', ');
        logger.warn(
          { label: pair.label, clientIp: pair.clientIp, alsoRefused: earlier },
          `… and ${count(earlier.suppressed)} more refused ${pair.noun} to ${pair.label} from ${pair.clientIp} in the last ${earlier.seconds} s (${codes}), not logged one by one`,
        );
        pair.suppressed = 0;
        pair.codes.clear();
        pair.lastLineAt = at;
      } else if (pair.suppressed === 0 && at - pair.lastLineAt >= intervalMs) {
        pairs.delete(key);
      }
    }
  }

  function stored(obs: HookObservation) {
    const org = slugOf(obs);
    const provider = keyOf(obs);
    const voter = printable(obs.voterName);
    const fields = { organization: org, provider, voter, voteId: obs.voteId, clientIp: obs.clientIp, protocol: obs.protocol, durationMs: obs.durationMs };
    switch (obs.outcome) {
      case 'accepted':
        return logger.debug(fields, `vote stored: ${obs.voteId} for ${voter} from ${org}/${provider}`);
      case 'duplicate':
        return logger.debug(fields, `duplicate delivery of vote ${obs.voteId} for ${voter} from ${org}/${provider}: answered, not stored again`);
      case 'test':
        return obs.voteId
          ? logger.debug(fields, `test vote stored: ${obs.voteId} for ${voter} from ${org}/${provider} (never a reward)`)
          : logger.debug(fields, `test delivery from ${org}/${provider}: answered, nothing stored`);
      case 'ignored':
        return logger.debug(fields, `delivery from ${org}/${provider} is not a vote: answered, nothing stored`);
    }
  }

  const stopWatching = observers.watch((obs) => {
    if (obs.outcome === 'refused') refused(obs);
    else if (logger.isLevelEnabled('debug')) stored(obs);
  });
  const sweeper = backgroundLoop({
    everyMs: intervalMs,
    atStart: false,
    pass: async () => sweep(),
    failed: (err) => logger.error({ err }, 'the summary of held-back refusal lines failed; it runs again at the next interval'),
  });
  sweeper.start();

  return {
    close() {
      stopWatching();
      void sweeper.stop();
      sweep(true);
      pairs.clear();
    },
  };
}
