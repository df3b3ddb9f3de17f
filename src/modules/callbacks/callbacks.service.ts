// Server callbacks (game servers and other HTTP targets): CRUD, plan limits and timeout ceilings, the test
// render (nothing sent), and signing-secret rotation. Secrets are sealed at rest; auth_secret is never returned.
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { AppError, notFound, validationError } from '../../base/errors.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import { nameSchema, parseInput } from '../../base/validation.js';
import type { Callback, Organization } from '../../generated/sqlite/client.js';
import { generateSigningSecret } from '../../delivery/signing.js';
import { sampleTemplateValues } from '../../delivery/template-variables.js';
import { DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS } from '../../delivery/callback-defaults.js';
import type { CallbackKind, CallbackTestRender } from '../../delivery/callback-kinds/callback-kind.js';
import { ALL_SETTINGS, CALLBACK_KIND_NAMES, DEFAULT_CALLBACK_KIND, callbackKindOf } from '../../delivery/callback-kinds/registry.js';
import { inputRule, missingOnCreate, openSettings, restName, settingsColumns, type SettingValues } from '../../delivery/callback-kinds/settings-schema.js';
import { holdJobs, resumeJobs } from '../../delivery/callback-health.js';
import { attemptBudget, eventsOf } from '../../domain/job-plan.js';
import { TO_CALLBACKS, voteStatusFrom } from '../../domain/jobs.js';
import { parseBound } from '../../base/date-range.js';
import { REAL_VOTES } from '../../domain/votes.js';
import { EVENT_TYPES, type EventData, type EventType } from '../../domain/reward-events.js';
import { eventLookup } from '../../delivery/job-kinds/event.js';
import { voteLookup, type VoteTemplateValues } from '../../delivery/template.js';

export const MIN_TIMEOUT_MS = 1_000;

// What every kind shares; each kind adds its own fields (delivery/callback-kinds/).
const sharedFields = {
  name: nameSchema,
  timeoutMs: z.number().int('must be an integer'),
  enabled: z.boolean(),
  priority: z.number().int('must be an integer').min(-1_000_000).max(1_000_000),
  // Routing: the provider keys whose votes it takes; empty = every provider.
  providers: z.array(z.string().min(1).max(100)).max(100, 'must list at most 100 providers'),
  // The events it takes (README "Rewards"); default ["vote"].
  events: z
    .array(z.enum(EVENT_TYPES, `each must be one of ${EVENT_TYPES.join(', ')}`))
    .min(1, 'must list at least one event')
    .refine((list) => new Set(list).size === list.length, 'lists an event twice'),
  // Pacing: at most this many deliveries start per second; null = no limit.
  maxPerSecond: z.number().int('must be an integer').min(1, 'must be at least 1').max(1_000, 'must be at most 1000').nullable(),
};
// Each kind's own settings are checked by that kind's rules (ownSettings); here they only pass through.
const kindFields = Object.fromEntries(ALL_SETTINGS.map((setting) => [setting.name, z.unknown().optional()]));
/** createCallback's input rule (graphql/input-rules.ts); the kind's own settings are checked in create() by its rules. */
export const createCallbackInput = z.object({
  ...kindFields,
  ...sharedFields,
  kind: z.enum(CALLBACK_KIND_NAMES as [string, ...string[]], `must be one of ${CALLBACK_KIND_NAMES.join(', ')}`).default(DEFAULT_CALLBACK_KIND.name),
  timeoutMs: sharedFields.timeoutMs.optional(),
  enabled: sharedFields.enabled.optional(),
  priority: sharedFields.priority.optional(),
  providers: sharedFields.providers.optional(),
  maxPerSecond: sharedFields.maxPerSecond.optional(),
  events: sharedFields.events.optional(),
});
/** replayCallback's arguments, its rule (graphql/input-rules.ts). */
export const replayCallbackArgs = z.object({
  id: z.string(),
  since: z.string().min(1, 'is required'),
  until: z.string().min(1).nullish(),
  onlyFailed: z.boolean().nullish(),
});

const REPLAY_CHUNK = 500;
/** updateCallback's input rule: only the fields given change. */
export const updateCallbackInput = z.object({ ...kindFields, ...sharedFields }).partial();

