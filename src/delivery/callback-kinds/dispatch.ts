// A callback's job handed to its kind: the callback's settings opened, what to deliver (a vote or an event), and the
// target the delivery log names. The job kinds (../job-kinds/callback.ts, event.ts) and the test endpoint use it.
import type { AppDeps } from '../../app/deps.js';
import type { Callback } from '../../generated/sqlite/client.js';
import type { JobContext, SendResult } from '../senders.js';
import type { Delivery } from './callback-kind.js';
import { callbackKindOf } from './registry.js';
import { openSettings } from './settings-schema.js';

/** One attempt of a callback's delivery, by its kind. */
export async function sendByKind(deps: AppDeps, ctx: JobContext, delivery: Delivery): Promise<SendResult> {
  const { callback } = ctx;
  if (!callback) return { attempt: null, outcome: { kind: 'skipped' }, error: 'The callback was deleted' };
  const kind = callbackKindOf(callback.kind);
  if (!kind) return { attempt: null, outcome: { kind: 'failed' }, error: `Unknown callback kind ${callback.kind}` };
  return kind.send(deps, { ...ctx, callback, settings: openSettings(kind.settings, callback, deps.secrets), delivery, sending: ctx.sending ?? noMark });
}

/** Where a callback's attempts go, as its kind names it (never with a secret). */
export function targetOf(deps: Pick<AppDeps, 'secrets'>, callback: Callback): string {
  const kind = callbackKindOf(callback.kind);
  return kind ? kind.target(openSettings(kind.settings, callback, deps.secrets)) : '';
}

/**
 * Whether a callback's target can drop a repeat (README "Delivery guarantees"); a deleted callback or an unknown kind
 * is treated as one that cannot (nothing is sent to it blindly).
 */
export function dropsRepeats(callback: Callback | null): boolean {
  return (callback && callbackKindOf(callback.kind)?.dropsRepeats) ?? false;
}

const noMark = async () => {};

/** Whether a callback's kind marks its attempts itself (CallbackKind.marksItself). */
export function marksItself(callback: Callback | null): boolean {
  return (callback && callbackKindOf(callback.kind)?.marksItself) ?? false;
}

/** Whether a callback of this kind can carry this event (README "Rewards"). */
export function kindTakes(kindName: string, event: string): boolean {
  return callbackKindOf(kindName)?.events.includes(event as never) ?? false;
}
