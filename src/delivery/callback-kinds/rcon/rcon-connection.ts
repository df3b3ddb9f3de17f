// One logged-in RCON connection to one Minecraft server: runs commands one at a time and reads their whole answers.
//
// The end of an answer. Minecraft (RconClient.sendCmdResponse) cuts an answer into packets of 4096 characters and
// marks none of them as the last (wiki.vg "RCON", "Fragmentation"). So:
//  - a packet of fewer than 4096 bytes is the last one: UTF-8 never has fewer bytes than characters, and only the
//    last piece of an answer is shorter than 4096 characters (an empty answer still comes as one empty packet);
//  - after a packet of 4096 bytes or more, a second packet is sent and its answer marks the end, since the server
//    answers packets in the order they came. Valve's page ("Source RCON Protocol", "Multiple-packet Responses")
//    sends an empty SERVERDATA_RESPONSE_VALUE for this; Minecraft has no case for type 0 or any type but 2 and 3 and
//    answers all of them with "Unknown request <type in hex>" under the packet's id (wiki.vg suggests an invalid
//    type). Either works on Minecraft; we send type 200 (SENTINEL_TYPE), answered "Unknown request c8".
//  - that packet goes out only once the first packet of the answer has arrived, never right behind the command:
//    Minecraft reads each packet with one read() of up to 1460 bytes and drops the connection when that read does
//    not hold exactly one whole packet, which two packets sent back to back can cause. For the same reason only one
//    command is in flight per connection.
// Sponge's RCON (a Minecraft fork) closes the connection after answering an unknown type: the answer is still whole,
// and the owner of the connection opens another one.
import { connect, type LookupFunction, type Socket } from 'node:net';
import { BlockedTargetError } from '../../../net/ssrf-guard.js';
import {
  ANSWER_FRAGMENT_CHARS,
  AUTH_FAILED_ID,
  MAX_COMMAND_BYTES,
  MAX_PACKET_LENGTH,
  PacketDecoder,
  SENTINEL_TYPE,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  encodePacket,
  type RconPacket,
} from './protocol.js';

export type RconErrorCode = 'AUTH_REFUSED' | 'TIMEOUT' | 'CLOSED' | 'PROTOCOL' | 'COMMAND_TOO_LONG' | 'INVALID_COMMAND' | 'CONNECT' | 'BLOCKED';

/** Trying again later cannot change these: the target's address is refused, or the command can never be sent. */
const PERMANENT: ReadonlySet<RconErrorCode> = new Set(['BLOCKED', 'COMMAND_TOO_LONG', 'INVALID_COMMAND']);

/** A readable reason with a code callers classify by; `permanent` when retrying the same thing cannot succeed. */
export class RconError extends Error {
  readonly permanent: boolean;
  /** The command was written: it may have run (a timeout or a closed connection while it ran). */
  sent = false;

  constructor(
    readonly code: RconErrorCode,
    message: string,
  ) {
    super(message);
    this.permanent = PERMANENT.has(code);
  }
}

export interface RconOpenOptions {
  host: string;
  port: number;
  password: string;
  /** For connecting and logging in, and the default for each command. */
  timeoutMs: number;
  /** The SSRF-guarding lookup (guardedLookup) unless private targets are allowed. */
  lookup?: LookupFunction;
}

/** An idle connection is kept by a pool; keep-alive finds a server that vanished without closing. */
const KEEPALIVE_MS = 30_000;
/** Bounds the memory one answer can take; Minecraft's longest answers (help, data get) are far smaller. */
const MAX_ANSWER_BYTES = MAX_PACKET_LENGTH;

interface Pending {
  command: string;
  resolve: (answer: string) => void;
  reject: (error: RconError) => void;
  timer: NodeJS.Timeout;
  /** 0 until sent. */
  id: number;
  /** 0 until the end-of-answer packet is sent. */
  sentinelId: number;
  parts: Buffer[];
  bytes: number;
}

const show = (command: string) => JSON.stringify(command.length > 80 ? `${command.slice(0, 80)}…` : command);

