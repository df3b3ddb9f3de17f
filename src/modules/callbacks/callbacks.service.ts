// Server callbacks (game servers and other HTTP targets): CRUD, plan limits and timeout ceilings, the test
// render (nothing sent), and signing-secret rotation. Secrets are sealed at rest; auth_secret is never returned.
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { PLAN_LIMITS, planOf } from '../../auth/plans.js';
import { nameSchema, parseInput } from '../../validation.js';
import type { Callback, Organization } from '../../generated/sqlite/client.js';
import { generateSigningSecret } from '../../delivery/signing.js';
import { sampleTemplateValues } from '../../delivery/template-variables.js';
import { DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS } from '../../delivery/callback-defaults.js';
import type { CallbackKind } from '../../delivery/callback-kinds/callback-kind.js';
import { CALLBACK_KINDS, CALLBACK_KIND_NAMES, callbackKindOf } from '../../delivery/callback-kinds/registry.js';

export const MIN_TIMEOUT_MS = 1_000;

// What every kind shares; each kind adds its own fields (delivery/callback-kinds/).
const sharedFields = {
  name: nameSchema,
  timeoutMs: z.number().int('must be an integer'),
  enabled: z.boolean(),
  priority: z.number().int('must be an integer').min(-1_000_000).max(1_000_000),
};
const kindFields = Object.assign({}, ...CALLBACK_KINDS.map((k) => k.fields)) as Record<string, z.ZodType>;
const createSchema = z.object({
  ...Object.fromEntries(Object.entries(kindFields).map(([name, rule]) => [name, rule.optional()])),
  ...sharedFields,
  kind: z.enum(CALLBACK_KIND_NAMES as [string, ...string[]], `must be ${CALLBACK_KIND_NAMES.join(' or ')}`).default('http'),
  timeoutMs: sharedFields.timeoutMs.optional(),
  enabled: sharedFields.enabled.optional(),
  priority: sharedFields.priority.optional(),
});
const updateSchema = z.object({ ...kindFields, ...sharedFields }).partial();

/** Only the fields of `kind` (another kind's fields in an update are ignored, as they always were). */
const ownFields = (kind: CallbackKind, input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([name]) => name in kind.fields));

export interface CreatedCallback {
  callback: Callback;
  signingSecret: string;
}

export function createCallbackService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function get(organizationId: string, id: string): Promise<Callback> {
    const callback = await prisma.callback.findFirst({ where: { id, organizationId } });
    if (!callback) throw notFound('Callback');
    return callback;
  }

  /** The plan's timeout ceiling, the kind's own rules, and the SSRF guard on its target: every problem at once. */
  async function check(org: Organization, kind: CallbackKind, input: Record<string, unknown>, existing: Callback | null) {
    const { problems, target } = kind.check(input, existing);
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

  function list(organizationId: string, includeDisabled: boolean) {
    return prisma.callback.findMany({
      where: { organizationId, ...(includeDisabled ? {} : { enabled: true }) },
      orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async function create(organizationId: string, rawInput: unknown): Promise<CreatedCallback> {
    const input = parseInput(createSchema, rawInput) as Record<string, unknown> & { kind: string; name: string; timeoutMs?: number; enabled?: boolean; priority?: number };
    const kind = callbackKindOf(input.kind)!;
    const own = ownFields(kind, input);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    await check(org, kind, { ...own, timeoutMs: input.timeoutMs }, null);
    const limit = PLAN_LIMITS[planOf(org)].callbacks;
    const current = await prisma.callback.count({ where: { organizationId } });
    if (current >= limit) throw new AppError('PLAN_LIMIT', `Your plan allows ${limit} callbacks`, { limit, current });
    const signingSecret = generateSigningSecret();
    const callback = await prisma.callback.create({
      data: {
        organizationId,
        name: input.name,
        kind: kind.name,
        payloadTemplateJson: JSON.stringify(DEFAULT_PAYLOAD_TEMPLATE),
        ...kind.create(own, deps),
        timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        enabled: input.enabled ?? true,
        priority: input.priority ?? 0,
        signingSecretEnc: deps.secrets.seal(signingSecret),
      },
    });
    return { callback, signingSecret };
  }

  async function update(organizationId: string, id: string, rawInput: unknown): Promise<Callback> {
    const input = parseInput(updateSchema, rawInput) as Record<string, unknown> & { name?: string; timeoutMs?: number; enabled?: boolean; priority?: number };
    const callback = await get(organizationId, id);
    const kind = callbackKindOf(callback.kind)!;
    const own = ownFields(kind, input);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    await check(org, kind, { ...own, timeoutMs: input.timeoutMs }, callback);
    const shared = Object.fromEntries(Object.entries({ name: input.name, timeoutMs: input.timeoutMs, enabled: input.enabled, priority: input.priority }).filter(([, v]) => v !== undefined));
    return prisma.callback.update({ where: { id: callback.id }, data: { ...shared, ...kind.update(own, callback, deps) } });
  }

  async function remove(organizationId: string, id: string): Promise<{ message: string; id: string }> {
    const callback = await get(organizationId, id);
    await prisma.callback.delete({ where: { id: callback.id } });
    return { message: 'Deleted', id: callback.id };
  }

  async function rotateSecret(organizationId: string, id: string): Promise<{ id: string; signingSecret: string }> {
    const callback = await get(organizationId, id);
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

  /** Exactly what a delivery would send, with sample values; nothing is sent. */
  async function test(organizationId: string, id: string) {
    const callback = await get(organizationId, id);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const now = deps.clock.now();
    return callbackKindOf(callback.kind)!.testRender(deps, callback, sampleTemplateValues(now, org), now);
  }


  /** Callbacks with jobs that failed for good in the last 24 hours (a dashboard's "needs attention"). */
  async function failing(organizationId: string) {
    const since = new Date(deps.clock.now().getTime() - 86_400_000);
    const groups = await prisma.deliveryJob.groupBy({
      by: ['callbackId'],
      where: { organizationId, status: 'failed', kind: 'callback', updatedAt: { gte: since }, callbackId: { not: null } },
      _count: { _all: true },
      _max: { updatedAt: true },
    });
    if (groups.length === 0) return [];
    const [callbacks, latest] = await Promise.all([
      prisma.callback.findMany({ where: { organizationId, id: { in: groups.map((g) => g.callbackId!) } } }),
      Promise.all(groups.map((g) => prisma.deliveryJob.findFirst({ where: { callbackId: g.callbackId, status: 'failed' }, orderBy: { updatedAt: 'desc' }, select: { lastError: true } }))),
    ]);
    const byId = new Map(callbacks.map((c) => [c.id, c]));
    return groups
      .map((g, i) => ({ callback: byId.get(g.callbackId!)!, failedLast24h: g._count._all, lastError: latest[i]?.lastError ?? null, lastFailedAt: g._max.updatedAt! }))
      .filter((f) => f.callback)
      .sort((a, b) => b.failedLast24h - a.failedLast24h);
  }

  return { get, list, create, update, remove, rotateSecret, test, failing };
}

export type CallbackService = ReturnType<typeof createCallbackService>;
