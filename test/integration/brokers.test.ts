// Message-broker callbacks through HTTP: a vote sent to a hook reaches Redis (a stream), RabbitMQ (a durable queue),
// NATS JetStream (a stream's subject) and Mosquitto (a topic), each read back by a real consumer with the vote's id as
// its message id; the broker URL's password never comes back; a broker that is down for 10 s loses no vote.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connect as amqpConnect } from 'amqplib';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { connectAsync, type IPublishPacket } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait.js';
import { databaseUnavailable, dialect, startTestApp, type TestApp } from '../kit/app.js';
import { startTcpProxy } from '../kit/tcp-proxy.js';
import { HOST, reachable } from '../kit/brokers.js';

const suffix = () => randomBytes(4).toString('hex');

const brokers = { redis: 6379, rabbitmq: 5672, nats: 4222, mqtt: 1883 };
const up = Object.fromEntries(await Promise.all(Object.entries(brokers).map(async ([name, port]) => [name, await reachable(port)])));
const missing = Object.keys(brokers).filter((name) => !up[name]);
if (missing.length > 0 && process.env.CI) throw new Error(`brokers not answering on ${HOST}: ${missing.join(', ')} (.ci/run starts them)`);
if (missing.length > 0) console.warn(`skipping broker callbacks for ${missing.join(', ')}: not answering on ${HOST}`);

