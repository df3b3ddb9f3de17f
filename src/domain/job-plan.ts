// Job planning: which delivery jobs a new vote gets, with their order and attempt budgets (the README's Connect a
// game server). Both vote stores call it inside the vote's transaction; the budgets are settings (config.ts).
import type { Config } from '../config/config.js';

/** The deprecated server_callback_url runs after every configured callback. */
export const LEGACY_CALLBACK_PRIORITY = 2_000_000_000;

export interface PlannedJob {
  kind: 'chat' | 'callback' | 'legacy_callback' | 'pull';
  priority: number;
  maxAttempts: number;
  callbackId: string | null;
  /** vote, or recovered when the vote was read from the site's list after an outage (the delivery log shows it). */
  origin: 'vote' | 'recovered';
  /** Its callback was disabled for failing (callback-health.ts): the job waits, held, until it is enabled again. */
  held?: boolean;
}

/**
 * What planning reads of a callback that takes votes: an enabled one, or one disabled for failing (its votes are
 * held for it); its order and the providers it takes (null: all).
 */
export interface PlanningCallback {
  id: string;
  /** Its kind (src/delivery/callback-kinds/): whether it can tell its receiver that a vote is a test (`marksTests`). */
  kind: string;
  priority: number;
  providerIdsJson: string | null;
  enabled: boolean | number;
  /** The events it takes (JSON array; README "Rewards"); absent: votes only. */
  eventsJson?: string | null;
}

/**
 * What planning needs to know of the callback kinds (src/delivery/callback-kinds/, which own it): the kinds that can
 * tell their receiver that a vote is a test (`marksTests`), so a test vote goes to them even when it is not for
 * game servers. Plain data: it crosses to the write thread.
 */
export interface PlanRules {
  testMarkingKinds: readonly string[];
}

/** A test vote's delivery choice: whether game servers (Votifier callbacks, the pull queue) get it too. */
export interface TestPlan {
  deliverToGameServers: boolean;
}

/** Whether a callback takes votes of this provider (routing: `providers` on the callback; none listed = all). */
export function routes(callback: Pick<PlanningCallback, 'providerIdsJson'>, providerId: string): boolean {
  if (!callback.providerIdsJson) return true;
  return routeSetOf(callback.providerIdsJson).has(providerId);
}

// The vote writers read an organization's callbacks once per batch and plan every vote of it against them: each
// distinct route list is parsed once, not once per vote.
const routeSets = new Map<string, Set<string>>();
const ROUTE_SETS_KEPT = 1_000;
function routeSetOf(json: string): Set<string> {
  let set = routeSets.get(json);
  if (!set) {
    if (routeSets.size >= ROUTE_SETS_KEPT) routeSets.clear();
    set = new Set(JSON.parse(json) as string[]);
    routeSets.set(json, set);
  }
  return set;
}

// The events a callback takes, parsed once per distinct list like the routes.
const eventSets = new Map<string, Set<string>>();
/** The events a callback takes (its eventsJson; votes only when unset). */
export function eventsOf(json: string | null | undefined): Set<string> {
  const key = json ?? '["vote"]';
  let set = eventSets.get(key);
  if (!set) {
    if (eventSets.size >= ROUTE_SETS_KEPT) eventSets.clear();
    try {
      set = new Set(JSON.parse(key) as string[]);
    } catch {
      set = new Set(['vote']);
    }
    eventSets.set(key, set);
  }
  return set;
}

/** What planning reads of an organization. */
export interface PlanningOrg {
  chatNotificationsEnabled: boolean;
  chatWebhookUrl: string | null;
  serverCallbackUrl: string | null;
}

/** A job's attempt budget when it is queued again by hand (redeliver): the same as a new vote's. */
export function attemptBudget(config: Config, kind: string): number {
  if (kind === 'chat') return config.chatMaxAttempts;
  if (kind === 'pull') return config.pullMaxAttempts;
  return config.retryScheduleMs.length + 1;
}

/**
 * What a vote of `providerId` triggers; past the monthly limit it is kept but nothing is sent. A test vote (`test`)
 * is never over the limit (it does not count); its chat message and HTTP callbacks say it is a test.
 */
export function planJobs(
  config: Config,
  org: PlanningOrg,
  providerId: string,
  callbacks: PlanningCallback[],
  overLimit: boolean,
  pull = false,
  recovered = false,
  test: TestPlan | null = null,
  rules: PlanRules = { testMarkingKinds: [] },
): PlannedJob[] {
  if (overLimit) return [];
  const toGameServers = !test || test.deliverToGameServers;
  const callbackAttempts = attemptBudget(config, 'callback');
  const origin = recovered ? ('recovered' as const) : ('vote' as const);
  return [
    ...(org.chatNotificationsEnabled && org.chatWebhookUrl
      ? [{ kind: 'chat' as const, priority: 0, maxAttempts: config.chatMaxAttempts, callbackId: null, origin }]
      : []),
    ...callbacks
      .filter((cb) => eventsOf(cb.eventsJson).has('vote') && routes(cb, providerId) && (toGameServers || rules.testMarkingKinds.includes(cb.kind)))
      .map((cb) => ({ kind: 'callback' as const, priority: cb.priority, maxAttempts: callbackAttempts, callbackId: cb.id, origin, held: !cb.enabled })),
    ...(org.serverCallbackUrl
      ? [{ kind: 'legacy_callback' as const, priority: LEGACY_CALLBACK_PRIORITY, maxAttempts: callbackAttempts, callbackId: null, origin }]
      : []),
    // Game-server plugins that poll (behind NAT) take the vote from the pull queue.
    ...(pull && toGameServers ? [{ kind: 'pull' as const, priority: 0, maxAttempts: config.pullMaxAttempts, callbackId: null, origin }] : []),
  ];
}

/** A new vote's chat and callback statuses: pending when it has such a job to send, skipped otherwise. */
export function initialStatuses(planned: PlannedJob[]): { chatStatus: 'pending' | 'skipped'; callbackStatus: 'pending' | 'skipped' } {
  return {
    chatStatus: planned.some((j) => j.kind === 'chat') ? 'pending' : 'skipped',
    callbackStatus: planned.some((j) => j.kind !== 'chat') ? 'pending' : 'skipped',
  };
}
