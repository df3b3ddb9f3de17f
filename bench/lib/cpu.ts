// CPU time of processes, from Linux's /proc (utime + stime of every thread of each process), for figures such as
// "CPU per accepted vote". Elsewhere (no /proc) it answers null and the benchmarks leave the figure out. Also a meter
// over one measurement: the service's CPU and, on PostgreSQL, that of the backends serving it.
import { readFileSync } from 'node:fs';
import type { BenchDatabase } from './database.js';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on

/** Seconds of CPU the processes `pids` have used so far (threads included), or null without /proc. */
export function cpuSeconds(pids: number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
    // Fields after the command name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** Milliseconds on the monotonic clock (process.hrtime: the clock of --cpu-prof's profiles, in µs there). */
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** CPU seconds of each PostgreSQL backend serving the service now (none on SQLite). */
export async function backendCpu(database: BenchDatabase): Promise<Map<number, number>> {
  const readings = new Map<number, number>();
  for (const pid of await database.backendPids()) {
    const seconds = cpuSeconds([pid]);
    if (seconds !== null) readings.set(pid, seconds);
  }
  return readings;
}

/** µs of backend CPU between two readings (backends that closed in between are left out: an undercount). */
export function backendDelta(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds * 1e6;
}

/** What a service used over one measurement (from `startCpuMeter` until its `stop`). */
export interface CpuSpent {
  /** When the meter started and stopped (nowMs). */
  from: number;
  to: number;
  /** Seconds of the service process, every thread (null without /proc). */
  serviceS: number | null;
  /** µs of the PostgreSQL backends serving it (0 on SQLite). */
  backendUs: number;
}

/** Starts metering the service `pid` and the database's backends: read the backends, then the service. */
export async function startCpuMeter(pid: number, database: BenchDatabase): Promise<{ from: number; stop(): Promise<CpuSpent> }> {
  const backendsBefore = await backendCpu(database);
  const before = { service: cpuSeconds([pid]), at: nowMs() };
  return {
    from: before.at,
    /** Reads the service, then the backends. */
    async stop() {
      const after = { service: cpuSeconds([pid]), at: nowMs() };
      const backendsAfter = await backendCpu(database);
      return {
        from: before.at,
        to: after.at,
        serviceS: before.service === null || after.service === null ? null : after.service - before.service,
        backendUs: backendDelta(backendsBefore, backendsAfter),
      };
    },
  };
}

export interface CpuPerVote {
  /** µs of the service per vote (null without /proc or without votes), and its share of a core over the measurement. */
  cpuUs: number | null;
  cpuShare: number;
  /** µs of the PostgreSQL backends per vote (null on SQLite). */
  pgCpuUs: number | null;
}

/** `spent` over `votes`. */
export function cpuPerVote(spent: CpuSpent, votes: number, dialect: 'sqlite' | 'postgresql'): CpuPerVote {
  return {
    cpuUs: spent.serviceS === null || votes === 0 ? null : (spent.serviceS * 1e6) / votes,
    cpuShare: spent.serviceS === null ? Number.NaN : spent.serviceS / ((spent.to - spent.from) / 1000),
    pgCpuUs: dialect === 'postgresql' && votes > 0 ? spent.backendUs / votes : null,
  };
}
