// Starts one of our worker threads (the write thread, the delivery thread) from the JavaScript bootstrap
// thread-boot.mjs, which loads the thread's module itself (through tsx while it is TypeScript). The thread gets the
// process's Node flags (e.g. --cpu-prof) but not its preloads (--import, --require, --loader: tsx's own hooks, an
// operator's monitoring agent): those belong to the main thread, and a TypeScript preload cannot even be loaded
// before the thread's own loader is in place. Flags a thread cannot take (per-process ones such as --expose-gc or
// --max-old-space-size, which Node names when it refuses them) are left out too.
import { Worker, type Transferable } from 'node:worker_threads';

const PRELOAD_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

export function withoutPreloads(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (PRELOAD_FLAGS.has(arg)) {
      i++; // and its value
      continue;
    }
    if ([...PRELOAD_FLAGS].some((flag) => arg.startsWith(`${flag}=`))) continue;
    kept.push(arg);
  }
  return kept;
}

/** The flags Node names in ERR_WORKER_INVALID_EXEC_ARGV ("… invalid execArgv flags: --a, --b=1"). */
export function refusedFlags(message: string): string[] {
  const listed = /flags: (.*)$/.exec(message)?.[1] ?? '';
  return listed
    .split(/,\s*/)
    .map((flag) => flag.trim())
    .filter(Boolean);
}

/** `entry`: the thread's module URL (it runs its thread side when it finds its key in `workerData`). */
export function startThread(entry: string, data: Record<string, unknown>, transferList: Transferable[] = []): Worker {
  const start = (execArgv: string[]) => new Worker(new URL('./thread-boot.mjs', import.meta.url), { workerData: { entry, ...data }, transferList, execArgv });
  const execArgv = withoutPreloads(process.execArgv);
  try {
    return start(execArgv);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    const refused = new Set(refusedFlags((err as Error).message));
    return start(execArgv.filter((arg) => !refused.has(arg) && !refused.has(arg.split('=')[0])));
  }
}
