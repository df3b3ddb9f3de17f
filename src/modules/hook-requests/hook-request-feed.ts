// One subscriber's stream of its organization's new hook request log entries (`hookRequestReceived`): only the
// caller's organization (the feed's topic is keyed by organization id), optionally one provider key; a key-bound
// stream (src/live/key-bound-stream.ts). The feed carries each write's entries of an organization as one event; a
// subscriber gets them one by one.
import type { AppDeps } from '../../app-deps.js';
import type { Viewer } from '../../auth/access.js';
import { keyBoundStream } from '../../live/key-bound-stream.js';
import type { HookRequestEntry } from './entry.js';

export function subscribeToHookRequests(deps: AppDeps, viewer: Viewer, provider: string | null | undefined): AsyncIterableIterator<HookRequestEntry> {
  const wanted = provider?.toLowerCase();
  return keyBoundStream(deps, viewer, {
    source: deps.feed.pubsub.subscribe('hookRequestReceived', viewer.organizationId)[Symbol.asyncIterator](),
    // Defence in depth: the topic is the organization's, and so must be every entry on it.
    take: (entries: HookRequestEntry[]) => entries.filter((e) => e.organizationId === viewer.organizationId && (!wanted || e.providerKey === wanted)),
  });
}
