// Organization use cases: read with usage, update settings (validated, plan-gated), create/suspend from the CLI.
import { z } from 'zod';
import { isSafeBedrockPrefix } from '../../domain/player-name.js';
import { DISCORD_ID } from '../../domain/discord-id.js';
import { leaderboardPostsSchema } from '../../domain/leaderboard-schedule.js';
import { votePageSchema } from '../../domain/vote-page.js';
import { checkBot, discordApiFor, DiscordError } from '../../discord/discord-api.js';
import type { AppDeps } from '../../app/deps.js';
import { AppError, notFound, validationError, type FieldError } from '../../base/errors.js';
import { PLAN_LIMITS, isPlan, planAtLeast, planOf } from '../../domain/plans.js';
import { nameSchema, parseInput } from '../../base/validation.js';
import type { Organization, Prisma } from '../../generated/sqlite/client.js';
import type { Tx } from '../../storage/ports.js';
import { RECOUNT_TRANSACTION } from '../../storage/rollups.js';
import { utcDay, utcMonthStart } from '../../base/time.js';
import { isTimeZone } from '../../domain/voter-standing.js';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const slugSchema = z.string().regex(SLUG_PATTERN, 'must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen');

const embedText = z.string().max(6000);
// Strict at every level: a key the chat message would not carry (`colour`, `thumbnail_url`) is refused, not dropped.
export const embedTemplateSchema = z
  .object({
    color: z.number().int().min(0).max(0xffffff).optional(),
    title: embedText.optional(),
    description: embedText.optional(),
    url: z.string().max(2000).optional(),
    fields: z
      .array(z.strictObject({ name: embedText, value: embedText, inline: z.boolean().optional() }))
      .max(25, 'at most 25 fields')
      .optional(),
    footer: z.strictObject({ text: embedText, icon_url: z.string().max(2000).optional() }).optional(),
    author: z.strictObject({ name: embedText, url: z.string().max(2000).optional(), icon_url: z.string().max(2000).optional() }).optional(),
    thumbnail: z.strictObject({ url: z.string().max(2000) }).optional(),
    image: z.strictObject({ url: z.string().max(2000) }).optional(),
    timestamp: z.string().max(100).optional(),
  })
  .strict();

const urlOrNull = z.string().max(2000).nullable();
const chatTemplate = z.string().min(1, 'must not be empty (null turns it off)').max(2000, 'must be at most 2000 characters').nullable();

/** A milestone rule (README "Milestones"); provider: a provider's key, for a total on that site only. */
const milestoneRule = z
  .strictObject({
    type: z.enum(['total', 'streak'], 'must be total or streak'),
    every: z.number().int().min(1).max(1_000_000).optional(),
    at: z.array(z.number().int().min(1).max(100_000_000)).min(1).max(100, 'at most 100 values').optional(),
    provider: z.string().min(1).max(64).optional(),
  })
  .refine((rule) => rule.every !== undefined || rule.at !== undefined, 'needs every or at (or both)')
  .refine((rule) => rule.type === 'total' || rule.provider === undefined, {
    message: 'streaks count days across every site: provider applies to total rules only',
    path: ['provider'],
  });

const settingsSchema = z
  .object({
    chatWebhookUrl: urlOrNull,
    chatAdminWebhookUrl: urlOrNull,
    chatNotificationsEnabled: z.boolean(),
    chatMessageType: z.enum(['simple', 'embed'], 'must be simple or embed'),
    chatMessageTemplate: z.string().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters'),
    chatEmbedTemplate: embedTemplateSchema.nullable(),
    adminDailySummary: z.boolean(),
    adminWeeklySummary: z.boolean(),
    adminVoteSpikeAlerts: z.boolean(),
    adminPermanentFailAlerts: z.boolean(),
    adminUsageWarnings: z.boolean(),
    serverCallbackUrl: urlOrNull,
    timeZone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name, e.g. "UTC", "Europe/Berlin" or "America/New_York"'),
    milestones: z.array(milestoneRule).max(50, 'at most 50 rules'),
    votePartyEvery: z.number().int().min(2, 'must be at least 2 (null turns the party off)').max(1_000_000).nullable(),
    votePartyProvider: z.string().min(1).max(64).nullable(),
    remindersEnabled: z.boolean(),
    chatMilestoneTemplate: chatTemplate,
    chatVotePartyTemplate: chatTemplate,
    // The organization's own Discord bot (README "Discord rewards"); checked with Discord when saved.
    discordBotToken: z.string().trim().min(20, 'is not a bot token (Developer Portal → your app → Bot → Reset Token)').max(200).nullable(),
    discordGuildId: z.string().regex(DISCORD_ID, 'must be a server id (17 to 20 digits: right-click the server → Copy Server ID)').nullable(),
    leaderboardPosts: leaderboardPostsSchema.nullable(),
    // The players' vote page (README "Vote page"); null turns it off.
    votePage: votePageSchema.nullable(),
    bedrockPrefix: z
      .string()
      .refine(isSafeBedrockPrefix, 'must be 1 to 3 printable characters without space, quotes, ; / \\ { } [ ] or @ (Floodgate uses ".")')
      .nullable(),
  })
  .partial();

