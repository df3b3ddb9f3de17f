// Starts one of our worker threads (the write thread, the delivery thread) from the JavaScript bootstrap
// thread-boot.mjs, which loads the thread's module itself (through tsx while it is TypeScript). The thread gets the
// process's Node flags (e.g. --cpu-prof) but not its preloads (--import, --require, --loader: tsx's own hooks, an
// operator's monitoring agent): those belong to the main thread, and a TypeScript preload cannot even be loaded
// before the thread's own loader is in place.
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

/** `entry`: the thread's module URL (it runs its thread side when it finds its key in `workerData`). */
export function startThread(entry: string, data: Record<string, unknown>, transferList: Transferable[] = []): Worker {
  return new Worker(new URL('./thread-boot.mjs', import.meta.url), {
    workerData: { entry, ...data },
    transferList,
    execArgv: withoutPreloads(process.execArgv),
  });
}
