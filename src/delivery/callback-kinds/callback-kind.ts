// What a kind of callback is: one folder under callback-kinds/ holds all of it, listed by one line in registry.ts.
// Its settings are one list of fields (settings-schema.ts) from which the service's input rules, the GraphQL input
// and output fields, the REST body and answer, the OpenAPI schema and the dashboard's form are all derived; the kind
// adds its events, its own cross-field rules, its test render and its send. Nothing outside its folder names it.
import type { AppDeps } from '../../app/deps.js';
import type { Callback } from '../../generated/sqlite/client.js';
import type { FieldError } from '../../base/errors.js';
import type { EventData, EventType } from '../../domain/reward-events.js';
import type { JobContext, SendResult } from '../senders.js';
import type { Lookup } from '../template.js';
import type { SettingField, SettingValues } from './settings-schema.js';

/** What the test endpoint answers: the request a delivery would send with sample values, or what a live check saw. */
export interface CallbackTestRender {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload: unknown;
  /** true only for a kind whose test talks to its target (RCON runs `list`); nothing is ever delivered. */
  sent: boolean;
  /** What the live check saw, in words ("logged in; 3 players online: …"); null for a render. */
  message?: string | null;
}

/** One delivery of a callback's job: a vote (`data` null) or an event beyond it, with its template variables. */
export interface Delivery {
  event: EventType;
  data: EventData | null;
  lookup: Lookup;
  /** A test vote (README "Test votes"). */
  test: boolean;
}

/** What a kind's send is given: the job's context, the callback's settings (secrets opened), and what to deliver. */
export interface KindSendContext extends JobContext {
  callback: Callback;
  /** See JobContext.sending: marks the attempt (a no-op when the worker marked it already, or need not). */
  sending: () => Promise<void>;
  settings: SettingValues;
  delivery: Delivery;
}

export interface CallbackKind {
  name: string;
  /** How the dashboard names it in the kind picker ("RCON: game-server commands, no plugin"). */
  label: string;
  /** One sentence for the GraphQL enum and the form. */
  description: string;
  /**
   * Whether its request tells the receiver a vote is a test (README "Test votes"). A kind that cannot (Votifier, RCON
   * commands) reaches a game server that would pay the reward, so it gets a test vote only when its sender asks.
   */
  marksTests: boolean;
  /** The events it can carry (README "Rewards"). */
  events: readonly EventType[];
  /**
   * Whether its target can drop a repeat (README "Delivery guarantees"): an HTTP receiver by `webhook-id`, a broker by
   * the message id, a role grant by being one. One that cannot (Votifier, RCON commands, a DM) has each attempt marked
   * before it leaves, and an attempt cut short by a crash ends `uncertain` instead of being sent again.
   */
  dropsRepeats: boolean;
  /**
   * For a kind that cannot drop a repeat: its send marks the attempt itself, through `ctx.sending()`, and awaits the
   * mark before anything that rewards leaves. RCON asks right before its first command, so that a crash leaves
   * uncertain only what had really started; Votifier asks as it connects and awaits before writing the vote, so that
   * the mark's commit overlaps the connection instead of delaying it.
   */
  marksItself?: boolean;
  /**
   * For a kind that marks itself: its send starts as soon as its worker takes it (no queue of its own, no wait for an
   * online player), so on PostgreSQL a worker's claim writes the mark of an enabled, unpaced callback's job in the
   * claim's own statement (JobQueue.claim), and the send then needs no mark of its own. A job handed over by its vote's
   * write (not claimed), and every job on SQLite, is marked by its send. A job claimed so is marked while it loads,
   * and, behind an earlier callback of its vote, while that one is sent: a crash then may leave uncertain one that had
   * not left yet.
   */
  marksWhenClaimed?: boolean;
  /** Its requests are signed with the callback's signing secret (Standard Webhooks), which it then shows and rotates. */
  signed: boolean;
  /** The longest voter name its target takes (a Votifier server refuses names over 16 characters); none: no limit. */
  maxVoterName?: number;
  /** Its settings; their names are unique across kinds unless two kinds give one name the same type. */
  settings: readonly SettingField[];
  /**
   * Rules over several fields of a create (existing = null) or an update (only the fields given), beyond each field's
   * own, and the target the SSRF guard must accept (as an http URL), with the field a refusal is reported under.
   */
  check?(input: SettingValues, existing: SettingValues | null): { problems: FieldError[]; target?: { url: string; field: string } | null };
  /** Settings an update changes besides those given (a Votifier token replaces the public key). */
  alsoChanges?(input: SettingValues): SettingValues;
  /** Where its attempts go, as the delivery log and the dashboard show it (no secret in it). */
  target(settings: SettingValues): string;
  /** The test endpoint: a render with sample values (nothing sent), or a live check of the target. */
  test(deps: AppDeps, callback: Callback, settings: SettingValues, delivery: Delivery, now: Date): Promise<CallbackTestRender> | CallbackTestRender;
  /** One attempt of one delivery. */
  send(deps: AppDeps, ctx: KindSendContext): Promise<SendResult>;
  /**
   * Work of its own beside the sends, run by the delivery worker while it runs (RCON: asking servers that hold parked
   * votes who is online); `wake` tells the worker that jobs are due now.
   */
  background?(deps: AppDeps, wake: () => void): { stop(): Promise<void> };
}
