// Provider use cases: list with counts, create (explicit fields or from a template), read, partial update,
// delete (with its votes and every count derived from them), regenerate the secret.
import { VOTER_KINDS } from '../../domain/voter-identity.js';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { AppError, notFound, validationError } from '../../base/errors.js';
import { PLAN_LIMITS, planOf } from '../../domain/plans.js';
import { isValidPath } from '../../base/json-path.js';
import { nameSchema, parseInput } from '../../base/validation.js';
import { utcDay } from '../../base/time.js';
import type { Provider } from '../../generated/sqlite/client.js';
import { findTemplate } from './templates/catalogue.js';
import { dropFromRoutes } from '../../delivery/callback-health.js';
import { generateProviderSecret, pastedSecretSchema } from './provider-secret.js';
import { REAL_VOTES } from '../../domain/votes.js';
import { milestoneRulesOf } from '../../domain/reward-events.js';
import { newVotifierKeys, parseVotifierKeys, publicKeyOf } from '../../votifier/protocol.js';
import { HEADER_NAME, PAYLOAD_SOURCES, SIGNATURE_FORMATS, type AuthConfig, type PayloadSource } from './auth-methods/auth-method.js';
import { AUTH_METHOD_NAMES, authMethodOf, providerWebhookUrl } from './auth-methods/registry.js';
import { cooldownProblem, type VoteCooldown } from '../../domain/vote-cooldown.js';
import { isTimeZone, localDay } from '../../domain/voter-standing.js';
import type { Tx } from '../../storage/ports.js';
import { deleteReminders } from '../../storage/reminder-store.js';
import { RECOUNT_TRANSACTION } from '../../storage/rollups.js';

export const PROVIDER_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A body timestamp's oldest accepted age when the provider names a path but no age (Hytale-Servers.pro's 5 min). */
const DEFAULT_BODY_TIMESTAMP_MAX_AGE_S = 300;

/** An API token only where the provider's site has a vote list to recover from (catalogue `recovery`). */
function checkRecovery(templateSlug: string | null, apiToken: string | null | undefined) {
  if (!apiToken) return;
  const template = templateSlug ? findTemplate(templateSlug) : undefined;
  if (!template?.recovery) {
    throw validationError([{ field: 'api_token', message: 'only a provider made from a template whose site has a vote list (top.gg) takes an API token' }]);
  }
}

const keySchema = z.string().regex(PROVIDER_KEY_PATTERN, 'must be 1-64 lowercase letters, digits, - or _, starting with a letter or digit');
const pathSchema = z.string().max(200).refine(isValidPath, 'must be a dotted path such as user.name or $.data.votes[0].user');
const eventList = z.array(z.string().min(1).max(100)).max(50).nullable();
const fieldSchema = z.string().min(1, 'must not be empty').max(100);
const headerSchema = z.string().regex(HEADER_NAME, 'must be a valid HTTP header name');

const optionalFields = {
  authTimestampField: headerSchema.nullable().optional(),
  eventPath: pathSchema.nullable().optional(),
  voteEvents: eventList.optional(),
  testEvents: eventList.optional(),
  payloadSource: z.enum(PAYLOAD_SOURCES as [string, ...string[]], `must be one of ${PAYLOAD_SOURCES.join(', ')}`).optional(),
  signatureFormat: z
    .enum(SIGNATURE_FORMATS as [string, ...string[]], `must be one of ${SIGNATURE_FORMATS.join(', ')}`)
    .nullable()
    .optional(),
  bodyTimestampPath: pathSchema.nullable().optional(),
  // At most 9 minutes: DUPLICATE_WINDOW is at least 10, so a resend young enough to pass is always a duplicate.
  bodyTimestampMaxAge: z
    .number()
    .int('must be an integer')
    .min(10, 'must be at least 10 seconds')
    .max(540, 'must be at most 540 seconds (within the duplicate window)')
    .nullable()
    .optional(),
  // The owner's API token at the site (top.gg), for recovering votes the hook missed; never returned.
  apiToken: z.string().trim().min(8, 'must be at least 8 characters').max(2_000).nullable().optional(),
  // When a voter may vote again on the site (src/domain/vote-cooldown.ts): next_vote_at and reminders read it.
  voteCooldown: z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = cooldownProblem(value, isTimeZone);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value as VoteCooldown | null)
    .optional(),
  // The site's page where a voter votes (reminders carry it); may hold vote variables such as {{payload.bot}}.
  voteUrl: z
    .string()
    .max(2_000)
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL (it may hold template variables such as {{payload.bot}})')
    .nullable()
    .optional(),
  // Where the voter's Discord user id is in the body (README "Discord rewards"); null: none.
  discordIdPath: pathSchema.nullable().optional(),
  // What the name at votee_path is (README "Voters"), and where the voter's IP address is in the body.
  voterKind: z.enum(VOTER_KINDS, `must be one of ${VOTER_KINDS.join(', ')}`).optional(),
  voterAddressPath: pathSchema.nullable().optional(),
};