export class RconConnection {
  private readonly decoder = new PacketDecoder();
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private nextId = 1;
  private state: 'login' | 'open' | 'closed' = 'login';
  /** Why the connection ends, when we or an error end it; null when the server simply closed it. */
  private failure: RconError | null = null;
  private loginId = 0;
  private settleLogin: (error: RconError | null) => void = () => {};
  private readonly closeListeners: Array<(error: RconError | null) => void> = [];

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {}

  /** Connects and logs in; rejects with an RconError (AUTH_REFUSED: "RCON password refused"). */
  static open(options: RconOpenOptions): Promise<RconConnection> {
    const socket = connect({ host: options.host, port: options.port, ...(options.lookup ? { lookup: options.lookup } : {}) });
    return new RconConnection(socket, options.timeoutMs).login(`${options.host}:${options.port}`, options.password);
  }

  get isOpen(): boolean {
    return this.state === 'open' && !this.socket.destroyed;
  }

  /** Called once when the connection ends, with the reason when it was not the server closing it. */
  onClose(listener: (error: RconError | null) => void): void {
    if (this.state === 'closed') queueMicrotask(() => listener(this.failure));
    else this.closeListeners.push(listener);
  }

  /**
   * Runs one command and resolves with its whole answer. Calls wait in order behind the one in flight; `timeoutMs`
   * counts from the call. A command that times out while in flight closes the connection: a late answer could no
   * longer be told from the next command's.
   */
  run(command: string, timeoutMs = this.timeoutMs): Promise<string> {
    if (!this.isOpen) {
      return Promise.reject(new RconError('CLOSED', `the connection is closed${this.failure ? `: ${this.failure.message}` : ''}`));
    }
    // Minecraft reads a body up to its first NUL; a line break would reach a console as a second line.
    if (/[\r\n\0]/.test(command)) {
      return Promise.reject(new RconError('INVALID_COMMAND', `the command ${show(command)} contains a line break or NUL character`));
    }
    const bytes = Buffer.byteLength(command, 'utf8');
    if (bytes > MAX_COMMAND_BYTES) {
      return Promise.reject(
        new RconError('COMMAND_TOO_LONG', `the command is ${bytes} bytes; Minecraft's RCON accepts commands of at most ${MAX_COMMAND_BYTES} bytes`),
      );
    }
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        command,
        resolve,
        reject,
        id: 0,
        sentinelId: 0,
        parts: [],
        bytes: 0,
        timer: setTimeout(() => this.expire(pending, timeoutMs), timeoutMs),
      };
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Ends the connection; a command in flight or waiting is rejected with a CLOSED error. */
  close(): void {
    if (this.state === 'closed') return;
    this.failure ??= new RconError('CLOSED', `the connection was closed${this.whileRunning()}`);
    this.socket.destroy();
  }

