// The import rules of .dependency-cruiser.cjs (npm run lint, part of npm test) run as a process: they pass on the
// project, and they fail, naming the rule, on a deliberate cycle (test/fixtures/import-cycle/).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cruise = (...paths: string[]) =>
  spawnSync(process.execPath, ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', '.dependency-cruiser.cjs', ...paths], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('import rules', () => {
  it('find no cycle and no import into a higher layer in src/ and rest-compat/', () => {
    const result = cruise('src', 'rest-compat');
    expect(result.stdout + result.stderr).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  }, 60_000);

  it('refuse an import cycle, naming it', () => {
    const result = cruise('test/fixtures/import-cycle');
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('no-cycles');
    expect(result.stdout).toContain('test/fixtures/import-cycle/a.ts');
  }, 60_000);
});
