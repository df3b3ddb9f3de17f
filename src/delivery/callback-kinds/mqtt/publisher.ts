// The mqtt kind's connection: each message published with QoS 1 over MQTT 5 (the message id as user property
// `message-id` and as correlation data), and reported sent once the broker's PUBACK arrived.
import { randomBytes } from 'node:crypto';
import { connectAsync, type IClientOptions, type IClientPublishOptions, type MqttClient } from 'mqtt';
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

export interface MqttSettings {
  /** mqtt://host:port or mqtts://. */
  url: string;
  topic: string;
  username?: string;
  password?: string;
}

export const SCHEMES = ['mqtt', 'mqtts'] as const;

/**
 * MQTT 5 reason codes that no retry changes: unsupported protocol, client id refused, bad user name or password, not
 * authorized, banned, bad authentication method, topic name invalid, packet too large, payload format invalid,
 * retain or QoS not supported.
 */
const PERMANENT_REASONS = new Set([0x84, 0x85, 0x86, 0x87, 0x8a, 0x8c, 0x90, 0x95, 0x99, 0x9a, 0x9b]);

export const describeTarget = (settings: MqttSettings) => `${bareUrl(settings.url)} topic ${settings.topic}`;

export const keyOf = (settings: MqttSettings) => targetKey('mqtt', settings);

/** mqtt.js gives a broker's refusal (CONNACK, PUBACK) as an error whose `code` is the MQTT reason code. */
function mqttError(err: unknown, doing: string): BrokerError {
  if (err instanceof BrokerError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const permanent = typeof code === 'number' && PERMANENT_REASONS.has(code);
  return new BrokerError(`${doing}: ${errorMessage(err)}`, permanent, { cause: err });
}

/** A topic one may publish to: not empty, no wildcard, no NUL (the broker would close the connection instead of answering). */
function topicProblem(topic: string): string | null {
  if (!topic) return 'is empty';
  if (/[+#]/.test(topic)) return 'has a wildcard (+ or #), which only subscriptions may use';
  if (topic.includes('\u0000')) return 'has a NUL character';
  if (Buffer.byteLength(topic) > 65_535) return 'is longer than 65,535 bytes';
  return null;
}

export class MqttPublisher implements BrokerPublisher {
  private failure: Error | null = null;
  private gone = false;

  /** `client` is exposed for tests and diagnostics. */
  constructor(
    readonly client: MqttClient,
    private readonly settings: MqttSettings,
    lost: () => void,
  ) {
    // An 'error' event with no listener would end the process; the reason is kept for the next message.
    client.on('error', (err: Error) => {
      this.failure = err;
    });
    client.on('close', () => {
      if (this.gone) return;
      this.gone = true;
      // With reconnectPeriod 0, mqtt.js keeps QoS 1 publishes in flight when the broker closes the connection
      // (they fail only on end()): ending it now fails them at once.
      client.end(true);
      lost();
    });
  }

  async publish(message: BrokerMessage, timeoutMs: number): Promise<{ detail: string }> {
    const { topic } = this.settings;
    const doing = `Publishing to ${describeTarget(this.settings)}`;
    // An ended mqtt.js client throws a TypeError from publish; a disconnected one would keep the message for a
    // reconnection that never comes (reconnectPeriod 0).
    if (this.gone || !this.client.connected) {
      throw new BrokerError(`${doing}: the connection is closed${this.failure ? ` (${this.failure.message})` : ''}`);
    }
    const options: IClientPublishOptions = {
      qos: 1,
      retain: false,
      properties: {
        userProperties: { ...message.headers, 'message-id': message.id },
        correlationData: Buffer.from(message.id),
        contentType: 'application/json',
        payloadFormatIndicator: true,
      },
    };
    try {
      await withTimeout(this.client.publishAsync(topic, message.body, options), timeoutMs, `${doing}: waiting for the PUBACK`);
    } catch (err) {
      throw mqttError(err, doing);
    }
    return { detail: `acknowledged by the MQTT broker (QoS 1, topic ${topic})` };
  }

  async close(): Promise<void> {
    this.gone = true;
    // A graceful end waits for publishes in flight; a broker that does not answer is cut off.
    await withTimeout(this.client.endAsync(), CLOSE_TIMEOUT_MS, 'Closing').catch(() => this.client.end(true));
  }
}

/** Connects to the settings' MQTT broker (the pool's opener); `lost` is called when that connection closes. */
export async function openPublisher(settings: MqttSettings, lost: () => void = () => {}): Promise<MqttPublisher> {
  requireBrokerUrl(settings.url, SCHEMES);
  const problem = topicProblem(settings.topic);
  if (problem) throw new BrokerError(`The topic "${settings.topic}" ${problem}`, true);
  const target = describeTarget(settings);
  const options: IClientOptions = {
    protocolVersion: 5,
    clientId: `vote-relay-${randomBytes(6).toString('hex')}`,
    clean: true,
    // No reconnecting inside the client: a lost connection is dropped from the pool, and the next delivery opens another.
    reconnectPeriod: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    resubscribe: false,
    queueQoSZero: false,
    ...(settings.username ? { username: settings.username } : {}),
    ...(settings.password ? { password: settings.password } : {}),
  };
  try {
    // allowRetries false: a connection closed before CONNACK rejects instead of waiting for a retry.
    const opening = connectAsync(settings.url, options, false);
    const client = await withTimeout(opening, CONNECT_TIMEOUT_MS + 100, `Connecting to ${target}`, (late) => void late.end(true));
    // connectAsync also resolves when the client ended before the broker's CONNACK.
    if (!client.connected) throw new BrokerError(`Could not connect to ${target}: the connection ended before the broker accepted it`);
    return new MqttPublisher(client, settings, lost);
  } catch (err) {
    throw mqttError(err, `Could not connect to ${target}`);
  }
}
