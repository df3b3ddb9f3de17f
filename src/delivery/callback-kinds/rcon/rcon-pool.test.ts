import { describe, expect, it } from 'vitest';
import { ALL_PRIVATE_TARGETS } from '../../../config/private-targets.js';
import { createRconPool } from './rcon-pool.js';
import { RconError } from './rcon-connection.js';

const pool = () => createRconPool({ config: { privateTargets: ALL_PRIVATE_TARGETS }, http: {} } as never);
const server = (timeoutMs = 1_000) => ({ host: '127.0.0.1', port: 25575, password: 'pw', timeoutMs });

describe('turns on one RCON server', () => {
  it('gives two at once; a third waits for a release, in order', async () => {
    const p = pool();
    const first = await p.turn(server());
    await p.turn(server());
    let third = false;
    const waiting = p.turn(server()).then((release) => {
      third = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    first();
    (await waiting)();
    expect(third).toBe(true);
  });

  it('a wait longer than the timeout gives up without a turn, and the turns of another server are its own', async () => {
    const p = pool();
    await p.turn(server(50));
    await p.turn(server(50));
    await expect(p.turn(server(50))).rejects.toThrow(RconError);
    await expect(p.turn(server(50))).rejects.toThrow(/waited 50 ms for its turn/);
    const other = { ...server(50), port: 25576 };
    await expect(p.turn(other)).resolves.toBeTypeOf('function');
  });
});
