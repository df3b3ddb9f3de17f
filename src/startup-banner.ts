// The start-up banner (README "Logs"): once the service listens, where everything is (dashboard, APIs, hook URLs,
// Votifier) and which database it uses, with what to do first on an empty one. No credential is printed: a
// PostgreSQL address shows its host, port and database only.
import { resolve } from 'node:path';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';

/** The first step on an empty database, as the README's First steps give it. */
export const CREATE_ORGANIZATION_COMMAND = 'npm run -s cli -- org create --slug <slug> --name <name> --plan growth --json';

/** "sqlite /abs/path/vote-relay.db" or "postgresql db.example:5432/vote_relay": never a user or password. */
export function databaseLocation(config: Pick<Config, 'dialect' | 'databaseUrl'>, sqlitePath: string | null): { kind: string; location: string } {
  if (config.dialect === 'sqlite') return { kind: 'sqlite', location: sqlitePath ? resolve(sqlitePath) : '(unknown file)' };
  try {
    const url = new URL(config.databaseUrl);
    // libpq also takes the host and port as query parameters (a Unix socket folder, say).
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    const port = url.port || url.searchParams.get('port') || '5432';
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
    return { kind: 'postgresql', location: `${host}:${port}/${database}` };
  } catch {
    return { kind: 'postgresql', location: '(address not shown: DATABASE_URL is not a URL)' };
  }
}

/** `config` is the listening one (a PORT of 0 is the real port by now). */
export async function logStartupBanner(logger: Logger, config: Config, db: Database, votifierPort: number | null): Promise<void> {
  const base = config.publicBaseUrl.replace(/\/+$/, '');
  const database = databaseLocation(config, db.sqlitePath);
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
    },
    'vote relay listening',
  );
  let organizations: number;
  try {
    organizations = await db.prisma.organization.count();
  } catch {
    return; // the database answered migrations a moment ago; its errors are reported where they matter
  }
  if (organizations === 0) {
    logger.info(`no organization yet: run \`${CREATE_ORGANIZATION_COMMAND}\` to create one and its first API key`);
  }
}
