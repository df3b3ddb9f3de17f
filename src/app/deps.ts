// The explicit dependencies every service, worker and entry point is built from (no module-level singletons): types
// only, imported by every layer. createDeps (create-deps.ts) puts the concrete parts together.
import type { Config } from '../config/config.js';
import type { JobQueue, Pacer, Storage } from '../storage/index.js';
import type { Logger } from '../base/logger.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OutboundHttp } from '../net/outbound-http.js';
import type { VotePubSub } from '../live/vote-events.js';
import type { Feed } from '../live/feed.js';
import type { RateLimits } from '../auth/rate-limits.js';
import type { MetricsRecorder } from '../metrics/metrics.js';
import type { HookObservers } from '../modules/hook-requests/observation.js';
import type { DeliveryHandoff } from '../delivery/handoff.js';

export interface Clock {
  now(): Date;
}

export interface AppDeps {
  config: Config;
  db: Storage;
  logger: Logger;
  secrets: SecretBox;
  clock: Clock;
  http: OutboundHttp;
  /** Votes this instance wrote, published after commit (the plugin polls waiting for one). */
  events: VotePubSub;
  /** The live feed (Redis-backed across instances when REDIS_URL is set). */
  feed: Feed;
  /** Request budgets (in memory, or shared through Redis). */
  limits: RateLimits;
  /** The delivery job queue of this database (every job insert, claim and status change). */
  jobs: JobQueue;
  /** Slots of paced callbacks (max_per_second), shared by every instance on PostgreSQL. */
  pacer: Pacer;
  /** Prometheus counts (src/metrics/): the app's registry, or relayed to it from a worker thread. */
  metrics: MetricsRecorder;
  /** Every hook request's and Votifier session's outcome, told to the request log and the operator's log. */
  hookObservers: HookObservers;
  /** A committed vote's jobs to this process's delivery worker, leased to it (the fast path). */
  handoff: DeliveryHandoff;
}
