// The local callback receiver of the benchmarks that deliver (bench/delivery.ts, bench/soak.ts): node:http on
// 127.0.0.1 in a worker thread (its own event loop, so a busy load generator does not delay its clock readings),
// recording when each vote_id arrived (process.hrtime, one monotonic clock for every thread of the process).
// `failRatio` answers that share of requests, at random, with a 500 instead of a 200, so the service retries.
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

const RECEIVER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const failRatio = workerData.failRatio;
let batch = [];
let malformed = 0;
let failed = 0;
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Number(process.hrtime.bigint()) / 1e6;
    if (failRatio > 0 && Math.random() < failRatio) {
      failed++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"ok":false,"error":"scripted failure"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
    try {
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).vote_id;
      if (typeof id === 'string') batch.push(id, at); else malformed++;
    } catch { malformed++; }
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
setInterval(() => {
  if (batch.length > 0 || malformed > 0 || failed > 0) { parentPort.postMessage({ batch, malformed, failed }); batch = []; malformed = 0; failed = 0; }
}, 20);
parentPort.on('message', (m) => { if (m === 'stop') server.close(() => process.exit(0)); server.closeAllConnections(); });
`;

export interface Receiver {
  port: number;
  /** vote_id → arrival times (ms, hrtime clock) of the requests answered 200, in arrival order. */
  arrivals: Map<string, number[]>;
  malformed: number;
  /** Requests answered 500 on purpose (`failRatio`). */
  failed: number;
  stop(): Promise<void>;
}

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export async function startReceiver(options: { failRatio?: number } = {}): Promise<Receiver> {
  const worker = new Worker(RECEIVER_SOURCE, { eval: true, workerData: { failRatio: options.failRatio ?? 0 } });
  const receiver: Receiver = {
    port: 0,
    arrivals: new Map(),
    malformed: 0,
    failed: 0,
    async stop() {
      worker.postMessage('stop');
      await Promise.race([new Promise((r) => worker.once('exit', r)), sleep(3_000).then(() => worker.terminate())]);
    },
  };
  receiver.port = await new Promise<number>((resolvePort, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { port?: number; batch?: (string | number)[]; malformed?: number; failed?: number }) => {
      if (m.port) resolvePort(m.port);
      if (m.batch) {
        for (let i = 0; i < m.batch.length; i += 2) {
          const id = m.batch[i] as string;
          const list = receiver.arrivals.get(id);
          if (list) list.push(m.batch[i + 1] as number);
          else receiver.arrivals.set(id, [m.batch[i + 1] as number]);
        }
      }
      if (m.malformed) receiver.malformed += m.malformed;
      if (m.failed) receiver.failed += m.failed;
    });
  });
  return receiver;
}

/** Waits until every vote in `ids` reached the receiver (answered 200), or `limitS`. */
export async function waitForCallbacks(receiver: Receiver, ids: string[], limitS: number): Promise<{ complete: boolean; waitedS: number; missing: string[] }> {
  const started = nowMs();
  let pending = ids.filter((id) => !receiver.arrivals.has(id));
  while (pending.length > 0 && nowMs() - started < limitS * 1000) {
    await sleep(50);
    pending = pending.filter((id) => !receiver.arrivals.has(id));
  }
  return { complete: pending.length === 0, waitedS: (nowMs() - started) / 1000, missing: pending };
}