describe.skipIf(databaseUnavailable)('message-broker callbacks', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RETRY_SCHEDULE: '200ms,500ms,1s,2s,4s,8s,8s,8s,8s,8s', DELIVERY_POLL_MS: '50' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function setup(callback: Record<string, unknown>) {
    const org = await app.createOrg({ plan: 'business' });
    const cb = await app.request('POST', '/v1/callbacks', {
      key: org.key,
      body: { name: 'Network', payload_template: { voter: '{{voter_name}}', vote: '{{vote_id}}', test: '{{test}}' }, ...callback },
    });
    expect(cb.status, cb.text).toBe(201);
    const made = (
      await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    const vote = async (user: string) => (await app.request('POST', new URL(made.webhook_url).pathname, { body: { user } })).body.data.vote_id as string;
    const read = (id: string) => app.request('GET', `/v1/votes/${id}`, { key: org.key }).then((r) => r.body.data);
    return { org, cb: cb.body.data, vote, read };
  }
  const sent = (v: { callback_status: string }) => v.callback_status === 'sent';

  it.skipIf(!up.redis)('redis_stream: XADD with the vote id, read back with XRANGE', async () => {
    const stream = `vr-test-${suffix()}`;
    const s = await setup({ kind: 'redis_stream', url: `redis://${HOST}:6379/0`, stream, max_len: 1000 });
    expect(s.cb).toMatchObject({
      kind: 'redis_stream',
      url: `redis://${HOST}:6379/0`,
      stream,
      max_len: 1000,
      target: `redis://${HOST}:6379/0 stream ${stream}`,
    });
    const reader = new Redis({ host: HOST, port: 6379, lazyConnect: true });
    await reader.connect();
    try {
      const ids = [await s.vote('Steve'), await s.vote('Alex')];
      for (const id of ids) await until(() => s.read(id), sent);
      const entries = await reader.xrange(stream, '-', '+');
      const fields = entries.map(([, f]) => Object.fromEntries(f.flatMap((v, i) => (i % 2 ? [] : [[v, f[i + 1]]]))));
      expect(fields.map((f) => f.id)).toEqual(ids);
      expect(JSON.parse(fields[0].body)).toEqual({ voter: 'Steve', vote: ids[0], test: false });
    } finally {
      await reader.del(stream);
      reader.disconnect();
    }
  });

  it.skipIf(!up.rabbitmq)('amqp: a durable queue gets each vote persistent with its id as message_id; the URL password never comes back', async () => {
    const queue = `vr-test-${suffix()}`;
    const s = await setup({ kind: 'amqp', url: `amqp://guest:guest@${HOST}:5672/`, queue });
    expect(s.cb.url).toBe(`amqp://guest:***@${HOST}:5672/`);
    expect(s.cb.target).not.toContain('guest:guest');
    const listed = await app.request('GET', `/v1/callbacks/${s.cb.id}`, { key: s.org.key });
    expect(listed.text).not.toContain('guest:guest');
    const id = await s.vote('Steve');
    await until(() => s.read(id), sent);
    const connection = await amqpConnect(`amqp://guest:guest@${HOST}:5672/`);
    try {
      const channel = await connection.createChannel();
      const message = await until(
        () => channel.get(queue, { noAck: true }),
        (m) => m !== false,
      );
      if (message === false) throw new Error('no message');
      expect(message.properties).toMatchObject({ messageId: id, deliveryMode: 2, contentType: 'application/json' });
      expect(JSON.parse(message.content.toString())).toEqual({ voter: 'Steve', vote: id, test: false });
      await channel.deleteQueue(queue);
    } finally {
      await connection.close();
    }
  });

  it.skipIf(!up.nats)('nats: JetStream takes each vote once with Nats-Msg-Id, read back by a consumer', async () => {
    const name = `VR_TEST_${suffix()}`;
    const subject = `vrtest.${suffix()}`;
    const nc = await natsConnect({ servers: `${HOST}:4222` });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name, subjects: [subject] });
    try {
      const s = await setup({ kind: 'nats', url: `nats://${HOST}:4222`, subject });
      const id = await s.vote('Alex');
      await until(() => s.read(id), sent);
      const { name: consumerName } = await jsm.consumers.add(name, { ack_policy: AckPolicy.Explicit });
      const consumer = await jetstream(nc).consumers.get(name, consumerName);
      const got = [];
      for await (const message of await consumer.fetch({ max_messages: 5, expires: 1_000 })) {
        got.push({ id: message.headers?.get('Nats-Msg-Id'), body: message.json() });
        message.ack();
      }
      expect(got).toEqual([{ id, body: { voter: 'Alex', vote: id, test: false } }]);
    } finally {
      await jsm.streams.delete(name);
      await nc.close();
    }
  });

  it.skipIf(!up.mqtt)('mqtt: a subscriber receives each vote with QoS 1 and the message-id property', async () => {
    const topic = `vr-test/${suffix()}`;
    const subscriber = await connectAsync(`mqtt://${HOST}:1883`, { protocolVersion: 5 });
    const received: IPublishPacket[] = [];
    subscriber.on('message', (_topic, _payload, packet) => received.push(packet));
    await subscriber.subscribeAsync(topic, { qos: 1 });
    try {
      const s = await setup({ kind: 'mqtt', url: `mqtt://${HOST}:1883`, topic });
      const id = await s.vote('Steve');
      await until(() => s.read(id), sent);
      const packet = await until(
        async () => received[0],
        (p) => p !== undefined,
      );
      expect(packet.qos).toBe(1);
      expect(packet.properties?.userProperties?.['message-id']).toBe(id);
      expect(JSON.parse(packet.payload.toString())).toEqual({ voter: 'Steve', vote: id, test: false });
    } finally {
      await subscriber.endAsync();
    }
  });

  it('refuses a broker URL of another scheme, a hidden password sent back, and a queue with an exchange', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const bad = async (body: Record<string, unknown>) =>
      (await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'x', ...body } })).body.error.details;
    expect(await bad({ kind: 'redis_stream', url: 'http://127.0.0.1:6379', stream: 's' })).toEqual([
      { field: 'url', message: 'must use redis:// or rediss://, not http:' },
    ]);
    expect((await bad({ kind: 'amqp', url: 'amqp://guest:***@127.0.0.1:5672/', queue: 'q' }))[0].field).toBe('url');
    expect((await bad({ kind: 'amqp', url: 'amqp://127.0.0.1:5672/', queue: 'q', exchange: 'e' }))[0]).toEqual({
      field: 'queue',
      message: 'give exactly one of queue or exchange',
    });
    expect((await bad({ kind: 'nats', url: 'nats://127.0.0.1:4222' })).map((d: { field: string }) => d.field)).toEqual(['subject']);
    expect((await bad({ kind: 'mqtt', url: 'mqtt://127.0.0.1:1883', topic: 'a/#' })).map((d: { field: string }) => d.field)).toEqual(['topic']);
  });

  // Slow (10 s of outage, several retries of each vote) and about the broker, not the database: run once.
  it.skipIf(!up.redis || dialect !== 'sqlite')('a broker down for 10 s loses no vote: every vote arrives once it is back', { timeout: 120_000 }, async () => {
    const proxy = await startTcpProxy({ host: HOST, port: 6379 });
    const stream = `vr-test-${suffix()}`;
    const reader = new Redis({ host: HOST, port: 6379 });
    try {
      const s = await setup({ kind: 'redis_stream', url: `redis://${HOST}:${proxy.port}`, stream });
      const first = await s.vote('Before');
      await until(() => s.read(first), sent);
      await proxy.cut();
      const cutAt = Date.now();
      const during = [];
      for (let i = 0; i < 20; i++) during.push(await s.vote(`During${i}`));
      // The outage lasts 10 s (the scenario itself, not a wait for something to happen).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - cutAt))));
      for (const id of during) expect((await s.read(id)).callback_status).toBe('retrying');
      await proxy.restore();
      for (const id of during) await until(() => s.read(id), sent, 30_000);
      const ids = (await reader.xrange(stream, '-', '+')).map(([, f]) => f[f.indexOf('id') + 1]);
      expect(new Set(ids)).toEqual(new Set([first, ...during]));
    } finally {
      await reader.del(stream);
      reader.disconnect();
      await proxy.close();
    }
  });
});
