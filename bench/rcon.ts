// RCON delivery benchmark: votes per second delivered as console commands to one Minecraft server over RCON, by the
// service (callback kind `rcon`) beside a bare RCON client, against the same server in the same run.
//
// The server: the tests' RCON server (test/kit/rcon-server.ts, written from the protocol documents) on 127.0.0.1, in
// a worker thread of this process (bench/lib/rcon-server-thread.ts: its own event loop, TCP_NODELAY on its sockets;
// it records when each command arrived and how busy its thread was). Every voter is online: its `list` names all of
// them (BENCH_RCON_VOTES measured voters and BENCH_RCON_WARMUP warm-up ones), so each answer to `list` is a
// multi-packet answer.
//
// Ours, per round: a fresh SQLite file (or PostgreSQL database) and the service (src/main.ts) as a child process with
// deliveries on (ALLOW_PRIVATE_TARGETS=true, DELIVERY_CONCURRENCY 64), one business organization, one provider
// (header auth) and ONE rcon callback (require_online: true, commands `give {{voter_name}} diamond 1` and
// `say {{voter_name}} voted`, timeout_ms 5000). Warm-up: BENCH_RCON_WARMUP votes through the hook, waited for until
// sent (the service's RCON connection is open and logged in afterwards). Then the callback is disabled in the
// database (enabled false with a reason, as the service disables a callback that keeps failing; one disabled by hand
// through the API takes no votes at all), BENCH_RCON_VOTES votes from distinct voters are posted through the hook
// (their jobs are stored held), and the callback is enabled again (PATCH /v1/callbacks/:id): its held jobs are due at
// once and the worker claims them at its next poll. Measured: from the first command of the measured votes reaching
// the server until the database shows every one of them with callback_status sent (polled every 20 ms once the server
// has all the commands).
// Baseline, per round, right before or after ours (the order alternates between rounds): the project's own
// RconConnection (src/delivery/callback-kinds/rcon/rcon-connection.ts: one connection, one command in flight) in this
// process's main thread, logged in and warmed up with the same warm-up votes, sending per vote `list` (read with the
// service's parseOnlinePlayers and isOnline: the voter must be in it), then the two commands, for the same voters,
// one vote after the other. Measured: from the first command reaching the server to the last answer read.
// Both: the commands the server received are checked (each vote = `list` + 2 commands, exactly once, nothing else).
// Writes its section of BENCHMARKS.md (`rcon`, `rcon-postgresql`; with DELIVERY_THREAD=false, `…-in-process`).
//
// Options: BENCH_RCON_VOTES (5000), BENCH_RCON_WARMUP (200), BENCH_RCON_ROUNDS (3), BENCH_RCON_WAIT_S (120: the
// longest wait for one round's commands), BENCH_DELIVERY_CONCURRENCY (64), BENCH_BASELINE=0 (skip the baseline),
// BENCH_CPU_PROF=<dir> (service --cpu-prof, ours only), BENCH_KEEP_DB=1; for investigations (BENCHMARKS.md is then left
// alone): BENCH_RCON_REQUIRE_ONLINE=0 (require_online: false for ours, no `list` for the baseline), BENCH_RCON_NAGLE=1 (the
// kit's server as written, without TCP_NODELAY: bench/lib/rcon-server-thread.ts says what that measures).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/config.js';
import { PLAN_RULES } from '../src/delivery/callback-kinds/registry.js';
import { RconConnection } from '../src/delivery/callback-kinds/rcon/rcon-connection.js';
import { createStorage, type Storage } from '../src/storage/index.js';
import { isOnline, parseOnlinePlayers } from '../src/delivery/callback-kinds/rcon/players.js';
import type { RunningChild } from './lib/child.js';
import { cpuSeconds } from './lib/cpu.js';
import { benchDialect, openBenchDatabase, type BenchDatabase } from './lib/database.js';
import { type RconServerThread, type RconWindow, startRconServerThread } from './lib/rcon-server-thread.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import {
  ROOT,
  api,
  baselineEnabled,
  createClient,
  createOrg,
  createTopggProvider,
  duration,
  envNumber,
  machineLoad,
  percentile,
  ratio,
  serviceEnv,
  sortedCopy,
  startService,
  thousands,
} from './lib/service.js';

