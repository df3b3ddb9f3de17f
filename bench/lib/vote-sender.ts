// Paced, open-loop vote sender of the benchmarks that deliver (bench/delivery.ts, bench/soak.ts): unique top.gg-style
// votes (header auth) posted at a fixed rate over the caller's keep-alive agent; a slow answer does not slow the
// sending. Times come from process.hrtime (the receiver's clock, see callback-receiver.ts).
import http from 'node:http';
import { nowMs } from './callback-receiver.js';
import { sortedCopy } from './service.js';

export interface SentVote {
  sentAt: number;
  acceptedAt: number;
  voteId: string;
}

export interface LoadResult {
  votes: SentVote[];
  startedAt: number;
  /** When the last hook answer arrived. */
  endedAt: number;
  attempted: number;
  skipped: number;
  non2xx: Map<string, number>;
  errors: Map<string, number>;
  hookLatencies: Float64Array;
}

export interface LoadOptions {
  /** The sender's keep-alive sockets, shared between calls (so a measured run starts on open connections). */
  agent: http.Agent;
  port: number;
  /** Hook path, e.g. /hooks/<org>/<provider>. */
  path: string;
  /** The provider's header secret (sent as `Authorization`). */
  auth: string;
  rate: number;
  seconds: number;
  /** Open loop, but bounded: past this many hooks in flight the sender stops adding more (and counts them as skipped). */
  maxInFlight: number;
}

let voteSeq = 0;

/** Sends `rate × seconds` votes, paced; resolves once every one of them is answered. */
export async function sendLoad({ agent, port, path, auth, rate, seconds, maxInFlight }: LoadOptions): Promise<LoadResult> {
  const votes: SentVote[] = [];
  const non2xx = new Map<string, number>();
  const errors = new Map<string, number>();
  const latencies: number[] = [];
  let inFlight = 0;
  let attempted = 0;
  let skipped = 0;
  const startedAt = nowMs();
  const total = Math.round(rate * seconds);
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  let allScheduled = false;
  const maybeDone = () => {
    if (allScheduled && inFlight === 0) done();
  };

  const sendOne = () => {
    const body = JSON.stringify({ bot: '1', user: `voter-${process.pid}-${++voteSeq}`, type: 'upvote', isWeekend: false, query: '' });
    const sentAt = nowMs();
    inFlight++;
    attempted++;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { 'content-type': 'application/json', authorization: auth, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const acceptedAt = nowMs();
          inFlight--;
          if (res.statusCode === 200) {
            try {
              const voteId = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { vote_id?: string }; vote_id?: string };
              const id = voteId.data?.vote_id ?? voteId.vote_id;
              if (typeof id === 'string') {
                votes.push({ sentAt, acceptedAt, voteId: id });
                latencies.push(acceptedAt - sentAt);
              } else bump(non2xx, '200 without vote_id');
            } catch {
              bump(non2xx, '200 unreadable');
            }
          } else bump(non2xx, String(res.statusCode));
          maybeDone();
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      inFlight--;
      bump(errors, err.code ?? err.message);
      maybeDone();
    });
    req.end(body);
  };

  // Every 2 ms, send what is due by now (open loop: a slow answer does not slow the sending).
  let scheduled = 0;
  await new Promise<void>((resolveAll) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((nowMs() - startedAt) / 1000) * rate));
      while (scheduled < due) {
        scheduled++;
        if (inFlight >= maxInFlight) skipped++;
        else sendOne();
      }
      if (scheduled >= total) {
        clearInterval(tick);
        resolveAll();
      }
    }, 2);
  });
  allScheduled = true;
  maybeDone();
  await finished;
  const endedAt = nowMs();
  return { votes, startedAt, endedAt, attempted, skipped, non2xx, errors, hookLatencies: sortedCopy(latencies) };
}
