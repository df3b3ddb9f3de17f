// The Votifier server of bench/marks.ts: the tests' NuVotifier-compatible receiver (test/kit/votifier-receiver.ts:
// greeting with a challenge, protocol v2 frames checked against the service name's token, `{"status":"ok"}` and the
// connection closed) on 127.0.0.1, in a worker thread of the benchmark process (its own event loop, so the benchmark's
// database reads never delay its answers or its clock readings). It records when each vote arrived (process.hrtime:
// one monotonic clock for every thread of the process). A vote counts as received once its frame is read and its
// signature checked, before the answer (which `answerDelay` can hold back, as a busy server would).
// This module is both sides: the benchmark calls startVotifierReceiverThread(); the thread (started through
// src/threads/thread-start.ts, which loads TypeScript with tsx) finds VOTIFIER_THREAD in its workerData and serves.
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { startThread } from '../../src/threads/thread-start.js';

const VOTIFIER_THREAD = 'benchVotifierReceiver';

export interface VotifierWindow {
  /** Usernames of the votes received since the mark, in order of arrival. */
  usernames: string[];
  /** Arrival time of each (ms, hrtime clock), in the same order. */
  times: number[];
  /** Frames the receiver refused since the mark (bad signature, unknown service…). */
  errors: string[];
}

export interface VotifierReceiverThread {
  host: '127.0.0.1';
  port: number;
  /** Starts a window: what arrives from here on is counted, timed and returned by window(). */
  mark(): Promise<void>;
  /** Resolves once `count` votes arrived since the mark (reached), or after `timeoutMs` (not reached). */
  waitForVotes(count: number, timeoutMs: number): Promise<{ reached: boolean; count: number }>;
  /** Votes received since the mark, now. */
  count(): Promise<number>;
  /** Holds each answer back this long after the vote is recorded (0: at once). */
  answerDelay(ms: number): Promise<void>;
  window(): Promise<VotifierWindow>;
  stop(): Promise<void>;
}

interface Request {
  id: number;
  op: 'mark' | 'wait' | 'count' | 'delay' | 'window' | 'stop';
  count?: number;
  timeoutMs?: number;
  ms?: number;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export async function startVotifierReceiverThread(options: { tokens: Record<string, string> }): Promise<VotifierReceiverThread> {
  const worker: Worker = startThread(import.meta.url, { [VOTIFIER_THREAD]: options });
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
    if (failure) return Promise.reject(new Error(`the Votifier receiver thread failed: ${failure.message}`));
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
    waitForVotes: (count, timeoutMs) => call({ op: 'wait', count, timeoutMs }),
    count: () => call<number>({ op: 'count' }),
    answerDelay: (ms) => call<void>({ op: 'delay', ms }),
    window: () => call<VotifierWindow>({ op: 'window' }),
    async stop() {
      await Promise.race([call({ op: 'stop' }), new Promise((r) => setTimeout(r, 3_000))]);
      await worker.terminate();
    },
  };
}

// ---- the thread's side ---------------------------------------------------------------------------------------------

async function serve(settings: { tokens: Record<string, string> }): Promise<void> {
  const { startVotifierReceiver } = await import('../../test/kit/votifier-receiver.js');
  const receiver = await startVotifierReceiver({ tokens: settings.tokens });
  // The kit keeps every vote in `receiver.votes` (the array it pushes to): its pushes are timed here.
  const votes = receiver.votes;
  const times: number[] = [];
  let from = 0;
  let errorsFrom = 0;
  let waiter: { count: number; done: (reached: boolean) => void } | null = null;
  const push = votes.push;
  votes.push = (...items) => {
    const at = nowMs();
    for (let i = 0; i < items.length; i++) times.push(at);
    const length = push.apply(votes, items);
    if (waiter && length - from >= waiter.count) waiter.done(true);
    return length;
  };
  const reply = (id: number, result: unknown) => parentPort!.postMessage({ id, result });

  parentPort!.on('message', (request: Request) => {
    switch (request.op) {
      case 'mark':
        from = votes.length;
        errorsFrom = receiver.errors.length;
        return reply(request.id, undefined);
      case 'wait': {
        const count = request.count!;
        if (votes.length - from >= count) return reply(request.id, { reached: true, count: votes.length - from });
        const timer = setTimeout(() => waiter?.done(false), request.timeoutMs);
        waiter = {
          count,
          done: (reached) => {
            clearTimeout(timer);
            waiter = null;
            reply(request.id, { reached, count: votes.length - from });
          },
        };
        return;
      }
      case 'count':
        return reply(request.id, votes.length - from);
      case 'delay':
        receiver.answerDelay(request.ms ?? 0);
        return reply(request.id, undefined);
      case 'window': {
        if (times.length !== votes.length) throw new Error('test/kit/votifier-receiver.ts no longer records votes with push: the timing here is wrong');
        const window: VotifierWindow = {
          usernames: votes.slice(from).map((v) => v.username),
          times: times.slice(from),
          errors: receiver.errors.slice(errorsFrom),
        };
        return reply(request.id, window);
      }
      case 'stop':
        void receiver.close().then(() => reply(request.id, undefined));
        return;
    }
  });
  parentPort!.postMessage({ port: receiver.port });
}

if (!isMainThread && workerData?.[VOTIFIER_THREAD]) await serve(workerData[VOTIFIER_THREAD]);
