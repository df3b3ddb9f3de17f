// Votifier client, as NuVotifier implements the protocol (net/protocol/*.java):
//  - the server greets with `VOTIFIER <version> <challenge>\n`;
//  - v2: frame = 0x733A, uint16 length, then JSON {"payload": "<json>", "signature": base64 HMAC-SHA256(token, payload)}
//    where payload carries serviceName, username, address, timestamp and the greeting's challenge; the server
//    answers {"status":"ok"} or {"status":"error","cause":…,"error":…} and closes;
//  - v1: one 256-byte RSA PKCS#1 v1.5 block of "VOTE\n<service>\n<username>\n<address>\n<timestamp>\n" encrypted
//    with the server's public key; the server closes without an answer.
import { constants, createHmac, createPublicKey, publicEncrypt, type KeyObject } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { PrivateTargets } from '../config/private-targets.js';
import { checkHostShape, guardedLookup, systemResolver, type Resolver } from '../net/ssrf-guard.js';
import { MAX_V2_FRAME, MAX_VOTIFIER_USERNAME, PROTOCOL_2_MAGIC, type VotifierVote } from './protocol.js';

export const DEFAULT_VOTIFIER_PORT = 8192;

/** A readable reason; `permanent` when sending the same vote again cannot succeed (no retry, the attempt fails). */
export class VotifierError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    /** Refused because of this vote alone (its name), not because of the server or the callback's settings. */
    readonly ofVote = false,
    /**
     * The vote was sent and no answer says whether the server took it (a timeout, a dropped connection, an unreadable
     * answer): sending it again could reward twice (README "Delivery guarantees").
     */
    readonly unanswered = false,
  ) {
    super(message);
  }
}

/**
 * Answers of a Votifier server that no retry can change (NuVotifier's decoders refuse a name over 16 characters
 * with "Username too long"; a wrong token or service name fails every time until the callback is corrected).
 */
const PERMANENT_ANSWER = /username too long|unknown service|signature is not valid|invalid token/i;

/** PEM, or the bare base64 (X.509 SubjectPublicKeyInfo) that servers print in public.key. */
export function parseVotifierPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.includes('BEGIN')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'rsa') throw new VotifierError('not an RSA public key');
  return key;
}

export function v2Message(vote: VotifierVote, token: string, challenge: string): string {
  // NuVotifier reads the timestamp as a long: a number in the JSON when it is one.
  const timestamp = /^\d{1,15}$/.test(vote.timestamp) ? Number(vote.timestamp) : vote.timestamp;
  const payload = JSON.stringify({ serviceName: vote.serviceName, username: vote.username, address: vote.address, timestamp, challenge });
  const signature = createHmac('sha256', Buffer.from(token, 'utf8')).update(payload, 'utf8').digest('base64');
  return JSON.stringify({ payload, signature });
}

export function v2Frame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  if (body.length + 4 > MAX_V2_FRAME) throw new VotifierError(`vote message is ${body.length + 4} bytes; Votifier accepts at most ${MAX_V2_FRAME}`);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(PROTOCOL_2_MAGIC, 0);
  header.writeUInt16BE(body.length, 2);
  return Buffer.concat([header, body]);
}

export function v1Plaintext(vote: VotifierVote): string {
  return `VOTE\n${vote.serviceName}\n${vote.username}\n${vote.address}\n${vote.timestamp}\n`;
}

export function v1Block(vote: VotifierVote, publicKey: KeyObject): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(v1Plaintext(vote), 'utf8'));
}

export interface VotifierTarget {
  host: string;
  port: number;
  token: string | null;
  publicKey: string | null;
  timeoutMs: number;
}

/** A failure once the vote was written: whether the server took it is unknown. */
function unanswered(err: unknown): VotifierError {
  return new VotifierError(`${(err as Error).message} after the vote was sent: the server may or may not have it`, false, false, true);
}

/**
 * Sends one vote; resolves with the protocol used, rejects with a VotifierError carrying a readable reason.
 * `beforeWrite` is awaited once the server's greeting is read, right before the vote is written; what it throws is
 * thrown as it is, with nothing written.
 */
