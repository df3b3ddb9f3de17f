// Votifier callbacks: the vote forwarded to a NuVotifier / Votifier port, protocol v2 with the server's token or
// protocol v1 with its RSA public key (one at a time; a new one replaces the other). The wire format is in
// ../votifier.ts.
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Callback } from '../../generated/sqlite/client.js';
import type { FieldError } from '../../errors.js';
import { readPathAsText } from '../../json-path.js';
import { callbackOutcome, jitter } from '../retry-policy.js';
import type { JobContext, SendResult } from '../senders.js';
import {
  DEFAULT_VOTIFIER_PORT,
  parseVotifierPublicKey,
  sendVotifierVote,
  v1Block,
  v1Plaintext,
  v2Frame,
  v2Message,
  VotifierError,
} from '../../votifier/client.js';
import type { CallbackKind } from './callback-kind.js';

const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
const CHALLENGE_PLACEHOLDER = '<challenge from the server greeting>';
const DEFAULT_SERVICE_NAME = 'VoteRelay';

const target = (callback: Pick<Callback, 'host' | 'port'>) => `votifier://${callback.host}:${callback.port}`;

export const votifierCallback: CallbackKind = {
  name: 'votifier',
  events: ['vote'],
  marksTests: false,
  fields: {
    host: z.string().regex(HOST, 'must be a host name or IP address'),
    port: z.number().int('must be an integer').min(1).max(65_535),
    serviceName: z.string().min(1).max(64),
    token: z.string().min(1).max(200),
    // null: no public key, as GET answers for a token (v2) callback, so what was read may be sent back.
    publicKey: z.string().min(1).max(4_000).nullable(),
  },
  /** A host and exactly one of token (protocol v2) or public key (v1, RSA-2048). */
  check(input, existing) {
    const problems: FieldError[] = [];
    const creating = existing === null;
    if (creating && !input.host) problems.push({ field: 'host', message: 'is required for a votifier callback' });
    if (creating && !input.token === !input.publicKey)
      problems.push({ field: 'token', message: 'give exactly one of token (protocol v2) or public_key (protocol v1)' });
    if (!creating && input.token !== undefined && input.publicKey !== undefined && input.publicKey !== null) {
      problems.push({ field: 'token', message: 'give at most one of token (protocol v2) or public_key (protocol v1): a new one replaces the other' });
    }
    if (input.publicKey === null && !creating && !existing.votifierTokenEnc && !input.token) {
      problems.push({ field: 'public_key', message: 'is the callback’s only credential: send a token to switch to protocol v2 instead' });
    }
    if (typeof input.publicKey === 'string') {
      try {
        const key = parseVotifierPublicKey(input.publicKey);
        if (key.asymmetricKeyDetails?.modulusLength !== 2048)
          problems.push({ field: 'public_key', message: 'must be a 2048-bit RSA key (as Votifier generates)' });
      } catch {
        problems.push({ field: 'public_key', message: "is not an RSA public key (PEM, or the base64 from the server's public.key)" });
      }
    }
    // The SSRF guard sees the target as an http URL: on create always, on update when host or port change.
    const moved = creating || input.host !== undefined || input.port !== undefined;
    const host = (input.host as string | undefined) ?? existing?.host;
    const port = (input.port as number | undefined) ?? existing?.port ?? DEFAULT_VOTIFIER_PORT;
    return { problems, ...(moved && host ? { target: { url: `http://${host}:${port}/`, field: 'host' } } : {}) };
  },
  create(input, deps) {
    return {
      url: null,
      host: input.host as string,
      port: (input.port as number | undefined) ?? DEFAULT_VOTIFIER_PORT,
      serviceName: (input.serviceName as string | undefined) ?? DEFAULT_SERVICE_NAME,
      votifierTokenEnc: input.token ? deps.secrets.seal(input.token as string) : null,
      votifierPublicKey: (input.publicKey as string | undefined) ?? null,
    };
  },
  update(input, _existing, deps) {
    return {
      ...(input.host !== undefined ? { host: input.host as string } : {}),
      ...(input.port !== undefined ? { port: input.port as number } : {}),
      ...(input.serviceName !== undefined ? { serviceName: input.serviceName as string } : {}),
      // One protocol at a time: a new token replaces the public key and the other way round.
      ...(input.token !== undefined ? { votifierTokenEnc: deps.secrets.seal(input.token as string), votifierPublicKey: null } : {}),
      ...(typeof input.publicKey === 'string' ? { votifierPublicKey: input.publicKey, votifierTokenEnc: null } : {}),
    };
  },
  /** What a delivery would send for a sample vote (the real challenge comes from the server's greeting). */
  testRender(deps, callback, values, now) {
    const vote = {
      serviceName: callback.serviceName ?? DEFAULT_SERVICE_NAME,
      username: values.voter_name,
      address: '127.0.0.1',
      timestamp: String(now.getTime()),
    };
    if (callback.votifierTokenEnc) {
      const message = v2Message(vote, deps.secrets.open(callback.votifierTokenEnc), CHALLENGE_PLACEHOLDER);
      const frame = v2Frame(message);
      return {
        url: target(callback),
        method: 'VOTIFIER',
        headers: {},
        payload: { protocol: 2, magic: '0x733A', length: frame.length - 4, message: JSON.parse(message), frame_base64: frame.toString('base64') },
        sent: false,
      };
    }
    const block = v1Block(vote, parseVotifierPublicKey(callback.votifierPublicKey!));
    return {
      url: target(callback),
      method: 'VOTIFIER',
      headers: {},
      payload: { protocol: 1, plaintext: v1Plaintext(vote), encrypted_bytes: block.length, encrypted_base64: block.toString('base64') },
      sent: false,
    };
  },
  send: sendVotifierCallback,
  target,
};

