// The Votifier protocol's receiving side, as NuVotifier implements it (net/protocol/*.java: VotifierGreetingHandler,
// VotifierProtocolDifferentiator, VotifierProtocol1Decoder, VotifierProtocol2Decoder, VoteInboundHandler):
//  - greeting `VOTIFIER 2 <challenge>\n`, the challenge a fresh 130-bit token (TokenUtil);
//  - v2: 0x733A, a 16-bit length, then JSON {"payload": "<json>", "signature": base64 HMAC-SHA256(token, payload)};
//    the payload's challenge must be the greeting's; frames are at most 1,024 bytes with their 4-byte header;
//  - v1: one 256-byte RSA PKCS#1 v1.5 block of "VOTE\n<service>\n<username>\n<address>\n<timestamp>\n".
// The same tokens and key pairs serve Votifier over HTTP (a base64 v1 block, or the v2 JSON without a challenge).
import {
  constants,
  createHmac,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
  createPrivateKey,
  createPublicKey,
} from 'node:crypto';

export const PROTOCOL_2_MAGIC = 0x733a;
/** NuVotifier's LengthFieldBasedFrameDecoder(1024, 2, 2, 0, 4): header and message together. */
export const MAX_V2_FRAME = 1024;
export const V1_BLOCK_BYTES = 256;
/** NuVotifier refuses longer usernames ("Username too long"). */
export const MAX_VOTIFIER_USERNAME = 16;

/** One vote as the protocol carries it, received (listener.ts, the HTTP auth method) or sent (client.ts). */
export interface VotifierVote {
  serviceName: string;
  username: string;
  address: string;
  /** As text, as NuVotifier keeps it: a number, usually epoch milliseconds (sent as a JSON number in v2). */
  timestamp: string;
}

/** What a Votifier provider's secret holds: the v2 token and the v1 private key (base64 PKCS#8 DER). */
export interface VotifierKeys {
  token: string;
  privateKey: string;
}

/** A token like NuVotifier's TokenUtil.newToken(): 130 random bits written in base 32. */
export function newVotifierToken(): string {
  const bytes = randomBytes(17);
  bytes[0] &= 0x03; // 136 bits → 130
  return BigInt(`0x${bytes.toString('hex')}`).toString(32);
}

export const newChallenge = newVotifierToken;

/**
 * A fresh RSA-2048 pair (the private key for the secret, the public key as lists ask for it: NuVotifier's
 * public.key) and a token: `token` when the list issues its own, else a new one.
 */
export function newVotifierKeys(token?: string): VotifierKeys & { publicKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    token: token ?? newVotifierToken(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

export function parseVotifierKeys(secret: string): VotifierKeys | null {
  try {
    const parsed = JSON.parse(secret) as Partial<VotifierKeys>;
    return typeof parsed.token === 'string' && typeof parsed.privateKey === 'string' ? { token: parsed.token, privateKey: parsed.privateKey } : null;
  } catch {
    return null;
  }
}

const privateKeys = new Map<string, KeyObject>();
/** The KeyObject of a stored private key (parsed once per key: parsing costs more than a decryption). */
export function privateKeyObject(privateKey: string): KeyObject {
  let key = privateKeys.get(privateKey);
  if (!key) {
    key = createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' });
    if (privateKeys.size >= 10_000) privateKeys.clear();
    privateKeys.set(privateKey, key);
  }
  return key;
}

export function publicKeyOf(privateKey: string): string {
  return createPublicKey(privateKeyObject(privateKey)).export({ type: 'spki', format: 'der' }).toString('base64');
}

/**
 * v1: decrypts one block with `key`; null unless it is a well-formed vote for this key. Node refuses PKCS#1 v1.5
 * decryption (the Marvin attack), so the block is decrypted raw and the padding (00 02 <non-zero bytes> 00 <message>)
 * checked here, as Java's RSA/ECB/PKCS1Padding does. Every failure looks the same to the sender (the connection
 * closes, no answer), so the check leaks nothing a padding oracle could use beyond that.
 */
export function openV1Block(block: Buffer, key: KeyObject): VotifierVote | null {
  if (block.length !== V1_BLOCK_BYTES) return null;
  let raw: Buffer;
  try {
    raw = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, block);
  } catch {
    return null;
  }
  if (raw[0] !== 0x00 || raw[1] !== 0x02) return null;
  const end = raw.indexOf(0x00, 2);
  if (end < 10) return null; // at least 8 bytes of padding
  const text = raw.subarray(end + 1).toString('latin1');
  // NuVotifier reads the block as US-ASCII; anything else is not a vote it would take.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is all of US-ASCII, control characters included
  if (/[^\x00-\x7f]/.test(text)) return null;
  const fields = text.split('\n');
  if (fields.length < 5 || fields[0] !== 'VOTE') return null;
  return { serviceName: fields[1], username: fields[2], address: fields[3], timestamp: fields[4] };
}

export interface V2Message {
  payload: string;
  signature: string;
}

/** The v2 message `{payload, signature}`; null when it is not one. */
export function readV2Message(text: string): V2Message | null {
  try {
    const message = JSON.parse(text) as Partial<V2Message>;
    return message && typeof message.payload === 'string' && typeof message.signature === 'string'
      ? { payload: message.payload, signature: message.signature }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether a token signed the message (HMAC-SHA256 of the payload string, base64, compared in constant time). The
 * signature is decoded once, so routing can try many tokens cheaply.
 */
export function v2SignedBy(message: V2Message): (token: string) => boolean {
  const given = Buffer.from(message.signature, 'base64');
  const payload = Buffer.from(message.payload, 'utf8');
  return (token) => {
    const expected = createHmac('sha256', token).update(payload).digest();
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}

export const v2SignatureValid = (message: V2Message, token: string): boolean => v2SignedBy(message)(token);

/** The vote in a verified v2 payload, with its challenge; a reason when a field is missing. */
export function v2Vote(payload: string): { vote: VotifierVote; challenge: unknown } | { problem: string } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return { problem: 'payload is not JSON' };
  }
  if (!parsed || typeof parsed !== 'object') return { problem: 'payload is not a JSON object' };
  for (const field of ['serviceName', 'username', 'address'] as const) {
    if (typeof parsed[field] !== 'string') return { problem: `payload has no ${field}` };
  }
  const timestamp = parsed.timestamp;
  if (typeof timestamp !== 'number' && typeof timestamp !== 'string') return { problem: 'payload has no timestamp' };
  return {
    vote: { serviceName: parsed.serviceName as string, username: parsed.username as string, address: parsed.address as string, timestamp: String(timestamp) },
    challenge: parsed.challenge,
  };
}
