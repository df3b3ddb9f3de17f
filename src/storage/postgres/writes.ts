// The PostgreSQL hot writes, each a named batch write group-committed in one transaction per batch: `votes` (the
// vote with its jobs and rollups) and `hookLog` (the hook request log). In the service they run on the write thread
// (../write-thread.ts loads threadWrites from this module) with its own small pool; in one-shot commands on the
// caller's pool. Attempt records (`finishes`) are group-committed on the pool of the thread that sends
// (index.ts), so the delivery thread's never queue behind the votes.
//
// One batch of each in flight: the batches of one instance then never queue on each other's rollup row locks, and
// the next batch gathers everything that arrived meanwhile (measured with bench/ingest.ts on PostgreSQL: about
// 1,500 votes/s with one, 1,100 with two, 900 with three).
import type { MessagePort } from 'node:worker_threads';
import type pg from 'pg';
import type { Config } from '../../config/config.js';
import type { PlanRules } from '../../domain/job-plan.js';
import type { NewVote, StoredVote } from '../../domain/votes.js';
import type { Logger } from '../../base/logger.js';
import { commitEach, createGroupCommit, type GroupCommit } from '../group-commit.js';
import type { HookLogItem, HookLogResult } from '../hook-log.js';
import { writeThreadClient, type ThreadWrites } from '../write-thread.js';
import { openPgPool } from './connection.js';
import { createPgHookLogWrite } from './hook-log.js';
import { pgTransaction, type PgNamedWrite } from './transaction.js';
import { createPgVoteWrite } from './votes.js';

export interface PgWriters {
  votes: GroupCommit<NewVote, StoredVote>;
  hookLog: GroupCommit<HookLogItem, HookLogResult>;
  alive(): boolean;
  connect(): MessagePort | null;
  close(): Promise<void>;
}

function namedWrites(config: Config, rules: PlanRules): { votes: PgNamedWrite<NewVote, StoredVote>; hookLog: PgNamedWrite<HookLogItem, HookLogResult> } {
  return { votes: createPgVoteWrite(config, rules), hookLog: createPgHookLogWrite() };
}

/** A named write as one transaction per batch on `pool`, an item alone when its batch fails. */
export function pgCommit<I, O>(pool: pg.Pool, named: PgNamedWrite<I, O>): (items: I[]) => ReturnType<typeof commitEach<I, O>> {
  const transaction = pgTransaction(pool, named.write, named.begin, named.oneStatement, named.commits, named.prepare);
  return (items) => commitEach(items, transaction);
}

/** The write thread's side: its own pool, one handler per name. */
export async function threadWrites(config: Config, rules: PlanRules): Promise<ThreadWrites> {
  const pool = openPgPool(config.databaseUrl, 2);
  const writes = namedWrites(config, rules);
  return {
    handlers: {
      votes: pgCommit(pool, writes.votes) as ThreadWrites['handlers'][string],
      hookLog: pgCommit(pool, writes.hookLog) as ThreadWrites['handlers'][string],
    },
    close: async () => {
      await pool.end().catch(() => {});
    },
  };
}

/** The writers the storage uses: on the write thread (spawned, or another thread's through `port`), or on `pool`. */
export function pgWriters(config: Config, rules: PlanRules, pool: pg.Pool, thread?: { logger: Logger; port?: MessagePort }): PgWriters {
  if (thread) {
    const client = writeThreadClient(config, thread.logger, { module: import.meta.url, options: rules, port: thread.port });
    return { votes: client.writer('votes'), hookLog: client.writer('hookLog'), alive: client.alive, connect: client.connect, close: client.close };
  }
  const writes = namedWrites(config, rules);
  const votes = createGroupCommit({ maxBatch: config.writeBatchMax, commit: pgCommit(pool, writes.votes) });
  const hookLog = createGroupCommit({ maxBatch: config.writeBatchMax, commit: pgCommit(pool, writes.hookLog) });
  return {
    votes,
    hookLog,
    alive: () => true,
    connect: () => null,
    async close() {
      votes.close();
      hookLog.close();
      await Promise.all([votes.idle(), hookLog.idle()]);
    },
  };
}
