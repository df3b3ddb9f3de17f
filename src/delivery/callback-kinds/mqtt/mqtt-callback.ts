// MQTT callbacks: each vote (and event) published with QoS 1 (the broker acknowledges it), the vote's id as the
// message-id user property (publisher.ts).
import { z } from 'zod';
import { BROKER_LOGIN, brokerKind } from '../broker-kind.js';
import { setting } from '../settings-schema.js';
import { describeTarget, keyOf, openPublisher, SCHEMES, type MqttSettings } from './publisher.js';

export const mqttCallback = brokerKind<MqttSettings>({
  name: 'mqtt',
  label: 'MQTT: publish to a topic (QoS 1)',
  description: 'each delivery published to an MQTT topic with QoS 1',
  schemes: SCHEMES,
  method: 'PUBLISH',
  example: 'mqtt://mqtt.internal:1883',
  settings: [
    {
      name: 'topic',
      type: 'string',
      rule: z
        .string()
        .regex(/^[^#+\0]+$/, 'must be a topic without wildcards')
        .max(1000),
      required: true,
      label: 'Topic',
      help: 'the topic to publish to',
      placeholder: 'server/votes',
    },
    ...BROKER_LOGIN,
  ],
  publisherSettings: (values) => ({
    url: setting(values, 'url'),
    topic: setting(values, 'topic'),
    ...(setting(values, 'username') ? { username: setting<string>(values, 'username') } : {}),
    ...(setting(values, 'password') ? { password: setting<string>(values, 'password') } : {}),
  }),
  open: openPublisher,
  keyOf,
  describeTarget,
});
