// /metrics with WEB_CONCURRENCY (README "Metrics"): a scrape reaches one worker, which asks the primary for every
// worker's registry aggregated by prom-client's AggregatorRegistry (counters and histograms summed; gauges read from
// the database take the largest worker's value, as every worker reads the same database), so the answer is the
// machine's, whichever worker the scrape reached.
import cluster from 'node:cluster';
import client from 'prom-client';

const ASK = 'vote-relay:metrics-ask';
const ANSWER = 'vote-relay:metrics-answer';
/** Longer than prom-client's own 5 s wait for the workers. */
const ANSWER_TIMEOUT_MS = 10_000;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

const isAsk = (m: unknown): m is Ask => typeof m === 'object' && m !== null && (m as Ask).type === ASK && typeof (m as Ask).id === 'number';
const isAnswer = (m: unknown): m is Answer => typeof m === 'object' && m !== null && (m as Answer).type === ANSWER && typeof (m as Answer).id === 'number';

/** In the primary: answers a worker's ask with every worker's metrics, aggregated. */
export function serveClusterMetrics(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isAsk(message)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (err: Error) => worker.send({ type: ANSWER, id: message.id, error: err.message } satisfies Answer),
    );
  });
}

/** In a worker: offers `registry` to the primary's aggregation; the returned function reads the machine's metrics. */
export function clusterMetricsReader(registry: client.Registry): () => Promise<string> {
  new client.AggregatorRegistry(); // installs prom-client's answer to the primary's request for this worker's metrics
  client.AggregatorRegistry.setRegistries([registry]);
  let next = 0;
  const waiting = new Map<number, { resolve(text: string): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  process.on('message', (message: unknown) => {
    if (!isAnswer(message)) return;
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    clearTimeout(entry.timer);
    if (message.error !== undefined || message.text === undefined) entry.reject(new Error(message.error ?? 'no metrics in the answer'));
    else entry.resolve(message.text);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary process did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, { resolve, reject, timer });
      process.send?.({ type: ASK, id } satisfies Ask);
    });
}
