// The RCON server of bench/rcon.ts: the tests' Minecraft RCON server (test/kit/rcon-server.ts, written from the
// protocol documents) on 127.0.0.1, in a worker thread of the benchmark process (its own event loop, so the
// benchmark's database reads and the bare client's work never delay its answers). It records when each command
// arrived (process.hrtime: one monotonic clock for every thread of the process) and how busy its thread was
// (event-loop utilization) between the first and the last command of a measured window.
// `noDelay`: the kit's sockets get TCP_NODELAY (the kit, like a plain Java socket, leaves Nagle's algorithm on). With
// Nagle on, an answer of several packets can wait for the client's delayed ACK (~40 ms on Linux) before its last
// packet goes out: the end-of-answer packet's answer is held until the client acknowledges the rest of the answer,
// and how often that happens depends on the kernel's ACK heuristics and the client's timing. bench/rcon.ts turns it
// on unless BENCH_RCON_NAGLE=1 (it measured the wait at ~43 ms per multi-packet `list` for the bare client).
// This module is both sides: the benchmark calls startRconServerThread(); the thread (started through
// src/threads/thread-start.ts, which loads TypeScript with tsx) finds RCON_THREAD in its workerData and serves.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { startThread } from '../../src/threads/thread-start.js';

const RCON_THREAD = 'benchRconServer';

export interface RconWindow {
  /** Commands received since the mark, in order (logins and end-of-answer packets are not commands). */
  commands: string[];
  /** Arrival time of each command (ms, hrtime clock), in the same order. */
  times: number[];
  /** Share of the time between the first and the last command of the window in which the server's thread was busy. */
  serverBusy: number;
  /** Since the mark. */
  logins: number;
  connections: number;
  /** End-of-answer packets (the client's sentinel after a multi-packet answer). */
  unknownRequests: number;
  bytesReceived: number;
  /** Why connections were dropped, since the mark. */
  errors: string[];
}

export interface RconServerThread {
  host: '127.0.0.1';
  port: number;
  /** Starts a measured window: what arrives from here on is counted, timed and returned by window(). */
  mark(): Promise<void>;
  /** Resolves once `count` commands arrived since the mark (reached), or after `timeoutMs` (not reached). */
  waitForCommands(count: number, timeoutMs: number): Promise<{ reached: boolean; count: number }>;
  window(): Promise<RconWindow>;
  stop(): Promise<void>;
}

interface Request {
  id: number;
  op: 'mark' | 'wait' | 'window' | 'stop';
  count?: number;
  timeoutMs?: number;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export async function startRconServerThread(options: { password: string; players: string[]; noDelay: boolean }): Promise<RconServerThread> {
  const worker: Worker = startThread(import.meta.url, { [RCON_THREAD]: options });
  const waiting = new Map<number, (result: any) => void>();
  let failure: Error | null = null;
  let nextId = 1;
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { port?: number; id?: number; result?: unknown }) => {
      if (m.port) resolve(m.port);
      else if (m.id !== undefined) {
        waiting.get(m.id)?.(m.result);
        waiting.delete(m.id);
      }
    });
  });
  worker.on('error', (err) => {
    failure = err;
  });
  const call = <T>(request: Omit<Request, 'id'>): Promise<T> => {
    if (failure) return Promise.reject(new Error(`the RCON server thread failed: ${failure.message}`));
    const id = nextId++;
    return new Promise<T>((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ ...request, id });
    });
  };
  return {
    host: '127.0.0.1',
    port,
    mark: () => call<void>({ op: 'mark' }),
    waitForCommands: (count, timeoutMs) => call({ op: 'wait', count, timeoutMs }),
    window: () => call<RconWindow>({ op: 'window' }),
    async stop() {
      await Promise.race([call({ op: 'stop' }), new Promise((r) => setTimeout(r, 3_000))]);
      await worker.terminate();
    },
  };
}

// ---- the thread's side ---------------------------------------------------------------------------------------------

async function serve(settings: { password: string; players: string[]; noDelay: boolean }): Promise<void> {
  if (settings.noDelay) {
    // The kit calls createServer(listener) from node:net; this thread's copy of it gets { noDelay: true } (Node's
    // option: TCP_NODELAY on every accepted socket). Only this thread, and only before the kit is loaded.
    const net = createRequire(import.meta.url)('node:net') as typeof import('node:net');
    const createServer = net.createServer;
    net.createServer = ((listener: (socket: import('node:net').Socket) => void) => createServer({ noDelay: true }, listener)) as typeof net.createServer;
    syncBuiltinESMExports();
  }
  const { startRconServer } = await import('../../test/kit/rcon-server.js');
  const server = await startRconServer({ password: settings.password, players: settings.players, maxPlayers: settings.players.length });
  // The kit keeps every command in `server.commands` (the array it pushes to): its pushes are timed here.
  const times: number[] = [];
  let from = 0;
  let base = { logins: 0, connections: 0, unknownRequests: 0, bytesReceived: 0, errors: 0 };
  let eluFirst: EventLoopUtilization | null = null;
  let eluLast: EventLoopUtilization | null = null;
  let waiter: { count: number; done: (reached: boolean) => void } | null = null;
  const commands = server.commands;
  const push = commands.push;
  commands.push = (...items: string[]) => {
    const at = nowMs();
    for (let i = 0; i < items.length; i++) times.push(at);
    const length = push.apply(commands, items);
    if (length > from && eluFirst === null) eluFirst = performance.eventLoopUtilization();
    if (length > from) eluLast = performance.eventLoopUtilization();
    if (waiter && length - from >= waiter.count) waiter.done(true);
    return length;
  };
  const reply = (id: number, result: unknown) => parentPort!.postMessage({ id, result });

  parentPort!.on('message', (request: Request) => {
    switch (request.op) {
      case 'mark':
        from = commands.length;
        base = {
          logins: server.logins,
          connections: server.connections,
          unknownRequests: server.unknownRequests,
          bytesReceived: server.bytesReceived,
          errors: server.errors.length,
        };
        eluFirst = null;
        eluLast = null;
        return reply(request.id, undefined);
      case 'wait': {
        const count = request.count!;
        if (commands.length - from >= count) return reply(request.id, { reached: true, count: commands.length - from });
        const timer = setTimeout(() => waiter?.done(false), request.timeoutMs);
        waiter = {
          count,
          done: (reached) => {
            clearTimeout(timer);
            waiter = null;
            reply(request.id, { reached, count: commands.length - from });
          },
        };
        return;
      }
      case 'window': {
        if (times.length !== commands.length) throw new Error('test/kit/rcon-server.ts no longer records commands with push: the timing here is wrong');
        const busy = eluFirst && eluLast ? performance.eventLoopUtilization(eluLast, eluFirst).utilization : Number.NaN;
        const window: RconWindow = {
          commands: commands.slice(from),
          times: times.slice(from),
          serverBusy: busy,
          logins: server.logins - base.logins,
          connections: server.connections - base.connections,
          unknownRequests: server.unknownRequests - base.unknownRequests,
          bytesReceived: server.bytesReceived - base.bytesReceived,
          errors: server.errors.slice(base.errors),
        };
        return reply(request.id, window);
      }
      case 'stop':
        void server.stop().then(() => reply(request.id, undefined));
        return;
    }
  });
  parentPort!.postMessage({ port: server.port });
}

if (!isMainThread && workerData?.[RCON_THREAD]) await serve(workerData[RCON_THREAD]);
