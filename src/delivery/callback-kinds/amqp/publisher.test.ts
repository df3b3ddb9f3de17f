// The amqp publisher against the RabbitMQ on 127.0.0.1:5672 (guest/guest), read back by an amqplib consumer.
import { randomBytes } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPublisherPool } from '../broker-publisher.js';
import { brokerDown, closedPort, HOST, rejection } from '../../../../test/kit/brokers.js';
import { describeTarget, keyOf, openPublisher, type AmqpPublisher, type AmqpSettings } from './publisher.js';

const PORT = 5672;
const URL = `amqp://guest:guest@${HOST}:${PORT}/`;

const down = await brokerDown('RabbitMQ', PORT);

describe('amqp publisher', () => {
  const run = randomBytes(4).toString('hex');
  const queues: string[] = [];
  const exchanges: string[] = [];
  const opened: AmqpPublisher[] = [];
  let admin: ChannelModel;
  let channel: Channel;

  const queueName = (name: string) => {
    const queue = `vote-relay-test.${run}.${name}`;
    queues.push(queue);
    return queue;
  };

  const tracked = async (settings: AmqpSettings, lost: () => void) => {
    const publisher = await openPublisher(settings, lost);
    opened.push(publisher);
    return publisher;
  };

  /** The next `count` messages of a queue, acknowledged, in the order RabbitMQ delivers them. */
  async function consume(queue: string, count: number): Promise<ConsumeMessage[]> {
    const received: ConsumeMessage[] = [];
    const { consumerTag } = await channel.consume(queue, (message) => {
      if (!message) return;
      received.push(message);
      channel.ack(message);
    });
    await vi.waitFor(() => expect(received).toHaveLength(count), { timeout: 5_000 });
    await channel.cancel(consumerTag);
    return received;
  }

  beforeAll(async () => {
    if (down) return;
    admin = await connect(URL);
    channel = await admin.createChannel();
  });

  beforeEach(({ skip }) => skip(down !== null, `${down}: skipped (with CI set it fails instead)`));

  afterAll(async () => {
    if (down) return;
    await Promise.all(opened.map((publisher) => publisher.close()));
    for (const queue of queues) await channel.deleteQueue(queue);
    for (const exchange of exchanges) await channel.deleteExchange(exchange);
    await admin.close();
  });

  it('publishes three messages to a queue that a consumer gets in order, persistent, with ids, bodies and headers', async () => {
    const queue = queueName('three');
    const publisher = await tracked({ url: URL, queue }, () => {});
    for (const n of [1, 2, 3]) {
      const { detail } = await publisher.publish({ id: `vote-${n}`, body: JSON.stringify({ n }), headers: { 'event-type': 'vote' } }, 2_000);
      expect(detail).toBe(`confirmed by RabbitMQ (queue ${queue})`);
    }

    const received = await consume(queue, 3);
    expect(received.map((m) => [m.properties.messageId, m.content.toString()])).toEqual([1, 2, 3].map((n) => [`vote-${n}`, JSON.stringify({ n })]));
    for (const message of received) {
      expect(message.properties.deliveryMode).toBe(2);
      expect(message.properties.contentType).toBe('application/json');
      expect(message.properties.headers).toMatchObject({ 'event-type': 'vote' });
    }
    // The queue was declared durable (it survives a broker restart along with its persistent messages).
    expect((await channel.checkQueue(queue)).queue).toBe(queue);
  });

  it('publishes to an existing exchange with a routing key', async () => {
    const exchange = `vote-relay-test.${run}.exchange`;
    exchanges.push(exchange);
    const queue = queueName('bound');
    await channel.assertExchange(exchange, 'direct', { durable: false });
    await channel.assertQueue(queue, { durable: false });
    await channel.bindQueue(queue, exchange, 'votes');
    const publisher = await tracked({ url: URL, exchange, routingKey: 'votes' }, () => {});
    await publisher.publish({ id: 'via-exchange', body: '{"n":1}' }, 2_000);

    const [message] = await consume(queue, 1);
    expect(message.properties.messageId).toBe('via-exchange');
    expect(message.fields.exchange).toBe(exchange);

    const unbound = await tracked({ url: URL, exchange, routingKey: 'nobody-listens' }, () => {});
    const error = await rejection(unbound.publish({ id: 'lost', body: '{}' }, 2_000));
    expect(error.message).toMatch(/could not route/);
    expect(error.permanent).toBe(true);
  });

  it('says an exchange that does not exist does not exist', async () => {
    const exchange = `vote-relay-test.${run}.missing`;
    const publisher = await tracked({ url: URL, exchange, routingKey: 'votes' }, () => {});
    const error = await rejection(publisher.publish({ id: 'x', body: '{}' }, 2_000));
    expect(error.message).toMatch(new RegExp(`exchange "${exchange.replaceAll('.', '\\.')}" does not exist`));
    expect(error.permanent).toBe(true);
  });

  it('rejects with a BrokerError when nothing listens on the port', async () => {
    const port = await closedPort();
    const error = await rejection(openPublisher({ url: `amqp://guest:guest@${HOST}:${port}/`, queue: 'votes' }));
    expect(error.message).toContain(`${HOST}:${port}`);
    expect(error.message).not.toContain('guest:guest');
  });

  it('refuses a wrong password as a permanent failure', async () => {
    const error = await rejection(openPublisher({ url: `amqp://guest:wrong@${HOST}:${PORT}/`, queue: queueName('login') }));
    expect(error.message).toMatch(/ACCESS.REFUSED/);
    expect(error.permanent).toBe(true);
  });

  it('reopens through the pool after the connection was closed under it, and the next publish succeeds', async () => {
    const queue = queueName('reopen');
    const pool = createPublisherPool(tracked, keyOf);
    const first = await pool.get({ url: URL, queue });
    await first.publish({ id: 'before', body: '{}' }, 2_000);

    await opened.at(-1)!.connection.close();
    await vi.waitFor(async () => expect(await pool.get({ url: URL, queue })).not.toBe(first));
    await (await pool.get({ url: URL, queue })).publish({ id: 'after', body: '{}' }, 2_000);

    expect((await consume(queue, 2)).map((m) => m.properties.messageId)).toEqual(['before', 'after']);
    await pool.closeAll();
  });

  it('names the target without the password', () => {
    expect(describeTarget({ url: 'amqp://guest:guest@127.0.0.1:5672/', queue: 'votes' })).toBe('amqp://127.0.0.1:5672/ queue votes');
    expect(describeTarget({ url: 'amqp://127.0.0.1:5672/shop', exchange: 'events', routingKey: 'vote' })).toBe(
      'amqp://127.0.0.1:5672/shop exchange events routing key "vote"',
    );
  });
});
