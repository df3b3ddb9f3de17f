// One logged-in RCON connection per target (host, port and password) for each delivery worker: opened on first use,
// shared by every send and online check to that server, dropped when it closes and opened again on the next use.
// Commands on one connection run one at a time (rcon-connection.ts queues them).
import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { AppDeps } from '../../../app-deps.js';
import { guardedLookup } from '../../../net/ssrf-guard.js';
import { RconConnection } from './rcon-connection.js';
import { setting, type SettingValues } from '../settings-schema.js';

export interface RconTarget {
  host: string;
  port: number;
  password: string;
  timeoutMs: number;
}

const keyOf = (t: RconTarget) => `${t.host}:${t.port}:${createHash('sha256').update(t.password).digest('hex')}`;

export function createRconPool(deps: Pick<AppDeps, 'config' | 'http'>) {
  const open = new Map<string, Promise<RconConnection>>();
  const lookup = deps.config.allowPrivateTargets ? undefined : (guardedLookup(deps.http.resolver) as unknown as LookupFunction);

  function connect(target: RconTarget): Promise<RconConnection> {
    const key = keyOf(target);
    const known = open.get(key);
    if (known) return known;
    const opening = RconConnection.open({ host: target.host, port: target.port, password: target.password, timeoutMs: target.timeoutMs, lookup }).then(
      (connection) => {
        connection.onClose(() => open.get(key) === opening && open.delete(key));
        return connection;
      },
      (err: unknown) => {
        open.delete(key);
        throw err;
      },
    );
    open.set(key, opening);
    return opening;
  }

  return {
    /** The target's connection, logged in (a closed one is replaced). */
    async get(target: RconTarget): Promise<RconConnection> {
      const connection = await connect(target);
      if (connection.isOpen) return connection;
      open.delete(keyOf(target));
      return connect(target);
    },
    async closeAll(): Promise<void> {
      const all = [...open.values()];
      open.clear();
      for (const settled of await Promise.allSettled(all)) if (settled.status === 'fulfilled') settled.value.close();
    },
  };
}
export type RconPool = ReturnType<typeof createRconPool>;

// A worker's pool lives as long as its dependencies (the app's, or the delivery thread's).
const pools = new WeakMap<object, RconPool>();
export function rconPoolOf(deps: Pick<AppDeps, 'config' | 'http'>): RconPool {
  let pool = pools.get(deps);
  if (!pool) {
    pool = createRconPool(deps);
    pools.set(deps, pool);
  }
  return pool;
}

/** An RCON callback's target from its settings (password opened). */
export function rconTarget(values: SettingValues, timeoutMs: number): RconTarget {
  return { host: setting(values, 'host'), port: setting(values, 'port'), password: setting(values, 'password'), timeoutMs };
}