/** updateOrganization's input rule (graphql/input-rules.ts): only the fields given change. */
export const updateOrganizationInput = z.object({
  name: nameSchema.optional(),
  slug: slugSchema.optional(),
  // null as absent: nothing in the settings changes
  settings: settingsSchema.nullish(),
});

export type SettingsInput = z.infer<typeof settingsSchema>;
export type UpdateOrganizationInput = z.output<typeof updateOrganizationInput>;

/** Growth+ settings: turning them on needs the plan; turning them off (or clearing) is always allowed. */
const GROWTH_SETTINGS: { key: keyof SettingsInput; field: string; enables: (v: unknown) => boolean }[] = [
  { key: 'chatAdminWebhookUrl', field: 'chat_admin_webhook_url', enables: (v) => v !== null },
  { key: 'chatMessageType', field: 'chat_message_type', enables: (v) => v === 'embed' },
  { key: 'chatEmbedTemplate', field: 'chat_embed_template', enables: (v) => v !== null },
  { key: 'adminDailySummary', field: 'admin_daily_summary', enables: (v) => v === true },
  { key: 'adminWeeklySummary', field: 'admin_weekly_summary', enables: (v) => v === true },
  { key: 'adminVoteSpikeAlerts', field: 'admin_vote_spike_alerts', enables: (v) => v === true },
  { key: 'adminPermanentFailAlerts', field: 'admin_permanent_fail_alerts', enables: (v) => v === true },
  { key: 'adminUsageWarnings', field: 'admin_usage_warnings', enables: (v) => v === true },
];

const URL_SETTINGS: { key: 'chatWebhookUrl' | 'chatAdminWebhookUrl' | 'serverCallbackUrl'; field: string }[] = [
  { key: 'chatWebhookUrl', field: 'settings.chat_webhook_url' },
  { key: 'chatAdminWebhookUrl', field: 'settings.chat_admin_webhook_url' },
  { key: 'serverCallbackUrl', field: 'settings.server_callback_url' },
];

export interface Usage {
  votesThisMonth: number;
  votesLimit: number;
  providersCount: number;
  providersLimit: number;
}

/**
 * From now on the organization keeps its voters' local days (VoterDay), starting from the UTC days counted so far
 * (days already counted keep their day); once only, whoever else changes the zone at the same time. Inside the
 * transaction that holds its vote writers off (rollups.lockRewards).
 */
export async function keepLocalDays(tx: Tx, organizationId: string): Promise<void> {
  const { localDaysKept } = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { localDaysKept: true } });
  if (localDaysKept) return;
  await tx.$executeRaw`INSERT INTO "VoterDay" ("organizationId", "voterKey", day, count)
    SELECT "organizationId", "voterKey", day, SUM(count) FROM "VoterDailyCount" WHERE "organizationId" = ${organizationId}
    GROUP BY "organizationId", "voterKey", day
    ON CONFLICT ("organizationId", "voterKey", day) DO NOTHING`;
  await tx.organization.update({ where: { id: organizationId }, data: { localDaysKept: true } });
}

