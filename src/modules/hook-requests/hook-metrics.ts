// Every hook delivery counted once in vote_relay_hook_deliveries_total (src/metrics/), whatever refused or took it:
// ingest, a Votifier session, or the body parser before either (a body too large, a bad Content-Encoding).
import type { MetricsRecorder } from '../../metrics/metrics.js';
import type { HookObservers } from './observation.js';

export function countHookOutcomes(observers: HookObservers, metrics: MetricsRecorder): () => void {
  return observers.watch((o) => metrics.hookDelivery(o.outcome === 'accepted' ? 'stored' : o.outcome, o.errorCode ?? '', o.provider?.key ?? '', o.testVote));
}
