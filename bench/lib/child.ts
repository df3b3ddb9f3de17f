// Benchmark targets run as child processes (so the load generator never shares their event loop).
// A target prints one JSON line carrying "port" once it listens; everything it prints is drained (a full pipe
// would stall it) and the last lines are kept for error messages.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface RunningChild {
  name: string;
  port: number;
  process: ChildProcess;
  /** The last lines the child printed (stdout and stderr), for diagnostics. */
  tail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const alive = new Set<ChildProcess>();

// Never leave a target running behind us, whatever way this process ends.
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of alive) child.kill('SIGKILL');
    process.exit(130);
  });
}

/** Port from a line such as {"msg":"vote relay listening","port":1234} or {"msg":"listening","port":1234}. */
function portFromLine(line: string, listeningMessage: string): number | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; port?: unknown };
    if (parsed.msg === listeningMessage && typeof parsed.port === 'number' && parsed.port > 0) return parsed.port;
  } catch {
    // not JSON: ignore
  }
  return null;
}

export async function startChild(options: {
  name: string;
  /** Arguments after `node` (e.g. ['--import', 'tsx', 'src/main.ts']). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  listeningMessage: string;
  startTimeoutMs?: number;
}): Promise<RunningChild> {
  const { name, args, cwd, env, listeningMessage, startTimeoutMs = 60_000 } = options;
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  alive.add(child);
  child.once('exit', () => alive.delete(child));

  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
  };
  const tail = () => lines.join('\n');

  const port = await new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, value?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value!);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`${name} did not report a port within ${startTimeoutMs} ms; last output:\n${tail()}`));
    }, startTimeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      remember(line);
      const found = portFromLine(line, listeningMessage);
      if (found !== null) finish(null, found);
    });
    createInterface({ input: child.stderr! }).on('line', remember);
    child.once('error', (err) => finish(err));
    child.once('exit', (code, signal) => finish(new Error(`${name} exited (code ${code}, signal ${signal}) before listening; last output:\n${tail()}`)));
  });

  return {
    name,
    port,
    process: child,
    tail,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `node <args>` to completion and returns its stdout; rejects on a non-zero exit or after `timeoutMs`. */
export async function runNode(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  alive.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  alive.delete(child);
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (code ${code}, signal ${signal}):\n${stderr || stdout}`);
  return stdout;
}
