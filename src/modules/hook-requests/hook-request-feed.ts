// One subscriber's stream of its organization's new hook request log entries (`hookRequestReceived`): only the
// caller's organization (the feed's topic is keyed by organization id), optionally one provider key; a key-bound
// stream (src/live/key-bound-stream.ts). The feed carries each write's entries of an organization as one event; a
// subscriber gets them one by one.
import type { AppDeps } from '../../app/deps.js';
import type { Viewer } from '../../auth/access.js';
import { keyBoundStream } from '../../live/key-bound-stream.js';
import type { HookRequestEntry } from './entry.js';

/** Whether an organization's new entries may have a listener (any instance's, with Redis; without it, nobody but this
 *  instance's own subscribers can hear an entry). */
export function mayHaveListeners(deps: AppDeps, organizationId: string): boolean {
  return deps.feed.status() !== 'local' || deps.feed.listenerCount('hookRequestReceived', organizationId) > 0;
}

export function subscribeToHookRequests(deps: AppDeps, viewer: Viewer, provider: string | null | undefined): AsyncIterableIterator<HookRequestEntry> {
  const wanted = provider?.toLowerCase();
  const org = viewer.organizationId;
  return keyBoundStream(deps, viewer, {
    source: deps.feed.pubsub.subscribe('hookRequestReceived', org)[Symbol.asyncIterator](),
    // Defence in depth: the topic is the organization's, and so must be every entry on it.
    take: (entries: HookRequestEntry[]) => entries.filter((e) => e.organizationId === org && (!wanted || e.providerKey === wanted)),
  });
}