/**
 * The settings of `kind` in an input, checked by the kind's own rules; another kind's setting (a Votifier callback's
 * `event_templates`, an HTTP one's `host`) is refused by name, never dropped.
 */
function ownSettings(kind: CallbackKind, input: Record<string, unknown>): SettingValues {
  const own = new Set(kind.settings.map((f) => f.name));
  const foreign = Object.keys(input).filter((name) => name in kindFields && !own.has(name) && input[name] !== undefined);
  if (foreign.length > 0) {
    throw validationError(foreign.map((name) => ({ field: restName(name), message: `a ${kind.name} callback does not take it` })));
  }
  const given = Object.fromEntries(Object.entries(input).filter(([name]) => own.has(name) && input[name] !== undefined));
  return parseInput(z.object(Object.fromEntries(kind.settings.map((f) => [f.name, inputRule(f)]))), given);
}

/** An event with sample values, for the test render (the vote's own values are the sample vote's). */
function sampleEvent(event: Exclude<EventType, 'vote'>, values: VoteTemplateValues, now: Date): EventData {
  switch (event) {
    case 'milestone':
      return { event, milestone: { type: 'total', every: 10, value: 10, rule: 0 } };
    case 'vote_party':
      return { event, party: { count: 100, every: 100, number: 1, provider: null } };
    case 'reminder':
      return {
        event,
        reminder: {
          voterName: values.voter_name,
          providerKey: values.provider_key,
          providerName: values.provider_name,
          voteUrl: 'https://example.com/vote',
          nextVoteAt: now.toISOString(),
        },
      };
  }
}

export interface CreatedCallback {
  callback: Callback;
  /** null for kinds that are not signed (votifier). */
  signingSecret: string | null;
}

/** How far back the dashboard's failing-callbacks panel looks for failed attempts. */
export const FAILING_WINDOW_MS = 86_400_000;

/**
 * A callback's health as the panel tells it: disabled (with a reason); retrying (deliveries wait for another
 * attempt); failing (its last attempt failed and nothing is left to retry); recovered (it failed in the window,
 * and its last attempt succeeded).
 */
export type FailingCallbackState = 'disabled' | 'retrying' | 'failing' | 'recovered';
export const FAILING_CALLBACK_STATES: FailingCallbackState[] = ['disabled', 'retrying', 'failing', 'recovered'];

export interface FailingCallback {
  callback: Callback;
  state: FailingCallbackState;
  /** Failed attempts in the last 24 hours, whatever became of their deliveries. */
  failedAttemptsLast24h: number;
  /** Deliveries waiting for another attempt now. */
  retryingDeliveries: number;
  /** Deliveries given up (failed for good) in the last 24 hours. */
  failedLast24h: number;
  lastError: string | null;
  lastFailedAt: Date;
}

function stateOf(callback: Callback, retryingDeliveries: number): FailingCallbackState {
  if (callback.disabledReason) return 'disabled';
  if (retryingDeliveries > 0) return 'retrying';
  return callback.failingSince ? 'failing' : 'recovered';
}

export interface Replayed {
  callbackId: string;
  queued: number;
  since: Date;
  until: Date;
  onlyFailed: boolean;
}