const DIALECT = benchDialect();
/** The service's delivery on its own thread (its default), unless DELIVERY_THREAD=false in this process's environment. */
const THREAD = !/^(false|0|no)$/.test(process.env.DELIVERY_THREAD ?? '');
const VOTES = envNumber('BENCH_RCON_VOTES', 5_000, true);
const WARMUP = envNumber('BENCH_RCON_WARMUP', 200, true);
const ROUNDS = envNumber('BENCH_RCON_ROUNDS', 3, true);
const WAIT_S = envNumber('BENCH_RCON_WAIT_S', 120, false);
const CONCURRENCY = envNumber('BENCH_DELIVERY_CONCURRENCY', 64, true);
const REQUIRE_ONLINE = process.env.BENCH_RCON_REQUIRE_ONLINE !== '0';
/** The kit's server as written, Nagle's algorithm on (bench/lib/rcon-server-thread.ts says why the default turns it off). */
const NAGLE = process.env.BENCH_RCON_NAGLE === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
const WITH_BASELINE = baselineEnabled();
if (VOTES > 999_999 || WARMUP > 999_999) {
  console.error('BENCH_RCON_VOTES and BENCH_RCON_WARMUP must be at most 999999 (player names have at most 16 characters)');
  process.exit(2);
}

const PASSWORD = 'bench-rcon-password';
const SECRET_KEY = 'bench-rcon-secret-key-0123456789abcdef';
const AUTH = 'bench-rcon-hook-secret';
const COMMANDS = ['give {{voter_name}} diamond 1', 'say {{voter_name}} voted'];
const COMMANDS_PER_VOTE = COMMANDS.length + (REQUIRE_ONLINE ? 1 : 0);
/** Keep-alive sockets posting the votes to the hook (not measured: the jobs wait held until the callback is enabled). */
const HOOK_SOCKETS = 16;
/** How often the database is read once the server has every command (the "recorded" time is at most this late). */
const POLL_MS = 20;

const voterName = (i: number) => `Voter_${String(i).padStart(6, '0')}`;
const warmName = (i: number) => `Warm_${String(i).padStart(6, '0')}`;
const VOTERS = Array.from({ length: VOTES }, (_, i) => voterName(i + 1));
const WARM_VOTERS = Array.from({ length: WARMUP }, (_, i) => warmName(i + 1));
const render = (template: string, name: string) => template.replaceAll('{{voter_name}}', name);

