// A local HTTP receiver on 127.0.0.1 standing in for Discord or a game server; its answers can be scripted.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (to provoke timeouts). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answers to give, in order; when they run out, `fallback` answers. */
  script(...answers: ScriptedAnswer[]): void;
  fallback: ScriptedAnswer;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(fallback: ScriptedAnswer = { status: 204 }): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  const receiver = { fallback } as Receiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, at: Date.now() });
      const answer = queue.shift() ?? receiver.fallback;
      const send = () => {
        if (res.destroyed) return;
        const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, {
          ...(typeof answer.body === 'object' ? { 'content-type': 'application/json' } : {}),
          ...(answer.headers ?? {}),
        });
        res.end(payload);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.requests = requests;
  receiver.script = (...answers) => queue.push(...answers);
  receiver.waitFor = async (count, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (requests.length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return requests;
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
