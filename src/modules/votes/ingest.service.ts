// Inbound vote hooks: find the organization and provider, authenticate the sender, read the voter, filter test
// pings, suppress duplicates, then write the vote, its delivery jobs and its rollups in ONE transaction
// (vote-store.ts). Answers 200 only after that commit; a 5xx only when nothing was stored (the site retries).
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { readPath, readPathAsText } from '../../json-path.js';
import { verifyHookAuth } from './hook-auth.js';
import { SLUG_PATTERN } from '../organization/organization.service.js';
import { PROVIDER_KEY_PATTERN } from '../providers/providers.service.js';
import type { HookProvider, VoteStore } from './vote-store.js';
import { createPgVoteStore } from './pg-vote-store.js';
import { createSqliteVoteStore } from './sqlite-vote-store.js';

export interface HookDelivery {
  orgSlug: string;
  providerKey: string;
  pathSecret?: string | null;
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

export type HookReceipt =
  | { received: true; voteId: string; duplicate: boolean }
  | { received: true; test: true }
  | { received: true; ignored: true };

export const MAX_VOTER_NAME_LENGTH = 256;

function parsePayload(delivery: HookDelivery): unknown {
  const contentType = (delivery.headers['content-type'] ?? '').toLowerCase();
  const text = delivery.rawBody.toString('utf8');
  if (delivery.method === 'GET' || text.trim() === '') return { ...delivery.query };
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ field: 'body', message: 'is not valid JSON (or application/x-www-form-urlencoded)' }], 'The vote body could not be read');
  }
}

function eventList(json: string | null): string[] | null {
  if (!json) return null;
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? parsed.map(String) : null;
}

function dedupKeyOf(delivery: HookDelivery, provider: HookProvider): string {
  const idem = delivery.headers['idempotency-key'] ?? delivery.headers['webhook-id'];
  const hash = createHash('sha256');
  if (idem) return hash.update(`idem:${idem}`).digest('hex');
  if (delivery.rawBody.length > 0) return hash.update(delivery.rawBody).digest('hex');
  // GET-style lists: the query without its secret is the delivery.
  const query = Object.entries(delivery.query)
    .filter(([k]) => k !== provider.authField)
    .sort(([a], [b]) => a.localeCompare(b));
  return hash.update(`query:${JSON.stringify(query)}`).digest('hex');
}

function voterFrom(payload: unknown, voteePath: string): string {
  const raw = readPath(payload, voteePath);
  const name = typeof raw === 'string' || typeof raw === 'number' ? readPathAsText(payload, voteePath)?.trim() : undefined;
  if (!name) {
    throw validationError([{ field: voteePath, message: "voter name is missing or empty at the provider's votee_path" }], 'No voter name in the delivery');
  }
  if (name.length > MAX_VOTER_NAME_LENGTH) {
    throw validationError([{ field: voteePath, message: `voter name is longer than ${MAX_VOTER_NAME_LENGTH} characters` }]);
  }
  return name;
}

export function createIngestService(deps: AppDeps) {
  let store: VoteStore | null = null;
  const voteStore = () =>
    (store ??= deps.db.sqliteWriter ? createSqliteVoteStore(deps, deps.db.sqliteWriter) : createPgVoteStore(deps, deps.db.pool!));

  async function receive(delivery: HookDelivery): Promise<HookReceipt> {
    const votes = voteStore();
    // Anything that cannot be a slug or key cannot name one (and never reaches the database).
    if (!SLUG_PATTERN.test(delivery.orgSlug)) throw notFound(`Organization ${delivery.orgSlug}`);
    if (!PROVIDER_KEY_PATTERN.test(delivery.providerKey)) throw notFound(`Provider ${delivery.providerKey}`);
    const target = await votes.findTarget(delivery.orgSlug, delivery.providerKey);
    if (!target) throw notFound(`Organization ${delivery.orgSlug}`);
    const { org, provider } = target;
    if (org.status === 'suspended') throw new AppError('ORG_SUSPENDED', 'This organization is suspended; the vote was not recorded');
    if (!provider) throw notFound(`Provider ${delivery.providerKey}`);

    const auth = verifyHookAuth(
      provider,
      deps.secrets.open(provider.authValueEnc),
      { headers: delivery.headers, query: delivery.query, pathSecret: delivery.pathSecret ?? undefined, rawBody: delivery.rawBody },
      deps.clock.now().getTime(),
    );
    if (!auth.ok) throw new AppError('AUTH_FAILED', `Hook authentication failed: ${auth.reason}`);
    if (!provider.enabled) throw new AppError('PROVIDER_DISABLED', 'This provider is disabled; the vote was not recorded');

    const payload = parsePayload(delivery);
    if (provider.eventPath) {
      const value = readPath(payload, provider.eventPath);
      if (value !== undefined && value !== null) {
        // An object or array where an event name belongs matches no event name.
        const event = typeof value === 'object' ? null : String(value);
        if (event !== null && eventList(provider.testEventsJson)?.includes(event)) return { received: true, test: true };
        const accepted = eventList(provider.voteEventsJson);
        if (accepted && (event === null || !accepted.includes(event))) return { received: true, ignored: true };
      }
    }
    const voterName = voterFrom(payload, provider.voteePath);
    const rawPayload = delivery.rawBody.length > 0 && delivery.method !== 'GET' ? delivery.rawBody.toString('utf8') : JSON.stringify(payload);
    const stored = await votes.write({ org, provider, voterName, rawPayload, dedupKey: dedupKeyOf(delivery, provider), receivedAt: deps.clock.now() });
    if (stored.id) {
      const event = { organizationId: org.id, voteId: stored.id, publicId: stored.publicId, providerKey: provider.key };
      deps.events.publish('voteWritten', event);
      deps.feed.pubsub.publish('voteReceived', org.id, event);
    }
    return { received: true, voteId: stored.publicId, duplicate: stored.duplicate };
  }

  return {
    receive,
    /** Writes what is queued and releases the store's connection. */
    close() {
      store?.close();
      store = null;
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