  private login(target: string, password: string): Promise<RconConnection> {
    return new Promise((resolve, reject) => {
      let connected = false;
      const timer = setTimeout(() => {
        const what = connected ? `${target} did not answer the login` : `could not connect to ${target}`;
        this.fail(new RconError('TIMEOUT', `${what} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.settleLogin = (error) => {
        clearTimeout(timer);
        this.settleLogin = () => {};
        if (error) reject(error);
        else resolve(this);
      };
      this.socket.setNoDelay(true);
      this.socket.once('connect', () => {
        connected = true;
        this.socket.setKeepAlive(true, KEEPALIVE_MS);
        this.loginId = this.takeId();
        this.socket.write(encodePacket(this.loginId, SERVERDATA_AUTH, password));
      });
      this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
      this.socket.on('error', (err) => {
        if (err instanceof BlockedTargetError) this.failure ??= new RconError('BLOCKED', err.message);
        else if (!connected) this.failure ??= new RconError('CONNECT', `could not connect to ${target}: ${err.message}`);
        else this.failure ??= new RconError('CLOSED', `the connection failed${this.whileRunning()}: ${err.message}`);
      });
      this.socket.on('close', () => this.closed());
    });
  }

  private receive(chunk: Buffer): void {
    let packets: RconPacket[];
    try {
      packets = this.decoder.push(chunk);
    } catch (err) {
      this.fail(new RconError('PROTOCOL', `the server does not speak RCON: ${(err as Error).message}`));
      return;
    }
    for (const packet of packets) {
      if (this.socket.destroyed) return;
      this.handle(packet);
    }
  }

  private handle(packet: RconPacket): void {
    if (this.state === 'login') {
      if (packet.id === AUTH_FAILED_ID) {
        this.fail(new RconError('AUTH_REFUSED', 'RCON password refused'));
      } else if (packet.id === this.loginId && packet.type === SERVERDATA_AUTH_RESPONSE) {
        this.state = 'open';
        this.settleLogin(null);
        this.pump();
      }
      // Source servers send an empty SERVERDATA_RESPONSE_VALUE before the auth response; Minecraft does not.
      return;
    }
    if (packet.id === AUTH_FAILED_ID) {
      this.fail(new RconError('PROTOCOL', `the server answered${this.whileRunning()} as if this connection had not logged in`));
      return;
    }
    const current = this.current;
    if (!current) return;
    if (packet.id === current.id) {
      current.bytes += packet.body.length;
      current.parts.push(packet.body);
      if (current.bytes > MAX_ANSWER_BYTES) {
        this.fail(new RconError('PROTOCOL', `the answer to ${show(current.command)} exceeds ${MAX_ANSWER_BYTES} bytes`));
      } else if (packet.body.length < ANSWER_FRAGMENT_CHARS && !current.sentinelId) {
        this.finish(current);
      } else if (!current.sentinelId) {
        current.sentinelId = this.takeId();
        this.socket.write(encodePacket(current.sentinelId, SENTINEL_TYPE, ''));
      }
      return;
    }
    if (packet.id === current.sentinelId) this.finish(current);
    // Any other id answers nothing we wait for (a Source server's extra packet after the sentinel's): dropped.
  }

  private pump(): void {
    if (this.state !== 'open' || this.current || this.socket.destroyed) return;
    const next = this.queue.shift();
    if (!next) return;
    next.id = this.takeId();
    this.current = next;
    this.socket.write(encodePacket(next.id, SERVERDATA_EXECCOMMAND, next.command));
  }

  private finish(pending: Pending): void {
    clearTimeout(pending.timer);
    this.current = null;
    pending.resolve(Buffer.concat(pending.parts).toString('utf8'));
    this.pump();
  }

  private expire(pending: Pending, timeoutMs: number): void {
    if (pending === this.current) {
      const why = `no answer to ${show(pending.command)} within ${timeoutMs} ms; the connection was closed, as a late answer could not be told from the next one`;
      this.fail(new RconError('TIMEOUT', why));
      return;
    }
    const index = this.queue.indexOf(pending);
    if (index < 0) return;
    this.queue.splice(index, 1);
    pending.reject(new RconError('TIMEOUT', `${show(pending.command)} waited ${timeoutMs} ms behind earlier commands and was not sent`));
  }

  private fail(error: RconError): void {
    this.failure ??= error;
    this.socket.destroy();
  }

  private closed(): void {
    if (this.state === 'closed') return;
    const duringLogin = this.state === 'login';
    this.state = 'closed';
    const failure = this.failure;
    if (duringLogin) this.settleLogin(failure ?? new RconError('CLOSED', 'the server closed the connection during login'));
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer);
      const error = failure ?? new RconError('CLOSED', `the server closed the connection while running ${show(current.command)}`);
      error.sent = true;
      current.reject(error);
    }
    for (const pending of this.queue.splice(0)) {
      clearTimeout(pending.timer);
      pending.reject(new RconError('CLOSED', `the connection closed before ${show(pending.command)} was sent${failure ? `: ${failure.message}` : ''}`));
    }
    for (const listener of this.closeListeners.splice(0)) listener(failure);
  }

  private whileRunning(): string {
    return this.current ? ` while running ${show(this.current.command)}` : '';
  }

  /** Positive int32 ids: -1 means a refused login, and Minecraft reads the id as a Java int. */
  private takeId(): number {
    const id = this.nextId;
    this.nextId = id >= 0x7fffffff ? 1 : id + 1;
    return id;
  }
}
