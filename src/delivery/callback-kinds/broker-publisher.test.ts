// The broker kinds' shared parts without a broker: the pool (with a fake opener), URL helpers and the time limit.
import { describe, expect, it, vi } from 'vitest';
import {
  BrokerError,
  brokerUrlHost,
  createPublisherPool,
  redactUrl,
  targetKey,
  withTimeout,
  type BrokerMessage,
  type BrokerPublisher,
} from './broker-publisher.js';

interface Fake {
  settings: { name: string };
  lost: () => void;
  closed: boolean;
  fail: BrokerError | null;
}

/** An opener whose connections record what happens to them; `gate` holds openings until released. */
function fakeOpener() {
  const made: Fake[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const open = vi.fn(async (settings: { name: string }, lost: () => void): Promise<BrokerPublisher> => {
    await gate;
    if (settings.name === 'unreachable') throw new Error('connect ECONNREFUSED');
    const fake: Fake = { settings, lost, closed: false, fail: null };
    made.push(fake);
    return {
      async publish(message: BrokerMessage) {
        if (fake.fail) throw fake.fail;
        return { detail: `${settings.name} got ${message.id}` };
      },
      async close() {
        fake.closed = true;
      },
    };
  });
  return {
    open,
    made,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

const keyOf = (settings: { name: string }) => settings.name;
const message = { id: 'vote-1', body: '{}' };

describe('createPublisherPool', () => {
  it('opens one connection for concurrent gets of one target, and one per target', async () => {
    const fake = fakeOpener();
    const pool = createPublisherPool(fake.open, keyOf);
    fake.hold();
    const pending = [pool.get({ name: 'a' }), pool.get({ name: 'a' }), pool.get({ name: 'b' })];
    fake.release();
    const [a1, a2, b] = await Promise.all(pending);
    expect(a1).toBe(a2);
    expect(b).not.toBe(a1);
    expect(fake.open).toHaveBeenCalledTimes(2);
    expect(await a1.publish(message, 100)).toEqual({ detail: 'a got vote-1' });
  });

  it('forgets a failed opening, so the next get tries again', async () => {
    const fake = fakeOpener();
    const pool = createPublisherPool(fake.open, keyOf);
    const error = await pool.get({ name: 'unreachable' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BrokerError);
    expect((error as BrokerError).message).toBe('Connecting failed: connect ECONNREFUSED');
    await pool.get({ name: 'unreachable' }).catch(() => {});
    expect(fake.open).toHaveBeenCalledTimes(2);
  });

  it('reopens after the connection was lost, dropped or closed', async () => {
    const fake = fakeOpener();
    const pool = createPublisherPool(fake.open, keyOf);
    const first = await pool.get({ name: 'a' });
    fake.made[0].lost();
    const second = await pool.get({ name: 'a' });
    expect(second).not.toBe(first);
    expect(fake.made[0].closed).toBe(true);

    await pool.drop('a');
    expect(fake.made[1].closed).toBe(true);
    const third = await pool.get({ name: 'a' });
    await third.close();
    expect(fake.made[2].closed).toBe(true);
    await pool.get({ name: 'a' });
    expect(fake.open).toHaveBeenCalledTimes(4);
  });

  it('drops a connection whose publish failed for a passing reason, and keeps it after a permanent one', async () => {
    const fake = fakeOpener();
    const pool = createPublisherPool(fake.open, keyOf);
    const first = await pool.get({ name: 'a' });
    fake.made[0].fail = new BrokerError('no such exchange', true);
    await expect(first.publish(message, 100)).rejects.toThrow('no such exchange');
    expect(await pool.get({ name: 'a' })).toBe(first);

    fake.made[0].fail = new BrokerError('timed out');
    await expect(first.publish(message, 100)).rejects.toThrow('timed out');
    expect(await pool.get({ name: 'a' })).not.toBe(first);
    expect(fake.made[0].closed).toBe(true);
  });

  it('closes every connection on closeAll', async () => {
    const fake = fakeOpener();
    const pool = createPublisherPool(fake.open, keyOf);
    await Promise.all([pool.get({ name: 'a' }), pool.get({ name: 'b' })]);
    await pool.closeAll();
    expect(fake.made.map((f) => f.closed)).toEqual([true, true]);
  });
});

describe('broker URLs', () => {
  it('redacts the password of a URL', () => {
    expect(redactUrl('amqp://guest:guest@127.0.0.1:5672/')).toBe('amqp://guest:***@127.0.0.1:5672/');
    expect(redactUrl('redis://:s3cret@10.0.0.1:6379/2')).toBe('redis://:***@10.0.0.1:6379/2');
    expect(redactUrl('mqtt://broker.example:1883')).toBe('mqtt://broker.example:1883');
    expect(redactUrl('not a url')).toBe('(invalid url)');
  });

  it('gives the host and port to check, or what is wrong', () => {
    expect(brokerUrlHost('amqp://guest:guest@rabbit.example/', ['amqp', 'amqps'])).toEqual({ host: 'rabbit.example', port: 5672 });
    expect(brokerUrlHost('rediss://[::1]:6380', ['redis', 'rediss'])).toEqual({ host: '::1', port: 6380 });
    expect(brokerUrlHost('http://127.0.0.1:4222', ['nats', 'tls'])).toBe('must use nats:// or tls://, not http:');
    expect(brokerUrlHost('mqtt://', ['mqtt'])).toBe('must name a host');
    expect(brokerUrlHost('127.0.0.1:1883', ['mqtt'])).toMatch(/^must/);
  });

  it('keys settings by a hash that holds no password and differs when the password does', () => {
    const a = targetKey('amqp', { url: 'amqp://u:pw-one@h/', queue: 'q' });
    expect(a).not.toContain('pw-one');
    expect(targetKey('amqp', { queue: 'q', url: 'amqp://u:pw-one@h/' })).toBe(a);
    expect(targetKey('amqp', { url: 'amqp://u:pw-two@h/', queue: 'q' })).not.toBe(a);
  });
});

describe('withTimeout', () => {
  it('rejects with a BrokerError in time, and hands a late result to `late`', async () => {
    vi.useFakeTimers();
    try {
      let resolve: (value: string) => void = () => {};
      const late = vi.fn();
      const bounded = withTimeout(new Promise<string>((r) => (resolve = r)), 50, 'Connecting', late);
      vi.advanceTimersByTime(50);
      await expect(bounded).rejects.toThrow(new BrokerError('Connecting timed out after 50 ms'));
      resolve('connection');
      await Promise.resolve();
      expect(late).toHaveBeenCalledWith('connection');
    } finally {
      vi.useRealTimers();
    }
  });
});
