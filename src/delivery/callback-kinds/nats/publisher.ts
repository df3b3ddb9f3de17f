// The nats kind's connection: each message published to NATS JetStream with the message id as Nats-Msg-Id (the
// stream's duplicate window drops a repeat), and reported sent once the stream acknowledged it.
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  BrokerError,
  CLOSE_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  bareUrl,
  errorMessage,
  requireBrokerUrl,
  targetKey,
  withTimeout,
  type BrokerMessage,
  type BrokerPublisher,
} from '../broker-publisher.js';

export interface NatsSettings {
  /** nats://host:port (or tls://); credentials go in token or user and pass, never in the URL. */
  url: string;
  subject: string;
  token?: string;
  user?: string;
  pass?: string;
}

export const SCHEMES = ['nats', 'tls'] as const;

export const describeTarget = (settings: NatsSettings) => `${bareUrl(settings.url)} subject ${settings.subject}`;

export const keyOf = (settings: NatsSettings) => targetKey('nats', settings);

/** A NATS error's class name (the library sets `name`; comparing names survives two copies of the package). */
const nameOf = (err: unknown) => (err instanceof Error ? err.name : '');
const causeOf = (err: unknown) => (err instanceof Error ? err.cause : undefined);

/** Failures no retry changes: a refused login, or a subject this user may not publish to. */
const PERMANENT_NAMES = new Set(['AuthorizationError', 'UserAuthenticationExpiredError', 'PermissionViolationError', 'InvalidSubjectError']);

function natsError(err: unknown, doing: string): BrokerError {
  if (err instanceof BrokerError) return err;
  const permanent = PERMANENT_NAMES.has(nameOf(err)) || PERMANENT_NAMES.has(nameOf(causeOf(err)));
  return new BrokerError(`${doing}: ${errorMessage(err)}`, permanent, { cause: err });
}

/**
 * No responder on a subject means no stream takes it, or no JetStream at all: the client says "jetstream is not
 * enabled" for both. Asking the JetStream API (only on this error path) tells them apart.
 */
async function noStreamError(nc: NatsConnection, settings: NatsSettings, timeoutMs: number): Promise<BrokerError> {
  const enabled = await jetstreamManager(nc, { timeout: timeoutMs }).then(
    () => true,
    (err: unknown) => nameOf(err) !== 'JetStreamNotEnabled',
  );
  const server = bareUrl(settings.url);
  if (!enabled)
    return new BrokerError(`JetStream is not enabled on the NATS server at ${server}: start it with -js (or jetstream {} in its configuration)`, true);
  return new BrokerError(
    `No JetStream stream takes subject ${settings.subject} on ${server}: create one, e.g. \`nats stream add VOTES --subjects '${settings.subject}'\``,
    true,
  );
}

export class NatsPublisher implements BrokerPublisher {
  private readonly js: JetStreamClient;

  /** `nc` is exposed for tests and diagnostics. */
  constructor(
    readonly nc: NatsConnection,
    private readonly settings: NatsSettings,
    lost: () => void,
  ) {
    this.js = jetstream(nc);
    // Resolves when the connection closes for any reason (reconnecting is off: see openPublisher).
    void nc.closed().then(lost);
  }

  async publish(message: BrokerMessage, timeoutMs: number): Promise<{ detail: string }> {
    const { subject } = this.settings;
    const doing = `Publishing to ${describeTarget(this.settings)}`;
    if (this.nc.isClosed()) throw new BrokerError(`${doing}: the connection is closed`);
    let ack: Awaited<ReturnType<JetStreamClient['publish']>>;
    try {
      const published = this.js.publish(subject, message.body, { msgID: message.id, timeout: timeoutMs, headers: headersOf(message) });
      // The client bounds its request by `timeout`; the outer bound also covers what precedes it.
      ack = await withTimeout(published, timeoutMs + 100, doing);
    } catch (err) {
      if (nameOf(err) === 'JetStreamNotEnabled') throw await noStreamError(this.nc, this.settings, timeoutMs);
      throw natsError(err, doing);
    }
    const where = `message ${ack.seq} of stream ${ack.stream}`;
    return { detail: ack.duplicate ? `duplicate of ${where}: JetStream kept the first copy` : `stored as ${where}` };
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await withTimeout(this.nc.close(), CLOSE_TIMEOUT_MS, 'Closing').catch(() => {});
  }
}

function headersOf(message: BrokerMessage) {
  const h = natsHeaders();
  try {
    for (const [name, value] of Object.entries(message.headers ?? {})) h.set(name, value);
  } catch (err) {
    throw new BrokerError(`A header cannot be sent to NATS: ${errorMessage(err)}`, true, { cause: err });
  }
  return h;
}

/** Connects to the settings' NATS server (the pool's opener); `lost` is called when that connection closes. */
export async function openPublisher(settings: NatsSettings, lost: () => void = () => {}): Promise<NatsPublisher> {
  requireBrokerUrl(settings.url, SCHEMES);
  const url = new URL(settings.url);
  // A URL's userinfo would be a credential that describeTarget and the logs cannot tell from a user name.
  if (url.username || url.password) throw new BrokerError('Put NATS credentials in token, or user and pass, not in the URL', true);
  if (!settings.subject || /[\s*>]/.test(settings.subject))
    throw new BrokerError(`The subject "${settings.subject}" is empty or has a wildcard or space`, true);
  const target = describeTarget(settings);
  const opening = connect({
    servers: settings.url,
    ...(settings.token ? { token: settings.token } : {}),
    ...(settings.user ? { user: settings.user, pass: settings.pass ?? '' } : {}),
    name: 'vote-relay',
    timeout: CONNECT_TIMEOUT_MS,
    // A lost connection closes; the pool opens the next one. Reconnecting inside the client would hold publishes.
    reconnect: false,
    maxReconnectAttempts: 0,
    // Servers the cluster announces are not connected to: only the host the SSRF check saw is.
    ignoreClusterUpdates: true,
    noRandomize: true,
  });
  try {
    const nc = await withTimeout(opening, CONNECT_TIMEOUT_MS + 100, `Connecting to ${target}`, (late) => void late.close());
    return new NatsPublisher(nc, settings, lost);
  } catch (err) {
    throw natsError(err, `Could not connect to ${target}`);
  }
}
