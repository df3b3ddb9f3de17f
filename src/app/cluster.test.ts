import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClusterSupervisor, workerReadyMessage, type ForkedWorker } from './cluster.js';
import { createLogger } from '../base/logger.js';

/** A worker that does what it is told: says it listens, exits on a signal (or not, when `stubborn`). */
class FakeWorker extends EventEmitter implements ForkedWorker {
  signals: NodeJS.Signals[] = [];
  exited = false;
  stubborn = false;
  constructor(
    readonly env: Record<string, string>,
    pid: number,
  ) {
    super();
    this.process = {
      pid,
      kill: (signal: NodeJS.Signals = 'SIGTERM') => {
        this.signals.push(signal);
        if (this.exited || (this.stubborn && signal !== 'SIGKILL')) return true;
        setImmediate(() => this.exit(signal === 'SIGKILL' ? null : 0, signal === 'SIGKILL' ? 'SIGKILL' : null));
        return true;
      },
    };
  }
  process: ForkedWorker['process'];
  listen(port = 4000) {
    this.emit('message', workerReadyMessage(port));
  }
  exit(code: number | null, signal: NodeJS.Signals | null) {
    if (this.exited) return;
    this.exited = true;
    this.emit('exit', code, signal);
  }
}

function harness(options: { workers?: number; shutdownTimeoutMs?: number; restartDelayMs?: number } = {}) {
  const forked: FakeWorker[] = [];
  const lines: { msg: string; [key: string]: unknown }[] = [];
  const logger = createLogger('info', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  const supervisor = createClusterSupervisor({
    fork: (env) => {
      const worker = new FakeWorker(env, 100 + forked.length);
      forked.push(worker);
      return worker;
    },
    workers: options.workers ?? 2,
    instanceId: 'box:3000',
    shutdownTimeoutMs: options.shutdownTimeoutMs ?? 1_000,
    logger,
    restartDelayMs: options.restartDelayMs ?? 1_000,
  });
  return { supervisor, forked, lines, messages: () => lines.map((l) => l.msg) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('cluster supervisor', () => {
  it('does nothing until started, then forks one worker per index and resolves once all listen', async () => {
    const { supervisor, forked, messages } = harness({ workers: 3 });
    expect(forked).toHaveLength(0);
    let started = false;
    const start = supervisor.start().then((r) => {
      started = true;
      return r;
    });
    expect(forked.map((w) => w.env)).toEqual([1, 2, 3].map((i) => ({ INSTANCE_ID: 'box:3000', VOTE_RELAY_WORKER_INDEX: String(i) })));
    forked[0].listen(4321);
    forked[1].listen(4321);
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false);
    forked[2].listen(4321);
    expect(await start).toEqual({ port: 4321 });
    expect(messages()).toContain('all workers listening');
    expect(messages()).toContain('worker 2 starting (pid 101, instance box:3000/2)');
  });

  it('fails the start when a worker exits before it listened', async () => {
    const { supervisor, forked } = harness();
    const start = supervisor.start();
    forked[0].listen();
    forked[1].exit(1, null);
    await expect(start).rejects.toThrow('worker 2 (pid 101) exited (code 1) before it listened');
    expect(await supervisor.stop('SIGTERM')).toBe(0);
    expect(forked[0].signals).toEqual(['SIGTERM']);
    expect(forked[1].signals).toEqual([]); // already gone
  });

  it('starts a worker that died again under its index, after a delay that doubles while it keeps dying young', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { supervisor, forked, lines } = harness({ restartDelayMs: 1_000 });
    const start = supervisor.start();
    for (const w of forked) w.listen();
    await start;

    forked[1].exit(null, 'SIGKILL');
    const died = lines.at(-1)!;
    expect(died).toMatchObject({ level: 50, worker: 2, workerPid: 101, signal: 'SIGKILL', restartInMs: 1_000 });
    expect(died.msg).toBe('worker 2 (pid 101) exited (signal SIGKILL); starting it again in 1 s');
    vi.advanceTimersByTime(999);
    expect(forked).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(forked).toHaveLength(3);
    expect(forked[2].env).toEqual({ INSTANCE_ID: 'box:3000', VOTE_RELAY_WORKER_INDEX: '2' });
    forked[2].listen();
    expect(lines.at(-1)!.msg).toBe('worker 2 is back (pid 102)');

    // Dying again within 30 s of its start: twice the wait, then four times.
    forked[2].exit(1, null);
    expect(lines.at(-1)).toMatchObject({ restartInMs: 2_000 });
    vi.advanceTimersByTime(2_000);
    forked[3].exit(1, null); // before it listened: a failed start counts as young
    expect(lines.at(-1)).toMatchObject({ restartInMs: 4_000 });
    vi.advanceTimersByTime(4_000);
    forked[4].listen();
    // A worker that ran a while before dying starts over from the first delay.
    vi.advanceTimersByTime(60_000);
    forked[4].exit(0, null);
    expect(lines.at(-1)).toMatchObject({ level: 40, restartInMs: 1_000 });
    expect(forked[0].signals).toEqual([]);
  });

  it('forwards the signal to every worker and resolves 0 once all stopped; a pending restart is cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { supervisor, forked, messages } = harness({ workers: 3 });
    const start = supervisor.start();
    for (const w of forked) w.listen();
    await start;
    forked[2].exit(null, 'SIGKILL'); // waiting for its restart when the stop comes
    const stopped = supervisor.stop('SIGINT');
    expect(forked[0].signals).toEqual(['SIGINT']);
    expect(forked[1].signals).toEqual(['SIGINT']);
    expect(await stopped).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(forked).toHaveLength(3);
    expect(messages().at(-1)).toBe('stopped');
  });

  it('kills a worker that has not stopped within SHUTDOWN_TIMEOUT_MS and 5 s more, and resolves 1', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { supervisor, forked, messages } = harness({ shutdownTimeoutMs: 1_000 });
    const start = supervisor.start();
    for (const w of forked) w.listen();
    await start;
    forked[1].stubborn = true;
    const stopped = supervisor.stop('SIGTERM');
    await vi.advanceTimersByTimeAsync(5_999);
    expect(forked[1].signals).toEqual(['SIGTERM']);
    await vi.advanceTimersByTimeAsync(1);
    expect(await stopped).toBe(1);
    expect(forked[1].signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(messages()).toContain('worker 2 did not stop within 6 s; killed');
  });

  it('resolves 1 when a worker stopped with an error', async () => {
    const { supervisor, forked } = harness();
    const start = supervisor.start();
    for (const w of forked) w.listen();
    await start;
    forked[0].stubborn = true;
    const stopped = supervisor.stop('SIGTERM');
    forked[0].exit(1, null);
    expect(await stopped).toBe(1);
  });
});
