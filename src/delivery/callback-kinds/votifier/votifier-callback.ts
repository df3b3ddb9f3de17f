// Votifier callbacks: the vote forwarded to a NuVotifier / Votifier port, protocol v2 with the server's token or
// protocol v1 with its RSA public key (one at a time; a new one replaces the other). The wire format is in
// src/votifier/client.ts.
import { z } from 'zod';
import type { AppDeps } from '../../../app/deps.js';
import type { FieldError } from '../../../base/errors.js';
import { readPathAsText } from '../../../base/json-path.js';
import { callbackOutcome, jitter } from '../../retry-policy.js';
import { LeaseLost, type SendResult } from '../../senders.js';
import {
  DEFAULT_VOTIFIER_PORT,
  parseVotifierPublicKey,
  sendVotifierVote,
  v1Block,
  v1Plaintext,
  v2Frame,
  v2Message,
  VotifierError,
} from '../../../votifier/client.js';
import { MAX_VOTIFIER_USERNAME } from '../../../votifier/protocol.js';
import type { CallbackKind, KindSendContext } from '../callback-kind.js';
import { setting, type SettingField, type SettingValues } from '../settings-schema.js';

const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
const CHALLENGE_PLACEHOLDER = '<challenge from the server greeting>';
const DEFAULT_SERVICE_NAME = 'VoteRelay';

const settings: SettingField[] = [
  {
    name: 'host',
    type: 'string',
    rule: z.string().regex(HOST, 'must be a host name or IP address'),
    required: true,
    column: 'host',
    label: 'Host',
    help: "the Votifier server's host name or IP address",
    placeholder: 'mc.example.com',
  },
  {
    name: 'port',
    type: 'int',
    rule: z.number().int('must be an integer').min(1).max(65_535),
    default: DEFAULT_VOTIFIER_PORT,
    column: 'port',
    label: 'Port',
    help: 'its Votifier port (default 8192)',
  },
  {
    name: 'serviceName',
    type: 'string',
    rule: z.string().min(1).max(64),
    default: DEFAULT_SERVICE_NAME,
    column: 'serviceName',
    label: 'Service name',
    help: 'the service name the server sees',
  },
  {
    name: 'token',
    type: 'string',
    rule: z.string().min(1).max(200),
    secret: true,
    column: 'votifierTokenEnc',
    label: 'Token (protocol v2)',
    help: 'protocol v2: the server token (NuVotifier config.yml, tokens.default); never returned',
  },
  {
    name: 'publicKey',
    type: 'string',
    // null: no public key, as GET answers for a token (v2) callback, so what was read may be sent back.
    rule: z.string().min(1).max(4_000),
    nullable: true,
    column: 'votifierPublicKey',
    widget: 'textarea',
    label: 'Public key (protocol v1, instead of a token)',
    help: 'protocol v1: the RSA public key (PEM or base64)',
  },
];

const target = (values: SettingValues) => `votifier://${values.host}:${values.port}`;

