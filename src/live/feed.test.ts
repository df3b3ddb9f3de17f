import { describe, expect, it } from 'vitest';
import { createFeed } from './feed.js';
import { createLogger } from '../base/logger.js';

describe('the feed counts its listeners', () => {
  it('per topic and organization, from the first read of a subscription to its end', async () => {
    const feed = createFeed(null, createLogger('silent'));
    const first = feed.pubsub.subscribe('hookRequestReceived', 'org_a')[Symbol.asyncIterator]();
    expect(feed.listenerCount('hookRequestReceived', 'org_a')).toBe(0); // not listening before it is read
    const reading = first.next();
    const second = feed.pubsub.subscribe('hookRequestReceived', 'org_a')[Symbol.asyncIterator]();
    void second.next();
    const other = feed.pubsub.subscribe('voteReceived', 'org_a')[Symbol.asyncIterator]();
    void other.next();
    expect(feed.listenerCount('hookRequestReceived', 'org_a')).toBe(2);
    expect(feed.listenerCount('voteReceived', 'org_a')).toBe(1);
    expect(feed.listenerCount('hookRequestReceived', 'org_b')).toBe(0);

    feed.pubsub.publish('hookRequestReceived', 'org_a', []);
    expect((await reading).value).toEqual([]);
    await first.return?.();
    expect(feed.listenerCount('hookRequestReceived', 'org_a')).toBe(1);
    await second.return?.();
    await other.return?.();
    expect(feed.listenerCount('hookRequestReceived', 'org_a')).toBe(0);
    expect(feed.listenerCount('voteReceived', 'org_a')).toBe(0);
  });
});
