// What the broker tests share (the publishers' tests beside their code and test/integration/brokers.test.ts): whether
// a broker answers on loopback (skipped outside CI when not; CI fails instead), a port nothing listens on, and the
// BrokerError a publish or connect rejected with.
import { once } from 'node:events';
import { connect as tcpConnect, createServer, type AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { BrokerError } from '../../src/delivery/callback-kinds/broker-publisher.js';

export const HOST = '127.0.0.1';

export function reachable(port: number, host = HOST): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port, timeout: 1_000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** Null when the broker answers; otherwise why its tests are skipped (with CI set, that throws instead). */
export async function brokerDown(name: string, port: number): Promise<string | null> {
  if (await reachable(port)) return null;
  const down = `${name} is not answering on ${HOST}:${port}`;
  if (process.env.CI) throw new Error(`${down}, and CI is set: failing rather than skipping (.ci/run starts it)`);
  return down;
}

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, HOST);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function rejection(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(BrokerError);
  return error as BrokerError;
}
