// The amqp kind's connection: each message published persistently to RabbitMQ on a confirm channel, to a queue (declared
// once per connection) or to an existing exchange, and reported sent only once the broker confirmed it.
import type { Socket } from 'node:net';
import { connect, type ChannelModel, type ConfirmChannel, type Options } from 'amqplib';
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

/** Either `queue` (declared durable, reached through the default exchange) or `exchange` with `routingKey`. */
export interface AmqpSettings {
  url: string;
  queue?: string;
  exchange?: string;
  routingKey?: string;
}

export const SCHEMES = ['amqp', 'amqps'] as const;

interface Route {
  exchange: string;
  routingKey: string;
  /** The queue to declare, in queue mode. */
  queue: string | null;
}

/** Where a message goes: the default exchange ('') routes a queue's name to that queue. */
function routeOf(settings: AmqpSettings): Route {
  if (settings.queue && settings.exchange) throw new BrokerError('Give either a queue or an exchange, not both', true);
  if (settings.queue) return { exchange: '', routingKey: settings.queue, queue: settings.queue };
  if (settings.exchange) return { exchange: settings.exchange, routingKey: settings.routingKey ?? '', queue: null };
  throw new BrokerError('Give a queue or an exchange to publish to', true);
}

export function describeTarget(settings: AmqpSettings): string {
  const where = settings.queue ? `queue ${settings.queue}` : `exchange ${settings.exchange ?? ''} routing key ${JSON.stringify(settings.routingKey ?? '')}`;
  return `${bareUrl(settings.url)} ${where}`;
}

export const keyOf = (settings: AmqpSettings) => targetKey('amqp', settings);

/** An AMQP close reason as amqplib reports it: the reply code and text sent by the server. */
const replyCode = (err: unknown) => (typeof (err as { code?: unknown })?.code === 'number' ? (err as { code: number }).code : null);

/** A server's refusal in words an operator can act on; `permanent` when only a change of settings or broker helps. */
function amqpError(err: unknown, doing: string, settings: AmqpSettings): BrokerError {
  if (err instanceof BrokerError) return err;
  const text = errorMessage(err);
  const code = replyCode(err);
  if (code === 404 && /no exchange/.test(text)) {
    return new BrokerError(
      `The exchange "${settings.exchange}" does not exist on ${bareUrl(settings.url)}: declare it, or publish to a queue (${text})`,
      true,
      {
        cause: err,
      },
    );
  }
  if (code === 406 && settings.queue) {
    return new BrokerError(`The queue "${settings.queue}" exists with other settings than a durable queue (${text})`, true, { cause: err });
  }
  // 403 ACCESS_REFUSED (login, or no permission on the exchange or queue), 530 NOT_ALLOWED (vhost).
  const refused = code === 403 || code === 530 || /ACCESS[-_]REFUSED|NOT[-_]ALLOWED/.test(text);
  return new BrokerError(`${doing}: ${text}`, refused, { cause: err });
}

export class AmqpPublisher implements BrokerPublisher {
  /** Why the connection or channel went away (reported by their 'error' events just before they close). */
  private failure: Error | null = null;
  private gone = false;
  /** The server's resource alarm (memory, disk): publishes wait for it to clear, so they are refused at once instead. */
  private blocked: string | null = null;
  /** messageId → the server's reason for a basic.return, which arrives before that message's confirm. */
  private readonly returned = new Map<string, string>();
  private closing: Promise<void> | null = null;

  /** `connection` is exposed for tests and diagnostics. */
  constructor(
    readonly connection: ChannelModel,
    private readonly channel: ConfirmChannel,
    private readonly settings: AmqpSettings,
    private readonly route: Route,
    lost: () => void,
  ) {
    const remember = (err: Error) => {
      this.failure ??= err;
    };
    const end = () => {
      if (this.gone) return;
      this.gone = true;
      lost();
    };
    // amqplib throws an 'error' event that has no listener, which would end the process.
    connection.on('error', remember);
    channel.on('error', remember);
    connection.on('close', end);
    // A channel error (no such exchange) closes only the channel; this publisher has no other, so its connection
    // goes too, and the pool opens both anew.
    channel.on('close', () => {
      end();
      void this.close();
    });
    connection.on('blocked', (reason: string) => {
      this.blocked = reason;
    });
    connection.on('unblocked', () => {
      this.blocked = null;
    });
    channel.on('return', (message: { properties: { messageId?: string }; fields: { replyText?: string } }) => {
      if (message.properties.messageId) this.returned.set(message.properties.messageId, message.fields.replyText ?? 'returned');
    });
  }

