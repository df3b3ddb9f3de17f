// Shared reporting helpers: machine description, git commit, Markdown/console tables, the marked
// sections of BENCHMARKS.md (each benchmark owns the text between its start and end markers), and the failures a
// run goes on after and reports.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export function machineDescription(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() || 'unknown CPU';
  const memGiB = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${model}, ${cpus.length} cores, ${memGiB} GiB RAM (${os.type()} ${os.release()}, ${process.arch})`;
}

export function gitCommit(cwd: string): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

/** Markdown table; numbers are expected to be pre-formatted strings. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(align), ...rows.map(line)].join('\n');
}

/** Fixed-width table for the console. */
export function consoleTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const INTRO = `# Benchmarks

Numbers measured by the scripts in \`bench/\` (\`npm run bench\` runs them all; each one can be run alone with
\`npx tsx bench/<name>.ts\`). Each script rewrites only its own section below. The load generator and the targets
share one machine, so absolute numbers depend on it; compare ratios measured in the same run.
`;

/** Writes/replaces the text between `<!-- bench:<id>:start -->` and `<!-- bench:<id>:end -->`. */
export function writeSection(file: string, id: string, body: string): void {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : INTRO;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  let next: string;
  if (from !== -1 && to > from) {
    next = current.slice(0, from) + block + current.slice(to + end.length);
  } else {
    next = `${current.trimEnd()}\n\n${block}\n`;
  }
  writeFileSync(file, next);
}

/**
 * `attempt(what, run)`: `run`'s result, or null when it throws; then "what: <the error's first line>" goes to
 * `failures` (for the report) and the whole error to stderr, and the benchmark goes on.
 */
export function attempter(failures: string[]) {
  return async <T>(what: string, run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (err) {
      failures.push(`${what}: ${(err as Error).message.split('\n')[0]}`);
      console.error(`\n!!! ${what} could not be measured: ${(err as Error).message}`);
      return null;
    }
  };
}
