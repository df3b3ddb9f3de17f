// Runs Prisma's schema engine (WebAssembly build) in-process through driver adapters, for machines without the native engine.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as Glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaContainer, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';

export type { MigrationList, SchemaContainer, SchemaEngine, SchemaFilter };

export const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };
export const LOCKFILE_NAME = 'migration_lock.toml';
const MIGRATION_FILE = 'migration.sql';

let gluePromise: Promise<typeof Glue> | undefined;

/** Instantiates the wasm module once, without `--experimental-wasm-modules`. */
function loadGlue(): Promise<typeof Glue> {
  gluePromise ??= (async () => {
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue: typeof Glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, {
      './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as { __wbindgen_start: () => void };
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return glue;
  })();
  return gluePromise;
}

/** The schema files of one schema folder (e.g. prisma/sqlite), symlinked models included. */
export async function readSchemaFiles(schemaDir: string): Promise<SchemaContainer[]> {
  const names = (await readdir(schemaDir)).filter((name) => name.endsWith('.prisma')).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(schemaDir, name);
      return { path: file, content: await readFile(file, 'utf8') };
    }),
  );
}

/** Loads a migrations folder the way the Prisma CLI does (missing folder = no migrations). */
export async function readMigrationsList(migrationsDir: string): Promise<MigrationList> {
  const lockContent = await readFile(path.join(migrationsDir, LOCKFILE_NAME), 'utf8').catch(() => null);
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const directories = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return {
    baseDir: migrationsDir,
    lockfile: { path: LOCKFILE_NAME, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      directories.map(async (dir) => ({
        path: dir,
        migrationFile: {
          path: MIGRATION_FILE,
          content: await readFile(path.join(migrationsDir, dir, MIGRATION_FILE), 'utf8').then(
            (value) => ({ tag: 'ok' as const, value }),
            (error: Error) => ({ tag: 'error' as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

/**
 * A migration-aware adapter factory that remembers every connection it opens: the engine has no `close`,
 * so `dispose()` is how its connections (and any shadow databases) go away.
 */
export interface EngineConnections {
  factory: SqlMigrationAwareDriverAdapterFactory;
  dispose(): Promise<void>;
}

export async function startSchemaEngine(
  schemaFiles: SchemaContainer[],
  connections: EngineConnections,
  log: (message: string) => void = () => {},
): Promise<SchemaEngine> {
  const glue = await loadGlue();
  return glue.SchemaEngine.new(
    { datamodels: schemaFiles.map((file): [string, string] => [file.path, file.content]) },
    log,
    bindMigrationAwareSqlAdapterFactory(connections.factory),
  );
}

function trackConnections(
  base: Pick<SqlMigrationAwareDriverAdapterFactory, 'provider' | 'adapterName'>,
  connect: () => Promise<SqlDriverAdapter>,
  connectToShadowDb: () => Promise<SqlDriverAdapter>,
): EngineConnections {
  const open = new Set<SqlDriverAdapter>();
  const track = async (opening: Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> => {
    const adapter = await opening;
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => {
      open.delete(adapter);
      return (disposed ??= dispose());
    };
    open.add(adapter);
    return adapter;
  };
  return {
    factory: {
      provider: base.provider,
      adapterName: base.adapterName,
      connect: () => track(connect()),
      connectToShadowDb: () => track(connectToShadowDb()),
    },
    async dispose() {
      await Promise.allSettled([...open].map((adapter) => adapter.dispose()));
    },
  };
}

/** SQLite database file `dbFile`, with an in-memory shadow database. */
export function sqliteConnections(dbFile: string): EngineConnections {
  const main = new PrismaBetterSqlite3({ url: `file:${dbFile}` });
  const shadow = new PrismaBetterSqlite3({ url: ':memory:' });
  return trackConnections(
    main,
    () => main.connect(),
    async () => {
      const adapter = await shadow.connect();
      // The engine replays each migration into the shadow database as one argument-less multi-statement
      // `executeRaw`, which better-sqlite3 rejects: run those as scripts.
      const executeRaw = adapter.executeRaw.bind(adapter);
      adapter.executeRaw = async (query) => {
        if (query.args.length > 0) return executeRaw(query);
        await adapter.executeScript(query.sql);
        return 0;
      };
      return adapter;
    },
  );
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type FieldsResult = { fields?: { dataTypeID: number }[] };

function charColumnsAsText<T>(result: T): T {
  for (const part of Array.isArray(result) ? result : [result]) {
    for (const field of (part as FieldsResult | undefined)?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
  }
  return result;
}

/** The Postgres describer reads `"char"` catalog columns, which adapter-pg refuses to decode: report them as text. */
class CharAsTextClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query's overloads return a promise or void
  override query(...args: unknown[]): any {
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => last(error, charColumnsAsText(result));
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const returned = (super.query as (...a: unknown[]) => unknown)(...args);
    return returned instanceof Promise ? returned.then(charColumnsAsText) : returned;
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Creates and drops scratch databases through an admin connection (e.g. to the `postgres` database). */
export class PostgresScratchDatabases {
  readonly #adminUrl: string;
  readonly #prefix: string;

  constructor(adminUrl: string, prefix: string) {
    this.#adminUrl = adminUrl;
    this.#prefix = prefix;
  }

  async #admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.#adminUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  }

  /** Creates an empty database and returns its name. */
  async create(): Promise<string> {
    const database = `${this.#prefix}${randomBytes(6).toString('hex')}`;
    await this.#admin((client) => client.query(`CREATE DATABASE ${quoteIdent(database)}`));
    return database;
  }

  /** The admin connection's settings, pointed at `database` (in the URL itself: pg lets the URL win over `database`). */
  poolConfig(database: string): pg.PoolConfig {
    const url = new URL(this.#adminUrl);
    url.pathname = `/${encodeURIComponent(database)}`;
    return { connectionString: url.toString() };
  }

  async drop(database: string): Promise<void> {
    await this.#admin((client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`));
  }
}

/**
 * PostgreSQL database `database`. adapter-pg's own shadow databases are unusable here (it drops the database
 * before closing its pool), so every shadow database the engine asks for is a new scratch database, dropped
 * when the engine disposes it (or at `dispose()` at the latest).
 */
export function postgresConnections(database: string, scratch: PostgresScratchDatabases): EngineConnections {
  const factoryFor = (name: string) => new PrismaPg({ ...scratch.poolConfig(name), Client: CharAsTextClient });
  const main = factoryFor(database);
  return trackConnections(
    main,
    () => main.connect(),
    async () => {
      const shadowDatabase = await scratch.create();
      const adapter = await factoryFor(shadowDatabase).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await scratch.drop(shadowDatabase);
      };
      return adapter;
    },
  );
}
