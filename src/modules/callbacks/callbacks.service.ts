// Server callbacks (game servers and other HTTP targets): CRUD, plan limits and timeout ceilings, the test
// render (nothing sent), and signing-secret rotation. Secrets are sealed at rest; auth_secret is never returned.
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { PLAN_LIMITS, planOf } from '../../auth/plans.js';
import { nameSchema, parseInput } from '../../validation.js';
import type { Callback, Organization } from '../../generated/sqlite/client.js';
import { generateSigningSecret, signingSecretsOf, standardWebhookHeaders } from '../../delivery/signing.js';
import { renderJson, voteLookup } from '../../delivery/template.js';
import { sampleTemplateValues } from '../../delivery/template-variables.js';
import { DEFAULT_VOTIFIER_PORT, parseVotifierPublicKey, v1Block, v1Plaintext, v2Frame, v2Message } from '../../delivery/votifier.js';

const CHALLENGE_PLACEHOLDER = '<challenge from the server greeting>';

/** What a votifier delivery would send for a sample vote (the real challenge comes from the server's greeting). */
function votifierTestFrame(deps: AppDeps, callback: Callback, username: string, now: Date) {
  const vote = { serviceName: callback.serviceName ?? 'VoteRelay', username, address: '127.0.0.1', timestamp: now.getTime() };
  const target = `votifier://${callback.host}:${callback.port}`;
  if (callback.votifierTokenEnc) {
    const message = v2Message(vote, deps.secrets.open(callback.votifierTokenEnc), CHALLENGE_PLACEHOLDER);
    const frame = v2Frame(message);
    return {
      url: target,
      method: 'VOTIFIER',
      headers: {},
      payload: { protocol: 2, magic: '0x733A', length: frame.length - 4, message: JSON.parse(message), frame_base64: frame.toString('base64') },
      sent: false,
    };
  }
  const block = v1Block(vote, parseVotifierPublicKey(callback.votifierPublicKey!));
  return {
    url: target,
    method: 'VOTIFIER',
    headers: {},
    payload: { protocol: 1, plaintext: v1Plaintext(vote), encrypted_bytes: block.length, encrypted_base64: block.toString('base64') },
    sent: false,
  };
}

import { DEFAULT_PAYLOAD_TEMPLATE, DEFAULT_TIMEOUT_MS } from '../../delivery/callback-defaults.js';

export const MIN_TIMEOUT_MS = 1_000;

const payloadTemplate = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 16_384, 'must be at most 16 KiB of JSON');

const baseFields = {
  name: nameSchema,
  url: z.string().max(2000),
  authSecret: z.string().min(1).max(500).nullable(),
  timeoutMs: z.number().int('must be an integer'),
  enabled: z.boolean(),
  priority: z.number().int('must be an integer').min(-1_000_000).max(1_000_000),
  payloadTemplate,
};
const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
const votifierFields = {
  host: z.string().regex(HOST, 'must be a host name or IP address'),
  port: z.number().int('must be an integer').min(1).max(65_535),
  serviceName: z.string().min(1).max(64),
  token: z.string().min(1).max(200),
  publicKey: z.string().min(1).max(4_000),
};
const createSchema = z.object({
  ...baseFields,
  kind: z.enum(['http', 'votifier'], 'must be http or votifier').default('http'),
  url: baseFields.url.optional(),
  authSecret: baseFields.authSecret.optional(),
  timeoutMs: baseFields.timeoutMs.optional(),
  enabled: baseFields.enabled.optional(),
  priority: baseFields.priority.optional(),
  payloadTemplate: payloadTemplate.optional(),
  host: votifierFields.host.optional(),
  port: votifierFields.port.optional(),
  serviceName: votifierFields.serviceName.optional(),
  token: votifierFields.token.optional(),
  publicKey: votifierFields.publicKey.optional(),
});
const updateSchema = z.object({ ...baseFields, ...votifierFields }).partial();

