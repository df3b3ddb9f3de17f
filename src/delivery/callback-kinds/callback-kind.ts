// What a kind of callback is (one file per kind, listed in registry.ts): the input fields it adds and their rules,
// how its row is written, what its test render shows, how one delivery attempt is sent, and where it goes.
// Adding a kind means one new file here plus its tests.
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { Callback } from '../../generated/sqlite/client.js';
import type { FieldError } from '../../errors.js';
import type { JobContext, SendResult } from '../senders.js';
import type { VoteTemplateValues } from '../template.js';
import type { EventType } from '../../domain/reward-events.js';

/** The row columns a kind owns (the rest, shared by every kind, are the service's). */
export type KindColumns = Partial<
  Pick<
    Callback,
    'url' | 'host' | 'port' | 'serviceName' | 'votifierTokenEnc' | 'votifierPublicKey' | 'payloadTemplateJson' | 'authSecretEnc' | 'eventTemplatesJson'
  >
>;

/** What the test endpoint answers: the request a delivery would send, with sample values; nothing is sent. */
export interface CallbackTestRender {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload: unknown;
  sent: false;
}

export interface CallbackKind {
  name: string;
  /**
   * Whether its request tells the receiver a vote is a test (README "Test votes"). A kind that cannot (Votifier has
   * no test flag) reaches a game server that would pay the reward, so it gets a test vote only when its sender asks.
   */
  marksTests: boolean;
  /** The events it can carry (README "Rewards"): a Votifier server takes votes only. */
  events: readonly EventType[];
  /** Zod rules of the fields only this kind reads (all optional here; `check` says which are required). */
  fields: Record<string, z.ZodType>;
  /**
   * The kind's own rules over a create (existing = null) or update input, and the target the SSRF guard must
   * accept (as an http URL), with the input field a refusal is reported under.
   */
  check(input: Record<string, unknown>, existing: Callback | null): { problems: FieldError[]; target?: { url: string; field: string } };
  /** Columns for a new callback of this kind. */
  create(input: Record<string, unknown>, deps: AppDeps): KindColumns;
  /** Columns an update changes (only the fields given). */
  update(input: Record<string, unknown>, existing: Callback, deps: AppDeps): KindColumns;
  testRender(deps: AppDeps, callback: Callback, values: VoteTemplateValues, now: Date): CallbackTestRender;
  send(deps: AppDeps, ctx: JobContext): Promise<SendResult>;
  /** Where its attempts go, as the delivery log shows it. */
  target(callback: Callback): string;
}
