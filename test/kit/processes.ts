// Runs the CLI and the server entry point as real processes (the way operators do).
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The service's and the CLI's entries: the run's compiled build (service-build.ts, the integration projects' global
 * set-up), or the TypeScript sources where no build was provided.
 */
export function serviceEntry(kind: 'service' | 'cli' = 'service'): string {
  const source = kind === 'service' ? 'src/main.ts' : 'src/cli/main.ts';
  let build: string | undefined;
  try {
    build = inject('serviceBuild');
  } catch {
    build = undefined; // outside a vitest worker
  }
  return build ? join(build, source.replace(/\.ts$/, '.js')) : source;
}

/**
 * Node's arguments for an entry: TypeScript sources run through tsx, compiled JavaScript (npm run build) as is. Both
 * by absolute path, so that a process may run in another directory (one with its own .env file).
 */
export function nodeArgs(entry: string): string[] {
  const path = resolve(ROOT, entry);
  return entry.endsWith('.ts') ? ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs'), path] : [path];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** `entry`: the CLI's module, relative to the repository (a build's `<out>/src/cli/main.js` runs the compiled CLI). */
export function runCli(args: string[], env: Record<string, string | undefined>, entry = serviceEntry('cli'), cwd = ROOT): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(entry), ...args], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  logs: string[];
  exited: Promise<number | null>;
}

export interface StartOptions {
  /** The log line (`msg`, carrying `port`) that says the process is up; several processes: `all workers listening`. */
  readyMessage?: string;
  startTimeoutMs?: number;
}

/**
 * Starts `src/main.ts` (or `entry`, e.g. a build's `<out>/src/main.js`) on a random port and resolves once it logs
 * that it listens. With `registry`, the child is recorded as soon as it is spawned, so an afterAll can kill it even
 * if it never got as far as listening.
 */
export function startServerProcess(
  env: Record<string, string>,
  registry?: ChildProcess[],
  entry = serviceEntry(),
  { readyMessage = 'vote relay listening', startTimeoutMs = 30_000 }: StartOptions = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(entry), {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        ALERTS_INTERVAL_MS: '0',
        VOTIFIER_PORT: '0',
        RECOVERY_INTERVAL: '0',
        RETENTION_INTERVAL: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    registry?.push(child);
    const logs: string[] = [];
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${logs.join('\n')}`));
    }, startTimeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        logs.push(line);
        try {
          const entry = JSON.parse(line);
          if (entry.msg === readyMessage) {
            clearTimeout(timer);
            resolve({ child, url: `http://127.0.0.1:${entry.port}`, logs, exited });
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join('\n')}`));
    });
  });
}

/** A call to a server process's API with a key: its status, its body (JSON when it is JSON, else the text), and the text. */
export async function processApi(server: Pick<ServerProcess, 'url'>, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json, text };
}
