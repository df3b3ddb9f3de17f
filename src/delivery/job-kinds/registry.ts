// Every kind of delivery job the worker sends (one file each). Pull jobs are not here: plugins take them
// (src/modules/plugin/).
import type { JobKind } from './job-kind.js';
import type { JobKindName, PULLED_KINDS } from '../../domain/jobs.js';
import { alertJob } from './alert.js';
import { callbackJob } from './callback.js';
import { chatJob } from './chat.js';
import { eventJob } from './event.js';
import { legacyCallbackJob } from './legacy-callback.js';
import { postJob } from './post.js';

/** One entry per name of src/domain/jobs.ts JOB_KINDS that the worker sends (all but the pulled ones). */
const SENT_JOB_KINDS: Record<Exclude<JobKindName, (typeof PULLED_KINDS)[number]>, JobKind> = {
  chat: chatJob,
  callback: callbackJob,
  legacy_callback: legacyCallbackJob,
  alert: alertJob,
  event: eventJob,
  post: postJob,
};
const byName = new Map<string, JobKind>(Object.entries(SENT_JOB_KINDS));

/** What the kinds the worker does not send are: taken by plugins. */
const PULLED_SUMMARIES: Record<(typeof PULLED_KINDS)[number], string> = { pull: 'a vote a Minecraft plugin takes (GET /v1/plugin/votes)' };
const isPulled = (name: JobKindName): name is (typeof PULLED_KINDS)[number] => Object.hasOwn(PULLED_SUMMARIES, name);

/** What a job of any kind is, sent or pulled (GraphQL `DeliveryJobKind` describes each value with it). */
export function jobKindSummary(name: JobKindName): string {
  return isPulled(name) ? PULLED_SUMMARIES[name] : SENT_JOB_KINDS[name].summary;
}

export function jobKindOf(name: string): JobKind | undefined {
  return byName.get(name);
}
