// Builds the dashboard (web/ → web/dist) with Vite. Run by `npm ci` (postinstall) and, when web/ changed since the
// last build, by `npm start`, so the README's two commands always serve a current dashboard. An install without
// development dependencies (no Vite) skips the build and says so; the API works without the dashboard.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'web', 'dist', 'index.html');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

if (process.argv.includes('--if-stale') && existsSync(built)) {
  const sources = Math.max(
    newest(join(root, 'web', 'src')),
    statSync(join(root, 'web', 'index.html')).mtimeMs,
    statSync(join(root, 'web', 'vite.config.ts')).mtimeMs,
  );
  if (sources <= statSync(built).mtimeMs) process.exit(0);
}

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('dashboard: Vite is not installed (an install without devDependencies); / will say how to build it');
  process.exit(0);
}
await vite.build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel: 'warn' });
console.log('dashboard: built web/dist');
