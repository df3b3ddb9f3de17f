// The redis-stream publisher against the Redis on 127.0.0.1:6379, read back by a second client with XRANGE.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPublisherPool } from '../broker-publisher.js';
import { brokerDown, closedPort, HOST, rejection } from '../../../../test/kit/brokers.js';
import { describeTarget, keyOf, openPublisher, type RedisStreamPublisher, type RedisStreamSettings } from './publisher.js';

const PORT = 6379;
const URL = `redis://${HOST}:${PORT}`;

const down = await brokerDown('Redis', PORT);

describe('redis-stream publisher', () => {
  const run = randomBytes(4).toString('hex');
  const streams: string[] = [];
  let reader: Redis;
  const opened: RedisStreamPublisher[] = [];

  const settingsFor = (name: string, overrides: Partial<RedisStreamSettings> = {}): RedisStreamSettings => {
    const stream = `vote-relay-test:${run}:${name}`;
    streams.push(stream);
    return { url: URL, stream, maxLen: 1_000, ...overrides };
  };

  const tracked = async (settings: RedisStreamSettings, lost: () => void) => {
    const publisher = await openPublisher(settings, lost);
    opened.push(publisher);
    return publisher;
  };

  /** [id, body, other fields] of each entry, oldest first. */
  const entries = async (stream: string) =>
    (await reader.xrange(stream, '-', '+')).map(([, fields]) => {
      const map = new Map<string, string>();
      for (let i = 0; i < fields.length; i += 2) map.set(fields[i], fields[i + 1]);
      return Object.fromEntries(map);
    });

  beforeAll(async () => {
    if (down) return;
    reader = new Redis(URL, { lazyConnect: true });
    await reader.connect();
  });

  beforeEach(({ skip }) => skip(down !== null, `${down}: skipped (with CI set it fails instead)`));

  afterAll(async () => {
    if (down) return;
    await Promise.all(opened.map((publisher) => publisher.close()));
    if (streams.length) await reader.del(...streams);
    await reader.quit();
  });

  it('appends three messages that a reader gets back in order, with their ids, bodies and headers', async () => {
    const settings = settingsFor('three');
    const publisher = await tracked(settings, () => {});
    const details: string[] = [];
    for (const n of [1, 2, 3]) {
      const { detail } = await publisher.publish({ id: `vote-${n}`, body: JSON.stringify({ n }), headers: { 'event-type': 'vote' } }, 2_000);
      details.push(detail);
    }

    expect(await entries(settings.stream)).toEqual([1, 2, 3].map((n) => ({ id: `vote-${n}`, body: JSON.stringify({ n }), 'event-type': 'vote' })));
    const ids = (await reader.xrange(settings.stream, '-', '+')).map(([entryId]) => entryId);
    expect(details).toEqual(ids.map((entryId) => `entry ${entryId} in stream ${settings.stream}`));
  });

  it('rejects with a BrokerError when nothing listens on the port', async () => {
    const port = await closedPort();
    const settings = { url: `redis://${HOST}:${port}`, stream: 'votes', maxLen: 10 };
    const error = await rejection(openPublisher(settings));
    expect(error.message).toContain(`${HOST}:${port}`);
    expect(error.permanent).toBe(false);
  });

  it('reopens through the pool after the server killed the connection, and the next publish succeeds', async () => {
    const settings = settingsFor('reopen');
    const pool = createPublisherPool(tracked, keyOf);
    const first = await pool.get(settings);
    await first.publish({ id: 'before', body: '{}' }, 2_000);

    const admin = new Redis(URL, { lazyConnect: true });
    await admin.connect();
    const clientId = await opened.at(-1)!.client.client('ID');
    expect(await admin.client('KILL', 'ID', String(clientId))).toBe(1);
    await admin.quit();

    // The pool hears of the closed connection from the client's 'end' event, then opens a new one.
    await vi.waitFor(async () => expect(await pool.get(settings)).not.toBe(first));
    await (await pool.get(settings)).publish({ id: 'after', body: '{}' }, 2_000);
    expect((await entries(settings.stream)).map((entry) => entry.id)).toEqual(['before', 'after']);
    await pool.closeAll();
  });

  it('shares one connection between concurrent gets of one target', async () => {
    const settings = settingsFor('shared');
    const open = vi.fn(tracked);
    const pool = createPublisherPool(open, keyOf);
    const [a, b] = await Promise.all([pool.get(settings), pool.get(settings)]);
    expect(a).toBe(b);
    expect(open).toHaveBeenCalledTimes(1);
    await pool.closeAll();
  });

  it('says a key holding another type is a permanent failure', async () => {
    const settings = settingsFor('wrongtype');
    await reader.set(settings.stream, 'not a stream');
    const publisher = await tracked(settings, () => {});
    const error = await rejection(publisher.publish({ id: 'x', body: '{}' }, 2_000));
    expect(error.message).toMatch(/WRONGTYPE/);
    expect(error.permanent).toBe(true);
  });

  it('refuses a header named like an entry field, and names the target without credentials', async () => {
    const publisher = await tracked(settingsFor('reserved'), () => {});
    const error = await rejection(publisher.publish({ id: 'x', body: '{}', headers: { body: 'shadow' } }, 2_000));
    expect(error.permanent).toBe(true);
    expect(describeTarget({ url: 'redis://user:secret@127.0.0.1:6379/2', stream: 'votes', maxLen: 10 })).toBe('redis://127.0.0.1:6379/2 stream votes');
  });
});
