// The one way the service runs work in the background (retention, reminders, admin alerts, vote recovery, the hook
// request log's flush, the operator log's sweep, Discord role expiry, the RCON online poll, the Votifier routing
// refresh): one pass at a time (asking for a pass while one runs
// shares it), a pass every `everyMs` on a timer that keeps no process alive, a failed pass handed to `failed` (which
// logs it in the loop's own words) and tried again at the next turn; stop() ends the timer and waits for the pass
// under way. `everyMs` 0 or less: the loop never starts in this process (its passes can still be asked for).
export interface LoopOptions<T> {
  everyMs: number;
  /** A first pass at start; else the first comes after one interval. */
  atStart: boolean;
  pass: () => Promise<T>;
  failed: (err: unknown) => void;
}

export interface BackgroundLoop<T> {
  start(): void;
  stop(): Promise<void>;
  /** A pass now, or the one under way; its failure is the caller's. */
  runNow(): Promise<T>;
}

export function backgroundLoop<T>(options: LoopOptions<T>): BackgroundLoop<T> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<T> | null = null;
  const runNow = (): Promise<T> => {
    running ??= options.pass().finally(() => {
      running = null;
    });
    return running;
  };
  const turn = () => void runNow().catch(options.failed);
  return {
    start() {
      if (timer || options.everyMs <= 0) return;
      timer = setInterval(turn, options.everyMs);
      timer.unref();
      if (options.atStart) turn();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
    runNow,
  };
}