/** A missing auth_field said for the method that needs it ("is required for the header method: the header …"). */
function withMethodWords<T>(methodName: unknown, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const method = typeof methodName === 'string' ? authMethodOf(methodName) : undefined;
    if (method && err instanceof AppError && Array.isArray(err.details)) {
      for (const detail of err.details as { field: string; message: string }[]) {
        if (detail.field === 'auth_field' && detail.message === 'is required')
          detail.message = `is required for the ${method.name} method: ${method.authFieldIs}`;
      }
    }
    throw err;
  }
}

const votifierPortSchema = z.number().int().min(1).max(65535).nullable();

const createSchema = z.object({
  key: keySchema,
  votifierPort: votifierPortSchema.optional(),
  name: nameSchema,
  authMethod: z.enum(AUTH_METHOD_NAMES as [string, ...string[]], `must be one of ${AUTH_METHOD_NAMES.join(', ')}`),
  authField: fieldSchema,
  authValue: pastedSecretSchema.optional(),
  voteePath: pathSchema,
  enabled: z.boolean().optional(),
  ...optionalFields,
});

/**
 * updateProvider's input rule (graphql/input-rules.ts): only the fields given change. A new provider's input is
 * checked in create() instead, after its template filled in what the owner left out.
 */
export const updateProviderInput = z.object({
  key: keySchema.optional(),
  votifierPort: votifierPortSchema.optional(),
  name: nameSchema.optional(),
  enabled: z.boolean().optional(),
  voteePath: pathSchema.optional(),
  authField: fieldSchema.optional(),
  ...optionalFields,
});

/**
 * A provider's whole auth configuration, checked by its method's rules (auth-methods/): the payload source it
 * can vouch for, the signature format (hmac) and the fields that only apply to some methods.
 */
function checkAuthConfig(config: AuthConfig): void {
  const method = authMethodOf(config.authMethod)!;
  const problems = method.check(config);
  if (!method.payloadSources.includes(config.payloadSource as PayloadSource)) {
    problems.push({ field: 'payload_source', message: `must be one of ${method.payloadSources.join(', ')} for ${method.name} providers` });
  }
  if (problems.length > 0) throw validationError(problems);
}

/**
 * A Votifier provider's own port: only for votifier providers, only inside the operator's VOTIFIER_DEDICATED_PORTS,
 * and only one provider per port.
 */
async function checkVotifierPort(deps: AppDeps, authMethod: string, port: number | null | undefined, providerId: string | null): Promise<void> {
  if (port === undefined || port === null) return;
  const range = deps.config.votifierDedicatedPorts;
  const problem =
    authMethod !== 'votifier'
      ? 'applies only to votifier providers'
      : !range
        ? 'is not offered here: the operator has set no VOTIFIER_DEDICATED_PORTS'
        : port < range.from || port > range.to
          ? `must be within ${range.from}-${range.to}`
          : port === deps.config.votifierPort || port === deps.config.port
            ? "is the service's own port"
            : null;
  if (problem) throw validationError([{ field: 'votifier_port', message: problem }]);
  const taken = await deps.db.prisma.provider.findUnique({ where: { votifierPort: port }, select: { id: true } });
  if (taken && taken.id !== providerId) throw validationError([{ field: 'votifier_port', message: 'is already used by another provider' }]);
}

export interface ProviderCounts {
  votesToday: number;
  votesTotal: number;
}

