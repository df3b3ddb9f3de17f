// One subscriber's stream of a feed topic of its organization: bounded (a consumer MAX_BUFFERED items behind is cut
// off with RATE_LIMITED instead of buffering without end) and ended as soon as its API key is revoked (revocations
// are published on the feed; a periodic re-check covers a missed message). The live vote feed and the hook request
// log's live view are both such streams.
import { GraphQLError } from 'graphql';
import type { AppDeps } from '../app/deps.js';
import type { Viewer } from '../auth/access.js';

export const MAX_BUFFERED = 1_000;
const KEY_RECHECK_MS = 15_000;

export interface KeyBoundStreamOptions<E, T> {
  /** The organization's events (already subscribed: a feed topic keyed by the viewer's organization). */
  source: AsyncIterator<E>;
  /** What of one event this subscriber gets (filters; an event may carry several items). */
  take(event: E): Iterable<T>;
  /** Wakes the consumer; the vote feed spreads wakes over event-loop turns (vote-feed.ts). Default: at once. */
  wake?(wake: () => void): void;
}

export function keyBoundStream<E, T>(deps: AppDeps, viewer: Viewer, options: KeyBoundStreamOptions<E, T>): AsyncIterableIterator<T> {
  const { source, take } = options;
  const wakeUp = options.wake ?? ((wake) => wake());
  const queue: T[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  let failure: Error | null = null;
  const revocations = deps.feed.pubsub.subscribe('apiKeyRevoked', viewer.organizationId)[Symbol.asyncIterator]();

  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    failure = error ?? null;
    clearInterval(recheck);
    void source.return?.();
    void revocations.return?.();
    waiter.wake?.();
  };

  void (async () => {
    for (;;) {
      const next = await source.next();
      if (next.done || ended) return;
      let added = false;
      for (const item of take(next.value)) {
        if (queue.length >= MAX_BUFFERED)
          return finish(new GraphQLError('This subscriber fell too far behind; reconnect to resume', { extensions: { code: 'RATE_LIMITED' } }));
        queue.push(item);
        added = true;
      }
      if (added && waiter.wake) wakeUp(waiter.wake);
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

  const iterator: AsyncIterableIterator<T> = {
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
