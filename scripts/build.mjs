// Compiles the service (src/ and rest-compat/, with the generated Prisma clients and the thread bootstrap
// src/threads/thread-boot.mjs) to JavaScript with tsc (tsconfig.build.json), and copies beside it what its modules read by
// paths relative to themselves: the migrations (src/storage/migrate.ts: ../../prisma/<dialect>/migrations), the built
// dashboard (src/http/dashboard.ts: ../../web/dist) and package.json (rest-compat/openapi.ts reads its version); a
// module that starts reading another file that way adds it to ASSETS (the build test starts the built service, so a
// missing one fails it). `npm run build` runs it; `npm start` runs it with
// --if-stale, so a fresh clone and every source change are built before the service starts. `--out-dir DIR`
// builds into another folder of this repository (the build test does, so it never replaces a dist/ in use);
// the folder must stay inside the repository, where Node finds node_modules.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { 'if-stale': { type: 'boolean', default: false }, 'out-dir': { type: 'string', default: 'dist' } },
});
const outDir = resolve(root, values['out-dir']);
const stampFile = join(outDir, '.build-info.json');

/** Copied into the build at the same place relative to the compiled modules as to the sources. */
const ASSETS = ['package.json', 'prisma/sqlite/migrations', 'prisma/postgresql/migrations', 'web/dist'];
/** What a build is made from: a change to any of these makes dist/ stale. */
const INPUTS = ['src', 'rest-compat', 'tsconfig.json', 'tsconfig.build.json', ...ASSETS];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

if (values['if-stale'] && existsSync(stampFile)) {
  const { startedAt } = JSON.parse(readFileSync(stampFile, 'utf8'));
  const changed = Math.max(...INPUTS.map((input) => newest(join(root, input))));
  if (changed < startedAt) process.exit(0);
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error(
    'build: TypeScript is not installed (an install without devDependencies). Build where `npm ci` installed everything and copy dist/ over, or run the sources with `npm run dev`.',
  );
  process.exit(1);
}

// Sources changed while tsc runs are newer than this, so the next --if-stale builds again.
const startedAt = Date.now();
const building = `${outDir}.building-${process.pid}`;
rmSync(building, { recursive: true, force: true });
console.log(`build: compiling src/ and rest-compat/ with tsc into ${outDir} (a few tens of seconds)`);
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', building], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) {
  rmSync(building, { recursive: true, force: true });
  console.error(`build: tsc failed (exit ${compiled.status ?? compiled.signal}); nothing was replaced in ${outDir}`);
  process.exit(1);
}
for (const asset of ASSETS) {
  if (!existsSync(join(root, asset))) continue; // web/dist: an install without Vite serves a note instead
  mkdirSync(dirname(join(building, asset)), { recursive: true });
  cpSync(join(root, asset), join(building, asset), { recursive: true });
}
writeFileSync(join(building, '.build-info.json'), `${JSON.stringify({ startedAt, finishedAt: Date.now() })}\n`);

// Swap the finished build in, so a crash or a failed compile never leaves a half-written dist/. If another build
// finished first, its output is just as current: keep it.
const previous = `${outDir}.previous-${process.pid}`;
try {
  renameSync(outDir, previous);
} catch (err) {
  if (err.code !== 'ENOENT') throw err; // no build yet, or another build is swapping its own in
}
try {
  renameSync(building, outDir);
} catch (err) {
  if (!['ENOTEMPTY', 'EEXIST'].includes(err.code)) throw err;
  rmSync(building, { recursive: true, force: true });
}
rmSync(previous, { recursive: true, force: true });
console.log(`build: compiled into ${outDir} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
