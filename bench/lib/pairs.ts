// Ours against before measured in pairs (bench/identities.ts, bench/marks.ts): the two services measured back to back,
// each once both are quiet, ours first in odd pairs and before first in even ones (numbered over the run), so a drift of
// the machine's speed favours neither. Each pair's ratio ours / before is one sample under one machine state (a shared
// machine moves single figures by tens of percent); reported per pair with their median, geometric mean and a 95%
// t-interval of the log ratios, and a verdict against a budget. Also the columns the pair tables share.
import { setTimeout as sleep } from 'node:timers/promises';
import { type CpuPerVote, cpuSeconds, nowMs } from './cpu.js';
import { ratio, thousands } from './service.js';

// ---- before each measurement ------------------------------------------------------------------------------------

/** A pause before each measurement: the other service's work after its load (commits, checkpoints) ends first. */
export const SETTLE_MS = 1_500;
/**
 * Before each measurement both services must be quiet: under QUIET_SHARE of a core over QUIET_WINDOW_MS (waited for up
 * to QUIET_LIMIT_MS). The load just sent leaves work behind (the request log, WAL checkpoints, garbage collection) that
 * slowed whichever measurement came first by up to a fifth (bench/marks.ts).
 */
export const QUIET_SHARE = 0.05;
export const QUIET_WINDOW_MS = 500;
export const QUIET_LIMIT_MS = 20_000;

/** Waits until the processes `pids` are quiet (QUIET_SHARE); returns the ms waited, or null when they never were. */
export async function quiet(pids: number[]): Promise<number | null> {
  const begin = nowMs();
  while (nowMs() - begin < QUIET_LIMIT_MS) {
    const before = cpuSeconds(pids);
    const at = nowMs();
    await sleep(QUIET_WINDOW_MS);
    const after = cpuSeconds(pids);
    if (before === null || after === null) return null;
    if ((after - before) / ((nowMs() - at) / 1000) < QUIET_SHARE) return nowMs() - begin;
  }
  return null;
}

/** Pairs are numbered over the run (`perRound` a round); ours goes first in the odd ones. */
export const oursFirst = (round: number, pair: number, perRound: number) => ((round - 1) * perRound + pair) % 2 === 1;

// ---- statistics -------------------------------------------------------------------------------------------------

export const median = (values: number[]) => {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** A ratio as a change, e.g. "+3.0%" or "−12.5%". */
export const pct = (r: number) => (Number.isFinite(r) ? `${r >= 1 ? '+' : '−'}${Math.abs((r - 1) * 100).toFixed(1)}%` : 'n/a');
/** Two-sided 95% quantiles of Student's t for 1…30 degrees of freedom (then the normal's). */
const T95 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06,
  2.05, 2.05, 2.05, 2.04,
];

export interface Geometric {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** Geometric mean of ratios with a 95% interval (t on their logarithms: each pair's ratio is one sample). */
export function geometric(ratios: number[]): Geometric {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map(Math.log);
  const n = logs.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN, n };
  const m = logs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean: Math.exp(m), low: Number.NaN, high: Number.NaN, n };
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
  const half = (T95[n - 2] ?? 1.96) * (sd / Math.sqrt(n));
  return { mean: Math.exp(m), low: Math.exp(m - half), high: Math.exp(m + half), n };
}
export const interval = (g: { mean: number; low: number; high: number }) =>
  Number.isFinite(g.low) ? `${ratio(g.mean, 1)} (95% interval ${ratio(g.low, 1)}–${ratio(g.high, 1)})` : ratio(g.mean, 1);

/**
 * Whether ours / before (`rate` of each side of the whole pairs) is within the budget: yes only when the whole interval
 * is at or above `line` (e.g. 0.90 for "within 10%"), no when it is all below. `wording`: how the yes says "at or
 * above" (`above`) and what the spread is larger than when the run cannot tell (`spread`).
 */
export function verdict<T>(pairs: Pair<T>[], rate: (s: T) => number, line: number, wording: { above: string; spread: string }): string {
  const g = geometric(pairRatios(pairs, rate));
  const range = `${ratio(g.low, 1)}–${ratio(g.high, 1)}`;
  return !Number.isFinite(g.mean)
    ? 'not measured.'
    : !Number.isFinite(g.low)
      ? `one pair only (${ratio(g.mean, 1)}): no interval.`
      : g.low >= line
        ? `**yes**: the whole 95% interval of ours / before (${range}) is ${wording.above} ${line.toFixed(2)}×.`
        : g.high < line
          ? `**no**: the whole 95% interval of ours / before (${range}) is below ${line.toFixed(2)}×.`
          : `**this run cannot tell**: the 95% interval of ours / before (${range}) contains ${line.toFixed(2)}× (the pairs' spread is larger than ${wording.spread}).`;
}

