// The start-up banner (README "Logs"): once the service listens, where everything is (dashboard, APIs, hook URLs,
// Votifier), which database it uses and which instance it is (INSTANCE_ID), with what to do first on an empty one. No
// credential is printed: a PostgreSQL address shows its host, port and database only.
import type { Config } from '../config/config.js';
import type { Storage } from '../storage/index.js';
import type { Logger } from '../base/logger.js';
import { addressWarningLines } from '../net/reach.js';

/** The first step on an empty database, as the README's First steps give it. */
export const CREATE_ORGANIZATION_COMMAND = 'npm run -s cli -- org create --slug <slug> --name <name> --plan growth --json';

/** A database as the CLI and the start-up hint name it: its kind and where it is, without credentials. */
export const databaseLabel = (database: { kind: string; location: string }) => `${database.kind} ${database.location}`;

/** `config` is the listening one (a PORT of 0 is the real port by now). */
export async function logStartupBanner(logger: Logger, config: Config, db: Storage, votifierPort: number | null): Promise<void> {
  const base = config.publicBaseUrl.replace(/\/+$/, '');
  const database = db.describe();
  const votifier =
    config.votifierPort === 0
      ? 'off'
      : votifierPort === null
        ? 'off (its port could not be opened: see the error above)'
        : `${config.votifierHost}:${votifierPort}`;
  logger.info(
    {
      port: config.port,
      address: `${config.host}:${config.port}`,
      dashboard: `${base}/`,
      api: `${base}/v1`,
      graphql: `${base}/graphql`,
      hooks: `${config.hookBaseUrl.replace(/\/+$/, '')}/<organization>/<provider>`,
      votifier,
      database: database.kind,
      databaseLocation: database.location,
      settings: config.envFile ?? 'the environment (no .env file)',
      instance: config.instanceId,
    },
    'vote relay listening',
  );
  // Addresses no voting site can reach make the relay look broken when it is not: said once, at warn.
  for (const line of addressWarningLines(config)) logger.warn(line);
  let organizations: number;
  try {
    organizations = await db.prisma.organization.count();
  } catch {
    return; // the database answered migrations a moment ago; its errors are reported where they matter
  }
  if (organizations === 0) {
    logger.info(
      `no organization yet in this database (${databaseLabel(database)}): run \`${CREATE_ORGANIZATION_COMMAND}\` with the same configuration (the same environment or .env file) to create one and its first API key`,
    );
  }
}
