// Start-up time and memory of the service run from its TypeScript sources through tsx (`npm run dev`) and from the
// compiled build (`npm start`: node dist/src/main.js), each beside the other in the same run, rounds alternating
// the order, on embedded SQLite with the defaults (write thread on):
// - start-up: from spawning the process to /readyz answering 200 (polled every 5 ms on a port chosen beforehand),
//   on an existing database (migrated, one organization and provider), as a restart finds it; tsx with its transform
//   cache warm (every start after the first) and with it off (TSX_DISABLE_CACHE=1: the first start after a change);
// - resident memory (VmRSS from /proc, the process with its threads and any child processes) 1 s after ready, and
//   1 s after 1,000 votes sent through a hook (10 at a time, each acknowledged after its commit).
// BENCH_RUNS (5) measured rounds follow one warm-up round. Writes its section of BENCHMARKS.md (`startup`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/kit/votifier-sender.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import {
  ROOT,
  createTopggProvider,
  envNumber,
  machineLoad,
  mib,
  ms,
  percentile,
  processCpuSeconds,
  serviceEnv,
  sortedCopy,
  startService,
} from './lib/service.js';
import { runNode } from './lib/child.js';

const RUNS = envNumber('BENCH_RUNS', 5, true);
const VOTES = 1_000;
const VOTE_CONCURRENCY = 10;
const SECRET_KEY = 'bench-startup-secret-key';
const HOOK_AUTH = 'bench-startup-hook-secret';

setTimeout(() => {
  console.error('\n!!! startup benchmark exceeded its 20-minute budget; stopping');
  process.exit(1);
}, 20 * 60_000).unref();

interface Target {
  id: string;
  label: string;
  args: string[];
  env: Record<string, string>;
}

const TARGETS: Target[] = [
  { id: 'tsx', label: 'tsx, cache warm (`npm run dev`)', args: ['--import', 'tsx', 'src/main.ts'], env: {} },
  { id: 'tsx-cold', label: 'tsx, cache off', args: ['--import', 'tsx', 'src/main.ts'], env: { TSX_DISABLE_CACHE: '1' } },
  { id: 'compiled', label: 'compiled (`npm start`)', args: ['dist/src/main.js'], env: {} },
];

interface Sample {
  startupMs: number;
  cpuAtReady: number;
  rssReady: number;
  rssVotes: number;
  votesSeconds: number;
}

/** RSS of a process and its descendants (tsx's esbuild, should it start one), from /proc. */
function treeRss(pid: number): number {
  let total = 0;
  try {
    total += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    for (const tid of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) total += treeRss(Number(tid));
  } catch {
    // exited meanwhile
  }
  return total;
}