/** A vote forwarded over the Votifier protocol (v2 with a token, v1 with a public key). */
async function sendVotifierCallback(deps: AppDeps, ctx: JobContext): Promise<SendResult> {
  const { job, vote, callback } = ctx;
  if (!vote || !callback?.host) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The callback was deleted' };
  const attempt = job.attempts + 1;
  const started = performance.now();
  let parsedPayload: unknown = null;
  try {
    parsedPayload = JSON.parse(vote.rawPayload);
  } catch {
    // a form or GET delivery stored as text: no address in it
  }
  const address = readPathAsText(parsedPayload, 'ip') ?? readPathAsText(parsedPayload, 'address') ?? '127.0.0.1';
  let error: string | null = null;
  let permanent = false;
  let voteRefused = false;
  try {
    await sendVotifierVote(
      {
        host: callback.host,
        port: callback.port ?? DEFAULT_VOTIFIER_PORT,
        token: callback.votifierTokenEnc ? deps.secrets.open(callback.votifierTokenEnc) : null,
        publicKey: callback.votifierPublicKey,
        timeoutMs: callback.timeoutMs,
      },
      { serviceName: callback.serviceName ?? DEFAULT_SERVICE_NAME, username: vote.voterName, address, timestamp: String(vote.receivedAt.getTime()) },
      { allowPrivateTargets: deps.config.allowPrivateTargets, resolver: deps.http.resolver },
    );
  } catch (err) {
    error = (err as Error).message;
    permanent = err instanceof VotifierError && err.permanent;
    voteRefused = err instanceof VotifierError && err.ofVote;
  }
  const durationMs = Math.round(performance.now() - started);
  // A refusal no retry can change fails the attempt for good, with its reason (README: Delivery guarantees).
  const outcome = permanent
    ? ({ kind: 'failed' } as const)
    : callbackOutcome({ status: error ? null : 200, retryAfterMs: null }, attempt, deps.config.retryScheduleMs, jitter(deps.config.retryJitter));
  return {
    attempt: {
      attempt,
      target: target(callback),
      statusCode: null,
      success: error === null,
      durationMs,
      error,
      responseExcerpt: error ? null : 'ok',
      voteRefused,
    },
    outcome,
    error,
  };
}
