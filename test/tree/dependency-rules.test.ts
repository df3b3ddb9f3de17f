// The import rules of .dependency-cruiser.cjs and .dependency-cruiser.folders.cjs (npm run lint, part of npm test) run
// as a process: they pass on the project, and they fail, naming the rule, on a deliberate cycle of files
// (test/fixtures/import-cycle/) and of folders (test/fixtures/folder-cycle/).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cruiseWith = (config: string, ...paths: string[]) =>
  spawnSync(process.execPath, ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', config, ...paths], {
    cwd: ROOT,
    encoding: 'utf8',
  });
const cruise = (...paths: string[]) => cruiseWith('.dependency-cruiser.cjs', ...paths);
const cruiseFolders = (...paths: string[]) => cruiseWith('.dependency-cruiser.folders.cjs', ...paths);

describe('import rules', () => {
  it.each([
    ['find no cycle and no import into a higher layer in src/ and rest-compat/', cruise],
    ['find no two folders of src/ and rest-compat/ that import each other', cruiseFolders],
  ])(
    '%s',
    (_rule, run) => {
      const result = run('src', 'rest-compat');
      expect(result.stdout + result.stderr).toContain('no dependency violations found');
      expect(result.status).toBe(0);
    },
    60_000,
  );

  it('refuse an import cycle, naming it', () => {
    const result = cruise('test/fixtures/import-cycle');
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('no-cycles');
    expect(result.stdout).toContain('test/fixtures/import-cycle/a.ts');
  }, 60_000);

  it('refuse two folders that import each other where no file does, naming them', () => {
    // The file rules find nothing there: no file imports itself around a loop.
    expect(cruise('test/fixtures/folder-cycle').status).toBe(0);
    const result = cruiseFolders('test/fixtures/folder-cycle');
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('no-folder-cycles');
    expect(result.stdout).toMatch(/test\/fixtures\/folder-cycle\/one →\s+test\/fixtures\/folder-cycle\/two/);
  }, 60_000);
});
