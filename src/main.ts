// The only file with side effects: read config, start the app (or its worker processes: WEB_CONCURRENCY), stop cleanly on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { ConfigError, environment, loadConfig } from './config/config.js';
import { createClusterSupervisor, workerReadyMessage } from './app/cluster.js';
import { serveClusterMetrics } from './metrics/cluster.js';
import { createLogger } from './base/logger.js';

let config: ReturnType<typeof loadConfig>;
try {
  const { env, file } = environment();
  config = loadConfig(env, undefined, file);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}

const rootLogger = createLogger(config.logLevel, { format: config.logFormat });

/** This process serves: the app on PORT, as the only process or as one worker of the primary. */
async function serve(): Promise<void> {
  // A worker's lines say which one it is; a single process's lines stay as they were.
  const logger = config.workerIndex === null ? rootLogger : rootLogger.child({ worker: config.workerIndex, pid: process.pid });
  const { createApp } = await import('./app/app.js'); // not loaded by a primary, which serves nothing itself
  const app = createApp(config, { logger });

  let port: number;
  try {
    ({ port } = await app.start());
  } catch (err) {
    logger.fatal({ err }, 'vote relay could not start; nothing is listening');
    process.exit(1);
  }

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${signal}: shutting down (in-flight requests may finish, up to SHUTDOWN_TIMEOUT_MS)`);
      app.stop().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (err) => {
          logger.error({ err }, 'the shutdown did not finish cleanly');
          process.exit(1);
        },
      );
    });
  }
  if (cluster.isWorker) process.send?.(workerReadyMessage(port));
}

/** The primary of WEB_CONCURRENCY workers: it forks, supervises and stops them, and serves nothing itself. */
async function supervise(): Promise<void> {
  const logger = rootLogger.child({ process: 'primary', pid: process.pid });
  serveClusterMetrics();
  // Messages between the processes cross as between threads (dates stay dates): the SQLite writes' ports need it.
  cluster.setupPrimary({ serialization: 'advanced' });
  let stop: (signal: NodeJS.Signals) => Promise<number>;
  // On SQLite the primary keeps the database's one writer, which every worker writes through (./app/sqlite-cluster.ts).
  let sqlite: import('./app/sqlite-cluster.js').SqlitePrimary | null = null;
  if (config.dialect === 'sqlite') {
    const { startSqlitePrimary } = await import('./app/sqlite-cluster.js');
    try {
      sqlite = await startSqlitePrimary(config, logger, () => {
        logger.fatal('the write thread stopped: nothing more can be stored; stopping the workers');
        void stop('SIGTERM').then(() => process.exit(1));
      });
    } catch (err) {
      logger.fatal({ err }, 'vote relay could not start; nothing is listening');
      process.exit(1);
    }
    logger.info({ workers: config.webConcurrency }, 'SQLite: the primary writes for every worker; worker 1 sends the deliveries and runs the scheduled work');
  }
  const supervisor = createClusterSupervisor({
    fork: (env) => {
      const worker = cluster.fork(env);
      sqlite?.attach(worker, Number(env.VOTE_RELAY_WORKER_INDEX));
      return worker;
    },
    workers: config.webConcurrency,
    instanceId: config.instanceId,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    logger,
  });
  let stopping: Promise<number> | null = null;
  // The workers first (each writes what it queued), then the primary's writer.
  stop = (signal) =>
    (stopping ??= supervisor.stop(signal).then(async (code) => {
      await sqlite?.close();
      return code;
    }));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => void stop(signal).then((code) => process.exit(code)));
  }
  try {
    await supervisor.start();
  } catch (err) {
    if (stopping) return; // a signal arrived during the start: its stop exits
    logger.fatal({ err: (err as Error).message }, 'vote relay could not start every worker; stopping the others');
    await stop('SIGTERM');
    process.exit(1);
  }
}

if (cluster.isPrimary && config.webConcurrency > 1) await supervise();
else await serve();
