// Every kind of callback, one line each (each kind is a folder beside this file). The service's input rules, the
// GraphQL enum, input and output fields, the REST answer, the dashboard's form, the test render, the worker's
// dispatch and the delivery log's target all come from here.
import type { CallbackKind } from './callback-kind.js';
import type { PlanRules } from '../../domain/job-plan.js';
import { unionOfFields } from './settings-schema.js';
import { httpCallback } from './http/http-callback.js';
import { votifierCallback } from './votifier/votifier-callback.js';
import { rconCallback } from './rcon/rcon-callback.js';
import { redisStreamCallback } from './redis-stream/redis-stream-callback.js';
import { amqpCallback } from './amqp/amqp-callback.js';
import { natsCallback } from './nats/nats-callback.js';
import { mqttCallback } from './mqtt/mqtt-callback.js';
import { discordRoleCallback } from './discord-role/discord-role-callback.js';
import { discordDmCallback } from './discord-dm/discord-dm-callback.js';

export const CALLBACK_KINDS: readonly CallbackKind[] = [
  httpCallback,
  votifierCallback,
  rconCallback,
  discordRoleCallback,
  discordDmCallback,
  redisStreamCallback,
  amqpCallback,
  natsCallback,
  mqttCallback,
];
export const CALLBACK_KIND_NAMES = CALLBACK_KINDS.map((k) => k.name);
/** The kind a callback gets when its creator names none (the interface's callbacks are HTTP). */
export const DEFAULT_CALLBACK_KIND = CALLBACK_KINDS[0];

/** The kinds whose jobs a worker's claim marks (CallbackKind.marksWhenClaimed, JobQueue.claim). */
export const MARKED_WHEN_CLAIMED = CALLBACK_KINDS.filter((kind) => kind.marksWhenClaimed).map((kind) => kind.name);

/** Every setting name across the kinds, with its type (GraphQL and REST show the union; each kind reads its own). */
export const ALL_SETTINGS = unionOfFields(CALLBACK_KINDS);

export function callbackKindOf(name: string | null | undefined): CallbackKind | undefined {
  return CALLBACK_KINDS.find((k) => k.name === name);
}

/** What vote planning (src/domain/job-plan.ts, run by the storage's vote writes) needs to know of the kinds. */
export const PLAN_RULES: PlanRules = { testMarkingKinds: CALLBACK_KINDS.filter((kind) => kind.marksTests).map((kind) => kind.name) };
