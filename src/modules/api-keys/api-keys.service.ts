// API keys: create (value shown once), list (prefix and metadata only), revoke; and resolving a request's key.
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import type { Prisma } from '../../generated/sqlite/client.js';
import { AppError, notFound } from '../../base/errors.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import { API_KEY_PREFIX, PLUGIN_TOKEN_PREFIX, bearerToken, generateToken, hashToken } from '../../auth/api-key-token.js';
import type { AuthState, Scope } from '../../auth/access.js';
import { nameSchema } from '../../base/validation.js';

/** A new key's input: the GraphQL input rule of createApiKey, and the CLI's. */
export const createApiKeyInput = z.object({
  name: nameSchema,
  scope: z.enum(['read', 'full'], 'must be read or full'),
});

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  scope: Scope;
}

// last_used_at is advisory: writing it on every request would add a write to every read.
const LAST_USED_RESOLUTION_MS = 60_000;

export function createApiKeyService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function create(
    organizationId: string,
    input: z.output<typeof createApiKeyInput>,
    options: { enforcePlanLimit: boolean } = { enforcePlanLimit: true },
  ): Promise<CreatedApiKey> {
    const org = await prisma.organization.findUnique({ where: { id: organizationId } });
    if (!org) throw notFound('Organization');
    if (options.enforcePlanLimit) {
      const limit = PLAN_LIMITS[planOf(org)].apiKeys;
      const current = await prisma.apiKey.count({ where: { organizationId, revokedAt: null } });
      if (current >= limit) {
        throw new AppError('PLAN_LIMIT', `Your plan allows ${limit} API keys`, { limit, current });
      }
    }
    const token = generateToken(API_KEY_PREFIX);
    const row = await prisma.apiKey.create({
      data: { organizationId, name: input.name, scope: input.scope, prefix: token.prefix, keyHash: token.hash },
    });
    return { id: row.id, name: row.name, key: token.value, prefix: row.prefix, scope: row.scope as Scope };
  }

  /** The active keys, oldest first; `query` is what GraphQL selects of them. */
  function list(organizationId: string, query: { include?: Prisma.ApiKeyInclude; select?: Prisma.ApiKeySelect } = {}) {
    return prisma.apiKey.findMany({
      ...query,
      where: { organizationId, revokedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async function revoke(organizationId: string, id: string): Promise<{ message: string; id: string }> {
    const result = await prisma.apiKey.updateMany({
      where: { id, organizationId, revokedAt: null },
      data: { revokedAt: deps.clock.now() },
    });
    if (result.count === 0) throw notFound('API key');
    // Live subscriptions made with this key end now, on every instance.
    deps.feed.pubsub.publish('apiKeyRevoked', organizationId, { apiKeyId: id });
    return { message: 'Key revoked', id };
  }

  /** Reads the Authorization header once per request. */
  async function authenticate(header: string | undefined): Promise<AuthState> {
    const token = bearerToken(header);
    if (token === undefined) return { kind: 'anonymous' };
    if (token.startsWith(PLUGIN_TOKEN_PREFIX)) {
      const plugin = await prisma.pluginToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { organization: { select: { status: true } } } });
      if (!plugin || plugin.revokedAt) return { kind: 'invalid' };
      return { kind: 'plugin', plugin: { organizationId: plugin.organizationId, tokenId: plugin.id, status: plugin.organization.status } };
    }
    if (!token.startsWith(API_KEY_PREFIX) || token.length < API_KEY_PREFIX.length + 32 || token.length > 200) {
      return { kind: 'invalid' };
    }
    const key = await prisma.apiKey.findUnique({ where: { keyHash: hashToken(token) }, include: { organization: true } });
    if (!key || key.revokedAt) return { kind: 'invalid' };
    const now = deps.clock.now();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      // At most once a minute per key; a failed bookkeeping write must not fail the request.
      await prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } }).catch((err) => {
        deps.logger.warn({ err }, 'could not record api key use');
      });
    }
    return {
      kind: 'viewer',
      viewer: {
        organizationId: key.organizationId,
        organizationSlug: key.organization.slug,
        plan: key.organization.plan,
        status: key.organization.status,
        apiKeyId: key.id,
        scope: key.scope === 'full' ? 'full' : 'read',
      },
    };
  }

  return { create, list, revoke, authenticate };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
