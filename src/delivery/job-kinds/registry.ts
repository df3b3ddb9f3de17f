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

export function jobKindOf(name: string): JobKind | undefined {
  return byName.get(name);
}
