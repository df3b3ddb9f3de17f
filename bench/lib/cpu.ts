// CPU time of processes, from Linux's /proc (utime + stime of every thread of each process), for figures such as
// "CPU per accepted vote". Elsewhere (no /proc) it answers null and the benchmarks leave the figure out.
import { readFileSync } from 'node:fs';

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
