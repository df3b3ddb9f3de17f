-- AlterTable
ALTER TABLE "Organization" ADD COLUMN "discordBotTokenEnc" TEXT;
ALTER TABLE "Organization" ADD COLUMN "discordGuildId" TEXT;
ALTER TABLE "Organization" ADD COLUMN "leaderboardPostsJson" TEXT;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN "discordIdPath" TEXT;

-- CreateTable
CREATE TABLE "DiscordRoleGrant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "callbackId" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "roleId" TEXT NOT NULL,
    "discordUserId" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "lastError" TEXT,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DiscordRoleGrant_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DiscordDmRefusal" (
    "organizationId" TEXT NOT NULL,
    "discordUserId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "refusedAt" DATETIME NOT NULL,

    PRIMARY KEY ("organizationId", "discordUserId"),
    CONSTRAINT "DiscordDmRefusal_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "DiscordRoleGrant_status_expiresAt_idx" ON "DiscordRoleGrant"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "DiscordRoleGrant_organizationId_expiresAt_idx" ON "DiscordRoleGrant"("organizationId", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "DiscordRoleGrant_callbackId_discordUserId_key" ON "DiscordRoleGrant"("callbackId", "discordUserId");

-- Providers made from a Discord site's template before the column existed read the voter's Discord id where that
-- template says (src/modules/templates/catalogue.ts, discordIdPath)
UPDATE "Provider" SET "discordIdPath" = CASE "templateSlug"
  WHEN 'topgg' THEN 'data.user.platform_id'
  WHEN 'topgg-legacy' THEN 'user'
  WHEN 'discordbotlist' THEN 'id'
  WHEN 'discords' THEN 'user'
  WHEN 'discord-place' THEN 'user'
  WHEN 'discollab' THEN 'user_id'
  WHEN 'discordforge' THEN 'id'
  WHEN 'hytalecharts' THEN 'voter.discord_id'
END
WHERE "discordIdPath" IS NULL AND "templateSlug" IN ('topgg', 'topgg-legacy', 'discordbotlist', 'discords', 'discord-place', 'discollab', 'discordforge', 'hytalecharts');
