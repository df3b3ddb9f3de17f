// Global set-up of the integration projects: compiles the service once per run (scripts/build.mjs into
// .test-builds/suite, skipped when nothing changed since the last build), so that every process a test spawns (the
// service, the CLI) starts from JavaScript as `npm start` runs it, rather than through tsx (about twice the CPU per
// start, and the suite starts some hundreds). processes.ts reads the folder through `inject('serviceBuild')`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled service's folder, relative to the repository. */
    serviceBuild: string;
  }
}

const OUT_DIR = '.test-builds/suite';

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale', '--out-dir', OUT_DIR], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the service's build for the tests failed (exit ${code}):\n${output}`))));
  });
}

// Every project's set-up runs in this one process: they share one build.
const shared = globalThis as { voteRelayServiceBuild?: Promise<void> };

export default async function setup(project: TestProject) {
  shared.voteRelayServiceBuild ??= build();
  await shared.voteRelayServiceBuild;
  project.provide('serviceBuild', OUT_DIR);
}
