// What the message-broker callback kinds (redis-stream, amqp, nats, mqtt) share: the publisher shape and its error, a
// pool that keeps one connection per target, and the helpers around a broker URL (its host for the SSRF check, the
// URL with its password hidden) and around each step's time limit.
import { createHash } from 'node:crypto';

/** One delivery: `id` is the vote's (or event's) id, sent as the broker's message id so a repeat can be dropped. */
export interface BrokerMessage {
  id: string;
  body: string;
  headers?: Record<string, string>;
}

/** One open connection to one target. `publish` resolves only once the broker has confirmed the message. */
export interface BrokerPublisher {
  publish(message: BrokerMessage, timeoutMs: number): Promise<{ detail: string }>;
  close(): Promise<void>;
}

/**
 * A failed connect or publish, said so that an operator can act on it. `permanent`: trying the same message again
 * cannot succeed until someone changes the settings or the broker (wrong password, no such exchange or stream, a
 * refused topic); the kind decides what its retry schedule does with that.
 */
export class BrokerError extends Error {
  override readonly name = 'BrokerError';

  constructor(
    message: string,
    readonly permanent = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Opening a connection (TCP, TLS, the broker's handshake and login, a queue declaration) is bounded on its own: the
 * pool opens before the publish and its timeout start.
 */
export const CONNECT_TIMEOUT_MS = 5_000;
/** A close that the broker does not answer is cut off after this; the socket is destroyed instead. */
export const CLOSE_TIMEOUT_MS = 1_000;

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Any failure as a BrokerError, with what was being done in front of the client library's words. */
export function asBrokerError(err: unknown, doing: string): BrokerError {
  if (err instanceof BrokerError) return err;
  return new BrokerError(`${doing}: ${errorMessage(err)}`, false, { cause: err });
}

/**
 * `work` or a BrokerError "<what> timed out after <ms> ms", whichever comes first. A client call cannot be taken back:
 * what it yields after the timeout goes to `late` (a connection that opened too late is closed there).
 */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string, late?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new BrokerError(`${what} timed out after ${ms} ms`));
    }, ms);
    work.then(
      (value) => {
        if (expired) return late?.(value);
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        if (expired) return;
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** A URL with the password of its userinfo shown as *** (`amqp://guest:***@127.0.0.1:5672/`), for reads and logs. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid url)';
  }
  if (url.password) url.password = '***';
  return url.toString();
}

/** scheme://host:port/path of a URL, without userinfo, query or fragment: how a target is named in the delivery log. */
export function bareUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { redis: 6379, rediss: 6379, amqp: 5672, amqps: 5671, nats: 4222, tls: 4222, mqtt: 1883, mqtts: 8883 };

/**
 * The host and port a broker URL connects to, or what is wrong with it. The kind runs the SSRF guard on this host
 * (src/net/ssrf-guard.ts: checkUrlTarget on `http://host:port/`, as the votifier kind does) when the URL is saved; the
 * broker clients resolve the name themselves, so a name that changes its address after that check is not caught at
 * connect time. Each publisher also calls this before connecting, so a wrong scheme never reaches a client library.
 */
export function brokerUrlHost(raw: string, schemes: readonly string[]): { host: string; port: number } | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a valid absolute URL';
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (!schemes.includes(scheme)) return `must use ${schemes.map((s) => `${s}://`).join(' or ')}, not ${scheme}:`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'must name a host';
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  if (!port) return 'must give a port';
  return { host, port };
}

/** The URL's host and port, or a permanent BrokerError naming the problem (used by each publisher before connecting). */
export function requireBrokerUrl(raw: string, schemes: readonly string[]): { host: string; port: number } {
  const checked = brokerUrlHost(raw, schemes);
  if (typeof checked === 'string') throw new BrokerError(`The broker URL ${redactUrl(raw)} ${checked}`, true);
  return checked;
}

/**
 * A pool key for a kind's settings: every field, credentials included, goes into a SHA-256, so two callbacks share a
 * connection only when all their settings match and no key (in a map, in a heap dump) holds a password.
 */
export function targetKey(kind: string, settings: object): string {
  const fields = Object.entries(settings)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${kind}:${createHash('sha256').update(JSON.stringify(fields)).digest('base64url')}`;
}

/**
 * Opens one target's connection. `lost` is to be called when the connection dies under it (closed by the broker, a
 * network error): the pool then forgets it and the next get() opens another.
 */
export type OpenPublisher<S> = (settings: S, lost: () => void) => Promise<BrokerPublisher>;

export interface PublisherPool<S> {
  /**
   * The target's open connection; opened if there is none, one opening shared by concurrent calls. Its close() drops
   * it from the pool (as drop does), for every user of the target.
   */
  get(settings: S): Promise<BrokerPublisher>;
  /** Forgets and closes the connection under this key (keyOf(settings)); the next get() opens a new one. */
  drop(key: string): Promise<void>;
  closeAll(): Promise<void>;
}

interface PoolEntry {
  /** The connection as opened (what drop closes). */
  opened: Promise<BrokerPublisher>;
  /** What get() hands out: the same connection, dropped from the pool when a publish fails for a reason not permanent. */
  shared: Promise<BrokerPublisher>;
}

const closeQuietly = (opened: Promise<BrokerPublisher>) =>
  opened
    .then(
      (publisher) => publisher.close(),
      () => undefined,
    )
    .catch(() => undefined);

/**
 * One connection per distinct target (keyOf), reopened after it was dropped, closed or lost, or when opening it
 * failed. A publish that fails for a reason that is not permanent (a timeout, a reset) also drops the connection: it
 * may be half-open, and a fresh one costs one handshake.
 */
export function createPublisherPool<S>(open: OpenPublisher<S>, keyOf: (settings: S) => string): PublisherPool<S> {
  const entries = new Map<string, PoolEntry>();

  const retire = (key: string, entry: PoolEntry): Promise<void> => {
    if (entries.get(key) === entry) entries.delete(key);
    return closeQuietly(entry.opened);
  };

  const shareable = (publisher: BrokerPublisher, retireThis: () => Promise<void>): BrokerPublisher => ({
    async publish(message, timeoutMs) {
      try {
        return await publisher.publish(message, timeoutMs);
      } catch (err) {
        const error = asBrokerError(err, 'Publishing failed');
        if (!error.permanent) void retireThis();
        throw error;
      }
    },
    close: retireThis,
  });

  const start = (key: string, settings: S): PoolEntry => {
    // Deferred one microtask so that `entry` exists even if `open` calls `lost` at once.
    const opened = Promise.resolve().then(() => open(settings, () => void retire(key, entry)));
    const entry: PoolEntry = {
      opened,
      shared: opened.then(
        (publisher) => shareable(publisher, () => retire(key, entry)),
        (err: unknown) => {
          if (entries.get(key) === entry) entries.delete(key);
          throw asBrokerError(err, 'Connecting failed');
        },
      ),
    };
    return entry;
  };

  const drop = async (key: string): Promise<void> => {
    const entry = entries.get(key);
    if (entry) await retire(key, entry);
  };

  return {
    get(settings) {
      const key = keyOf(settings);
      let entry = entries.get(key);
      if (!entry) entries.set(key, (entry = start(key, settings)));
      return entry.shared;
    },
    drop,
    async closeAll() {
      await Promise.all([...entries.keys()].map(drop));
    },
  };
}
