// The write thread: the hot writes' database connection on its own worker thread, so a commit (SQLite's fsync,
// PostgreSQL's round trips) never waits behind request parsing and never blocks it. Callers (the main thread; the
// delivery thread through a port of its own) get one group-committed writer per named write (group-commit.ts), one
// batch in flight each. The thread loads the named writes of its database (sqlite/writes.ts, postgres/writes.ts);
// this file is the transport and knows none of them.
import { MessageChannel, isMainThread, parentPort, workerData, type MessagePort, type Worker } from 'node:worker_threads';
import type { Config } from '../config/config.js';
import type { Logger } from '../base/logger.js';
import { startThread } from '../threads/thread-start.js';
import { createGroupCommit, type GroupCommit, type Settled } from './group-commit.js';

interface WireError {
  message: string;
  code?: string;
}
type WireSettled = { ok: true; value: unknown } | { ok: false; error: WireError };
/** Writes one batch of a named write inside the thread and settles each item. */
export type ThreadHandler = (items: unknown[]) => Promise<Settled<unknown>[]>;
/** What a database's folder gives the thread: its named writes, and how to close its connection. */
export interface ThreadWrites {
  handlers: Record<string, ThreadHandler>;
  close(): Promise<void>;
}

interface BatchMessage {
  id: number;
  name: string;
  items: unknown[];
}
interface Reply {
  id: number;
  results: WireSettled[] | { failed: WireError };
}
interface ThreadData {
  config: Config;
  /** The module (its URL) whose `threadWrites(config, options)` makes the handlers. */
  module: string;
  options: unknown;
}

const toWire = (err: unknown): WireError => {
  const e = err as { message?: unknown; code?: unknown };
  return { message: typeof e?.message === 'string' ? e.message : String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) };
};
const fromWire = (e: WireError) => Object.assign(new Error(e.message), e.code ? { code: e.code } : {});

const THREAD_GONE = 'The write thread stopped; nothing was stored.';
const goneError = () => Object.assign(new Error(THREAD_GONE), { code: 'WRITE_THREAD_GONE' });

export interface WriteThreadClient {
  writer<I, O>(name: string): GroupCommit<I, O>;
  /** False once the thread is gone (nothing more can be written; the health check reports it). */
  alive(): boolean;
  /** A port for another thread to write through this one's write thread (null on a port-connected client). */
  connect(): MessagePort | null;
  /** Refuses new items, waits for the queued ones, then ends the thread (or lets go of the port). */
  close(): Promise<void>;
}

/**
 * Spawns the write thread, which loads `module`'s writes, or, given `port`, writes through another thread's.
 * `retryAfter`: as in group-commit.ts, for a batch the thread could not start (another process's write lock).
 */
export function writeThreadClient(
  config: Config,
  logger: Logger,
  options: {
    module: string;
    options?: unknown;
    port?: MessagePort;
    retryAfter?: (err: unknown) => number | null;
    /** Told once when the thread (or the port to it) is gone unasked: nothing more can be written. */
    onGone?: () => void;
  },
): WriteThreadClient {
  const { port } = options;
  const worker = port ? null : startThread(import.meta.url, { writeThread: { config, module: options.module, options: options.options } satisfies ThreadData });
  const channel: Worker | MessagePort = worker ?? port!;
  const waiting = new Map<number, (reply: Reply['results']) => void>();
  const writers: GroupCommit<unknown, unknown>[] = [];
  let seq = 0;
  let gone = false;
  let closing = false;

  const fail = (why: string) => {
    if (gone) return;
    gone = true;
    if (!closing) logger.error({ why }, 'the write thread stopped');
    for (const [id, settle] of waiting) {
      waiting.delete(id);
      settle({ failed: toWire(goneError()) });
    }
    if (!closing) options.onGone?.();
  };
  channel.on('message', (reply: Reply) => {
    const settle = waiting.get(reply.id);
    waiting.delete(reply.id);
    settle?.(reply.results);
  });
  if (worker) {
    worker.on('error', (err) => logger.error({ err }, 'the write thread failed'));
    worker.on('exit', (code) => fail(`exit ${code}`));
  } else {
    port!.on('close', () => fail('port closed'));
  }

  function writer<I, O>(name: string): GroupCommit<I, O> {
    const w = createGroupCommit<I, O>({
      maxBatch: config.writeBatchMax,
      retryAfter: options.retryAfter,
      commit: (items) =>
        new Promise((resolve, reject) => {
          if (gone) return reject(goneError());
          const id = ++seq;
          waiting.set(id, (results) => {
            if ('failed' in results) return reject(fromWire(results.failed));
            resolve(results.map((r) => (r.ok ? r : { ok: false, error: fromWire(r.error) })) as Settled<O>[]);
          });
          channel.postMessage({ id, name, items } satisfies BatchMessage);
        }),
    });
    writers.push(w as GroupCommit<unknown, unknown>);
    return w;
  }

  return {
    writer,
    alive: () => !gone,
    connect() {
      if (!worker || gone) return null;
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ port: port1 }, [port1]);
      return port2;
    },
    async close() {
      for (const w of writers) w.close();
      await Promise.all(writers.map((w) => w.idle()));
      closing = true;
      if (!worker) return void port!.close();
      if (gone) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      await exited;
    },
  };
}

/** Inside the thread: serves batches from the parent and from every port it is given, one at a time per port. */
async function runWriteThread(data: ThreadData) {
  const { threadWrites } = (await import(data.module)) as { threadWrites(config: Config, options: unknown): Promise<ThreadWrites> };
  const { handlers, close } = await threadWrites(data.config, data.options);
  const serve = (port: MessagePort) => {
    let chain = Promise.resolve();
    port.on('message', (message: BatchMessage | { port: MessagePort } | 'close') => {
      if (message === 'close') {
        void chain.then(close).finally(() => process.exit(0));
        return;
      }
      if ('port' in message) return serve(message.port);
      chain = chain.then(async () => {
        let results: Reply['results'];
        try {
          results = (await handlers[message.name](message.items)).map((r) => (r.ok ? r : { ok: false as const, error: toWire(r.error) }));
        } catch (err) {
          results = { failed: toWire(err) };
        }
        port.postMessage({ id: message.id, results } satisfies Reply);
      });
    });
  };
  serve(parentPort!);
}

const threadData = isMainThread ? null : (workerData as { writeThread?: ThreadData } | null)?.writeThread;
if (threadData) void runWriteThread(threadData);
