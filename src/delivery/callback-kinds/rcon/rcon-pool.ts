// One logged-in RCON connection per target (host, port and password) for each delivery worker: opened on first use,
// shared by every send and online check to that server, dropped when it closes and opened again on the next use.
// Commands on one connection run one at a time (rcon-connection.ts queues them).
import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { AppDeps } from '../../../app/deps.js';
import { checkHostShape, guardedLookup } from '../../../net/ssrf-guard.js';
import { RconConnection, RconError } from './rcon-connection.js';
import { setting, type SettingValues } from '../settings-schema.js';

export interface RconTarget {
  host: string;
  port: number;
  password: string;
  timeoutMs: number;
}

/**
 * Votes of one server past their online check at once: the one whose commands run, and the next, marked meanwhile
 * (README "Delivery guarantees"). Its commands go one at a time anyway: more would only be marked while they wait, and
 * a crash would leave them uncertain though nothing of them was sent.
 */
const TURNS_PER_SERVER = 2;

const keyOf = (t: RconTarget) => `${t.host}:${t.port}:${createHash('sha256').update(t.password).digest('hex')}`;

export function createRconPool(deps: Pick<AppDeps, 'config' | 'http'>) {
  const open = new Map<string, Promise<RconConnection>>();
  const turns = new Map<string, { busy: number; waiting: (() => void)[] }>();
  const policy = deps.config.privateTargets;

  function connect(target: RconTarget): Promise<RconConnection> {
    const key = keyOf(target);
    const known = open.get(key);
    if (known) return known;
    // A literal address is never looked up: checked here (a name is checked as it resolves, for this port).
    const refused = checkHostShape(target.host, target.port, policy);
    if (refused) return Promise.reject(new RconError('BLOCKED', `the server's address ${refused}`));
    const lookup = policy.all ? undefined : (guardedLookup(deps.http.resolver, policy, target.port) as unknown as LookupFunction);
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
    /**
     * Waits for one of the server's turns (TURNS_PER_SERVER) and answers its release; rejects after `timeoutMs` of
     * waiting (nothing was sent).
     */
    turn(target: RconTarget): Promise<() => void> {
      const key = keyOf(target);
      let server = turns.get(key);
      if (!server) turns.set(key, (server = { busy: 0, waiting: [] }));
      const at = server;
      const release = () => {
        const next = at.waiting.shift();
        if (next) next();
        else if (--at.busy === 0) turns.delete(key);
      };
      if (at.busy < TURNS_PER_SERVER) {
        at.busy++;
        return Promise.resolve(release);
      }
      return new Promise((resolve, reject) => {
        const go = () => {
          clearTimeout(timer);
          resolve(release);
        };
        const timer = setTimeout(() => {
          at.waiting.splice(at.waiting.indexOf(go), 1);
          reject(new RconError('TIMEOUT', `waited ${target.timeoutMs} ms for its turn on the server's connection and was not sent`));
        }, target.timeoutMs);
        at.waiting.push(go);
      });
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
