// The mqtt publisher against the Mosquitto on 127.0.0.1:1883, read back by an mqtt.js subscriber (QoS 1, MQTT 5)
// subscribed before anything is published.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { connectAsync, type IPublishPacket, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPublisherPool } from '../broker-publisher.js';
import { brokerDown, closedPort, HOST, rejection } from '../../../../test/kit/brokers.js';
import { describeTarget, keyOf, openPublisher, type MqttPublisher, type MqttSettings } from './publisher.js';

const PORT = 1883;
const URL = `mqtt://${HOST}:${PORT}`;

const down = await brokerDown('Mosquitto (MQTT)', PORT);

describe('mqtt publisher', () => {
  const run = randomBytes(4).toString('hex');
  const opened: MqttPublisher[] = [];
  /** Packets the subscriber received, by topic, in arrival order. */
  const received = new Map<string, IPublishPacket[]>();
  let subscriber: MqttClient;

  const tracked = async (settings: MqttSettings, lost: () => void) => {
    const publisher = await openPublisher(settings, lost);
    opened.push(publisher);
    return publisher;
  };

  /** A topic of this run, subscribed to (QoS 1) before the test publishes on it. */
  async function subscribed(name: string): Promise<MqttSettings> {
    const topic = `vote-relay-test/${run}/${name}`;
    received.set(topic, []);
    await subscriber.subscribeAsync(topic, { qos: 1 });
    return { url: URL, topic };
  }

  async function packets(topic: string, count: number): Promise<IPublishPacket[]> {
    await vi.waitFor(() => expect(received.get(topic)).toHaveLength(count), { timeout: 5_000 });
    return received.get(topic)!;
  }

  beforeAll(async () => {
    if (down) return;
    subscriber = await connectAsync(URL, { protocolVersion: 5, reconnectPeriod: 0, clientId: `vote-relay-test-${run}` }, false);
    subscriber.on('message', (topic, _payload, packet) => received.get(topic)?.push(packet));
  });

  beforeEach(({ skip }) => skip(down !== null, `${down}: skipped (with CI set it fails instead)`));

  afterAll(async () => {
    if (down) return;
    await Promise.all(opened.map((publisher) => publisher.close()));
    await subscriber.endAsync();
  });

  it('publishes three messages with QoS 1 that a subscriber gets in order, with the message-id user property', async () => {
    const settings = await subscribed('three');
    const publisher = await tracked(settings, () => {});
    for (const n of [1, 2, 3]) {
      const { detail } = await publisher.publish({ id: `vote-${n}`, body: JSON.stringify({ n }), headers: { 'event-type': 'vote' } }, 2_000);
      expect(detail).toBe(`acknowledged by the MQTT broker (QoS 1, topic ${settings.topic})`);
    }

    const got = await packets(settings.topic, 3);
    expect(got.map((p) => [p.properties?.userProperties?.['message-id'], p.payload.toString()])).toEqual(
      [1, 2, 3].map((n) => [`vote-${n}`, JSON.stringify({ n })]),
    );
    for (const [i, packet] of got.entries()) {
      expect(packet.qos).toBe(1);
      expect(packet.retain).toBe(false);
      expect(packet.properties?.userProperties?.['event-type']).toBe('vote');
      expect(packet.properties?.correlationData?.toString()).toBe(`vote-${i + 1}`);
    }
  });

  it('rejects with a BrokerError when nothing listens on the port', async () => {
    const port = await closedPort();
    const error = await rejection(openPublisher({ url: `mqtt://${HOST}:${port}`, topic: 'votes' }));
    expect(error.message).toContain(`${HOST}:${port}`);
  });

  it('reopens through the pool after the client was ended, and the next publish succeeds', async () => {
    const settings = await subscribed('reopen');
    const pool = createPublisherPool(tracked, keyOf);
    const first = await pool.get(settings);
    await first.publish({ id: 'before', body: '{}' }, 2_000);

    await opened.at(-1)!.client.endAsync();
    await vi.waitFor(async () => expect(await pool.get(settings)).not.toBe(first));
    await (await pool.get(settings)).publish({ id: 'after', body: '{}' }, 2_000);

    expect((await packets(settings.topic, 2)).map((p) => p.properties?.userProperties?.['message-id'])).toEqual(['before', 'after']);
    await pool.closeAll();
  });

  it('fails a publish in flight at once when the broker closes the connection, instead of at its timeout', async () => {
    // A broker that accepts the connection (MQTT 5 CONNACK: session absent, success, no properties) and hangs up on
    // the first PUBLISH, as Mosquitto does on a protocol error.
    const broker = createServer((socket) => {
      let connected = false;
      socket.on('data', () => {
        if (connected) return socket.destroy();
        connected = true;
        socket.write(Buffer.from([0x20, 0x03, 0x00, 0x00, 0x00]));
      });
    }).listen(0, HOST);
    await once(broker, 'listening');
    const { port } = broker.address() as AddressInfo;
    try {
      const publisher = await tracked({ url: `mqtt://${HOST}:${port}`, topic: 'votes' }, () => {});
      // The test's own 5 s limit fails it if the publish waits for its 60 s timeout.
      const error = await rejection(publisher.publish({ id: 'x', body: '{}' }, 60_000));
      expect(error.permanent).toBe(false);
    } finally {
      broker.close();
    }
  });

  it('refuses a wildcard topic as a permanent failure, and names the target without credentials', async () => {
    const error = await rejection(openPublisher({ url: URL, topic: `vote-relay-test/${run}/#` }));
    expect(error.permanent).toBe(true);
    expect(describeTarget({ url: 'mqtt://relay:secret@127.0.0.1:1883', topic: 'votes', password: 'secret' })).toBe('mqtt://127.0.0.1:1883 topic votes');
  });
});
