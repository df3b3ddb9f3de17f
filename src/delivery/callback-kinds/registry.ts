// Every kind of callback (one file each). The service's input rules, the GraphQL enum, the test render, the
// worker's dispatch and the delivery log's target all come from here.
import type { CallbackKind } from './callback-kind.js';
import type { PlanRules } from '../../domain/job-plan.js';
import { httpCallback } from './http.js';
import { votifierCallback } from './votifier.js';

export const CALLBACK_KINDS: readonly CallbackKind[] = [httpCallback, votifierCallback];
export const CALLBACK_KIND_NAMES = CALLBACK_KINDS.map((k) => k.name);

export function callbackKindOf(name: string | null | undefined): CallbackKind | undefined {
  return CALLBACK_KINDS.find((k) => k.name === name);
}

/** What vote planning (src/domain/job-plan.ts, run by the storage's vote writes) needs to know of the kinds. */
export const PLAN_RULES: PlanRules = { testMarkingKinds: CALLBACK_KINDS.filter((kind) => kind.marksTests).map((kind) => kind.name) };