export const votifierCallback: CallbackKind = {
  name: 'votifier',
  label: 'Votifier: to a NuVotifier / Votifier port',
  description: 'the Votifier protocol (NuVotifier v2 with a token, v1 with an RSA key)',
  events: ['vote'],
  marksTests: false,
  // The protocol has no delivery id: every vote a server reads is a reward.
  dropsRepeats: false,
  // Marked while it connects, awaited before the vote is written (sendVotifierCallback).
  marksItself: true,
  // A connection of its own for each vote: the send starts when the job is claimed.
  marksWhenClaimed: true,
  signed: false,
  maxVoterName: MAX_VOTIFIER_USERNAME,
  settings,
  /** A host and exactly one of token (protocol v2) or public key (v1, RSA-2048). */
  check(input, existing) {
    const problems: FieldError[] = [];
    const creating = existing === null;
    if (creating && !input.token === !input.publicKey)
      problems.push({ field: 'token', message: 'give exactly one of token (protocol v2) or public_key (protocol v1)' });
    if (!creating && input.token !== undefined && input.publicKey !== undefined && input.publicKey !== null) {
      problems.push({ field: 'token', message: 'give at most one of token (protocol v2) or public_key (protocol v1): a new one replaces the other' });
    }
    if (input.publicKey === null && !creating && !existing.token && !input.token) {
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
    return { problems, target: moved && host ? { url: `http://${host}:${port}/`, field: 'host' } : null };
  },
  // One protocol at a time: a new token replaces the public key and the other way round.
  alsoChanges: (input) => ({
    ...(input.token !== undefined ? { publicKey: null } : {}),
    ...(typeof input.publicKey === 'string' ? { token: null } : {}),
  }),
  target,
  /** What a delivery would send for a sample vote (the real challenge comes from the server's greeting). */
  test(_deps, _callback, values, delivery, now) {
    const vote = {
      serviceName: setting<string>(values, 'serviceName'),
      username: delivery.lookup('voter_name') ?? '',
      address: '127.0.0.1',
      timestamp: String(now.getTime()),
    };
    const token = setting<string | null>(values, 'token');
    if (token) {
      const message = v2Message(vote, token, CHALLENGE_PLACEHOLDER);
      const frame = v2Frame(message);
      return {
        url: target(values),
        method: 'VOTIFIER',
        headers: {},
        payload: { protocol: 2, magic: '0x733A', length: frame.length - 4, message: JSON.parse(message), frame_base64: frame.toString('base64') },
        sent: false,
      };
    }
    const block = v1Block(vote, parseVotifierPublicKey(setting(values, 'publicKey')));
    return {
      url: target(values),
      method: 'VOTIFIER',
      headers: {},
      payload: { protocol: 1, plaintext: v1Plaintext(vote), encrypted_bytes: block.length, encrypted_base64: block.toString('base64') },
      sent: false,
    };
  },
  send: sendVotifierCallback,
};

/** A vote forwarded over the Votifier protocol (v2 with a token, v1 with a public key). */
async function sendVotifierCallback(deps: AppDeps, ctx: KindSendContext): Promise<SendResult> {
  const { job, vote, callback, settings: values } = ctx;
  if (!vote) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The vote was deleted' };
  // The mark's commit runs beside the connection and the server's greeting; the vote is written only once it is done
  // (README "Delivery guarantees"). A mark that fails is awaited there and fails the attempt with nothing written.
  const marked = ctx.sending();
  marked.catch(() => undefined);
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
  let uncertain = false;
  try {
    await sendVotifierVote(
      {
        host: setting(values, 'host'),
        port: setting(values, 'port'),
        token: setting(values, 'token'),
        publicKey: setting(values, 'publicKey'),
        timeoutMs: callback.timeoutMs,
      },
      { serviceName: setting(values, 'serviceName'), username: vote.voterName, address, timestamp: String(vote.receivedAt.getTime()) },
      { privateTargets: deps.config.privateTargets, resolver: deps.http.resolver, beforeWrite: () => marked },
    );
  } catch (err) {
    if (err instanceof LeaseLost) throw err;
    error = (err as Error).message;
    permanent = err instanceof VotifierError && err.permanent;
    voteRefused = err instanceof VotifierError && err.ofVote;
    uncertain = err instanceof VotifierError && err.unanswered;
  }
  const durationMs = Math.round(performance.now() - started);
  // A refusal no retry can change fails the attempt for good, with its reason (README: Delivery guarantees).
  // Sent with no answer: not retried into a second reward (README "Delivery guarantees").
  const outcome = uncertain
    ? ({ kind: 'uncertain' } as const)
    : permanent
      ? ({ kind: 'failed' } as const)
      : callbackOutcome({ status: error ? null : 200, retryAfterMs: null }, attempt, deps.config.retryScheduleMs, jitter(deps.config.retryJitter));
  return {
    attempt: {
      attempt,
      target: target(values),
      statusCode: null,
      success: error === null,
      durationMs,
      error,
      responseExcerpt: error ? null : 'ok',
      voteRefused,
      ...(uncertain ? { uncertain: true } : {}),
    },
    outcome,
    error,
  };
}
