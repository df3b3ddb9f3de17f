// Baseline for bench/votifier.ts: the Votifier protocol alone, as one game server's own receiver runs it (the
// NuVotifier flow: greeting with a challenge; a v2 frame checked against its one token, or a v1 block decrypted
// with its one key), then one committed INSERT per vote (vote-db.ts), and v2's {"status":"ok"} after it.
// VOTIFIER_TOKEN and VOTIFIER_PRIVATE_KEY (base64 PKCS#8 DER) come from the benchmark.
import { constants, createHmac, createPrivateKey, privateDecrypt, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { listenSettings } from './http-kit.js';
import { openVoteDb } from './vote-db.js';

const settings = listenSettings();
const votes = await openVoteDb(settings.dbPath);
const token = process.env.VOTIFIER_TOKEN ?? '';
const key = createPrivateKey({ key: Buffer.from(process.env.VOTIFIER_PRIVATE_KEY ?? '', 'base64'), format: 'der', type: 'pkcs8' });

const server = createServer((socket) => {
  const challenge = randomBytes(16).toString('hex');
  socket.on('error', () => {});
  socket.setTimeout(5_000, () => socket.destroy());
  socket.write(`VOTIFIER 2 ${challenge}\n`);
  let buffer = Buffer.alloc(0);
  let taken = false;
  const store = (user: string, then: () => void) =>
    votes.insert({ bot: null, user, type: 'votifier', isWeekend: false, query: '' }).then(then, () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    if (taken) return;
    buffer = Buffer.concat([buffer, chunk]);
    if (buffer.length >= 4 && buffer.readUInt16BE(0) === 0x733a) {
      const frame = buffer.readUInt16BE(2) + 4;
      if (buffer.length < frame) return;
      taken = true;
      try {
        const message = JSON.parse(buffer.subarray(4, frame).toString('utf8'));
        const payload = JSON.parse(message.payload);
        const expected = createHmac('sha256', token).update(message.payload).digest();
        const given = Buffer.from(message.signature, 'base64');
        if (payload.challenge !== challenge || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad');
        store(payload.username, () => socket.end('{"status":"ok"}'));
      } catch {
        socket.end('{"status":"error","cause":"RuntimeException","error":"Signature is not valid (invalid token?)"}');
      }
    } else if (buffer.length >= 256) {
      taken = true;
      const raw = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, buffer.subarray(0, 256));
      const fields = raw
        .subarray(raw.indexOf(0x00, 2) + 1)
        .toString('ascii')
        .split('\n');
      if (raw[1] !== 0x02 || fields[0] !== 'VOTE') return void socket.destroy();
      store(fields[2], () => socket.end());
    }
  });
});

server.listen(settings.port, settings.host, () => console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port })));
process.once('SIGTERM', () => {
  server.close(() => {
    votes.close();
    process.exit(0);
  });
});
