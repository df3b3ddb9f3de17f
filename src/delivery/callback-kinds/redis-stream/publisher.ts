// The redis-stream kind's connection: each message appended to a Redis stream with XADD (fields id, body, then its headers).
import { Redis, type RedisOptions } from 'ioredis';
import {
  BrokerError,
  CLOSE_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  bareUrl,
  errorMessage,
  requireBrokerUrl,
  targetKey,
  withTimeout,
  type BrokerMessage,
  type BrokerPublisher,
} from '../broker-publisher.js';

export interface RedisStreamSettings {
  url: string;
  stream: string;
  /** The stream is trimmed to about this many entries (MAXLEN ~): Redis trims whole nodes, so it may keep a few more. */
  maxLen: number;
}

export const SCHEMES = ['redis', 'rediss'] as const;

/** The entry's own fields; a header of the same name would shadow them for a reader that maps fields by name. */
const RESERVED_FIELDS = new Set(['id', 'body']);

/** Replies that no retry can change: a refused login or permission, or a key that holds something else than a stream. */
const PERMANENT_REPLY = /^(WRONGPASS|NOAUTH|NOPERM|WRONGTYPE)\b/;

export const describeTarget = (settings: RedisStreamSettings) => `${bareUrl(settings.url)} stream ${settings.stream}`;

export const keyOf = (settings: RedisStreamSettings) => targetKey('redis-stream', settings);

const clientOptions: RedisOptions = {
  lazyConnect: true,
  // A command while the connection is down fails at once rather than waiting in a queue for a reconnection.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  // No reconnecting inside the client: the pool forgets a lost connection and the next delivery opens another.
  retryStrategy: () => null,
  connectTimeout: CONNECT_TIMEOUT_MS,
  connectionName: 'vote-relay',
};

/** The XADD field list: id, body, then the headers as further fields. */
function entryFields(message: BrokerMessage): string[] {
  const fields = ['id', message.id, 'body', message.body];
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (RESERVED_FIELDS.has(name)) throw new BrokerError(`A header may not be named "${name}": the stream entry's own field has that name`, true);
    fields.push(name, value);
  }
  return fields;
}

/**
 * The client's error in words. ioredis rejects a failed connect with only "Connection is closed.", and says why
 * (ECONNREFUSED, WRONGPASS) in an 'error' event just before: that reason is `lastError`.
 */
function redisError(err: unknown, doing: string, lastError: Error | null): BrokerError {
  if (err instanceof BrokerError) return err;
  const reason = lastError && errorMessage(err).startsWith('Connection is closed') ? lastError : err;
  const text = errorMessage(reason);
  return new BrokerError(`${doing}: ${text}`, PERMANENT_REPLY.test(text), { cause: reason });
}

export class RedisStreamPublisher implements BrokerPublisher {
  private lastError: Error | null = null;

  /** `client` is exposed for tests and diagnostics (which server connection is ours). */
  constructor(
    readonly client: Redis,
    private readonly settings: RedisStreamSettings,
    lost: () => void,
  ) {
    // Without an 'error' listener ioredis logs "Unhandled error event"; the reason is kept for the next message.
    client.on('error', (err: Error) => {
      this.lastError = err;
    });
    client.on('end', lost);
  }

  async connect(): Promise<void> {
    try {
      await withTimeout(this.client.connect(), CONNECT_TIMEOUT_MS, `Connecting to ${describeTarget(this.settings)}`);
    } catch (err) {
      this.client.disconnect();
      throw redisError(err, `Could not connect to ${describeTarget(this.settings)}`, this.lastError);
    }
  }

  async publish(message: BrokerMessage, timeoutMs: number): Promise<{ detail: string }> {
    const { stream, maxLen } = this.settings;
    const fields = entryFields(message);
    const doing = `XADD to ${describeTarget(this.settings)}`;
    try {
      const added = this.client.call('XADD', stream, 'MAXLEN', '~', String(maxLen), '*', ...fields) as Promise<string>;
      const entryId = await withTimeout(added, timeoutMs, doing);
      return { detail: `entry ${entryId} in stream ${stream}` };
    } catch (err) {
      throw redisError(err, doing, this.lastError);
    }
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    // QUIT lets a command in flight finish; a server that does not answer is cut off.
    await withTimeout(this.client.quit(), CLOSE_TIMEOUT_MS, 'QUIT').catch(() => this.client.disconnect());
  }
}

/** Connects to the settings' Redis (the pool's opener); `lost` is called when that connection ends. */
export async function openPublisher(settings: RedisStreamSettings, lost: () => void = () => {}): Promise<RedisStreamPublisher> {
  requireBrokerUrl(settings.url, SCHEMES);
  if (!settings.stream) throw new BrokerError('The stream name is empty', true);
  if (!Number.isInteger(settings.maxLen) || settings.maxLen < 1) throw new BrokerError(`maxLen must be a positive integer, not ${settings.maxLen}`, true);
  const publisher = new RedisStreamPublisher(new Redis(settings.url, clientOptions), settings, lost);
  await publisher.connect();
  return publisher;
}