export function createOrganizationService(deps: AppDeps) {
  const { prisma } = deps.db;

  async function get(organizationId: string): Promise<Organization> {
    const org = await prisma.organization.findUnique({ where: { id: organizationId } });
    if (!org) throw notFound('Organization');
    return org;
  }

  /** The organization with what GraphQL selects of it (`query`). */
  function read(organizationId: string, query: { include?: Prisma.OrganizationInclude; select?: Prisma.OrganizationSelect } = {}) {
    return prisma.organization.findUniqueOrThrow({ ...query, where: { id: organizationId } });
  }

  async function bySlug(slug: string): Promise<Organization> {
    const org = await prisma.organization.findUnique({ where: { slug } });
    if (!org) throw notFound(`Organization ${slug}`);
    return org;
  }

  async function votesThisMonth(organizationId: string): Promise<number> {
    const now = deps.clock.now();
    const result = await prisma.providerDailyCount.aggregate({
      where: { organizationId, day: { gte: utcDay(utcMonthStart(now)), lte: utcDay(now) } },
      _sum: { count: true },
    });
    return result._sum.count ?? 0;
  }

  async function usage(org: Organization): Promise<Usage> {
    const limits = PLAN_LIMITS[planOf(org)];
    const [votes, providersCount] = await Promise.all([votesThisMonth(org.id), prisma.provider.count({ where: { organizationId: org.id } })]);
    return { votesThisMonth: votes, votesLimit: limits.votesPerMonth, providersCount, providersLimit: limits.providers };
  }

  /**
   * A new bot token or server is checked with Discord before it is saved (GET /users/@me, GET /guilds/{id}): a bad
   * token, or a bot that is not in that server, is refused with what to fix.
   */
  async function checkDiscordBot(org: Organization, settings: SettingsInput): Promise<void> {
    if (settings.discordBotToken === undefined && settings.discordGuildId === undefined) return;
    const token = settings.discordBotToken !== undefined ? settings.discordBotToken : org.discordBotTokenEnc && deps.secrets.open(org.discordBotTokenEnc);
    const guildId = settings.discordGuildId !== undefined ? settings.discordGuildId : org.discordGuildId;
    if (!token || !guildId) {
      if (token || guildId)
        throw validationError([
          token
            ? { field: 'settings.discord_guild_id', message: 'is required with a bot token: the server the bot gives vote roles in' }
            : { field: 'settings.discord_bot_token', message: 'is required with a server id: the bot that gives vote roles there' },
        ]);
      return;
    }
    try {
      const seen = await checkBot(discordApiFor(deps.config.discordApiUrl, token), guildId);
      if (!seen.ok) throw validationError([{ field: `settings.${seen.field}`, message: seen.message }]);
    } catch (err) {
      if (!(err instanceof DiscordError)) throw err;
      throw validationError([{ field: 'settings.discord_bot_token', message: `Discord could not check it just now (${err.message}); try again` }]);
    }
  }

  async function update(organizationId: string, input: UpdateOrganizationInput): Promise<Organization> {
    const org = await get(organizationId);
    const settings = input.settings ?? {};

    for (const gate of GROWTH_SETTINGS) {
      const value = settings[gate.key];
      if (value !== undefined && gate.enables(value) && !planAtLeast(org.plan, 'growth')) {
        throw new AppError('PLAN_UPGRADE_REQUIRED', `${gate.field} needs the growth plan or higher`, {
          required_plan: 'growth',
          current_plan: org.plan,
          field: gate.field,
        });
      }
    }

    const problems: FieldError[] = [];
    await Promise.all(
      URL_SETTINGS.map(async ({ key, field }) => {
        const value = settings[key];
        if (typeof value !== 'string') return;
        const reason = await deps.http.checkTarget(value);
        if (reason) problems.push({ field, message: reason });
      }),
    );
    if (input.slug !== undefined && input.slug !== org.slug) {
      const taken = await prisma.organization.findUnique({ where: { slug: input.slug }, select: { id: true } });
      if (taken) problems.push({ field: 'slug', message: 'is already taken' });
    }
    // Provider keys named by the rewards settings must be the organization's.
    const keys = new Set([
      ...(settings.milestones ?? []).flatMap((rule) => (rule.provider ? [rule.provider] : [])),
      ...(settings.votePartyProvider ? [settings.votePartyProvider] : []),
    ]);
    const providerIds = new Map(
      keys.size > 0
        ? (await prisma.provider.findMany({ where: { organizationId: org.id, key: { in: [...keys] } }, select: { id: true, key: true } })).map((p) => [
            p.key,
            p.id,
          ])
        : [],
    );
    (settings.milestones ?? []).forEach((rule, i) => {
      if (rule.provider && !providerIds.has(rule.provider))
        problems.push({ field: `settings.milestones[${i}].provider`, message: `no provider has the key "${rule.provider}"` });
    });
    if (settings.votePartyProvider && !providerIds.has(settings.votePartyProvider))
      problems.push({ field: 'settings.vote_party_provider', message: `no provider has the key "${settings.votePartyProvider}"` });
    if (problems.length > 0) throw validationError(problems);
    await checkDiscordBot(org, settings);

    const { chatEmbedTemplate, milestones, votePartyProvider, discordBotToken, leaderboardPosts, votePage, ...plainSettings } = settings;
    const partyProviderId = votePartyProvider === undefined ? undefined : votePartyProvider === null ? null : providerIds.get(votePartyProvider)!;
    // A party whose size or site changes starts counting again from zero.
    const partyChanged =
      (settings.votePartyEvery !== undefined && settings.votePartyEvery !== org.votePartyEvery) ||
      (partyProviderId !== undefined && partyProviderId !== org.votePartyProviderId);
    try {
      return await prisma.$transaction(async (tx) => {
        // Days stop being UTC days: from now on the voters' local days are kept (keepLocalDays). A party that changes
        // starts from zero. Either way the organization's vote batches are held off until this commits.
        if ((settings.timeZone !== undefined && settings.timeZone !== 'UTC' && !org.localDaysKept) || partyChanged) {
          await deps.db.rollups.lockRewards(tx, org.id);
          if (settings.timeZone !== undefined && settings.timeZone !== 'UTC') await keepLocalDays(tx, org.id);
        }
        if (partyChanged) {
          await tx.votePartyCounter.upsert({ where: { organizationId: org.id }, create: { organizationId: org.id, count: 0 }, update: { count: 0 } });
        }
        return tx.organization.update({
          where: { id: org.id },
          data: {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.slug !== undefined ? { slug: input.slug } : {}),
            ...plainSettings,
            ...(chatEmbedTemplate !== undefined ? { chatEmbedTemplateJson: chatEmbedTemplate === null ? null : JSON.stringify(chatEmbedTemplate) } : {}),
            ...(milestones !== undefined ? { milestonesJson: milestones.length > 0 ? JSON.stringify(milestones) : null } : {}),
            ...(partyProviderId !== undefined ? { votePartyProviderId: partyProviderId } : {}),
            ...(discordBotToken !== undefined ? { discordBotTokenEnc: discordBotToken === null ? null : deps.secrets.seal(discordBotToken) } : {}),
            ...(leaderboardPosts !== undefined ? { leaderboardPostsJson: leaderboardPosts === null ? null : JSON.stringify(leaderboardPosts) } : {}),
            ...(votePage !== undefined
              ? {
                  votePageJson:
                    votePage === null
                      ? null
                      : JSON.stringify({ enabled: votePage.enabled, title: votePage.title ?? null, showLeaderboard: votePage.showLeaderboard === true }),
                }
              : {}),
          },
        });
      }, RECOUNT_TRANSACTION);
    } catch (err) {
      // Two requests racing for one slug: the unique index decides.
      if ((err as { code?: string }).code === 'P2002') throw validationError([{ field: 'slug', message: 'is already taken' }]);
      throw err;
    }
  }

  async function create(input: { slug: string; name: string; plan: string }): Promise<Organization> {
    const parsed = parseInput(
      z.object({ slug: slugSchema, name: nameSchema, plan: z.enum(['starter', 'growth', 'pro', 'business'], 'must be starter, growth, pro or business') }),
      input,
    );
    const taken = await prisma.organization.findUnique({ where: { slug: parsed.slug }, select: { id: true } });
    if (taken) throw validationError([{ field: 'slug', message: 'is already taken' }]);
    return prisma.organization.create({ data: parsed });
  }

  async function setPlan(slug: string, plan: string): Promise<Organization> {
    if (!isPlan(plan)) throw validationError([{ field: 'plan', message: 'must be starter, growth, pro or business' }]);
    const org = await bySlug(slug);
    return prisma.organization.update({ where: { id: org.id }, data: { plan } });
  }

  async function setStatus(slug: string, status: 'active' | 'suspended'): Promise<Organization> {
    const org = await bySlug(slug);
    return prisma.organization.update({ where: { id: org.id }, data: { status } });
  }

  return { get, read, bySlug, usage, votesThisMonth, update, create, setPlan, setStatus };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