// ---- the pair tables --------------------------------------------------------------------------------------------

/** One side's measurement, as the pair tables read it (its CPU per vote: bench/lib/cpu.ts's cpuPerVote). */
export interface PairSample extends CpuPerVote {
  round: number;
  side: { id: 'ours' | 'before' };
  /** The machine's load when it began. */
  load: string;
}

/** The two measurements of pair `round`.`pair`: ours (o) and before (p), either missing if it failed. */
export interface Pair<T> {
  round: number;
  pair: number;
  o?: T;
  p?: T;
}

/** The samples in pairs, in the order their first sample came; `pairOf` is a sample's number in its round. */
export function pairUp<T extends PairSample>(samples: T[], pairOf: (s: T) => number): Pair<T>[] {
  const out: Pair<T>[] = [];
  for (const s of samples) {
    let pair = out.find((x) => x.round === s.round && x.pair === pairOf(s));
    if (!pair) out.push((pair = { round: s.round, pair: pairOf(s) }));
    if (s.side.id === 'ours') pair.o = s;
    else pair.p = s;
  }
  return out;
}

export const totalCpu = (s: PairSample) => (s.cpuUs ?? Number.NaN) + (s.pgCpuUs ?? 0);
export const cpuText = (s: PairSample | undefined) =>
  !s || s.cpuUs === null
    ? 'n/a'
    : `${thousands(s.cpuUs)} µs (${(s.cpuShare * 100).toFixed(0)}%)${s.pgCpuUs === null ? '' : ` + ${thousands(s.pgCpuUs)} µs in PostgreSQL`}`;

/** The table's header: the pair (`pairColumn`), the shared columns, the bench's own (`own`), the machine load. */
export const pairHeader = (pairColumn: string, own: string[]) => [
  pairColumn,
  'First',
  'Ours, votes/s',
  'Before, votes/s',
  'Ours / before',
  'Ours: service CPU per vote (share of a core)',
  'Before: service CPU per vote',
  'CPU ours / before',
  ...own,
  "Machine load at the pair's start",
];

/**
 * A pair's row under pairHeader: `rate` is a sample's votes/s, `own` the bench's own cells; `first` replaces the
 * First column's side (a pair measured at once: "together").
 */
export function pairRow<T extends PairSample>(
  { round, pair, o, p }: Pair<T>,
  rate: (s: T) => number,
  perRound: number,
  own: string[],
  first?: string,
): string[] {
  return [
    `${round}.${pair}`,
    first ?? (oursFirst(round, pair, perRound) ? 'ours' : 'before'),
    o ? thousands(rate(o)) : 'n/a',
    p ? thousands(rate(p)) : 'n/a',
    o && p ? `**${ratio(rate(o), rate(p))}** (${pct(rate(o) / rate(p))})` : 'n/a',
    cpuText(o),
    cpuText(p),
    o && p ? ratio(totalCpu(o), totalCpu(p)) : 'n/a',
    ...own,
    (oursFirst(round, pair, perRound) ? o : p)?.load ?? (o ?? p)?.load ?? 'n/a',
  ];
}

/** Ours / before of each whole pair. */
export const pairRatios = <T>(pairs: Pair<T>[], rate: (s: T) => number) => pairs.flatMap(({ o, p }) => (o && p ? [rate(o) / rate(p)] : []));
/** CPU per vote ours / before of each whole pair (with the PostgreSQL backends'). */
export const cpuRatios = <T extends PairSample>(pairs: Pair<T>[]) => pairs.flatMap(({ o, p }) => (o && p ? [totalCpu(o) / totalCpu(p)] : []));

/** Under the table: the pairs' count, each side's median and range, the ratios' median, geometric mean and spread, the CPU ratio. */
export function pairSummary<T extends PairSample>(samples: T[], pairs: Pair<T>[], rate: (s: T) => number, dialect: 'sqlite' | 'postgresql'): string {
  const r = pairRatios(pairs, rate);
  const o = samples.filter((s) => s.side.id === 'ours').map(rate);
  const p = samples.filter((s) => s.side.id === 'before').map(rate);
  if (o.length === 0 && p.length === 0) return 'Not measured in this run.';
  return (
    `${r.length} pairs. Median: ours ${thousands(median(o))} votes/s, before ${thousands(median(p))} votes/s (each ${thousands(Math.min(...o, ...p))}–${thousands(Math.max(...o, ...p))}). ` +
    `Ours / before per pair: median ${ratio(median(r), 1)} (${pct(median(r))}), geometric mean ${interval(geometric(r))}, ` +
    `from ${ratio(Math.min(...r), 1)} to ${ratio(Math.max(...r), 1)}. Service CPU per vote${dialect === 'postgresql' ? ' (with PostgreSQL)' : ''}, ours / before: ` +
    `${interval(geometric(cpuRatios(pairs)))}.`
  );
}
