import { createServer, type AddressInfo, type LookupFunction } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRconServer, type RconServer } from '../../../../test/kit/rcon-server.js';
import { guardedLookup } from '../../../net/ssrf-guard.js';
import { NO_PRIVATE_TARGETS } from '../../../config/private-targets.js';
import { MAX_COMMAND_BYTES } from './protocol.js';
import { RconConnection, RconError } from './rcon-connection.js';

const PASSWORD = 'hunter2';

let server: RconServer;
const opened: RconConnection[] = [];

beforeEach(async () => {
  server = await startRconServer({ password: PASSWORD, players: ['Steve', 'Alex'] });
});

afterEach(async () => {
  for (const connection of opened.splice(0)) connection.close();
  await server.stop();
});

async function open(overrides: { password?: string; timeoutMs?: number; host?: string; lookup?: LookupFunction } = {}): Promise<RconConnection> {
  const connection = await RconConnection.open({
    host: overrides.host ?? server.host,
    port: server.port,
    password: overrides.password ?? PASSWORD,
    timeoutMs: overrides.timeoutMs ?? 2000,
    ...(overrides.lookup ? { lookup: overrides.lookup } : {}),
  });
  opened.push(connection);
  return connection;
}

async function failure(promise: Promise<unknown>): Promise<RconError> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(RconError);
  return error as RconError;
}

