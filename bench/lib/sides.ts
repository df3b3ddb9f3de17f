// Ours against before (bench/identities.ts, bench/marks.ts): two services, each run from its own directory with
// `node --import tsx src/main.ts` (cwd that directory) and its own CLI. "Ours" is a checkout (by default this
// repository's root); "before" is an older commit in a `git worktree add --detach` under the system's temporary
// directory, node_modules symlinked to the repository's, `npm run -s prisma:generate` run in it, removed at the end
// (and on any exit). Also what each service printed that a run must report: its warnings and errors.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunningChild } from './child.js';
import { gitCommit } from './report.js';
import { ROOT, createOrg, duration, machineLoad, startService } from './service.js';

export interface Side {
  id: 'ours' | 'before';
  dir: string;
  /** Its commit as the section names it. */
  commit: string;
}

const short = (sha: string) => sha.slice(0, 7);

// ---- the "before" tree ------------------------------------------------------------------------------------------

let beforeTree: string | null = null;
let removedOnExit = false;

/** Removes the before worktree, if there is one (at the end of a run, and on any exit). */
export function removeBeforeTree(): void {
  if (!beforeTree) return;
  const dir = beforeTree;
  beforeTree = null;
  try {
    execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    try {
      execFileSync('git', ['-C', ROOT, 'worktree', 'prune'], { stdio: 'ignore' });
    } catch {
      // left for `git worktree prune`
    }
  }
}

/**
 * A worktree of `commit` with the repository's node_modules and its own generated Prisma clients, under a temporary
 * directory named after the benchmark (`vote-relay-bench-<bench>-before-…`); `patch` (a path in this repository), if
 * given, applied to it with `git apply`.
 */
export function makeBeforeTree(commit: string, bench: string, patch?: string): string {
  if (!removedOnExit) {
    process.once('exit', removeBeforeTree);
    removedOnExit = true;
  }
  const dir = mkdtempSync(join(os.tmpdir(), `vote-relay-bench-${bench}-before-`));
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, commit], { stdio: 'ignore' });
  beforeTree = dir;
  if (patch) execFileSync('git', ['-C', dir, 'apply', join(ROOT, patch)], { stdio: 'inherit' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', '-s', 'prisma:generate'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

/** Hard bound on the whole run: past `budgetS` the benchmark says so, removes the before worktree and exits with 1. */
export function stopAfter(budgetS: number, bench: string): void {
  setTimeout(() => {
    console.error(`\n!!! ${bench} benchmark exceeded its ${duration(budgetS)} budget; stopping`);
    removeBeforeTree();
    process.exit(1);
  }, budgetS * 1000).unref();
}

/**
 * The two sides, printed: ours (`oursDir`, which must hold src/main.ts) and before (`beforeRef` of this repository in a
 * worktree, `patch` applied to it if given, made only with `withBefore`: its dir is '' otherwise).
 */
export function prepareSides(options: { oursDir: string; beforeRef: string; bench: string; dialect: string; withBefore?: boolean; patch?: string }): {
  ours: Side;
  before: Side;
} {
  const { oursDir, beforeRef, bench, dialect, withBefore = true, patch } = options;
  const beforeCommit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${beforeRef}^{commit}`], { encoding: 'utf8' }).trim();
  if (!existsSync(join(oursDir, 'src', 'main.ts'))) throw new Error(`BENCH_OURS_DIR ${oursDir} has no src/main.ts`);
  const ours: Side = { id: 'ours', dir: oursDir, commit: gitCommit(oursDir) };
  console.log(
    `ours: ${ours.dir} (${ours.commit}); before: ${short(beforeCommit)} (${beforeRef}${patch ? ` with ${patch}` : ''}); ${dialect}; ${machineLoad()}`,
  );
  const before: Side = { id: 'before', dir: withBefore ? makeBeforeTree(beforeCommit, bench, patch) : '', commit: short(beforeCommit) };
  if (withBefore) console.log(`before: worktree ${before.dir}`);
  return { ours, before };
}

/** The run's directory for its SQLite files (`vote-relay-bench-<bench>-…` under the system's temporary directory). */
export const makeRunDir = (bench: string) => mkdtempSync(join(os.tmpdir(), `vote-relay-bench-${bench}-`));

/** At the end of a run: the before worktree removed, and the run's directory too unless BENCH_KEEP_DB=1. */
export function removeRunFiles(dir: string): void {
  removeBeforeTree();
  if (process.env.BENCH_KEEP_DB === '1') console.log(`\ndatabases kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

// ---- the service from a directory -------------------------------------------------------------------------------

/** A JSON log line of the service (pino's fields). */
export interface LogEntry {
  level?: number;
  msg?: string;
  [field: string]: unknown;
}

/** Warnings and errors the service printed (level ≥ 40, or anything on stderr that is not a JSON log line). */
export class LogWatch {
  readonly counts = new Map<string, number>();
  /** The first line of each kind, as printed. */
  readonly examples = new Map<string, string>();
  read(line: string, stream: 'stdout' | 'stderr'): void {
    let key: string | null = null;
    if (line.startsWith('{')) {
      try {
        const entry = JSON.parse(line) as LogEntry;
        if ((entry.level ?? 0) >= 40) key = `${entry.level === 40 ? 'warn' : entry.level === 50 ? 'error' : `level ${entry.level}`}: ${entry.msg ?? '?'}`;
        this.entry(entry);
      } catch {
        key = `${stream}: ${line.slice(0, 200)}`;
      }
    } else if (stream === 'stderr' && line.trim() !== '') key = `stderr: ${line.slice(0, 200)}`;
    if (key === null) return;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (!this.examples.has(key)) this.examples.set(key, line.slice(0, 600));
  }
  /** Every JSON log line, for a watch that looks for one line in particular (nothing here). */
  protected entry(_entry: LogEntry): void {}
  summary(): string[] {
    return [...this.counts].map(([key, n]) => `${n}× ${key.length > 300 ? `${key.slice(0, 300)}…` : key}`);
  }
}

/** The service of `side` (src/main.ts from its directory) on `env`; every line it prints goes to `logs`. */
export async function startServiceIn(side: Side, env: NodeJS.ProcessEnv, logs: LogWatch, nodeArgs: string[] = []): Promise<RunningChild> {
  const child = await startService(env, nodeArgs, { cwd: side.dir, name: `vote relay (${side.id})` });
  // What it printed while starting is in the tail; from here on every line is read.
  for (const line of child.tail().split('\n')) logs.read(line, 'stdout');
  createInterface({ input: child.process.stdout! }).on('line', (line) => logs.read(line, 'stdout'));
  createInterface({ input: child.process.stderr! }).on('line', (line) => logs.read(line, 'stderr'));
  return child;
}

/** `cli org create` of that directory (it applies its own migrations first): organization `bench` on the business plan; returns the full API key. */
export const createOrgIn = (side: Side, env: NodeJS.ProcessEnv): Promise<string> => createOrg(env, 'bench', 'business', side.dir);
