// The only file with side effects: read config, start the app, stop cleanly on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config.js';
import { createApp } from './app.js';
import { createLogger } from './logger.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}

const logger = createLogger(config.logLevel, { format: config.logFormat });
const app = createApp(config, { logger });

try {
  await app.start();
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
