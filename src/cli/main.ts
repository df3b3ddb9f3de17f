// Operator command line (the README's Configuration): talks to the database through the services, not over HTTP,
// so it works while the server runs. `--json` prints one JSON object on stdout; bad arguments exit 2, and so does a
// command that refuses and changes nothing (backup or restore on PostgreSQL, restore while the service runs).
import { parseArgs } from 'node:util';
import { ConfigError, environment, loadConfig, type Config } from '../config/config.js';
import { createLogger } from '../base/logger.js';
import { applyMigrations, backupSqlite, createStorage, describeDatabase, RefusedError, restoreSqlite, type Storage } from '../storage/index.js';
import { databaseLabel } from '../app/startup-banner.js';
import { PLAN_RULES } from '../delivery/callback-kinds/registry.js';
import { votesKeptFrom } from '../retention/retention.js';
import { createDeps } from '../app/create-deps.js';
import { createServices, type Services } from '../app/services.js';
import { AppError } from '../base/errors.js';
import { parseInput } from '../base/validation.js';
import { createApiKeyInput } from '../modules/api-keys/api-keys.service.js';
import type { Organization } from '../generated/sqlite/client.js';

class UsageError extends Error {}

const USAGE = `Usage: npm run -s cli -- <command> [options] [--json]

  org create --slug S --name N --plan starter|growth|pro|business
  org set-plan --slug S --plan P
  org suspend --slug S
  org activate --slug S
  key create --org S --name N --scope read|full
  stats verify [--org S]      recompute the per-day counts from raw votes and list differences
  stats rebuild [--org S]     replace the per-day counts with what the raw votes say
  voter erase --org S --name V   delete a voter's votes, their deliveries and per-day counts
  backup --to FILE            copy the SQLite database while the service runs (PostgreSQL: use pg_dump)
  restore --from FILE         replace the SQLite database with a backup; the service must be stopped
  migrate`;

const orgView = (o: Organization) => ({ id: o.id, slug: o.slug, name: o.name, plan: o.plan, status: o.status });

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

async function withServices<T>(config: Config, run: (services: Services, db: Storage) => Promise<T>): Promise<T> {
  await applyMigrations(config);
  const db = await createStorage(config, { planRules: PLAN_RULES, poolSize: 2 });
  const deps = createDeps(config, db, { logger: createLogger('silent') });
  try {
    return await run(createServices(deps), db);
  } finally {
    await deps.http.close().catch(() => {});
    await db.close();
  }
}

