// The nats publisher against the NATS server with JetStream on 127.0.0.1:4222, read back by a JetStream consumer of a
// stream made for this run (and deleted after it).
import { randomBytes } from 'node:crypto';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPublisherPool } from '../broker-publisher.js';
import { brokerDown, closedPort, HOST, rejection } from '../../../../test/kit/brokers.js';
import { describeTarget, keyOf, openPublisher, type NatsPublisher, type NatsSettings } from './publisher.js';

const PORT = 4222;
const URL = `nats://${HOST}:${PORT}`;

const down = await brokerDown('NATS', PORT);

describe('nats publisher', () => {
  const run = randomBytes(4).toString('hex');
  const stream = `VOTE_RELAY_TEST_${run}`;
  const subjectRoot = `vote-relay-test.${run}`;
  const opened: NatsPublisher[] = [];
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  const settingsFor = (name: string): NatsSettings => ({ url: URL, subject: `${subjectRoot}.${name}` });

  const tracked = async (settings: NatsSettings, lost: () => void) => {
    const publisher = await openPublisher(settings, lost);
    opened.push(publisher);
    return publisher;
  };

  /**
   * Up to `count` messages of the test stream on `subject`, oldest first, read by a pull consumer (filter_subject,
   * singular: the plural form needs NATS 2.10). Fetching waits `expires` for more than there are.
   */
  async function read(subject: string, count: number): Promise<JsMsg[]> {
    const { name } = await jsm.consumers.add(stream, { filter_subject: subject, ack_policy: AckPolicy.Explicit, inactive_threshold: nanos(60_000) });
    const consumer = await jetstream(nc).consumers.get(stream, name);
    const messages: JsMsg[] = [];
    for await (const message of await consumer.fetch({ max_messages: count, expires: 1_000 })) {
      messages.push(message);
      message.ack();
    }
    await jsm.consumers.delete(stream, name);
    return messages;
  }

  beforeAll(async () => {
    if (down) return;
    nc = await connect({ servers: URL });
    jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects: [`${subjectRoot}.>`] });
  });

  beforeEach(({ skip }) => skip(down !== null, `${down}: skipped (with CI set it fails instead)`));

  afterAll(async () => {
    if (down) return;
    await Promise.all(opened.map((publisher) => publisher.close()));
    await jsm.streams.delete(stream);
    await nc.close();
  });

  it('publishes three messages that a JetStream consumer reads in order, with Nats-Msg-Id, bodies and headers', async () => {
    const settings = settingsFor('three');
    const publisher = await tracked(settings, () => {});
    const details: string[] = [];
    for (const n of [1, 2, 3]) {
      details.push((await publisher.publish({ id: `vote-${n}`, body: JSON.stringify({ n }), headers: { 'Event-Type': 'vote' } }, 2_000)).detail);
    }
    expect(details).toEqual([1, 2, 3].map((n) => `stored as message ${n} of stream ${stream}`));

    const messages = await read(settings.subject, 3);
    expect(messages.map((m) => [m.headers?.get('Nats-Msg-Id'), m.string()])).toEqual([1, 2, 3].map((n) => [`vote-${n}`, JSON.stringify({ n })]));
    expect(messages.map((m) => m.headers?.get('Event-Type'))).toEqual(['vote', 'vote', 'vote']);
  });

  it('stores a repeat of one id once and says it was a duplicate', async () => {
    const settings = settingsFor('repeat');
    const publisher = await tracked(settings, () => {});
    const first = await publisher.publish({ id: 'same-vote', body: '{"try":1}' }, 2_000);
    const second = await publisher.publish({ id: 'same-vote', body: '{"try":2}' }, 2_000);
    expect(second.detail).toBe(`duplicate of ${first.detail.replace('stored as ', '')}: JetStream kept the first copy`);

    const messages = await read(settings.subject, 2);
    expect(messages.map((m) => m.string())).toEqual(['{"try":1}']);
  });

  it('says that no stream takes a subject, and how to create one', async () => {
    const publisher = await tracked({ url: URL, subject: `vote-relay-test-nostream.${run}` }, () => {});
    const error = await rejection(publisher.publish({ id: 'x', body: '{}' }, 1_000));
    expect(error.message).toMatch(/No JetStream stream takes subject vote-relay-test-nostream\.\w+ .*: create one, e\.g\. `nats stream add/);
    expect(error.permanent).toBe(true);
  });

  it('rejects with a BrokerError when nothing listens on the port', async () => {
    const port = await closedPort();
    const error = await rejection(openPublisher({ url: `nats://${HOST}:${port}`, subject: 'votes' }));
    expect(error.message).toContain(`${HOST}:${port}`);
  });

  it('reopens through the pool after the connection was closed, and the next publish succeeds', async () => {
    const settings = settingsFor('reopen');
    const pool = createPublisherPool(tracked, keyOf);
    const first = await pool.get(settings);
    await first.publish({ id: 'before', body: '{}' }, 2_000);

    await opened.at(-1)!.nc.close();
    await vi.waitFor(async () => expect(await pool.get(settings)).not.toBe(first));
    await (await pool.get(settings)).publish({ id: 'after', body: '{}' }, 2_000);

    expect((await read(settings.subject, 2)).map((m) => m.headers?.get('Nats-Msg-Id'))).toEqual(['before', 'after']);
    await pool.closeAll();
  });

  it('refuses credentials in the URL and names the target without them', async () => {
    const error = await rejection(openPublisher({ url: `nats://secret-token@${HOST}:${PORT}`, subject: 'votes' }));
    expect(error.permanent).toBe(true);
    expect(error.message).not.toContain('secret-token');
    expect(describeTarget({ url: URL, subject: 'votes', token: 'secret' })).toBe(`${URL} subject votes`);
  });
});