export async function sendVotifierVote(
  target: VotifierTarget,
  vote: VotifierVote,
  options: { privateTargets: PrivateTargets; resolver?: Resolver; beforeWrite?: () => Promise<void> },
): Promise<{ protocol: 1 | 2 }> {
  const refused = checkHostShape(target.host, target.port, options.privateTargets);
  if (refused) throw new VotifierError(`the server's address ${refused}`, true);
  // What the server would refuse whatever happens is refused here, without a connection.
  if (vote.username.length > MAX_VOTIFIER_USERNAME) {
    throw new VotifierError(
      `Username too long: "${vote.username.slice(0, 40)}" has ${vote.username.length} characters; Votifier servers accept at most ${MAX_VOTIFIER_USERNAME}`,
      true,
      true,
    );
  }
  let publicKey: KeyObject | null = null;
  if (!target.token && target.publicKey) {
    try {
      publicKey = parseVotifierPublicKey(target.publicKey);
    } catch {
      throw new VotifierError("the callback's public key is not an RSA public key (PEM, or the base64 from the server's public.key)", true);
    }
  }
  const socket: Socket = connect({
    host: target.host,
    port: target.port,
    ...(options.privateTargets.all ? {} : { lookup: guardedLookup(options.resolver ?? systemResolver, options.privateTargets, target.port) as never }),
  });
  socket.setTimeout(target.timeoutMs);
  let received = Buffer.alloc(0);
  let closed = false;
  let waiter: (() => void) | null = null;
  let failure: Error | null = null;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]).subarray(0, 8192);
    waiter?.();
  });
  socket.on('error', (err) => {
    failure = err;
    waiter?.();
  });
  socket.on('timeout', () => {
    failure = new VotifierError(`no answer within ${target.timeoutMs} ms`);
    socket.destroy();
    waiter?.();
  });
  socket.on('close', () => {
    closed = true;
    waiter?.();
  });
  const until = async (done: () => boolean) => {
    while (!done()) {
      if (failure) throw failure instanceof VotifierError ? failure : new VotifierError(failure.message);
      if (closed) return;
      await new Promise<void>((resolve) => (waiter = resolve));
      waiter = null;
    }
  };
  try {
    await until(() => received.includes(0x0a));
    const newline = received.indexOf(0x0a);
    if (newline < 0) throw new VotifierError('the server closed the connection without a greeting');
    const greeting = received.subarray(0, newline).toString('utf8').trim();
    received = received.subarray(newline + 1);
    const match = /^VOTIFIER (\S+)(?: (\S+))?$/.exec(greeting);
    if (!match) throw new VotifierError(`unexpected greeting ${JSON.stringify(greeting.slice(0, 80))}`);
    const challenge = match[2];
    if (target.token) {
      if (!challenge) throw new VotifierError('the server speaks only protocol v1 (no challenge); configure its public key instead of a token', true);
      let frame: Buffer;
      try {
        frame = v2Frame(v2Message(vote, target.token, challenge));
      } catch (err) {
        throw new VotifierError((err as Error).message, true);
      }
      await options.beforeWrite?.();
      socket.write(frame);
      let answer: string;
      let parsed: { status?: string; cause?: string; error?: string };
      try {
        await until(() => closed || /\}\s*$/.test(received.toString('utf8')));
        answer = received.toString('utf8').trim();
        try {
          parsed = JSON.parse(answer);
        } catch {
          throw new VotifierError(answer ? `unreadable answer ${JSON.stringify(answer.slice(0, 200))}` : 'the server closed the connection without an answer');
        }
      } catch (err) {
        throw unanswered(err);
      }
      if (parsed.status === 'ok') return { protocol: 2 };
      const reason = [parsed.cause, parsed.error].filter(Boolean).join(': ') || answer.slice(0, 200);
      throw new VotifierError(`server answered error: ${reason}`, PERMANENT_ANSWER.test(reason), /username too long/i.test(reason));
    }
    if (!publicKey) throw new VotifierError('the callback has neither a token nor a public key', true);
    const block = v1Block(vote, publicKey);
    await options.beforeWrite?.();
    socket.write(block);
    // v1 has no acknowledgement: the server reads the block and closes. A clean close is success.
    try {
      await until(() => closed);
    } catch (err) {
      throw unanswered(err);
    }
    if (failure) throw unanswered(failure);
    return { protocol: 1 };
  } finally {
    socket.destroy();
  }
}
