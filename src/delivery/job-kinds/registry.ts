// Every kind of delivery job the worker sends (one file each). Pull jobs are not here: plugins take them
// (src/modules/plugin/).
import type { JobKind } from './job-kind.js';
import { alertJob } from './alert.js';
import { callbackJob } from './callback.js';
import { chatJob } from './chat.js';
import { eventJob } from './event.js';
import { legacyCallbackJob } from './legacy-callback.js';
import { postJob } from './post.js';

const JOB_KINDS: readonly JobKind[] = [chatJob, callbackJob, legacyCallbackJob, alertJob, eventJob, postJob];
const byName = new Map(JOB_KINDS.map((kind) => [kind.name, kind]));

export function jobKindOf(name: string): JobKind | undefined {
  return byName.get(name);
}