async function run(argv: string[]): Promise<{ json: unknown; human: string; exitCode?: number }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      slug: { type: 'string' },
      name: { type: 'string' },
      plan: { type: 'string' },
      org: { type: 'string' },
      scope: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals.join(' ');
  const { env, file } = environment();
  const config = loadConfig(env, undefined, file);
  // Which database this command works on, on stderr (stdout stays one JSON object with --json): a second terminal
  // without the service's settings would otherwise write into another database without a word.
  process.stderr.write(`database: ${databaseLabel(describeDatabase(config))}${file ? ` (settings from ${file})` : ''}\n`);

  switch (command) {
    case 'org create':
      return withServices(config, async (s) => {
        const org = await s.organizations.create({ slug: required(values, 'slug'), name: required(values, 'name'), plan: required(values, 'plan') });
        const key = await s.apiKeys.create(org.id, { name: 'Initial full key', scope: 'full' }, { enforcePlanLimit: false });
        return {
          json: { organization: orgView(org), api_key: key },
          human: `Created organization ${org.slug} (${org.id}, plan ${org.plan}).\nFull API key (shown once, store it now): ${key.key}`,
        };
      });
    case 'org set-plan':
      return withServices(config, async (s) => {
        const org = await s.organizations.setPlan(required(values, 'slug'), required(values, 'plan'));
        return { json: { organization: orgView(org) }, human: `Organization ${org.slug} is now on the ${org.plan} plan.` };
      });
    case 'org suspend':
    case 'org activate':
      return withServices(config, async (s) => {
        const status = command === 'org suspend' ? 'suspended' : 'active';
        const org = await s.organizations.setStatus(required(values, 'slug'), status);
        return { json: { organization: orgView(org) }, human: `Organization ${org.slug} is now ${org.status}.` };
      });
    case 'key create':
      return withServices(config, async (s) => {
        const org = await s.organizations.bySlug(required(values, 'org'));
        const input = parseInput(createApiKeyInput, { name: required(values, 'name'), scope: required(values, 'scope') });
        const key = await s.apiKeys.create(org.id, input, { enforcePlanLimit: false });
        return {
          json: { api_key: key },
          human: `Created ${key.scope} key "${key.name}" for ${org.slug}.\nAPI key (shown once, store it now): ${key.key}`,
        };
      });
    case 'stats verify':
      return withServices(config, async (s, db) => {
        const orgId = typeof values.org === 'string' ? (await s.organizations.bySlug(values.org)).id : undefined;
        const differences = await db.rollups.verify((await votesKeptFrom(db.prisma)) ?? '', orgId);
        return {
          json: { consistent: differences.length === 0, differences },
          human:
            differences.length === 0
              ? 'Per-day counts match the raw votes, and voter standings match the per-day counts.'
              : `${differences.length} difference(s):\n${differences.map((d) => `  ${d.table} ${d.key}: expected ${d.expected}, found ${d.actual}`).join('\n')}`,
          exitCode: differences.length === 0 ? 0 : 1,
        };
      });
    case 'stats rebuild':
      return withServices(config, async (s, db) => {
        const orgId = typeof values.org === 'string' ? (await s.organizations.bySlug(values.org)).id : undefined;
        const rebuilt = await db.rollups.rebuild((await votesKeptFrom(db.prisma)) ?? '', orgId);
        return {
          json: { rebuilt },
          human: `Rebuilt ${rebuilt.providerDays} provider-day and ${rebuilt.voterDays} voter-day rows, and ${rebuilt.voterStandings} voter standings.`,
        };
      });
    case 'voter erase':
      return withServices(config, async (s) => {
        const org = await s.organizations.bySlug(required(values, 'org'));
        const erased = await s.voters.erase(org.id, required(values, 'name'));
        return {
          json: {
            erased: {
              voter_name: erased.voterName,
              votes_deleted: erased.votesDeleted,
              attempts_deleted: erased.attemptsDeleted,
              rollup_rows_deleted: erased.rollupRowsDeleted,
            },
          },
          human: `Erased ${erased.voterName} from ${org.slug}: ${erased.votesDeleted} vote(s), ${erased.attemptsDeleted} delivery attempt(s), ${erased.rollupRowsDeleted} per-day count row(s).`,
        };
      });
    case 'backup': {
      const backup = await backupSqlite(config, required(values, 'to'));
      const key = backup.secret_key === 'SECRET_KEY' ? 'the SECRET_KEY variable' : (backup.secret_key ?? 'no key yet');
      return {
        json: { backup },
        human: `Backed up ${backup.from} to ${backup.to} (${backup.bytes} bytes) in ${backup.duration_ms} ms.\nThe stored provider and callback secrets need the same key to be read after a restore: keep ${key} with the backup.`,
      };
    }
    case 'restore': {
      const restored = restoreSqlite(config, required(values, 'from'));
      const warning = restored.secret_key
        ? ''
        : `\nThere is no SECRET_KEY and no secret.key beside the database: put the backed-up installation's key there before starting, or its stored secrets cannot be read.`;
      return { json: { restore: restored }, human: `Restored ${restored.to} from ${restored.from} (${restored.bytes} bytes). Start the service.${warning}` };
    }
    case 'migrate': {
      const applied = await applyMigrations(config);
      return { json: { applied }, human: applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.' };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

const argv = process.argv.slice(2);
const wantsJson = argv.includes('--json');
try {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
  } else {
    const result = await run(argv);
    process.stdout.write(wantsJson ? `${JSON.stringify(result.json)}\n` : `${result.human}\n`);
    if (result.exitCode) process.exitCode = result.exitCode;
  }
} catch (err) {
  let line: string;
  let code = 1;
  if (err instanceof RefusedError) {
    line = err.message;
    code = 2;
  } else if (err instanceof UsageError || (err as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
    line = `${(err as Error).message}\n${USAGE}`;
    code = 2;
  } else if (err instanceof AppError) {
    const details = Array.isArray(err.details) ? err.details.map((d: { field: string; message: string }) => `${d.field} ${d.message}`).join('; ') : err.message;
    line = `${err.code}: ${details}`;
    code = err.code === 'NOT_FOUND' || err.code === 'VALIDATION_ERROR' ? 2 : 1;
  } else if (err instanceof ConfigError) {
    line = err.message;
    code = 78;
  } else {
    line = `error: ${(err as Error).message}`;
  }
  if (wantsJson) process.stdout.write(`${JSON.stringify({ error: line.split('\n')[0] })}\n`);
  process.stderr.write(`${line.split('\n')[0]}\n`);
  process.exit(code);
}
