// Runs every benchmark (bench/*.ts except this file) one after another, each as its own process
// (`npx tsx bench/<name>.ts`). Optional arguments pick benchmarks by name: `npx tsx bench/run.ts ingest`.
// The soak (bench/soak.ts, 30 minutes) runs only when named (`npx tsx bench/run.ts soak`) or as `npm run soak`
// (`npm run soak -- --short`: 2 minutes). Exits non-zero if any benchmark did.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
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

const outcomes: { name: string; code: number | null; seconds: number }[] = [];
for (const name of selected) {
  console.log(`\n=== bench/${name}.ts ===`);
  const started = Date.now();
  const child = spawn('npx', ['tsx', `bench/${name}.ts`], { cwd: ROOT, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  outcomes.push({ name, code, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== summary ===');
for (const { name, code, seconds } of outcomes) console.log(`${code === 0 ? 'ok    ' : 'FAILED'}  ${name} (${seconds.toFixed(0)} s)`);
process.exitCode = outcomes.every((o) => o.code === 0) ? 0 : 1;