// Hard bound: per round and target, setup (~30 s) + warm-up + hook posting + the wait for the commands; plus slack.
const BUDGET_MS = ROUNDS * (WITH_BASELINE ? 2 : 1) * (90 + WAIT_S) * 1000 + 120_000;
setTimeout(() => {
  console.error(`\n!!! rcon benchmark exceeded its ${duration(BUDGET_MS / 1000)} budget; stopping`);
  process.exit(1);
}, BUDGET_MS).unref();

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** CPU seconds of this process's main thread alone (the bare client; the RCON server has its own thread), from /proc. */
function mainThreadCpuSeconds(): number | null {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds of each PostgreSQL backend serving the service now (none on SQLite). */
async function backendCpu(database: BenchDatabase): Promise<Map<number, number>> {
  const readings = new Map<number, number>();
  for (const pid of await database.backendPids()) {
    const seconds = cpuSeconds([pid]);
    if (seconds !== null) readings.set(pid, seconds);
  }
  return readings;
}

/**
 * µs of backend CPU between two readings: backends there at both, and those that started in between (from zero).
 * A backend the pool closed in between is left out with what it used before closing (an undercount).
 */
function backendDelta(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds * 1e6;
}

// ---------------------------------------------------------------------------------------------------------------

type TargetId = 'ours' | 'baseline';

interface CommandCheck {
  ok: boolean;
  lists: number;
  gives: number;
  says: number;
  total: number;
  /** Expected commands that never came, extra copies of expected ones, and commands nobody asked for. */
  missing: number;
  duplicates: number;
  unexpected: number;
  /** Votes whose `say` arrived before their `give`. */
  outOfOrder: number;
}

interface Measurement {
  round: number;
  target: TargetId;
  /** From the first measured command at the server until every vote was delivered (ours: recorded sent). */
  deliveredS: number;
  /** From the first to the last measured command at the server. */
  commandsS: number;
  check: CommandCheck;
  /** Server-side time from each command's arrival to the next command's (the connection's time per command). */
  wire: Wire;
  /** Share of the window (first to last command) in which the RCON server's thread was busy. */
  serverBusy: number;
  /** CPU per vote of the client (ours: the service's process, every thread; baseline: this process's main thread). */
  clientCpuUs: number | null;
  /** The same as a share of one core over the time it was read across. */
  clientCpuShare: number;
  /** Ours on PostgreSQL: the CPU of the database backends serving the service, per vote. */
  databaseCpuUs: number | null;
  /** Connections and logins the server saw during the window (0: the one opened during the warm-up was used). */
  connections: number;
  logins: number;
  /** Baseline: the client's own round trip per command (median µs, from run() to its answer). */
  clientRoundTripUs?: Record<'list' | 'give' | 'say', number>;
  /** Ours: what the database holds afterwards. */
  dbNote?: string;
  /** Ours: each delivery attempt's duration as recorded (median / p99 ms; waiting behind other votes' commands included). */
  attemptMs?: { p50: number; p99: number };
  notes: string[];
}

const kindOf = (command: string): 'list' | 'give' | 'say' | null =>
  command === 'list' ? 'list' : command.startsWith('give ') ? 'give' : command.startsWith('say ') ? 'say' : null;

function checkCommands(window: RconWindow): CommandCheck {
  const expected = new Map<string, number>();
  for (const name of VOTERS) for (const c of COMMANDS) expected.set(render(c, name), 0);
  let lists = 0;
  let unexpected = 0;
  let duplicates = 0;
  const position = new Map<string, number>();
  window.commands.forEach((command, i) => {
    if (command === 'list' && REQUIRE_ONLINE) return void lists++;
    const seen = expected.get(command);
    if (seen === undefined) return void unexpected++;
    if (seen > 0) duplicates++;
    expected.set(command, seen + 1);
    position.set(command, i);
  });
  const missing = [...expected.values()].filter((n) => n === 0).length;
  let outOfOrder = 0;
  for (const name of VOTERS) {
    const give = position.get(render(COMMANDS[0], name));
    const say = position.get(render(COMMANDS[1], name));
    if (give !== undefined && say !== undefined && say < give) outOfOrder++;
  }
  const gives = window.commands.filter((c) => c.startsWith('give ')).length;
  const says = window.commands.filter((c) => c.startsWith('say ')).length;
  return {
    ok: missing === 0 && duplicates === 0 && unexpected === 0 && outOfOrder === 0 && lists === (REQUIRE_ONLINE ? VOTES : 0),
    lists,
    gives,
    says,
    total: window.commands.length,
    missing,
    duplicates,
    unexpected,
    outOfOrder,
  };
}

type CommandKind = 'list' | 'give' | 'say';
interface Wire {
  /** Median µs from a command's arrival to the next one's, per kind of command. */
  median: Record<CommandKind, number>;
  /** The same summed over the window, per vote (µs): where the window's time went on the connection. */
  perVote: Record<CommandKind, number>;
  /** Gaps of STALL_MS or more (a delayed-ACK wait is ~40 ms), and the time in them per vote (µs). */
  stalls: number;
  stallPerVoteUs: number;
}

/** A gap this long on a loopback connection is a wait (delayed ACK, a busy client), not a command's work. */
const STALL_MS = 30;

function wireTimes(window: RconWindow): Wire {
  const gaps: Record<CommandKind, number[]> = { list: [], give: [], say: [] };
  let stalls = 0;
  let stalled = 0;
  for (let i = 0; i + 1 < window.commands.length; i++) {
    const kind = kindOf(window.commands[i]);
    const gap = (window.times[i + 1] - window.times[i]) * 1000;
    if (kind) gaps[kind].push(gap);
    if (gap >= STALL_MS * 1000) stalls++, (stalled += gap);
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    median: { list: percentile(sortedCopy(gaps.list), 50), give: percentile(sortedCopy(gaps.give), 50), say: percentile(sortedCopy(gaps.say), 50) },
    perVote: { list: sum(gaps.list) / VOTES, give: sum(gaps.give) / VOTES, say: sum(gaps.say) / VOTES },
    stalls,
    stallPerVoteUs: stalled / VOTES,
  };
}

/** Posts one vote per name to the hook over HOOK_SOCKETS keep-alive sockets; throws unless every one is answered 200. */
async function postVotes(port: number, path: string, names: string[]): Promise<void> {
  const client = createClient(port, { 'content-type': 'application/json', authorization: AUTH }, HOOK_SOCKETS);
  const refused = new Map<string, number>();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: HOOK_SOCKETS }, async () => {
        while (next < names.length) {
          const user = names[next++];
          const res = await client.request('POST', path, JSON.stringify({ bot: '1', user, type: 'upvote', isWeekend: false, query: '' }));
          if (res.status !== 200) refused.set(`${res.status} ${res.body.slice(0, 200)}`, (refused.get(`${res.status} ${res.body.slice(0, 200)}`) ?? 0) + 1);
        }
      }),
    );
  } finally {
    client.close();
  }
  if (refused.size > 0) throw new Error(`the hook refused votes: ${[...refused].map(([answer, n]) => `${n}× ${answer}`).join('; ')}`);
}

