// One subscriber's stream of its organization's new hook request log entries (`hookRequestReceived`): only the
// caller's organization (the feed's topic is keyed by organization id), optionally one provider key, bounded (a
// consumer MAX_BUFFERED entries behind is cut off) and ended as soon as its API key is revoked. The feed carries
// each write's entries of an organization as one event; a subscriber gets them one by one.
import { GraphQLError } from 'graphql';
import type { AppDeps } from '../../app-deps.js';
import type { Viewer } from '../../auth/access.js';
import type { HookRequestEntry } from './entry.js';

const MAX_BUFFERED = 1_000;
const KEY_RECHECK_MS = 15_000;

export function subscribeToHookRequests(deps: AppDeps, viewer: Viewer, provider: string | null | undefined): AsyncIterableIterator<HookRequestEntry> {
  const queue: HookRequestEntry[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  let failure: Error | null = null;
  const entries = deps.feed.pubsub.subscribe('hookRequestReceived', viewer.organizationId)[Symbol.asyncIterator]();
  const revocations = deps.feed.pubsub.subscribe('apiKeyRevoked', viewer.organizationId)[Symbol.asyncIterator]();
  const wanted = provider?.toLowerCase();

  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    failure = error ?? null;
    clearInterval(recheck);
    void entries.return?.();
    void revocations.return?.();
    waiter.wake?.();
  };

  void (async () => {
    for (;;) {
      const next = await entries.next();
      if (next.done || ended) return;
      for (const entry of next.value) {
        // Defence in depth: the topic is the organization's, and so must be every entry on it.
        if (entry.organizationId !== viewer.organizationId) continue;
        if (wanted && entry.providerKey !== wanted) continue;
        if (queue.length >= MAX_BUFFERED) return finish(new GraphQLError('This subscriber fell too far behind; reconnect to resume', { extensions: { code: 'RATE_LIMITED' } }));
        queue.push(entry);
      }
      waiter.wake?.();
    }
  })();
  void (async () => {
    for (;;) {
      const next = await revocations.next();
      if (next.done || ended) return;
      if (next.value.apiKeyId === viewer.apiKeyId) return finish();
    }
  })();
  const recheck = setInterval(async () => {
    const key = await deps.db.prisma.apiKey.findUnique({ where: { id: viewer.apiKeyId }, select: { revokedAt: true } }).catch(() => undefined);
    if (key === null || key?.revokedAt) finish();
  }, KEY_RECHECK_MS);
  recheck.unref();

  const iterator: AsyncIterableIterator<HookRequestEntry> = {
    async next() {
      for (;;) {
        if (queue.length > 0) return { done: false, value: queue.shift()! };
        if (ended) {
          if (failure) {
            const error = failure;
            failure = null;
            throw error;
          }
          return { done: true, value: undefined };
        }
        await new Promise<void>((resolve) => (waiter.wake = resolve));
        waiter.wake = null;
      }
    },
    async return() {
      finish();
      queue.length = 0;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