/** What a Votifier list is given: where to send, the v1 public key, and (only on creation and regeneration) the v2 token. */
export interface VotifierSetup {
  host: string;
  port: number;
  publicKey: string;
  token?: string;
}

export interface CreatedProvider {
  provider: Provider;
  secret: string;
  webhookUrl: string;
  votifier: VotifierSetup | null;
}

const VOTIFIER_DEFAULTS = { authField: 'votifier', voteePath: 'username' };

const toJson = (list: string[] | null | undefined) => (list === undefined ? undefined : list === null ? null : JSON.stringify(list));

/** Takes one provider's counted votes (those retention still keeps) off the voters' local days. */
async function forgetLocalDays(tx: Tx, organizationId: string, providerId: string, timeZone: string): Promise<void> {
  const votes = await tx.vote.findMany({ where: { providerId, ...REAL_VOTES }, select: { voterKey: true, receivedAt: true } });
  const less = new Map<string, { voterKey: string; day: string; count: number }>();
  for (const vote of votes) {
    const day = localDay(vote.receivedAt, timeZone);
    const row = less.get(`${vote.voterKey}\u0000${day}`) ?? { voterKey: vote.voterKey, day, count: 0 };
    row.count++;
    less.set(`${vote.voterKey}\u0000${day}`, row);
  }
  for (const row of less.values()) {
    await tx.voterDay.updateMany({ where: { organizationId, voterKey: row.voterKey, day: row.day }, data: { count: { decrement: row.count } } });
  }
  await tx.voterDay.deleteMany({ where: { organizationId, count: { lte: 0 } } });
}