  async publish(message: BrokerMessage, timeoutMs: number): Promise<{ detail: string }> {
    const target = describeTarget(this.settings);
    if (this.gone) throw amqpError(this.failure ?? new Error('the connection is closed'), `Publishing to ${target}`, this.settings);
    if (this.blocked !== null) throw new BrokerError(`RabbitMQ at ${bareUrl(this.settings.url)} is refusing publishes for now (${this.blocked})`);
    try {
      await withTimeout(this.confirmed(message), timeoutMs, `Waiting for RabbitMQ to confirm to ${target}`);
    } catch (err) {
      this.returned.delete(message.id);
      // A channel closed by the server fails its unconfirmed publishes with "channel closed"; its 'error' said why.
      throw amqpError(this.failure ?? err, `Publishing to ${target}`, this.settings);
    }
    const returned = this.returned.get(message.id);
    if (returned !== undefined) {
      this.returned.delete(message.id);
      throw new BrokerError(
        `RabbitMQ could not route the message from exchange "${this.route.exchange}" with routing key "${this.route.routingKey}" to any queue (${returned}): bind a queue`,
        true,
      );
    }
    return { detail: `confirmed by RabbitMQ (${this.settings.queue ? `queue ${this.settings.queue}` : `exchange ${this.settings.exchange}`})` };
  }

  /** Resolves on the broker's ack; a nack or a closed channel rejects. */
  private confirmed(message: BrokerMessage): Promise<void> {
    const options: Options.Publish = {
      persistent: true,
      messageId: message.id,
      contentType: 'application/json',
      headers: message.headers ?? {},
      // An exchange without a matching binding drops a message and still confirms it: mandatory makes it come back.
      mandatory: true,
    };
    return new Promise<void>((resolve, reject) => {
      // publish throws at once on a closed channel, which the Promise turns into a rejection.
      this.channel.publish(this.route.exchange, this.route.routingKey, Buffer.from(message.body), options, (err: unknown) =>
        err ? reject(err instanceof Error && err.message === 'message nacked' ? new BrokerError('RabbitMQ refused the message (nack)') : err) : resolve(),
      );
    });
  }

  /** Once: a channel error closes it, and then the pool does. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.gone = true;
    try {
      await withTimeout(this.connection.close(), CLOSE_TIMEOUT_MS, 'Closing');
    } catch {
      // Already closed, or a broker that does not answer the close: the socket goes (amqplib's types hide it).
      (this.connection.connection as unknown as { stream?: Socket }).stream?.destroy();
    }
  }
}

/** Connects to the settings' RabbitMQ (the pool's opener), opens a confirm channel and declares the queue if any. */
export async function openPublisher(settings: AmqpSettings, lost: () => void = () => {}): Promise<AmqpPublisher> {
  requireBrokerUrl(settings.url, SCHEMES);
  const route = routeOf(settings);
  const target = describeTarget(settings);
  let connection: ChannelModel;
  try {
    // amqplib's `timeout` bounds the socket's silences while it opens; withTimeout bounds the whole handshake.
    const opening = connect(settings.url, { timeout: CONNECT_TIMEOUT_MS, clientProperties: { connection_name: 'vote-relay' } });
    connection = await withTimeout(opening, CONNECT_TIMEOUT_MS, `Connecting to ${target}`, (late) => void late.close().catch(() => {}));
  } catch (err) {
    throw amqpError(err, `Could not connect to ${target}`, settings);
  }
  // Listeners before anything can fail: an unheard 'error' event would end the process.
  let failure: Error | null = null;
  connection.on('error', (err: Error) => {
    failure ??= err;
  });
  try {
    const channel = await withTimeout(connection.createConfirmChannel(), CONNECT_TIMEOUT_MS, `Opening a channel on ${target}`);
    channel.on('error', (err: Error) => {
      failure ??= err;
    });
    if (route.queue) await withTimeout(channel.assertQueue(route.queue, { durable: true }), CONNECT_TIMEOUT_MS, `Declaring the queue on ${target}`);
    return new AmqpPublisher(connection, channel, settings, route, lost);
  } catch (err) {
    void connection.close().catch(() => {});
    throw amqpError(failure ?? err, `Could not open ${target}`, settings);
  }
}
