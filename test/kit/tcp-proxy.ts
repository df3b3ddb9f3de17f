// A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL, a callback receiver) that a test can cut and
// restore: cut() drops every open connection and stops listening (new connections are refused, as when the
// server is down); restore() listens again on the same port.
import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  /** Connections accepted so far (a sign the client reconnected after a cut). */
  readonly accepted: number;
  /** True between cut() and restore(). */
  readonly down: boolean;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let accepted = 0;
  let down = false;
  let closed = false;

  const onConnection = (client: Socket) => {
    accepted++;
    const upstream = createConnection({ host: target.host, port: target.port });
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  let server: Server = createServer(onConnection);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Reset rather than end: the client sees its connection die, as when the server's host goes away.
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    });

  return {
    host: '127.0.0.1',
    port,
    get accepted() {
      return accepted;
    },
    get down() {
      return down;
    },
    async cut() {
      if (down || closed) return;
      down = true;
      await stopListening();
    },
    async restore() {
      if (!down || closed) return;
      server = createServer(onConnection);
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      down = false;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (!down) await stopListening();
    },
  };
}
