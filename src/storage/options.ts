// How a storage is opened (index.ts, createStorage).
import type { MessagePort } from 'node:worker_threads';
import type { PlanRules } from '../domain/job-plan.js';
import type { Logger } from '../base/logger.js';

export interface StorageOptions {
  /** What vote planning needs to know of the callback kinds (src/delivery/callback-kinds/registry.ts, PLAN_RULES). */
  planRules: PlanRules;
  poolSize?: number;
  countQueries?: boolean;
  /**
   * Run the hot writes on the write thread (the service), spawned here or, given `port`, another thread's (the
   * delivery thread writes through the main thread's), or, given `remote`, another process's: each call opens a port
   * to it (on SQLite, a worker of several processes writes through the primary's one write thread). Without it
   * they run on the caller's thread.
   */
  writeThread?: { logger: Logger; port?: MessagePort; remote?: () => MessagePort };
}