/** A votifier callback needs a host and exactly one of token (protocol v2) or public key (v1, RSA-2048). */
function checkVotifier(input: { host?: unknown; token?: unknown; publicKey?: unknown }, creating: boolean) {
  const problems = [];
  if (creating && !input.host) problems.push({ field: 'host', message: 'is required for a votifier callback' });
  if (creating && !input.token === !input.publicKey) problems.push({ field: 'token', message: 'give exactly one of token (protocol v2) or public_key (protocol v1)' });
  if (!creating && input.token !== undefined && input.publicKey !== undefined) problems.push({ field: 'token', message: 'give at most one of token (protocol v2) or public_key (protocol v1): a new one replaces the other' });
  if (typeof input.publicKey === 'string') {
    try {
      const key = parseVotifierPublicKey(input.publicKey);
      if (key.asymmetricKeyDetails?.modulusLength !== 2048) problems.push({ field: 'public_key', message: 'must be a 2048-bit RSA key (as Votifier generates)' });
    } catch {
      problems.push({ field: 'public_key', message: 'is not an RSA public key (PEM, or the base64 from the server\'s public.key)' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
}

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

  /** `field` names the input the target came from: `url` for HTTP callbacks, `host` for Votifier ones. */
  async function checkTimeoutAndUrl(org: Organization, input: { timeoutMs?: number; url?: string; field?: 'url' | 'host' }) {
    const problems = [];
    if (input.timeoutMs !== undefined) {
      const ceiling = PLAN_LIMITS[planOf(org)].callbackTimeoutMsCeiling;
      if (input.timeoutMs < MIN_TIMEOUT_MS || input.timeoutMs > ceiling) {
        problems.push({ field: 'timeout_ms', message: `must be between ${MIN_TIMEOUT_MS} and ${ceiling} on the ${org.plan} plan` });
      }
    }
    if (input.url !== undefined) {
      const reason = await deps.http.checkTarget(input.url);
      if (reason) problems.push({ field: input.field ?? 'url', message: reason });
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
    const input = parseInput(createSchema, rawInput);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const votifier = input.kind === 'votifier';
    if (votifier) checkVotifier(input, true);
    else if (!input.url) throw validationError([{ field: 'url', message: 'is required' }]);
    await checkTimeoutAndUrl(org, {
      timeoutMs: input.timeoutMs,
      url: votifier ? `http://${input.host}:${input.port ?? DEFAULT_VOTIFIER_PORT}/` : input.url,
      field: votifier ? 'host' : 'url',
    });
    const limit = PLAN_LIMITS[planOf(org)].callbacks;
    const current = await prisma.callback.count({ where: { organizationId } });
    if (current >= limit) throw new AppError('PLAN_LIMIT', `Your plan allows ${limit} callbacks`, { limit, current });
    const signingSecret = generateSigningSecret();
    const callback = await prisma.callback.create({
      data: {
        organizationId,
        name: input.name,
        kind: input.kind,
        url: votifier ? null : input.url!,
        ...(votifier
          ? {
              host: input.host,
              port: input.port ?? DEFAULT_VOTIFIER_PORT,
              serviceName: input.serviceName ?? 'VoteRelay',
              votifierTokenEnc: input.token ? deps.secrets.seal(input.token) : null,
              votifierPublicKey: input.publicKey ?? null,
            }
          : {}),
        timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        enabled: input.enabled ?? true,
        priority: input.priority ?? 0,
        payloadTemplateJson: JSON.stringify(input.payloadTemplate ?? DEFAULT_PAYLOAD_TEMPLATE),
        authSecretEnc: input.authSecret ? deps.secrets.seal(input.authSecret) : null,
        signingSecretEnc: deps.secrets.seal(signingSecret),
      },
    });
    return { callback, signingSecret };
  }

  async function update(organizationId: string, id: string, rawInput: unknown): Promise<Callback> {
    const input = parseInput(updateSchema, rawInput);
    const callback = await get(organizationId, id);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const votifier = callback.kind === 'votifier';
    if (votifier) checkVotifier(input, false);
    const host = input.host ?? callback.host;
    const port = input.port ?? callback.port ?? DEFAULT_VOTIFIER_PORT;
    await checkTimeoutAndUrl(org, {
      timeoutMs: input.timeoutMs,
      url: votifier ? (input.host !== undefined || input.port !== undefined ? `http://${host}:${port}/` : undefined) : input.url,
      field: votifier ? 'host' : 'url',
    });
    const { payloadTemplate: template, authSecret, token, publicKey, ...plain } = input;
    if (!votifier) for (const field of ['host', 'port', 'serviceName'] as const) delete plain[field];
    return prisma.callback.update({
      where: { id: callback.id },
      data: {
        ...plain,
        ...(template !== undefined ? { payloadTemplateJson: JSON.stringify(template) } : {}),
        ...(authSecret !== undefined ? { authSecretEnc: authSecret === null ? null : deps.secrets.seal(authSecret) } : {}),
        // One protocol at a time: a new token replaces the public key and the other way round.
        ...(votifier && token !== undefined ? { votifierTokenEnc: deps.secrets.seal(token), votifierPublicKey: null } : {}),
        ...(votifier && publicKey !== undefined ? { votifierPublicKey: publicKey, votifierTokenEnc: null } : {}),
      },
    });
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
    const values = sampleTemplateValues(now, org);
    if (callback.kind === 'votifier') return votifierTestFrame(deps, callback, values.voter_name, now);
    const payload = renderJson(JSON.parse(callback.payloadTemplateJson), voteLookup(values));
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...standardWebhookHeaders(signingSecretsOf(callback, deps.secrets.open, now), `msg_test_${callback.id}`, Math.floor(now.getTime() / 1000), body),
      ...(callback.authSecretEnc ? { authorization: 'Bearer [auth_secret]' } : {}),
    };
    return { url: callback.url ?? '', method: 'POST', headers, payload, sent: false };
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
