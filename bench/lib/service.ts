// Helpers shared by the benchmarks that drive the real service (bench/read.ts, bench/delivery.ts, bench/live.ts): a
// clean environment, the operator CLI, the service and the baselines (bench/baselines/) as child processes, a
// keep-alive HTTP client with exact timings, percentiles, ratios and the server process's memory (from /proc).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { runNode, startChild, type RunningChild } from './child.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The service reads only its own variables; drop any the caller's shell sets so a run is reproducible. */
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'PUBLIC_BASE_URL',
  'HOOK_BASE_URL',
  'REDIS_URL',
  'SECRET_KEY',
  'ALLOW_PRIVATE_TARGETS',
  'RETRY_SCHEDULE',
  'LOG_LEVEL',
  'API_RATE_LIMIT_PER_MINUTE',
  'HOOK_RATE_LIMIT_PER_MINUTE',
  'IP_RATE_LIMIT_PER_MINUTE',
  'DELIVERY_CONCURRENCY',
  'DELIVERY_ENABLED',
  'DELIVERY_LEASE_MS',
  'DELIVERY_POLL_MS',
  'ALERTS_INTERVAL_MS',
  'REMINDERS_INTERVAL_MS',
  'REMINDERS_BATCH',
  'GRAPHQL_INTROSPECTION',
  'TRUST_PROXY',
  'SHUTDOWN_TIMEOUT_MS',
  'VOTIFIER_PORT',
  'VOTIFIER_HOST',
  'WRITE_THREAD',
  'DELIVERY_THREAD',
];

/** Environment for the service: the caller's, minus every service variable, plus `overrides`. */
export function serviceEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete env[name];
  // PUBLIC_BASE_URL: an address sites could reach, so the service's log has no warning about it (benches send votes
  // to the hook path on 127.0.0.1, never to the URL the API gives out).
  return { ...env, PORT: '0', HOST: '127.0.0.1', PUBLIC_BASE_URL: 'https://bench.example.com', ...overrides };
}

export function envNumber(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    console.error(`${name} must be a positive ${integer ? 'integer' : 'number'} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

/**
 * `cli org create … --json` against env's DATABASE_URL (applies the migrations first); returns the full API key. `cwd`:
 * the checkout whose CLI runs (another commit's worktree: bench/lib/sides.ts).
 */
export async function createOrg(env: NodeJS.ProcessEnv, slug: string, plan: string, cwd: string = ROOT): Promise<string> {
  const out = await runNode(['--import', 'tsx', 'src/cli/main.ts', 'org', 'create', '--slug', slug, '--name', slug, '--plan', plan, '--json'], {
    cwd,
    env,
    timeoutMs: 120_000,
  });
  const jsonLine = out
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .at(-1);
  const apiKey = jsonLine ? (JSON.parse(jsonLine) as { api_key?: { key?: unknown } }).api_key?.key : undefined;
  if (typeof apiKey !== 'string') throw new Error(`org create printed no API key:\n${out}`);
  return apiKey;
}

/**
 * The real service (src/main.ts) as a child process; resolves once it listens. `where`: another checkout's service
 * (bench/lib/sides.ts) and the name its errors give it.
 */
export function startService(env: NodeJS.ProcessEnv, nodeArgs: string[] = [], where: { cwd?: string; name?: string } = {}): Promise<RunningChild> {
  return startChild({
    name: where.name ?? 'vote relay',
    args: [...nodeArgs, '--import', 'tsx', 'src/main.ts'],
    cwd: where.cwd ?? ROOT,
    env,
    listeningMessage: 'vote relay listening',
    startTimeoutMs: 120_000,
  });
}

/** A baseline (bench/baselines/<script>) as a child process, in the same clean environment; resolves once it listens. */
export function startBaseline(script: string, overrides: Record<string, string>): Promise<RunningChild> {
  return startChild({
    name: script,
    args: ['--import', 'tsx', `bench/baselines/${script}`],
    cwd: ROOT,
    env: serviceEnv(overrides),
    listeningMessage: 'listening',
  });
}

/** Whether the benchmarks that compare against a baseline run it too (BENCH_BASELINE=0 skips it). */
export const baselineEnabled = () => process.env.BENCH_BASELINE !== '0';

/** A JSON call to the API; throws with the answer on a non-2xx status. */
export async function api<T = unknown>(base: string, apiKey: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A top.gg provider with header auth (`Authorization: <auth>`, voter in `user`); returns its hook path. */
export async function createTopggProvider(base: string, apiKey: string, auth: string): Promise<string> {
  const provider = await api<{ data: { webhook_url: string } }>(base, apiKey, 'POST', '/v1/providers', {
    key: 'topgg',
    name: 'top.gg',
    auth_method: 'header',
    auth_field: 'Authorization',
    auth_value: auth,
    votee_path: 'user',
  });
  return new URL(provider.data.webhook_url).pathname;
}

export interface TimedResponse {
  status: number;
  body: string;
  /** From writing the request to the last byte of the body, in ms. */
  ms: number;
}

/** One keep-alive socket: sequential requests measure latency, not throughput. */
export function createClient(port: number, headers: Record<string, string>, maxSockets = 1) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  function request(method: string, path: string, body?: string, extraHeaders: Record<string, string> = {}): Promise<TimedResponse> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: { ...headers, ...extraHeaders, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  return { request, agent, close: () => agent.destroy() };
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function sortedCopy(values: number[]): Float64Array {
  return Float64Array.from(values).sort();
}

/** Resident and peak-resident memory of a process (VmRSS / VmHWM, bytes), from /proc (Linux only). */
export function processMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return null;
  }
}

/** Total CPU time (user + system, seconds) a process has used so far, from /proc (Linux only). */
export function processCpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 14th field, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : v < 10 ? v.toFixed(2) : v.toFixed(1));
export const mib = (bytes: number) => (Number.isNaN(bytes) ? 'n/a' : `${(bytes / 1024 ** 2).toFixed(0)} MiB`);
export const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
/** ours / baseline, e.g. "0.42×"; n/a when either is missing or the baseline is not positive. */
export function ratio(ours: number, baseline: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(baseline) || baseline <= 0) return 'n/a';
  const r = ours / baseline;
  return `${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`;
}

export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * How busy the machine is besides us: 1-minute load average and, where the kernel reports it, CPU pressure
 * (share of the last 60 s in which some runnable task waited for a CPU). Benchmarks print it so that a run on a
 * shared machine says so.
 */
export function machineLoad(): string {
  const load = os.loadavg()[0].toFixed(1);
  let pressure = '';
  try {
    const some = /some avg10=([\d.]+) avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    if (some) pressure = `, CPU pressure ${Number(some[2]).toFixed(0)}% (PSI some avg60)`;
  } catch {
    // not Linux, or no PSI
  }
  return `load average ${load}${pressure}`;
}