describe('RconConnection', () => {
  it('logs in and runs commands', async () => {
    const connection = await open();
    expect(connection.isOpen).toBe(true);
    expect(server.logins).toBe(1);
    expect(await connection.run('list')).toBe('There are 2 of a max of 20 players online: Steve, Alex');
    expect(await connection.run('give steve minecraft:diamond')).toBe('Gave 1 [Diamond] to Steve');
    expect(await connection.run('give Herobrine minecraft:diamond')).toBe('No player was found');
    expect(await connection.run('say hello')).toBe('');
    expect(await connection.run('nonsense')).toMatch(/^Unknown or incomplete command, see below for error/);
    expect(server.commands).toEqual(['list', 'give steve minecraft:diamond', 'give Herobrine minecraft:diamond', 'say hello', 'nonsense']);
    // Every answer here is shorter than one packet: no end-of-answer packet was needed.
    expect(server.unknownRequests).toBe(0);
    expect(server.errors).toEqual([]);
  });

  it('refuses a wrong password with "RCON password refused", a retryable AUTH_REFUSED', async () => {
    const error = await failure(open({ password: 'wrong' }));
    expect(error.message).toBe('RCON password refused');
    expect(error.code).toBe('AUTH_REFUSED');
    expect(error.permanent).toBe(false);
    expect(server.logins).toBe(0);
    expect(server.commands).toEqual([]);
  });

  it('keeps one command in flight: three calls at once are sent in order and get their own answers', async () => {
    const connection = await open();
    server.setPlayers(['Steve']);
    const answers = await Promise.all([connection.run('list'), connection.run('give Steve diamond_sword 2'), connection.run('give Alex diamond')]);
    expect(answers).toEqual(['There are 1 of a max of 20 players online: Steve', 'Gave 2 [Diamond Sword] to Steve', 'No player was found']);
    expect(server.commands).toEqual(['list', 'give Steve diamond_sword 2', 'give Alex diamond']);
    // The server drops a connection whose packets arrive together; none was dropped.
    expect(server.errors).toEqual([]);
    expect(connection.isOpen).toBe(true);
  });

  it('reads a multi-packet answer whole', async () => {
    const long = Array.from({ length: 10_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    server.answer('dump', long);
    const connection = await open();
    expect(await connection.run('dump all')).toBe(long);
    expect(server.unknownRequests).toBe(1);
    expect(await connection.run('list')).toBe('There are 2 of a max of 20 players online: Steve, Alex');
    expect(server.errors).toEqual([]);
  });

  it('finds the end of answers whose last packet is full, and of multibyte answers', async () => {
    const exact = 'y'.repeat(4096 * 2);
    const accented = 'é'.repeat(5000);
    server.answer('exact', exact);
    server.answer('accented', accented);
    server.answer('one', 'z'.repeat(4096));
    const connection = await open();
    expect(await connection.run('exact')).toBe(exact);
    expect(await connection.run('accented')).toBe(accented);
    expect(await connection.run('one')).toBe('z'.repeat(4096));
    expect(await connection.run('help')).toMatch(/^\/advancement .*\/xp -> experience$/);
    expect(server.errors).toEqual([]);
  });

  it('rejects the command in flight with CLOSED when the server closes mid-command', async () => {
    const connection = await open();
    const closed = new Promise<RconError | null>((resolve) => connection.onClose(resolve));
    server.closeNextCommand();
    const running = connection.run('give Steve diamond');
    const queued = connection.run('list');
    const error = await failure(running);
    expect(error.code).toBe('CLOSED');
    expect(error.message).toBe('the server closed the connection while running "give Steve diamond"');
    expect((await failure(queued)).code).toBe('CLOSED');
    expect(await closed).toBeNull();
    expect(connection.isOpen).toBe(false);
    expect(server.commands).toEqual(['give Steve diamond']);
    expect((await failure(connection.run('list'))).code).toBe('CLOSED');
  });

  it('times out a command the server never answers and closes the connection', async () => {
    server.answer('slow', null);
    const connection = await open();
    const closed = new Promise<RconError | null>((resolve) => connection.onClose(resolve));
    const started = Date.now();
    const slow = connection.run('slow thing', 200);
    const behind = connection.run('list', 5000);
    const error = await failure(slow);
    expect(error.code).toBe('TIMEOUT');
    expect(error.permanent).toBe(false);
    expect(error.message).toMatch(/^no answer to "slow thing" within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    const second = await failure(behind);
    expect(second.code).toBe('CLOSED');
    expect(second.message).toMatch(/^the connection closed before "list" was sent: no answer to "slow thing"/);
    expect((await closed)?.code).toBe('TIMEOUT');
    expect(connection.isOpen).toBe(false);
    expect(server.commands).toEqual(['slow thing']);
  });

  it('times out a command still waiting behind another without sending it', async () => {
    server.answer('slow', null);
    const connection = await open();
    const slow = connection.run('slow', 300);
    const waiting = connection.run('list', 100);
    const error = await failure(waiting);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('"list" waited 100 ms behind earlier commands and was not sent');
    expect(connection.isOpen).toBe(true);
    expect((await failure(slow)).code).toBe('TIMEOUT');
    expect(server.commands).toEqual(['slow']);
  });

  it('refuses a command over 1446 bytes without sending anything', async () => {
    const connection = await open();
    const before = server.bytesReceived;
    const error = await failure(connection.run(`say ${'x'.repeat(MAX_COMMAND_BYTES)}`));
    expect(error.code).toBe('COMMAND_TOO_LONG');
    expect(error.permanent).toBe(true);
    expect(error.message).toContain(`at most ${MAX_COMMAND_BYTES} bytes`);
    // Counted in bytes: 723 two-byte characters are 1446 bytes, one more is too many.
    expect((await failure(connection.run(`${'é'.repeat(724)}`))).code).toBe('COMMAND_TOO_LONG');
    expect(server.bytesReceived).toBe(before);
    expect(connection.isOpen).toBe(true);
    const longest = `say ${'x'.repeat(MAX_COMMAND_BYTES - 4)}`;
    expect(await connection.run(longest)).toBe('');
    expect(server.commands).toEqual([longest]);
    expect(server.errors).toEqual([]);
  });

  it('refuses a command with a line break or NUL without sending it', async () => {
    const connection = await open();
    const before = server.bytesReceived;
    for (const command of ['say hi\nop Evil', 'say hi\r', 'say hi\0op Evil']) {
      const error = await failure(connection.run(command));
      expect(error.code).toBe('INVALID_COMMAND');
      expect(error.permanent).toBe(true);
    }
    expect(server.bytesReceived).toBe(before);
    expect(connection.isOpen).toBe(true);
  });

  it('surfaces a lookup blocked by the SSRF guard as a permanent BLOCKED error, without connecting', async () => {
    const lookup = guardedLookup(async () => [{ address: '127.0.0.1', family: 4 }], NO_PRIVATE_TARGETS, 25575) as LookupFunction;
    const error = await failure(open({ host: 'rcon.example.com', lookup }));
    expect(error.code).toBe('BLOCKED');
    expect(error.permanent).toBe(true);
    expect(error.message).toContain('rcon.example.com resolves to 127.0.0.1');
    expect(server.connections).toBe(0);
  });

  it('connects through a lookup that allows the address', async () => {
    const lookup: LookupFunction = (_host, options, callback) =>
      options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
    const connection = await open({ host: 'rcon.example.com', lookup });
    expect(await connection.run('say hi')).toBe('');
  });

  it('reports a refused connection as CONNECT', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const error = await failure(RconConnection.open({ host: '127.0.0.1', port, password: PASSWORD, timeoutMs: 2000 }));
    expect(error.code).toBe('CONNECT');
    expect(error.permanent).toBe(false);
  });

  it('times out a login the server never answers', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const error = await failure(RconConnection.open({ host: '127.0.0.1', port, password: PASSWORD, timeoutMs: 150 }));
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toBe(`127.0.0.1:${port} did not answer the login within 150 ms`);
    } finally {
      silent.close();
    }
  });

  it('refuses a server that does not speak RCON as PROTOCOL', async () => {
    const http = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const error = await failure(RconConnection.open({ host: '127.0.0.1', port, password: PASSWORD, timeoutMs: 2000 }));
      expect(error.code).toBe('PROTOCOL');
    } finally {
      http.close();
    }
  });

  it('close() rejects the command in flight and tells onClose', async () => {
    server.answer('slow', null);
    const connection = await open();
    const closed = new Promise<RconError | null>((resolve) => connection.onClose(resolve));
    const slow = connection.run('slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    connection.close();
    expect(connection.isOpen).toBe(false);
    const error = await failure(slow);
    expect(error.code).toBe('CLOSED');
    expect(error.message).toBe('the connection was closed while running "slow"');
    expect((await closed)?.code).toBe('CLOSED');
  });
});
