// A Votifier sender written from NuVotifier's client code (support/forwarding/proxy/client:
// VotifierProtocol2HandshakeHandler, VotifierProtocol2Encoder; and the original v1 client): it reads the greeting
// `VOTIFIER <version> <challenge>`, then sends either a v2 frame (0x733A, the message length, the JSON
// {payload, signature} with the vote and the challenge in the payload, HMAC-SHA256 with the token, base64) or one
// v1 RSA PKCS#1 v1.5 block encrypted with the public key. Independent of the service's own code.
import { constants, createHmac, createPublicKey, publicEncrypt } from 'node:crypto';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SentVote {
  serviceName: string;
  username: string;
  address: string;
  timestamp: string | number;
}

export interface SessionResult {
  greeting: string;
  /** What the server wrote after the greeting (v2: its JSON answer). */
  answer: string;
  /** The server closed the connection. */
  closed: boolean;
}

/** A port nothing listens on right now (for a service's VOTIFIER_PORT). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function v2Frame(vote: SentVote, token: string, challenge: string): Buffer {
  const payload = JSON.stringify({ serviceName: vote.serviceName, username: vote.username, address: vote.address, timestamp: vote.timestamp, challenge });
  const signature = createHmac('sha256', token).update(payload, 'utf8').digest('base64');
  const message = Buffer.from(JSON.stringify({ payload, signature }), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0x733a, 0);
  header.writeUInt16BE(message.length, 2);
  return Buffer.concat([header, message]);
}

export function v1Block(vote: SentVote, publicKeyBase64: string): Buffer {
  const key = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  const text = `VOTE\n${vote.serviceName}\n${vote.username}\n${vote.address}\n${vote.timestamp}\n`;
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8'));
}

/**
 * One session: waits for the greeting, writes what `build(challenge)` returns (nothing when null), and collects
 * the answer until the server closes (or `timeoutMs`).
 */
export function votifierSession(port: number, build: (challenge: string) => Buffer | null, timeoutMs = 5_000): Promise<SessionResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    let greeting: string | null = null;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ greeting: greeting ?? received, answer: greeting === null ? '' : received, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (greeting === null && received.includes('\n')) {
        greeting = received.slice(0, received.indexOf('\n'));
        received = received.slice(received.indexOf('\n') + 1);
        const parts = greeting.split(' ');
        const frame = build(parts[2] ?? '');
        if (frame) socket.write(frame);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
  });
}