async function readyAt(port: number, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready`);
    const status = await new Promise<number>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false, timeout: 1_000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.on('timeout', () => req.destroy());
    });
    if (status === 200) return performance.now();
    await sleep(5);
  }
}

async function sendVotes(port: number, hook: string, round: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: VOTE_CONCURRENCY });
  let next = 0;
  await Promise.all(
    Array.from({ length: VOTE_CONCURRENCY }, async () => {
      while (next < VOTES) {
        const body = JSON.stringify({ bot: '1', user: `${round}-${next++}`, type: 'upvote', isWeekend: false, query: '' });
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: hook,
              agent,
              headers: { authorization: HOOK_AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
        if (status !== 200) throw new Error(`a vote was answered ${status}`);
      }
    }),
  );
  agent.destroy();
}

async function measure(target: Target, template: string, hook: string, round: string): Promise<Sample> {
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-startup-'));
  copyFileSync(template, join(dir, 'vote-relay.db'));
  const port = await freePort();
  const env = serviceEnv({
    PORT: String(port),
    DATABASE_URL: `file:${join(dir, 'vote-relay.db')}`,
    SECRET_KEY,
    LOG_LEVEL: 'info',
    RECOVERY_INTERVAL: '0',
    VOTIFIER_PORT: '0',
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000',
    ...target.env,
  });
  const spawned = performance.now();
  const child = spawn(process.execPath, target.args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  try {
    const ready = await readyAt(port, child);
    const cpuAtReady = processCpuSeconds(child.pid!);
    await sleep(1_000);
    const rssReady = treeRss(child.pid!);
    const votesStarted = performance.now();
    await sendVotes(port, hook, round);
    const votesSeconds = (performance.now() - votesStarted) / 1000;
    await sleep(1_000);
    const rssVotes = treeRss(child.pid!);
    return { startupMs: ready - spawned, cpuAtReady, rssReady, rssVotes, votesSeconds };
  } catch (err) {
    throw new Error(`${target.label}: ${(err as Error).message}\n${output}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadBefore = machineLoad();
// The compiled build of the sources as they are now.
const buildStarted = performance.now();
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const buildSeconds = (performance.now() - buildStarted) / 1000;

// One database to copy for every start: migrated, with an organization and a top.gg provider (header auth).
const templateDir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-startup-template-'));
const template = join(templateDir, 'vote-relay.db');
const templateEnv = serviceEnv({ DATABASE_URL: `file:${template}`, SECRET_KEY, LOG_LEVEL: 'warn', RECOVERY_INTERVAL: '0', VOTIFIER_PORT: '0' });
const created = await runNode(['dist/src/cli/main.js', 'org', 'create', '--slug', 'startup', '--name', 'startup', '--plan', 'business', '--json'], {
  cwd: ROOT,
  env: templateEnv,
});
const apiKey = JSON.parse(created).api_key.key as string;
const seeding = await startService({ ...templateEnv, LOG_LEVEL: 'info' });
const hook = await createTopggProvider(`http://127.0.0.1:${seeding.port}`, apiKey, HOOK_AUTH);
await seeding.stop();
if (existsSync(`${template}-wal`)) throw new Error('the template database kept a WAL after the service stopped');

const samples = new Map<string, Sample[]>(TARGETS.map((t) => [t.id, []]));
for (let round = 0; round <= RUNS; round++) {
  const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
  for (const target of order) {
    const sample = await measure(target, template, hook, `r${round}${target.id}`);
    const kept = round > 0; // round 0 warms the disk cache and tsx's transform cache
    if (kept) samples.get(target.id)!.push(sample);
    console.log(
      `${kept ? `round ${round}` : 'warm-up'}  ${target.label.padEnd(32)} start-up ${ms(sample.startupMs)} ms, CPU ${sample.cpuAtReady.toFixed(2)} s, RSS ${mib(sample.rssReady)} → ${mib(sample.rssVotes)} after ${VOTES} votes (${sample.votesSeconds.toFixed(1)} s)`,
    );
  }
}
rmSync(templateDir, { recursive: true, force: true });

const median = (values: number[]) => percentile(sortedCopy(values), 50);
const range = (values: number[], format: (v: number) => string) => `${format(Math.min(...values))}–${format(Math.max(...values))}`;
const of = (id: string, pick: (s: Sample) => number) => samples.get(id)!.map(pick);
const seconds = (v: number) => v.toFixed(2);
const mibNumber = (v: number) => (v / 1024 ** 2).toFixed(0);

const metrics: { name: string; pick: (s: Sample) => number; format: (v: number) => string; unit: string }[] = [
  { name: 'Start-up: spawn → /readyz 200', pick: (s) => s.startupMs, format: (v) => ms(v), unit: 'ms' },
  { name: 'CPU used by then (user + system)', pick: (s) => s.cpuAtReady, format: seconds, unit: 's' },
  { name: 'RSS 1 s after ready', pick: (s) => s.rssReady, format: mibNumber, unit: 'MiB' },
  { name: `RSS 1 s after ${VOTES.toLocaleString('en-US')} votes`, pick: (s) => s.rssVotes, format: mibNumber, unit: 'MiB' },
  { name: `${VOTES.toLocaleString('en-US')} votes sent, ${VOTE_CONCURRENCY} at a time`, pick: (s) => s.votesSeconds, format: (v) => v.toFixed(1), unit: 's' },
];
const header = [`Median (range) of ${RUNS} starts`, ...TARGETS.map((t) => t.label), 'compiled ÷ tsx (warm)'];
const rows = metrics.map((m) => {
  const cells = TARGETS.map((t) => `${m.format(median(of(t.id, m.pick)))} ${m.unit} (${range(of(t.id, m.pick), m.format)})`);
  const r = median(of('compiled', m.pick)) / median(of('tsx', m.pick));
  return [m.name, ...cells, `${r.toFixed(2)}×`];
});
console.log(`\n${consoleTable(header, rows)}`);

writeSection(
  join(ROOT, 'BENCHMARKS.md'),
  'startup',
  `## Start-up time and memory: tsx against the compiled build

Measured by \`bench/startup.ts\`: the service run from its TypeScript sources through tsx (\`node --import tsx src/main.ts\`, what \`npm run dev\` runs) and from the compiled build (\`node dist/src/main.js\`, what \`npm start\` runs after \`npm run build\`), in the same run, rounds alternating the order, one warm-up round not counted. Embedded SQLite with the defaults (write thread on, deliveries on with nothing to deliver), each start on its own copy of one migrated database holding an organization and a top.gg provider (a restart, not a first install). Start-up is the time from spawning the process to \`/readyz\` answering 200 (polled every 5 ms); RSS is VmRSS of the process (all its threads) and any child process. tsx keeps the JavaScript it makes from each file in a cache: "cache warm" is every start after the first, "cache off" (\`TSX_DISABLE_CACHE=1\`) is like the first start after the sources changed. The compiled build took ${buildSeconds.toFixed(0)} s to make (\`npm run build\`, a whole \`tsc\` compile), once, before the run.

- Date: ${new Date().toISOString()}
- Machine: ${machineDescription()}; the service's threads share its cores with this client and anything else running
- Machine load (besides the service and this client): before the run ${loadBefore}; at the end ${machineLoad()}
- Node: ${process.version}
- Commit: ${gitCommit(ROOT)}

${markdownTable(header, rows)}

The last row says the votes' load was alike, it is not a throughput figure (\`bench/ingest.ts\` measures that): once loaded, both run the same JavaScript, and its spread covers the difference. Ranges are wide because the machine was shared; compare the columns, measured in alternation in the same minutes.`,
);
console.log('\nWrote the startup section of BENCHMARKS.md');