/** Reads `read` every `everyMs` until it returns `want` or `limitMs` passes; returns when it did (hrtime ms) or null. */
async function pollUntil(read: () => Promise<number>, want: number, everyMs: number, limitMs: number): Promise<{ at: number | null; last: number }> {
  const started = nowMs();
  let last = await read();
  while (last !== want && nowMs() - started < limitMs) {
    await sleep(everyMs);
    last = await read();
  }
  return { at: last === want ? nowMs() : null, last };
}

const STATUSES = ['sent', 'pending', 'running', 'retrying', 'held', 'parked', 'failed', 'skipped'];
async function jobStatuses(database: BenchDatabase): Promise<string> {
  const counts = await Promise.all(STATUSES.map((s) => database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE status = ?', s)));
  return STATUSES.flatMap((s, i) => (counts[i] > 0 ? [`${thousands(counts[i])} ${s}`] : [])).join(', ') || 'no jobs';
}

async function measureOurs(round: number, server: RconServerThread, dir: string): Promise<Measurement> {
  const database = await openBenchDatabase(join(dir, `ours-${round}.db`));
  const env = serviceEnv({
    DATABASE_URL: database.url,
    SECRET_KEY,
    LOG_LEVEL: 'info',
    DELIVERY_ENABLED: 'true',
    DELIVERY_THREAD: String(THREAD),
    ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  let service: RunningChild | null = null;
  let storage: Storage | null = null;
  const tag = `[round ${round} ours]`;
  try {
    const apiKey = await createOrg(env, 'bench', 'business');
    storage = await createStorage(loadConfig({ DATABASE_URL: database.url, SECRET_KEY: SECRET_KEY, LOG_LEVEL: 'silent' }), { planRules: PLAN_RULES });
    if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });
    service = await startService(env, CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : []);
    const base = `http://127.0.0.1:${service.port}`;
    const hookPath = await createTopggProvider(base, apiKey, AUTH);
    const created = await api<{ data: { id: string } }>(base, apiKey, 'POST', '/v1/callbacks', {
      name: 'bench rcon',
      kind: 'rcon',
      host: server.host,
      port: server.port,
      password: PASSWORD,
      commands: COMMANDS,
      require_online: REQUIRE_ONLINE,
      timeout_ms: 5000,
    });
    const callbackPath = `/v1/callbacks/${created.data.id}`;
    const sent = (prefix: string) => database.count('SELECT COUNT(*) AS n FROM "Vote" WHERE "callbackStatus" = ? AND "voterName" LIKE ?', 'sent', `${prefix}%`);

    console.log(`${tag} warm-up: ${WARMUP} votes through the hook, waited for until sent`);
    await postVotes(service.port, hookPath, WARM_VOTERS);
    const warm = await pollUntil(() => sent('Warm_'), WARMUP, 100, 60_000);
    if (warm.at === null) throw new Error(`warm-up: ${warm.last} of ${WARMUP} votes sent after 60 s (jobs: ${await jobStatuses(database)})\n${service.tail()}`);

    // Held, as when the service disabled the callback for failing (a callback disabled by hand takes no votes at all):
    // its votes' jobs are stored held, and enabling it (PATCH, below) makes them all due at once.
    await storage.prisma.callback.update({
      where: { id: created.data.id },
      data: { enabled: false, disabledReason: 'bench/rcon.ts: votes held until the callback is enabled again', disabledAt: new Date() },
    });
    console.log(`${tag} callback disabled; posting ${thousands(VOTES)} votes (their jobs wait held)`);
    await postVotes(service.port, hookPath, VOTERS);
    const held = await database.count('SELECT COUNT(*) AS n FROM "DeliveryJob" WHERE status = ?', 'held');
    if (held !== VOTES) throw new Error(`${held} jobs held after posting ${VOTES} votes (jobs: ${await jobStatuses(database)})`);

    const pid = service.process.pid!;
    const backendsBefore = await backendCpu(database);
    await server.mark();
    const cpuBefore = { service: cpuSeconds([pid]), at: nowMs() };
    console.log(`${tag} callback enabled: measuring`);
    await api(base, apiKey, 'PATCH', callbackPath, { enabled: true });
    const commands = await server.waitForCommands(VOTES * COMMANDS_PER_VOTE, WAIT_S * 1000);
    if (!commands.reached) {
      throw new Error(
        `${commands.count} of ${VOTES * COMMANDS_PER_VOTE} commands reached the server within ${WAIT_S} s (jobs: ${await jobStatuses(database)})\n${service.tail()}`,
      );
    }
    const recorded = await pollUntil(() => sent('Voter_'), VOTES, POLL_MS, 30_000);
    const cpuAfter = { service: cpuSeconds([pid]), at: nowMs() };
    const backendsAfter = await backendCpu(database);
    const window = await server.window();
    const notes: string[] = [];
    if (recorded.at === null) notes.push(`only ${recorded.last} of ${VOTES} votes recorded sent 30 s after the server had every command`);
    const lastCommand = window.times[window.times.length - 1];
    const perVote = (from: number | null, to: number | null) => (from === null || to === null ? null : ((to - from) * 1e6) / VOTES);

    // One attempt per vote expected; their recorded durations include the wait behind other votes' commands.
    const measuredAttempts = 'FROM "DeliveryAttempt" a JOIN "Vote" v ON v.id = a."voteId" WHERE v."voterName" LIKE ?';
    const attempts = await database.count(`SELECT COUNT(*) AS n ${measuredAttempts}`, 'Voter_%');
    const failedAttempts = await database.count(`SELECT COUNT(*) AS n ${measuredAttempts} AND NOT a.success`, 'Voter_%');
    const attemptAt = (p: number) =>
      database.count(
        `SELECT a."durationMs" ${measuredAttempts} ORDER BY a."durationMs" LIMIT 1 OFFSET ?`,
        'Voter_%',
        Math.max(0, Math.ceil((p / 100) * attempts) - 1),
      );
    const attemptMs = attempts > 0 ? { p50: await attemptAt(50), p99: await attemptAt(99) } : undefined;
    const dbNote = `${thousands(attempts)} attempts for the measured votes (${thousands(failedAttempts)} failed); jobs: ${await jobStatuses(database)}`;
    await service.stop();
    return {
      round,
      target: 'ours',
      deliveredS: ((recorded.at ?? Number.NaN) - window.times[0]) / 1000,
      commandsS: (lastCommand - window.times[0]) / 1000,
      check: checkCommands(window),
      wire: wireTimes(window),
      serverBusy: window.serverBusy,
      clientCpuUs: perVote(cpuBefore.service, cpuAfter.service),
      clientCpuShare: ((cpuAfter.service ?? Number.NaN) - (cpuBefore.service ?? Number.NaN)) / ((cpuAfter.at - cpuBefore.at) / 1000),
      databaseCpuUs: database.dialect === 'postgresql' ? backendDelta(backendsBefore, backendsAfter) / VOTES : null,
      connections: window.connections,
      logins: window.logins,
      dbNote,
      attemptMs,
      notes: [
        ...notes,
        ...window.errors.map((e) => `the server dropped a connection: ${e}`),
        ...(CPU_PROF_DIR
          ? [
              `the window in the clock of --cpu-prof's timestamps (µs): ${Math.round(window.times[0] * 1000)}–${Math.round(lastCommand * 1000)}; profiles in ${CPU_PROF_DIR}`,
            ]
          : []),
      ],
    };
  } finally {
    await storage?.close();
    await service?.stop();
    if (process.env.BENCH_KEEP_DB !== '1') await database.drop();
  }
}

async function measureBaseline(round: number, server: RconServerThread): Promise<Measurement> {
  const connection = await RconConnection.open({ host: server.host, port: server.port, password: PASSWORD, timeoutMs: 10_000 });
  const tag = `[round ${round} baseline]`;
  const roundTrips: Record<'list' | 'give' | 'say', number[]> = { list: [], give: [], say: [] };
  /** One vote: `list` (the voter must be in it), then the commands, one at a time. */
  const deliver = async (name: string, timed: boolean) => {
    if (REQUIRE_ONLINE) {
      const t = nowMs();
      const answer = await connection.run('list');
      if (timed) roundTrips.list.push((nowMs() - t) * 1000);
      const players = parseOnlinePlayers(answer);
      if (!players || !isOnline(players, name)) throw new Error(`${name} is not in the server's list`);
    }
    for (const template of COMMANDS) {
      const command = render(template, name);
      const t = nowMs();
      await connection.run(command);
      if (timed) roundTrips[kindOf(command)!].push((nowMs() - t) * 1000);
    }
  };
  try {
    console.log(`${tag} warm-up: ${WARMUP} votes on one connection`);
    for (const name of WARM_VOTERS) await deliver(name, false);
    await server.mark();
    console.log(`${tag} measuring`);
    const cpuBefore = mainThreadCpuSeconds();
    const begin = nowMs();
    for (const name of VOTERS) await deliver(name, true);
    const end = nowMs();
    const cpuAfter = mainThreadCpuSeconds();
    const commands = await server.waitForCommands(VOTES * COMMANDS_PER_VOTE, 5_000);
    const window = await server.window();
    const notes = commands.reached ? [] : [`the server counted ${commands.count} of ${VOTES * COMMANDS_PER_VOTE} commands`];
    const median = (values: number[]) => percentile(sortedCopy(values), 50);
    return {
      round,
      target: 'baseline',
      deliveredS: (end - window.times[0]) / 1000,
      commandsS: (window.times[window.times.length - 1] - window.times[0]) / 1000,
      check: checkCommands(window),
      wire: wireTimes(window),
      serverBusy: window.serverBusy,
      clientCpuUs: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / VOTES,
      clientCpuShare: cpuBefore === null || cpuAfter === null ? Number.NaN : (cpuAfter - cpuBefore) / ((end - begin) / 1000),
      databaseCpuUs: null,
      connections: window.connections,
      logins: window.logins,
      clientRoundTripUs: { list: median(roundTrips.list), give: median(roundTrips.give), say: median(roundTrips.say) },
      notes: [...notes, ...window.errors.map((e) => `the server dropped a connection: ${e}`)],
    };
  } finally {
    connection.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const us = (v: number) => (Number.isNaN(v) ? 'n/a' : thousands(v));
const perS = (m: Measurement) => VOTES / m.deliveredS;
const medianOf = (values: number[]) => {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function describeCheck(c: CommandCheck): string {
  const counts = `${thousands(c.lists)} list + ${thousands(c.gives)} give + ${thousands(c.says)} say`;
  if (c.ok) return `${counts}: each vote once`;
  const problems = [
    c.missing && `${c.missing} missing`,
    c.duplicates && `${c.duplicates} repeated`,
    c.unexpected && `${c.unexpected} unexpected`,
    c.outOfOrder && `${c.outOfOrder} out of order`,
  ].filter(Boolean);
  return `${counts}: **${problems.join(', ') || 'wrong count of list'}**`;
}

async function main(): Promise<number> {
  const started = performance.now();
  const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-rcon-'));
  const players = [...WARM_VOTERS, ...VOTERS];
  const listAnswer = `There are ${players.length} of a max of ${players.length} players online: ${players.join(', ')}`;
  const listPackets = Math.ceil(listAnswer.length / 4096);
  const server = await startRconServerThread({ password: PASSWORD, players, noDelay: !NAGLE });
  const measurements: Measurement[] = [];
  const failures: string[] = [];
  const load1 = machineLoad();
  console.log(
    `RCON server on 127.0.0.1:${server.port} with ${thousands(players.length)} players online ` +
      `(its answer to list: ${thousands(Buffer.byteLength(listAnswer))} bytes, ${listPackets} packets); ${machineLoad()}`,
  );
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // The order alternates between rounds, so a drift of the machine's speed does not favour one side.
      const order: TargetId[] = !WITH_BASELINE ? ['ours'] : round % 2 === 1 ? ['ours', 'baseline'] : ['baseline', 'ours'];
      for (const target of order) {
        const roundDir = join(dir, `${round}-${target}`);
        mkdirSync(roundDir);
        try {
          const m = target === 'ours' ? await measureOurs(round, server, roundDir) : await measureBaseline(round, server);
          measurements.push(m);
          console.log(
            `[round ${round} ${target}] ${thousands(perS(m))} votes/s delivered (${m.deliveredS.toFixed(2)} s), commands ${describeCheck(m.check).replaceAll('**', '')}, ` +
              `server thread busy ${(m.serverBusy * 100).toFixed(0)}%${m.clientCpuUs === null ? '' : `, client CPU ${us(m.clientCpuUs)} µs/vote`}`,
          );
        } catch (err) {
          failures.push(`round ${round}, ${target}: ${(err as Error).message}`);
          console.error(`\n!!! round ${round}, ${target} could not be measured: ${(err as Error).message}`);
        }
      }
    }
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP_DB === '1') console.log(`\ndatabases kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const load2 = machineLoad();
  const totalS = (performance.now() - started) / 1000;

  const find = (round: number, target: TargetId) => measurements.find((m) => m.round === round && m.target === target);
  const header = [
    'Round',
    'Target',
    'Delivered votes/s',
    'First command → all delivered',
    'Commands on the server',
    'Connection time per vote, µs (after list + give + say)',
    'Median µs per command (list / give / say)',
    `Waits ≥ ${STALL_MS} ms`,
    'Server thread busy',
    'Client CPU per vote',
  ];
  const perVoteWire = (w: Wire) => w.perVote.list + w.perVote.give + w.perVote.say;
  const row = (m: Measurement) => [
    `${m.round}${WITH_BASELINE ? (m.round % 2 === 1 ? ' (ours first)' : ' (baseline first)') : ''}`,
    m.target === 'ours' ? 'ours' : 'baseline (bare RconConnection)',
    thousands(perS(m)),
    `${m.deliveredS.toFixed(2)} s${m.target === 'ours' ? ' (recorded sent)' : ' (last answer read)'}`,
    describeCheck(m.check),
    `${thousands(perVoteWire(m.wire))} (${REQUIRE_ONLINE ? thousands(m.wire.perVote.list) : '—'} + ${thousands(m.wire.perVote.give)} + ${thousands(m.wire.perVote.say)})`,
    `${REQUIRE_ONLINE ? us(m.wire.median.list) : '—'} / ${us(m.wire.median.give)} / ${us(m.wire.median.say)}`,
    `${thousands(m.wire.stalls)} (${thousands(m.wire.stallPerVoteUs)} µs per vote)`,
    `${(m.serverBusy * 100).toFixed(0)}%`,
    m.clientCpuUs === null
      ? 'n/a'
      : `${us(m.clientCpuUs)} µs (${(m.clientCpuShare * 100).toFixed(0)}% of a core)${m.databaseCpuUs === null ? '' : ` + ${us(m.databaseCpuUs)} µs in PostgreSQL`}`,
  ];
  const rows: string[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ours = find(round, 'ours');
    const baseline = find(round, 'baseline');
    if (ours) rows.push(row(ours));
    if (baseline) rows.push(row(baseline));
    if (ours && baseline)
      rows.push([
        String(round),
        'ours / baseline',
        ratio(perS(ours), perS(baseline)),
        '—',
        '—',
        ratio(perVoteWire(ours.wire), perVoteWire(baseline.wire)),
        `${REQUIRE_ONLINE ? ratio(ours.wire.median.list, baseline.wire.median.list) : '—'} / ${ratio(ours.wire.median.give, baseline.wire.median.give)} / ${ratio(ours.wire.median.say, baseline.wire.median.say)}`,
        '—',
        '—',
        ratio(ours.clientCpuUs ?? Number.NaN, baseline.clientCpuUs ?? Number.NaN),
      ]);
  }
  const oursRates = measurements.filter((m) => m.target === 'ours').map(perS);
  const baselineRates = measurements.filter((m) => m.target === 'baseline').map(perS);
  const summary =
    `Median of ${oursRates.length} round${oursRates.length === 1 ? '' : 's'}: ours ${thousands(medianOf(oursRates))} votes/s` +
    (baselineRates.length > 0
      ? `, baseline ${thousands(medianOf(baselineRates))} votes/s, ours / baseline ${ratio(medianOf(oursRates), medianOf(baselineRates))} ` +
        `(per round: ${measurements
          .filter((m) => m.target === 'ours')
          .map((o) => {
            const b = find(o.round, 'baseline');
            return b ? ratio(perS(o), perS(b)) : 'n/a';
          })
          .join(', ')})`
      : '') +
    '.';
  const notes = measurements.flatMap((m) => {
    const who = `round ${m.round} ${m.target}`;
    return [
      ...(m.target === 'ours'
        ? [
            `${who}: ${m.dbNote}; attempt duration as recorded p50 ${m.attemptMs?.p50 ?? 'n/a'} ms, p99 ${m.attemptMs?.p99 ?? 'n/a'} ms; ` +
              `last command → every vote recorded sent ${((m.deliveredS - m.commandsS) * 1000).toFixed(0)} ms; ` +
              `${m.connections} new RCON connections and ${m.logins} logins during the window`,
          ]
        : [
            `${who}: the client's own round trip per command, median: ${REQUIRE_ONLINE ? `list ${us(m.clientRoundTripUs!.list)} µs, ` : ''}` +
              `give ${us(m.clientRoundTripUs!.give)} µs, say ${us(m.clientRoundTripUs!.say)} µs`,
          ]),
      ...m.notes.map((n) => `${who}: ${n}`),
    ];
  });

  const title = `RCON deliveries: votes per second to one Minecraft server${DIALECT === 'sqlite' ? '' : ' (PostgreSQL)'}${THREAD ? '' : ', delivery on the request thread (DELIVERY_THREAD=false)'}`;
  console.log(
    `\n${title} — ${thousands(VOTES)} votes per round, ${ROUNDS} rounds, DELIVERY_CONCURRENCY ${CONCURRENCY}${REQUIRE_ONLINE ? '' : ', require_online false'}\n`,
  );
  console.log(
    consoleTable(
      header,
      rows.map((r) => r.map((c) => c.replaceAll('**', ''))),
    ),
  );
  console.log(`\n${summary}`);
  for (const n of notes) console.log(`note: ${n}`);
  for (const f of failures) console.error(`\n!!! FAILED: ${f}`);
  const wrong = measurements.filter((m) => !m.check.ok || !Number.isFinite(m.deliveredS));
  if (measurements.length === 0) {
    console.error('\nBENCHMARKS.md left unchanged (nothing could be measured).');
    return 1;
  }
  if (!REQUIRE_ONLINE || NAGLE) {
    console.log('\nBENCHMARKS.md left unchanged (BENCH_RCON_REQUIRE_ONLINE=0 and BENCH_RCON_NAGLE=1 are investigations).');
    return failures.length > 0 || wrong.length > 0 ? 1 : 0;
  }

  const section = [
    `## ${title}`,
    '',
    `Measured by \`bench/rcon.ts\` (\`npx tsx bench/run.ts rcon\`). One RCON server for the whole run: the tests' Minecraft RCON server ` +
      '(`test/kit/rcon-server.ts`, written from the protocol documents, answering at once) on 127.0.0.1 in a worker thread of the benchmark ' +
      `process, with ${thousands(players.length)} players online (every voter), so each answer to \`list\` is ` +
      `${thousands(Buffer.byteLength(listAnswer))} bytes in ${listPackets} packets, read to an end-of-answer packet. Its sockets get TCP_NODELAY ` +
      "(the kit leaves Nagle's algorithm on, and then most of the bare client's multi-packet `list` answers waited ~42 ms for its delayed ACK, " +
      'ours far fewer: a kernel timing effect, not either client\'s work; `BENCH_RCON_NAGLE=1` runs it so; "RCON deliveries: what limits ours" below has the figures).',
    '',
    `- **ours**: per round a fresh ${DIALECT === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'} and the service (\`src/main.ts\`, \`LOG_LEVEL=info\`, ` +
      `\`DELIVERY_THREAD=${THREAD}\`, \`DELIVERY_CONCURRENCY=${CONCURRENCY}\`, \`ALLOW_PRIVATE_TARGETS=true\`) as a child process with one rcon callback ` +
      `(\`require_online: true\`, commands \`${COMMANDS.join('`, `')}\`, \`timeout_ms\` 5000). ${thousands(WARMUP)} warm-up votes are sent through the hook ` +
      `and waited for; then the callback is disabled, ${thousands(VOTES)} votes from distinct voters are posted through the hook (their jobs are stored ` +
      'held), and the callback is enabled again (`PATCH /v1/callbacks/:id`): the worker claims the jobs at its next poll. Measured from the first ' +
      "command of these votes reaching the server until the database shows every vote's `callback_status` sent " +
      `(read every ${POLL_MS} ms once the server has all the commands).`,
    WITH_BASELINE
      ? `- **baseline**: the project's own \`RconConnection\` (one connection, one command in flight) in the benchmark's main thread, logged in ` +
        `and warmed up with the same ${thousands(WARMUP)} votes, sending per vote \`list\` (read with the service's \`parseOnlinePlayers\`/\`isOnline\`: ` +
        'the voter must be in it) and the two commands, one vote after the other, for the same voters on the same server, right before or after ' +
        'ours (the order alternates between rounds). Measured from the first command reaching the server to the last answer read. It keeps no ' +
        'queue, no record and no retry: the ceiling for one connection with one command in flight.'
      : '- Baseline skipped in this run (`BENCH_BASELINE=0`).',
    '',
    '"Commands on the server": what the server received during the window (each vote must be `list` + 2 commands, exactly once, nothing else). ' +
      "Server-side, a command's time on the connection runs from its arrival at the server to the next command's arrival (the server's " +
      'answer, the trip back, the client reading it and sending its next command, the trip out; one command is in flight, so these add up ' +
      'to the window): "Connection time per vote" sums it over the window per vote, split by the command it followed (after `say` comes ' +
      'the next vote\'s `list`: the time between two votes), "Median µs per command" is its median per kind, ' +
      `"Waits ≥ ${STALL_MS} ms" counts the gaps that long. "Server thread busy": share of the window in which the RCON server's thread was not ` +
      'idle. "Client CPU per vote": ours, the service\'s process (every thread, from the PATCH that enables the callback to the votes recorded ' +
      "sent, idle work included); the baseline, the benchmark's main thread.",
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load (the service, the RCON server and the baseline share these cores): before ${load1}; after ${load2}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Run took ${duration(totalS)}`,
    '',
    markdownTable(header, rows),
    '',
    summary,
    '',
    ...notes.map((n) => `- ${n}`),
    ...failures.map((f) => `- **FAILED**: ${f}`),
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), `${DIALECT === 'sqlite' ? 'rcon' : 'rcon-postgresql'}${THREAD ? '' : '-in-process'}`, section);
  console.log(`\nBENCHMARKS.md updated (run took ${duration(totalS)}).`);
  return failures.length > 0 || wrong.length > 0 ? 1 : 0;
}

process.exitCode = await main();
