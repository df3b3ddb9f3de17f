// The only file with side effects: read config, start the app, stop cleanly on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config.js';
import { createApp } from './app.js';
import { createLogger } from './logger.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}

const logger = createLogger(config.logLevel);
const app = createApp(config, { logger });

try {
  await app.start();
} catch (err) {
  logger.fatal({ err }, 'could not start');
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    app.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  });
}
