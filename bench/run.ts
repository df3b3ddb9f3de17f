// Runs every benchmark (bench/*.ts except this file) one after another, each as its own process
// (`npx tsx bench/<name>.ts`). Optional arguments pick benchmarks by name: `npx tsx bench/run.ts ingest`.
// The soak (bench/soak.ts, 30 minutes) runs only when named (`npx tsx bench/run.ts soak`) or as `npm run soak`
// (`npm run soak -- --short`: 2 minutes). Exits non-zero if any benchmark did.
// Every benchmark that can run on PostgreSQL runs twice, on SQLite and then on PostgreSQL (BENCH_POSTGRES_URL, by
// default the local server postgres://postgres@127.0.0.1:5432/postgres; each run makes its own database and drops
// it). BENCH_DATABASES=sqlite (or postgresql) runs one. A PostgreSQL that does not answer fails the run, unless
// BENCH_DATABASES leaves it out.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

const all = readdirSync(BENCH_DIR, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && entry.name !== 'run.ts')
  .map((entry) => entry.name.slice(0, -'.ts'.length))
  .sort();

/** Too long for a default run: only when asked for by name. */
const ON_DEMAND = ['soak'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}
const selected = wanted.length > 0 ? all.filter((name) => wanted.includes(name)) : all.filter((name) => !ON_DEMAND.includes(name));

const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgresql').split(',').map((s) => s.trim());
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** A benchmark that measures the service on either database (it reads DATABASE_URL through bench/lib/database.ts). */
const takesPostgres = (name: string) => readFileSync(`${BENCH_DIR}${name}.ts`, 'utf8').includes("from './lib/database.js'");

if (databases.includes('postgresql')) {
  const client = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.end();
  } catch (err) {
    console.error(`PostgreSQL at ${POSTGRES} does not answer (${(err as Error).message}); set BENCH_DATABASES=sqlite to run without it`);
    process.exit(2);
  }
}

const outcomes: { name: string; code: number | null; seconds: number }[] = [];
for (const name of selected) {
  const runs = databases.filter((db) => db === 'sqlite' || (db === 'postgresql' && takesPostgres(name)));
  for (const db of runs.length > 0 ? runs : ['sqlite']) {
    const label = db === 'sqlite' ? name : `${name} (PostgreSQL)`;
    console.log(`\n=== bench/${name}.ts${db === 'sqlite' ? '' : ' on PostgreSQL'} ===`);
    const started = Date.now();
    const env = { ...process.env };
    if (db === 'postgresql') env.DATABASE_URL = POSTGRES;
    else delete env.DATABASE_URL;
    const child = spawn('npx', ['tsx', `bench/${name}.ts`], { cwd: ROOT, stdio: 'inherit', env });
    const [code] = (await once(child, 'exit')) as [number | null];
    outcomes.push({ name: label, code, seconds: (Date.now() - started) / 1000 });
  }
}

console.log('\n=== summary ===');
for (const { name, code, seconds } of outcomes) console.log(`${code === 0 ? 'ok    ' : 'FAILED'}  ${name} (${seconds.toFixed(0)} s)`);
process.exitCode = outcomes.every((o) => o.code === 0) ? 0 : 1;