export function createCallbackService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function get(organizationId: string, id: string): Promise<Callback> {
    const callback = await prisma.callback.findFirst({ where: { id, organizationId } });
    if (!callback) throw notFound('Callback');
    return callback;
  }

  /** The plan's timeout ceiling, the kind's own rules, and the SSRF guard on its target: every problem at once. */
  async function check(org: Organization, kind: CallbackKind, input: SettingValues & { timeoutMs?: number; events?: string[] }, existing: Callback | null) {
    const before = existing ? openSettings(kind.settings, existing, deps.secrets) : null;
    const { problems, target } = kind.check?.(input, before) ?? { problems: [] };
    if (!existing) problems.unshift(...missingOnCreate(kind.name, kind.settings, input));
    const carried = Array.isArray(input.events) ? (input.events as string[]).filter((e) => !kind.events.includes(e as never)) : [];
    if (carried.length > 0)
      problems.push({ field: 'events', message: `a ${kind.name} callback takes ${kind.events.join(', ')} only, not ${carried.join(', ')}` });
    if (typeof input.timeoutMs === 'number') {
      const ceiling = PLAN_LIMITS[planOf(org)].callbackTimeoutMsCeiling;
      if (input.timeoutMs < MIN_TIMEOUT_MS || input.timeoutMs > ceiling) {
        problems.push({ field: 'timeout_ms', message: `must be between ${MIN_TIMEOUT_MS} and ${ceiling} on the ${org.plan} plan` });
      }
    }
    if (target) {
      const reason = await deps.http.checkTarget(target.url);
      if (reason) problems.push({ field: target.field, message: reason });
    }
    if (problems.length > 0) throw validationError(problems);
  }

  /** Provider keys → the JSON list of their ids (null: every provider); an unknown key is the caller's error. */
  async function routesOf(organizationId: string, keys: string[] | undefined): Promise<string | null | undefined> {
    if (keys === undefined) return undefined;
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return null;
    const found = await prisma.provider.findMany({ where: { organizationId, key: { in: wanted } }, select: { id: true, key: true } });
    const missing = wanted.filter((key) => !found.some((p) => p.key === key));
    if (missing.length > 0) throw validationError([{ field: 'providers', message: `no provider with key ${missing.join(', ')}` }]);
    return JSON.stringify(found.map((p) => p.id).sort());
  }

  function list(organizationId: string, includeDisabled: boolean) {
    return prisma.callback.findMany({
      where: { organizationId, ...(includeDisabled ? {} : { enabled: true }) },
      orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async function create(organizationId: string, input: z.output<typeof createCallbackInput>): Promise<CreatedCallback> {
    const kind = callbackKindOf(input.kind)!;
    const own = ownSettings(kind, input);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    await check(org, kind, { ...own, timeoutMs: input.timeoutMs, events: input.events }, null);
    const providerIdsJson = await routesOf(organizationId, input.providers);
    const limit = PLAN_LIMITS[planOf(org)].callbacks;
    const current = await prisma.callback.count({ where: { organizationId } });
    if (current >= limit) throw new AppError('PLAN_LIMIT', `Your plan allows ${limit} callbacks`, { limit, current });
    const signingSecret = generateSigningSecret();
    const callback = await prisma.callback.create({
      data: {
        organizationId,
        name: input.name,
        kind: kind.name,
        // A column older than the settings column, which every row must fill; only the HTTP kind reads it.
        payloadTemplateJson: JSON.stringify(DEFAULT_PAYLOAD_TEMPLATE),
        ...settingsColumns(kind.settings, own, deps.secrets, null),
        timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        enabled: input.enabled ?? true,
        priority: input.priority ?? 0,
        providerIdsJson: providerIdsJson ?? null,
        maxPerSecond: input.maxPerSecond ?? null,
        ...(input.events ? { eventsJson: JSON.stringify(input.events) } : {}),
        signingSecretEnc: deps.secrets.seal(signingSecret),
      },
    });
    return { callback, signingSecret: kind.signed ? signingSecret : null };
  }

  async function update(organizationId: string, id: string, input: z.output<typeof updateCallbackInput>): Promise<Callback> {
    const callback = await get(organizationId, id);
    const kind = callbackKindOf(callback.kind)!;
    const own = ownSettings(kind, input);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    await check(org, kind, { ...own, timeoutMs: input.timeoutMs, events: input.events }, callback);
    const providerIdsJson = await routesOf(organizationId, input.providers);
    if (input.enabled === true && callback.providerIdsJson === '[]' && providerIdsJson === undefined) {
      throw validationError([{ field: 'providers', message: 'its providers were deleted: give the providers it takes (an empty list for all of them)' }]);
    }
    const shared = Object.fromEntries(
      Object.entries({
        name: input.name,
        timeoutMs: input.timeoutMs,
        enabled: input.enabled,
        priority: input.priority,
        providerIdsJson,
        maxPerSecond: input.maxPerSecond,
        eventsJson: input.events ? JSON.stringify(input.events) : undefined,
      }).filter(([, v]) => v !== undefined),
    );
    const now = deps.clock.now();
    // Enabling again clears the reason and the run of failures, and its held votes resume (callback-health.ts);
    // disabling by hand holds what waits to be sent (a callback disabled by hand takes no new votes).
    const enabling = input.enabled === true && !callback.enabled;
    const disabling = input.enabled === false && callback.enabled;
    const health = enabling ? { disabledReason: null, disabledAt: null, failingSince: null } : {};
    const settings = settingsColumns(kind.settings, { ...own, ...kind.alsoChanges?.(own) }, deps.secrets, callback);
    const updated = await prisma.callback.update({ where: { id: callback.id }, data: { ...shared, ...health, ...settings } });
    if (enabling) await resumeJobs(deps, callback.id, now);
    if (disabling) await holdJobs(prisma, callback.id);
    return updated;
  }

  /**
   * Queues this callback's delivery of every vote received in [since, until) again (only those whose last delivery
   * to it failed, with onlyFailed): each a new delivery (its own webhook-id), paced like any other.
   */
  async function replay(organizationId: string, input: z.output<typeof replayCallbackArgs>): Promise<Replayed> {
    const callback = await get(organizationId, input.id);
    if (!callback.enabled) throw validationError([{ field: 'enabled', message: 'the callback is disabled; enable it first (its held votes resume then)' }]);
    if (!eventsOf(callback.eventsJson).has('vote'))
      throw validationError([{ field: 'events', message: 'the callback does not take votes (its events), so it has none to resend' }]);
    const now = deps.clock.now();
    const since = parseBound(input.since, 'since', false);
    // [since, until): a date-only until covers that whole UTC day; a timestamp is the first instant left out.
    const until = input.until ? parseBound(input.until, 'until', /^\d{4}-\d{2}-\d{2}$/.test(input.until.trim())) : now;
    if (since.getTime() >= until.getTime()) throw validationError([{ field: 'since', message: 'must be before until' }]);
    const onlyFailed = input.onlyFailed ?? false;
    const routed = callback.providerIdsJson ? (JSON.parse(callback.providerIdsJson) as string[]) : null;
    const where = {
      organizationId,
      overLimit: false,
      ...REAL_VOTES, // a replay resends real votes only; a test vote never reaches a game server unasked (README "Test votes")
      receivedAt: { gte: since, lt: until },
      ...(routed ? { providerId: { in: routed } } : {}),
      ...(onlyFailed ? { jobs: { some: { callbackId: callback.id, kind: 'callback', status: 'failed' } } } : {}),
    };
    const [total, waiting] = await Promise.all([
      prisma.vote.count({ where }),
      prisma.deliveryJob.count({ where: { callbackId: callback.id, origin: 'replay', status: { in: ['pending', 'retrying', 'running', 'held'] } } }),
    ]);
    const max = deps.config.replayMaxVotes;
    if (total > max)
      throw validationError([{ field: 'since', message: `the window holds ${total} votes; replay at most ${max} at a time (a shorter window)` }]);
    // Replays of one callback waiting to be sent stay bounded (a key cannot fill the queue by replaying again and again).
    if (waiting + total > max) {
      throw new AppError('RATE_LIMITED', `${waiting} replayed deliveries of this callback are still waiting; replay again once they are sent`, {
        retry_after_seconds: 60,
      });
    }
    const budget = attemptBudget(deps.config, 'callback');
    let queued = 0;
    let cursor: string | undefined;
    for (;;) {
      const votes = await prisma.vote.findMany({
        where,
        select: { id: true, jobs: { select: { kind: true, status: true, attempts: true, sentAt: true, callbackId: true, createdAt: true } } },
        orderBy: { id: 'asc' },
        take: REPLAY_CHUNK,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      if (votes.length === 0) break;
      cursor = votes[votes.length - 1].id;
      // only_failed: the vote's latest delivery to this callback is the failed one (a replay since may have sent it).
      const chosen = onlyFailed
        ? votes.filter(
            (v) =>
              v.jobs.filter((j) => j.callbackId === callback.id && j.kind === 'callback').sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
                ?.status === 'failed',
          )
        : votes;
      if (chosen.length === 0) continue;
      await prisma.$transaction(async (tx) => {
        await deps.jobs.enqueue(
          tx,
          chosen.map((v) => ({
            organizationId,
            voteId: v.id,
            callbackId: callback.id,
            kind: 'callback',
            priority: callback.priority,
            maxAttempts: budget,
            runAt: now,
            origin: 'replay',
          })),
        );
        // The new job is its callback's latest: the vote's callback status follows it (src/domain/jobs.ts voteStatusFrom).
        const byStatus = new Map<string, string[]>();
        for (const v of chosen) {
          const status = voteStatusFrom([
            ...v.jobs,
            { kind: 'callback', status: 'pending', attempts: 0, sentAt: null, callbackId: callback.id, createdAt: now.getTime() + 1 },
          ]);
          byStatus.set(status.callbackStatus, [...(byStatus.get(status.callbackStatus) ?? []), v.id]);
        }
        for (const [callbackStatus, ids] of byStatus) await tx.vote.updateMany({ where: { id: { in: ids } }, data: { callbackStatus } });
      });
      queued += chosen.length;
    }
    // Replayed jobs are claimed now rather than at the next poll.
    if (queued > 0) deps.handoff.wake();
    return { callbackId: callback.id, queued, since, until, onlyFailed };
  }

  async function remove(organizationId: string, id: string): Promise<{ message: string; id: string }> {
    const callback = await get(organizationId, id);
    // Held votes go back to the queue first, where a worker finds the callback gone and settles them as skipped.
    await resumeJobs(deps, callback.id, deps.clock.now());
    await prisma.callback.delete({ where: { id: callback.id } });
    return { message: 'Deleted', id: callback.id };
  }

  async function rotateSecret(organizationId: string, id: string): Promise<{ id: string; signingSecret: string }> {
    const callback = await get(organizationId, id);
    if (!callbackKindOf(callback.kind)?.signed)
      throw validationError([{ field: 'kind', message: `a ${callback.kind} callback is not signed: it has no signing secret` }]);
    const signingSecret = generateSigningSecret();
    // The replaced secret keeps signing beside the new one for SIGNING_SECRET_OVERLAP (24 h), so the receiver can
    // be given the new one without a delivery failing meanwhile. A second rotation drops the oldest.
    const until = new Date(deps.clock.now().getTime() + deps.config.signingSecretOverlapMs);
    await prisma.callback.update({
      where: { id: callback.id },
      data: { signingSecretEnc: deps.secrets.seal(signingSecret), previousSigningSecretEnc: callback.signingSecretEnc, previousSigningSecretUntil: until },
    });
    return { id: callback.id, signingSecret };
  }

  /**
   * Exactly what a delivery would send, with sample values; nothing is sent. `event` (default vote): an event it takes
   * (README "Rewards"), rendered from its template for that event, or the event's default.
   */
  async function test(organizationId: string, id: string, event?: string | null): Promise<CallbackTestRender> {
    const callback = await get(organizationId, id);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const now = deps.clock.now();
    const values = sampleTemplateValues(now, org);
    const kind = callbackKindOf(callback.kind)!;
    const settings = openSettings(kind.settings, callback, deps.secrets);
    if (!event || event === 'vote') return kind.test(deps, callback, settings, { event: 'vote', data: null, lookup: voteLookup(values), test: false }, now);
    if (!kind.events.includes(event as EventType) || !eventsOf(callback.eventsJson).has(event))
      throw validationError([{ field: 'event', message: `the callback does not take ${event} events (its events)` }]);
    const data = sampleEvent(event as Exclude<EventType, 'vote'>, values, now);
    const lookup = eventLookup(data, data.event === 'reminder' ? null : voteLookup(values), org);
    return kind.test(deps, callback, settings, { event: data.event, data, lookup, test: false }, now);
  }

  /**
   * Callbacks that need attention (a dashboard's): any failed attempt in the last 24 hours — deliveries retrying
   * now, given up, or failed before the callback recovered — most failed attempts first, then those disabled with a
   * reason (after failing for CALLBACK_DISABLE_AFTER, or left without providers).
   */
  async function failing(organizationId: string): Promise<FailingCallback[]> {
    const now = deps.clock.now().getTime();
    const since = new Date(now - FAILING_WINDOW_MS);
    const [attempts, retrying, givenUp, disabled] = await Promise.all([
      failedAttemptsSince(organizationId, since),
      prisma.deliveryJob.groupBy({
        by: ['callbackId'],
        where: { organizationId, kind: { in: [...TO_CALLBACKS] }, status: 'retrying', callbackId: { not: null } },
        _count: { _all: true },
      }),
      prisma.deliveryJob.groupBy({
        by: ['callbackId'],
        where: { organizationId, status: 'failed', kind: { in: [...TO_CALLBACKS] }, updatedAt: { gte: since }, callbackId: { not: null } },
        _count: { _all: true },
      }),
      prisma.callback.findMany({ where: { organizationId, disabledReason: { not: null } }, orderBy: { disabledAt: 'desc' } }),
    ]);
    const retryingBy = new Map(retrying.map((g) => [g.callbackId!, g._count._all]));
    const givenUpBy = new Map(givenUp.map((g) => [g.callbackId!, g._count._all]));
    // Deliveries retrying now belong on the panel even when their failures are older than the window.
    const ids = [...new Set([...attempts.map((a) => a.callbackId), ...retryingBy.keys()])];
    const callbacks = ids.length ? await prisma.callback.findMany({ where: { organizationId, id: { in: ids } } }) : [];
    const attemptsBy = new Map(attempts.map((a) => [a.callbackId, a]));
    // (rare: a retry schedule longer than the window) the retrying job's own last error and time stand in.
    for (const id of retryingBy.keys()) {
      if (attemptsBy.has(id)) continue;
      const job = await prisma.deliveryJob.findFirst({
        where: { organizationId, callbackId: id, status: 'retrying' },
        orderBy: { updatedAt: 'desc' },
        select: { lastError: true, updatedAt: true },
      });
      if (job) attemptsBy.set(id, { callbackId: id, failedAttempts: 0, lastError: job.lastError, lastFailedAt: job.updatedAt });
    }
    const withFailures = callbacks
      .filter((c) => !c.disabledReason || attemptsBy.has(c.id))
      .map((callback): FailingCallback => {
        const seen = attemptsBy.get(callback.id);
        const retryingDeliveries = retryingBy.get(callback.id) ?? 0;
        return {
          callback,
          state: stateOf(callback, retryingDeliveries),
          failedAttemptsLast24h: seen?.failedAttempts ?? 0,
          retryingDeliveries,
          failedLast24h: givenUpBy.get(callback.id) ?? 0,
          lastError: seen?.lastError ?? null,
          lastFailedAt: seen?.lastFailedAt ?? callback.updatedAt,
        };
      })
      .sort((x, y) => y.failedAttemptsLast24h - x.failedAttemptsLast24h || y.lastFailedAt.getTime() - x.lastFailedAt.getTime());
    const listed = new Set(withFailures.map((f) => f.callback.id));
    const onlyDisabled = disabled
      .filter((c) => !listed.has(c.id))
      .map(
        (c): FailingCallback => ({
          callback: c,
          state: 'disabled',
          failedAttemptsLast24h: 0,
          retryingDeliveries: 0,
          failedLast24h: 0,
          lastError: c.disabledReason,
          lastFailedAt: c.disabledAt ?? c.updatedAt,
        }),
      );
    return [...withFailures, ...onlyDisabled];
  }

  /**
   * Failed callback attempts since `since`, per callback, with the newest one's time and error. Jobs are found by
   * the (organizationId, kind, status, runAt) index: a job with a failed attempt in the window either had a retry
   * scheduled after it (runAt later than the failure) or was given up right after the attempt that fell due at
   * runAt, so looking one more window back for runAt finds every such job without reading older history.
   */
  async function failedAttemptsSince(
    organizationId: string,
    since: Date,
  ): Promise<{ callbackId: string; failedAttempts: number; lastFailedAt: Date; lastError: string | null }[]> {
    const dueSince = new Date(since.getTime() - FAILING_WINDOW_MS);
    return deps.db.reports.failedAttemptsSince(organizationId, dueSince, since);
  }

  /** How many callbacks the organization has, disabled ones too (what the plan's limit counts). */
  const count = (organizationId: string) => prisma.callback.count({ where: { organizationId } });

  return { get, list, count, create, update, remove, rotateSecret, test, failing, replay };
}

export type CallbackService = ReturnType<typeof createCallbackService>;
