// A Votifier server on 127.0.0.1 built from NuVotifier's protocol (VotifierGreetingHandler,
// VotifierProtocolDifferentiator, VotifierProtocol2Decoder, VotifierProtocol1Decoder, VoteInboundHandler):
// greeting with a challenge; v2 frames (0x733A + length + {payload, signature}) checked against the token of
// the payload's serviceName (or "default"); v1 RSA blocks decrypted with its private key.
import { constants, createHmac, generateKeyPairSync, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedVotifierVote {
  protocol: 1 | 2;
  serviceName: string;
  username: string;
  address: string;
  timestamp: string;
}

export interface VotifierReceiver {
  host: string;
  port: number;
  votes: ReceivedVotifierVote[];
  errors: string[];
  /** base64 SPKI, as NuVotifier prints it in public.key */
  publicKey: string;
  /** While on, a v2 vote is recorded (the server has it) and its connection left open with no answer. */
  holdAnswers(on: boolean): void;
  /** Delays each v2 answer by this long after the vote is recorded (a busy server). */
  answerDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startVotifierReceiver(options: { tokens: Record<string, string>; version?: string }): Promise<VotifierReceiver> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const votes: ReceivedVotifierVote[] = [];
  const errors: string[] = [];
  const sockets = new Set<Socket>();
  let hold = false;
  let delayMs = 0;

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // a sender killed mid-vote resets its connection
    const challenge = randomBytes(16).toString('hex');
    socket.write(`VOTIFIER ${options.version ?? '2.7.3'} ${challenge}\n`);
    let buffer = Buffer.alloc(0);
    const fail = (cause: string, error: string, v2: boolean) => {
      errors.push(error);
      if (v2) socket.end(JSON.stringify({ status: 'error', cause, error }));
      else socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2) return;
      if (buffer.readUInt16BE(0) === 0x733a) {
        if (buffer.length < 4) return;
        const length = buffer.readUInt16BE(2);
        if (length + 4 > 1024) return fail('TooLongFrameException', 'Adjusted frame length exceeds 1024', true);
        if (buffer.length < length + 4) return;
        try {
          const message = JSON.parse(buffer.subarray(4, 4 + length).toString('utf8'));
          const payload = JSON.parse(message.payload);
          if (payload.challenge !== challenge) return fail('RuntimeException', 'Challenge is not valid', true);
          const token = options.tokens[payload.serviceName] ?? options.tokens.default;
          if (!token) return fail('RuntimeException', `Unknown service '${payload.serviceName}'`, true);
          const computed = createHmac('sha256', Buffer.from(token, 'utf8')).update(message.payload, 'utf8').digest('base64');
          if (message.signature !== computed) return fail('RuntimeException', 'Signature is not valid (invalid token?)', true);
          if (String(payload.username).length > 16) return fail('CorruptedFrameException', 'Username too long', true);
          votes.push({
            protocol: 2,
            serviceName: payload.serviceName,
            username: payload.username,
            address: payload.address,
            timestamp: String(payload.timestamp),
          });
          if (hold) return;
          if (delayMs > 0) setTimeout(() => socket.end(JSON.stringify({ status: 'ok' })), delayMs);
          else socket.end(JSON.stringify({ status: 'ok' }));
        } catch (err) {
          fail('JSONException', (err as Error).message, true);
        }
        return;
      }
      if (buffer.length < 256) return;
      try {
        // Node refuses PKCS#1 v1.5 in privateDecrypt (Marvin attack): decrypt raw, then remove the padding
        // 0x00 0x02 <non-zero random bytes> 0x00 <message>, as Java's RSA/ECB/PKCS1Padding does.
        const raw = privateDecrypt({ key: privateKey as KeyObject, padding: constants.RSA_NO_PADDING }, buffer.subarray(0, 256));
        if (raw[0] !== 0x00 || raw[1] !== 0x02) throw new Error('bad PKCS#1 v1.5 padding');
        const plain = raw.subarray(raw.indexOf(0x00, 2) + 1).toString('ascii');
        const fields = plain.split('\n');
        if (fields.length < 5 || fields[0] !== 'VOTE') throw new Error('VOTE opcode not found');
        votes.push({ protocol: 1, serviceName: fields[1], username: fields[2], address: fields[3], timestamp: fields[4] });
      } catch (err) {
        errors.push(`Could not decrypt data (is your key correct?): ${(err as Error).message}`);
      }
      socket.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    votes,
    errors,
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    holdAnswers(on) {
      hold = on;
    },
    answerDelay(ms) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
