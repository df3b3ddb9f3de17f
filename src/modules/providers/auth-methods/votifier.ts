// `votifier`: the Votifier protocol (src/votifier/protocol.ts). The provider's secret is a key pair and a token made
// here; lists are given the public key (v1) or the token (v2), the host and the port. Deliveries arrive on the
// Votifier TCP listener (src/votifier-server/listener.ts, which names the session's protocol and challenge) or on the
// provider's own hook URL over HTTP: a base64 v1 block, or the v2 JSON {payload, signature} with no challenge.
// What is read as the vote is only what the key decrypted or the token signed: service, username, address,
// timestamp. Without a challenge (v1, and v2 over HTTP) a captured delivery could be sent again, so its timestamp
// must be recent (at most 9 minutes old, at most 1 minute ahead): a resend is then either within the duplicate
// window of the first delivery (the same vote) or refused.
import {
  MAX_VOTIFIER_USERNAME,
  openV1Block,
  parseVotifierKeys,
  privateKeyObject,
  readV2Message,
  V1_BLOCK_BYTES,
  v2SignatureValid,
  v2Vote,
  type VotifierVote,
} from '../../../votifier/protocol.js';
import { v2Message } from '../../../votifier/client.js';
import { refused, unsignedProblems, type AuthMethodDefinition, type Verification } from './auth-method.js';

/** How far a sender's clock may be ahead of ours. */
const CLOCK_SKEW_MS = 60_000;
/**
 * The oldest unchallenged timestamp accepted. DUPLICATE_WINDOW is at least 10 minutes (config.ts), so a resend
 * accepted here is always within the duplicate window of the first delivery.
 */
const MAX_AGE_MS = 9 * 60_000;

const invalid = (reason: string): Verification => ({ ok: false, code: 'VALIDATION_ERROR', field: 'body', reason });

/** Epoch milliseconds of a Votifier timestamp (milliseconds, or seconds when it is that small); null when not a number. */
function timestampMs(timestamp: string): number | null {
  if (!/^\d{1,16}$/.test(timestamp.trim())) return null;
  const n = Number(timestamp.trim());
  return n < 1e11 ? n * 1000 : n;
}

export const votifierMethod: AuthMethodDefinition = {
  name: 'votifier',
  payloadSources: ['json'],
  defaultPayloadSource: 'json',
  authFieldIs: 'votifier (set for you)',
  check: (config) => unsignedProblems(config),
  verify(_config, secret, request, nowMs) {
    const keys = parseVotifierKeys(secret);
    if (!keys) return refused('the provider has no Votifier keys');
    const session = request.votifier;
    const text = session ? '' : request.rawBody.toString('utf8').trim();
    let vote: VotifierVote | null;
    let challenged = false;
    if (session ? session.protocol === 1 : !text.startsWith('{')) {
      let block = request.rawBody;
      if (!session) {
        if (!/^[A-Za-z0-9+/=\s]+$/.test(text)) return invalid('is neither a Votifier v2 message {payload, signature} nor a base64 v1 block');
        block = Buffer.from(text.replace(/\s+/g, ''), 'base64');
        if (block.length !== V1_BLOCK_BYTES) return invalid(`a v1 block is ${V1_BLOCK_BYTES} bytes; this one is ${block.length}`);
      }
      vote = openV1Block(block, privateKeyObject(keys.privateKey));
      if (!vote) return refused('Could not decrypt data (is your key correct?)');
    } else {
      const message = readV2Message(session ? request.rawBody.toString('utf8') : text);
      if (!message) return invalid('is not a Votifier v2 message {payload, signature}');
      if (!v2SignatureValid(message, keys.token)) return refused('Signature is not valid (invalid token?)');
      const read = v2Vote(message.payload);
      if ('problem' in read) return invalid(read.problem);
      if (session) {
        if (read.challenge !== session.challenge) return refused('Challenge is not valid');
        challenged = true;
      }
      vote = read.vote;
    }
    if (vote.username.length > MAX_VOTIFIER_USERNAME) return invalid(`username is longer than ${MAX_VOTIFIER_USERNAME} characters`);
    if (!challenged) {
      const at = timestampMs(vote.timestamp);
      if (at === null) return invalid('timestamp must be a number (epoch milliseconds or seconds)');
      // Accepted from 9 minutes before now to skew after it: a resend is then always within the duplicate window of
      // the first delivery, which looks back the whole window (at least 10 minutes) from its own receipt.
      if (at > nowMs + CLOCK_SKEW_MS || at < nowMs - MAX_AGE_MS) {
        return refused('timestamp is not within the last 9 minutes: a resent delivery, or the sender’s clock is wrong');
      }
    }
    const { serviceName, username, address, timestamp } = vote;
    return {
      ok: true,
      content: {
        source: 'json',
        body: Buffer.from(JSON.stringify({ serviceName, username, address, timestamp })),
        signed: true,
        // v1 has no id: the same service, username and timestamp within the window is the same vote.
        sameVoteKey: JSON.stringify(['votifier', serviceName, username, timestamp]),
      },
    };
  },
  webhookUrl: (base) => base,
  /**
   * A test vote as an HTTP Votifier v2 delivery: the example's fields, signed with the token, stamped with the start
   * of the current five minutes (recent enough to be taken, and the same for a test vote sent again meanwhile, which
   * is then the same vote).
   */
  authenticate(_config, secret, body, nowSeconds) {
    const keys = parseVotifierKeys(secret)!;
    let example: Record<string, unknown> = {};
    try {
      example = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      // no example: the defaults below
    }
    // Signed as a Votifier client signs (votifier/client.ts); over HTTP there is no challenge to answer.
    const message = v2Message(
      {
        serviceName: String(example.serviceName ?? 'Vote Relay test'),
        username: String(example.username ?? 'TestVoter'),
        address: String(example.address ?? '127.0.0.1'),
        timestamp: String(Math.floor(nowSeconds / 300) * 300 * 1000),
      },
      keys.token,
      '',
    );
    return { headers: { 'content-type': 'application/json' }, query: {}, body: Buffer.from(message) };
  },
};
