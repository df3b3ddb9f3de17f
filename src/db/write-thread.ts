// The write thread: the hot writes' database connection on its own worker thread, so a commit (SQLite's fsync,
// PostgreSQL's round trips) never waits behind request parsing and never blocks it. Callers (the main thread; the
// delivery thread through a port of its own) get one batch writer per named write; each keeps at most one batch in
// flight and gathers what arrives meanwhile into the next. Each promise settles only after its own batch committed.
// What each name writes is in hot-writes.ts; this file is the transport.
import { MessageChannel, isMainThread, parentPort, workerData, type MessagePort, type Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startThread } from '../thread-start.js';
import type { BatchWriter, Queued } from './batch-writer/batch-writer.js';

interface WireError {
  message: string;
  code?: string;
}
/** One item's outcome, as it crosses between threads. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: WireError };
/** Writes one batch (in the thread) and settles each item. */
export type Handler = (items: unknown[]) => Settled[] | Promise<Settled[]>;

interface BatchMessage {
  id: number;
  name: string;
  items: unknown[];
}
interface Reply {
  id: number;
  results: Settled[];
}
export interface ThreadData {
  config: Config;
}

export const toWire = (err: unknown): WireError => {
  const e = err as { message?: unknown; code?: unknown };
  return { message: typeof e?.message === 'string' ? e.message : String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) };
};

const THREAD_GONE = 'The write thread stopped; nothing was stored.';
const goneError = () => Object.assign(new Error(THREAD_GONE), { code: 'WRITE_THREAD_GONE' });

export interface WriteThreadClient {
  writer<I, O>(name: string): BatchWriter<I, O>;
  /** False once the thread is gone (nothing more can be written; the health check reports it). */
  alive(): boolean;
  /** A port for another thread to write through this one's write thread (null on a port-connected client). */
  connect(): MessagePort | null;
  /** Refuses new items, waits for the queued ones, then ends the thread (or lets go of the port). */
  close(): Promise<void>;
}

/** Spawns the write thread, or, given `port`, writes through another thread's. */
export function writeThreadClient(config: Config, logger: Logger, port?: MessagePort): WriteThreadClient {
  const worker = port ? null : startThread(import.meta.url, { writeThread: { config } satisfies ThreadData });
  const channel: Worker | MessagePort = worker ?? port!;
  const waiting = new Map<number, (results: Settled[]) => void>();
  const writers: { close(): void; idle(): Promise<void> }[] = [];
  let seq = 0;
  let gone = false;
  let closing = false;

  const fail = (why: string) => {
    if (gone) return;
    gone = true;
    if (!closing) logger.error({ why }, 'the write thread stopped');
    for (const [id, settle] of waiting) {
      waiting.delete(id);
      settle([{ ok: false, error: toWire(goneError()) }]);
    }
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

  function writer<I, O>(name: string): BatchWriter<I, O> {
    const queue: Queued<I, O>[] = [];
    let inFlight = false;
    let scheduled = false;
    let closed = false;
    let drained: (() => void) | null = null;

    function flush() {
      scheduled = false;
      if (inFlight) return;
      if (queue.length === 0) return drained?.();
      if (gone) return queue.splice(0).forEach((q) => q.reject(goneError()));
      const batch = queue.splice(0, config.writeBatchMax);
      const id = ++seq;
      inFlight = true;
      waiting.set(id, (results) => {
        inFlight = false;
        batch.forEach((q, i) => {
          const r = results[i] ?? results[0];
          if (r.ok) q.resolve(r.value as O);
          else q.reject(Object.assign(new Error(r.error.message), r.error.code ? { code: r.error.code } : {}));
        });
        flush();
      });
      channel.postMessage({ id, name, items: batch.map((q) => q.item) } satisfies BatchMessage);
    }
    const handle = {
      submit(item: I): Promise<O> {
        if (closed) return Promise.reject(new Error('the writer is closed'));
        if (gone) return Promise.reject(goneError());
        return new Promise<O>((resolve, reject) => {
          queue.push({ item, resolve, reject });
          // Everything submitted in this event-loop turn (and while a batch is in flight) joins one batch.
          if (!scheduled && !inFlight) {
            scheduled = true;
            setImmediate(flush);
          }
        });
      },
      close() {
        closed = true;
      },
      idle(): Promise<void> {
        if (!inFlight && queue.length === 0) return Promise.resolve();
        return new Promise<void>((resolve) => (drained = resolve));
      },
    };
    writers.push(handle);
    return handle;
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
  const { threadHandlers } = await import('./hot-writes.js');
  const { handlers, close } = await threadHandlers(data.config);
  const serve = (port: MessagePort) => {
    let chain = Promise.resolve();
    port.on('message', (message: BatchMessage | { port: MessagePort } | 'close') => {
      if (message === 'close') {
        void chain.then(close).finally(() => process.exit(0));
        return;
      }
      if ('port' in message) return serve(message.port);
      chain = chain.then(async () => {
        let results: Settled[];
        try {
          results = await handlers[message.name](message.items);
        } catch (err) {
          results = [{ ok: false, error: toWire(err) }];
        }
        port.postMessage({ id: message.id, results } satisfies Reply);
      });
    });
  };
  serve(parentPort!);
}

const threadData = isMainThread ? null : (workerData as { writeThread?: ThreadData } | null)?.writeThread;
if (threadData) void runWriteThread(threadData);