export function createProviderService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function get(organizationId: string, key: string): Promise<Provider> {
    const provider = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key } } });
    if (!provider) throw notFound(`Provider ${key}`);
    return provider;
  }

  /** votes_today / votes_total for many providers in one query (the rollups, never raw votes). */
  async function counts(providerIds: readonly string[]): Promise<Map<string, ProviderCounts>> {
    const today = utcDay(deps.clock.now());
    const [totals, todays] = await Promise.all([
      prisma.providerDailyCount.groupBy({ by: ['providerId'], where: { providerId: { in: [...providerIds] } }, _sum: { count: true } }),
      prisma.providerDailyCount.findMany({ where: { providerId: { in: [...providerIds] }, day: today }, select: { providerId: true, count: true } }),
    ]);
    const result = new Map<string, ProviderCounts>(providerIds.map((id) => [id, { votesToday: 0, votesTotal: 0 }]));
    for (const row of totals) result.get(row.providerId)!.votesTotal = row._sum.count ?? 0;
    for (const row of todays) result.get(row.providerId)!.votesToday = row.count;
    return result;
  }

  async function create(organizationId: string, rawInput: Record<string, unknown>): Promise<CreatedProvider> {
    let input = rawInput;
    const templateRef = rawInput.template;
    let siteIssuesSecret = false;
    if (templateRef !== undefined && templateRef !== null) {
      const template = typeof templateRef === 'string' ? findTemplate(templateRef) : undefined;
      if (!template) throw validationError([{ field: 'template', message: 'is not a known template id or slug (see GET /v1/templates)' }]);
      siteIssuesSecret = template.authKeySource === null;
      const defined = Object.fromEntries(Object.entries(rawInput).filter(([, v]) => v !== undefined));
      input = {
        key: template.slug,
        name: template.name,
        authMethod: template.authMethod,
        authField: template.authField,
        voteePath: template.defaultVoteePath,
        authTimestampField: template.authTimestampField,
        eventPath: template.eventPath,
        voteEvents: template.voteEvents,
        testEvents: template.testEvents,
        payloadSource: template.method === 'GET' ? 'query' : 'json',
        signatureFormat: template.signatureFormat === 'topgg' ? 'topgg' : template.authMethod === 'hmac' ? 'plain' : null,
        bodyTimestampPath: template.bodyTimestampPath ?? null,
        bodyTimestampMaxAge: template.bodyTimestampMaxAgeSeconds ?? null,
        voteCooldown: template.voteCooldown ?? null,
        voteUrl: template.voteUrl ?? null,
        discordIdPath: template.discordIdPath ?? null,
        voterKind: template.voterKind,
        voterAddressPath: template.voterAddressPath ?? null,
        ...defined,
      };
      // A secret the site issues cannot be invented here: the site would never know it.
      if (siteIssuesSecret && (input.authValue === undefined || input.authValue === 'auto')) {
        throw validationError([{ field: 'auth_value', message: `is required: paste the secret ${template.name} gives you` }]);
      }
    }
    if (input.authMethod === 'votifier') {
      // The key pair is made here. The token too, unless the list issues its own (pasted as auth_value).
      input = { ...VOTIFIER_DEFAULTS, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null)) };
    }
    const parsed = withMethodWords(input.authMethod, () =>
      parseInput(createSchema, { ...input, authValue: input.authValue === 'auto' ? undefined : input.authValue }),
    );
    const method = authMethodOf(parsed.authMethod)!;
    const auth: AuthConfig = {
      authMethod: parsed.authMethod,
      authField: parsed.authField,
      authTimestampField: parsed.authTimestampField ?? null,
      signatureFormat: parsed.signatureFormat ?? (parsed.authMethod === 'hmac' ? 'plain' : null),
      payloadSource: parsed.payloadSource ?? method.defaultPayloadSource,
    };
    checkAuthConfig(auth);
    const templateSlug = typeof templateRef === 'string' ? (findTemplate(templateRef)?.slug ?? null) : null;
    checkRecovery(templateSlug, parsed.apiToken);
    await checkVotifierPort(deps, parsed.authMethod, parsed.votifierPort, null);
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const limit = PLAN_LIMITS[planOf(org)].providers;
    const current = await prisma.provider.count({ where: { organizationId } });
    if (current >= limit) throw new AppError('PLAN_LIMIT', `Your plan allows ${limit} providers`, { limit, current });
    const existing = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key: parsed.key } }, select: { id: true } });
    if (existing) throw validationError([{ field: 'key', message: 'is already used by another provider' }]);

    const keys = parsed.authMethod === 'votifier' ? newVotifierKeys(parsed.authValue) : null;
    const secret = keys ? JSON.stringify({ token: keys.token, privateKey: keys.privateKey }) : (parsed.authValue ?? generateProviderSecret());
    const provider = await prisma.provider
      .create({
        data: {
          organizationId,
          key: parsed.key,
          name: parsed.name,
          templateSlug,
          ...auth,
          bodyTimestampPath: parsed.bodyTimestampPath ?? null,
          bodyTimestampMaxAgeS: parsed.bodyTimestampPath ? (parsed.bodyTimestampMaxAge ?? DEFAULT_BODY_TIMESTAMP_MAX_AGE_S) : null,
          apiTokenEnc: parsed.apiToken ? deps.secrets.seal(parsed.apiToken) : null,
          // Recovery reads the site's list from the last vote seen: a new provider has none, so from now.
          recoveryCursor: parsed.apiToken ? deps.clock.now().toISOString() : null,
          authValueEnc: deps.secrets.seal(secret),
          voteePath: parsed.voteePath,
          eventPath: parsed.eventPath ?? null,
          voteEventsJson: toJson(parsed.voteEvents) ?? null,
          testEventsJson: toJson(parsed.testEvents) ?? null,
          enabled: parsed.enabled ?? true,
          votifierPort: parsed.votifierPort ?? null,
          voteCooldownJson: parsed.voteCooldown ? JSON.stringify(parsed.voteCooldown) : null,
          voteUrl: parsed.voteUrl ?? null,
          discordIdPath: parsed.discordIdPath ?? null,
          // A Votifier list sends a Minecraft name and the voter's address unless the owner says otherwise.
          voterKind: parsed.voterKind ?? (parsed.authMethod === 'votifier' ? 'minecraft' : 'name'),
          voterAddressPath: parsed.voterAddressPath !== undefined ? parsed.voterAddressPath : parsed.authMethod === 'votifier' ? 'address' : null,
        },
      })
      .catch((err: unknown) => {
        // Two creations racing for the same key or Votifier port: the loser gets the field's error, not a 500.
        if ((err as { code?: string }).code !== 'P2002') throw err;
        const field = parsed.votifierPort != null && String((err as Error).message).includes('votifierPort') ? 'votifier_port' : 'key';
        throw validationError([{ field, message: 'is already used by another provider' }]);
      });
    return {
      provider,
      secret: keys ? keys.token : secret,
      webhookUrl: providerWebhookUrl(deps.config.hookBaseUrl, org.slug, provider, secret),
      votifier: keys ? { ...votifierEndpoint(provider.votifierPort), publicKey: keys.publicKey, token: keys.token } : null,
    };
  }

  const votifierEndpoint = (own?: number | null) => ({ host: deps.config.votifierHost, port: own ?? deps.config.votifierPort });

  /** A Votifier provider's host, port and public key (never its token or private key); null for other methods. */
  function votifierOf(provider: Pick<Provider, 'authMethod' | 'authValueEnc' | 'votifierPort'>): VotifierSetup | null {
    if (provider.authMethod !== 'votifier') return null;
    const keys = parseVotifierKeys(deps.secrets.open(provider.authValueEnc));
    return keys && { ...votifierEndpoint(provider.votifierPort), publicKey: publicKeyOf(keys.privateKey) };
  }

  async function update(organizationId: string, key: string, input: z.output<typeof updateProviderInput>): Promise<Provider> {
    const provider = await get(organizationId, key);
    if (input.key !== undefined && input.key !== provider.key) {
      const taken = await prisma.provider.findUnique({ where: { organizationId_key: { organizationId, key: input.key } }, select: { id: true } });
      if (taken) throw validationError([{ field: 'key', message: 'is already used by another provider' }]);
    }
    await checkVotifierPort(deps, provider.authMethod, input.votifierPort, provider.id);
    checkAuthConfig({
      authMethod: provider.authMethod,
      authField: input.authField ?? provider.authField,
      authTimestampField: input.authTimestampField !== undefined ? input.authTimestampField : provider.authTimestampField,
      signatureFormat: input.signatureFormat !== undefined ? input.signatureFormat : provider.signatureFormat,
      payloadSource: input.payloadSource ?? provider.payloadSource,
    });
    checkRecovery(provider.templateSlug, input.apiToken);
    // A new token reads the list from the provider's last real vote (src/recovery/ ignores test votes), or from now
    // when it has none: a test vote sent before the token must not send recovery back to the provider's creation.
    const hasVotes = input.apiToken ? (await prisma.vote.count({ where: { providerId: provider.id, ...REAL_VOTES }, take: 1 })) > 0 : false;
    const { voteEvents, testEvents, bodyTimestampMaxAge, apiToken, voteCooldown, ...plain } = input;
    const stampPath = plain.bodyTimestampPath !== undefined ? plain.bodyTimestampPath : provider.bodyTimestampPath;
    const maxAge = bodyTimestampMaxAge !== undefined ? bodyTimestampMaxAge : provider.bodyTimestampMaxAgeS;
    const updated = await prisma
      .$transaction(async (tx) => {
        const row = await tx.provider.update({
          where: { id: provider.id },
          data: {
            ...plain,
            bodyTimestampMaxAgeS: stampPath ? (maxAge ?? DEFAULT_BODY_TIMESTAMP_MAX_AGE_S) : null,
            // A new token starts recovery over; null turns recovery off.
            ...(apiToken !== undefined
              ? {
                  apiTokenEnc: apiToken ? deps.secrets.seal(apiToken) : null,
                  recoveryCursor: apiToken && !hasVotes ? deps.clock.now().toISOString() : null,
                  recoveryError: null,
                  recoveryCheckedAt: null,
                }
              : {}),
            ...(voteEvents !== undefined ? { voteEventsJson: toJson(voteEvents) } : {}),
            ...(testEvents !== undefined ? { testEventsJson: toJson(testEvents) } : {}),
            ...(voteCooldown !== undefined ? { voteCooldownJson: voteCooldown ? JSON.stringify(voteCooldown) : null } : {}),
          },
        });
        // Milestone rules name a site by its key (README "Milestones"): a new key carries them along, in the same
        // transaction.
        if (row.key !== provider.key) {
          const org = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { milestonesJson: true } });
          const rules = milestoneRulesOf(org.milestonesJson);
          if (rules.some((rule) => rule.provider === provider.key)) {
            const renamed = rules.map((rule) => (rule.provider === provider.key ? { ...rule, provider: row.key } : rule));
            await tx.organization.update({ where: { id: organizationId }, data: { milestonesJson: JSON.stringify(renamed) } });
          }
        }
        return row;
      })
      .catch((err: unknown) => {
        if ((err as { code?: string }).code !== 'P2002') throw err;
        const field = input.votifierPort != null && String((err as Error).message).includes('votifierPort') ? 'votifier_port' : 'key';
        throw validationError([{ field, message: 'is already used by another provider' }]);
      });
    return updated;
  }

  /** Keys of providers by id (a callback's routes name providers by id, so a renamed key follows). */
  async function keysOf(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await prisma.provider.findMany({ where: { id: { in: [...ids] } }, select: { id: true, key: true } });
    return new Map(rows.map((r) => [r.id, r.key]));
  }

  async function remove(organizationId: string, key: string): Promise<{ message: string; votesDeleted: number }> {
    const provider = await get(organizationId, key);
    // Votes, their jobs and attempts, and the per-day rollups go with the provider (foreign-key cascades); its
    // reminders are deleted here (no foreign key).
    const votesDeleted = await prisma.$transaction(async (tx) => {
      // Its votes leave the voters' standings too (README "Rewards"), the organization's vote batches held off
      // meanwhile: kept local days lose the site's votes still kept (older ones stay counted: their days are not known
      // by site), then every standing is counted again from what is left.
      await deps.db.rollups.lockRewards(tx, organizationId);
      await deps.db.rollups.lockAgainstVoteWriters(tx);
      const keeps = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { localDaysKept: true, timeZone: true } });
      if (keeps.localDaysKept) await forgetLocalDays(tx, organizationId, provider.id, keeps.timeZone);
      const count = await tx.vote.count({ where: { providerId: provider.id } });
      await tx.provider.delete({ where: { id: provider.id } });
      await deleteReminders(tx, organizationId, { providerId: provider.id });
      await deps.db.rollups.recountStandings(tx, organizationId);
      await dropFromRoutes(tx, organizationId, provider, deps.clock.now());
      // Counts went down: cached leaderboards must rank again (stats/leaderboard.ts). Rewards that counted this site
      // alone go with it (README "Rewards"): its milestone rules, and a vote party of its votes only (turned off).
      const org = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { milestonesJson: true, votePartyProviderId: true } });
      const rules = milestoneRulesOf(org.milestonesJson);
      const kept = rules.filter((rule) => rule.provider !== provider.key);
      await tx.organization.update({
        where: { id: organizationId },
        data: {
          statsEpoch: { increment: 1 },
          ...(kept.length !== rules.length ? { milestonesJson: kept.length > 0 ? JSON.stringify(kept) : null } : {}),
          ...(org.votePartyProviderId === provider.id ? { votePartyEvery: null, votePartyProviderId: null } : {}),
        },
      });
      return count;
    }, RECOUNT_TRANSACTION);
    return { message: `Provider ${provider.key} deleted`, votesDeleted };
  }

  async function regenerateSecret(
    organizationId: string,
    key: string,
    orgSlug: string,
  ): Promise<{ authValue: string; webhookUrl: string; votifier: VotifierSetup | null }> {
    const provider = await get(organizationId, key);
    // A Votifier provider gets a new key pair and a new token together.
    const keys = provider.authMethod === 'votifier' ? newVotifierKeys() : null;
    const secret = keys ? JSON.stringify({ token: keys.token, privateKey: keys.privateKey }) : generateProviderSecret();
    await prisma.provider.update({ where: { id: provider.id }, data: { authValueEnc: deps.secrets.seal(secret) } });
    return {
      authValue: keys ? keys.token : secret,
      webhookUrl: providerWebhookUrl(deps.config.hookBaseUrl, orgSlug, provider, secret),
      votifier: keys ? { ...votifierEndpoint(provider.votifierPort), publicKey: keys.publicKey, token: keys.token } : null,
    };
  }

  function list(organizationId: string) {
    return prisma.provider.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  return { get, list, counts, keysOf, create, update, remove, regenerateSecret, votifierOf };
}

export type ProviderService = ReturnType<typeof createProviderService>;
