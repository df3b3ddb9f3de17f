-- DropIndex
DROP INDEX "ProviderDailyCount_organizationId_day_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Organization" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'starter',
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "chatWebhookUrl" TEXT,
    "chatAdminWebhookUrl" TEXT,
    "chatNotificationsEnabled" BOOLEAN NOT NULL DEFAULT true,
    "chatMessageType" TEXT NOT NULL DEFAULT 'simple',
    "chatMessageTemplate" TEXT NOT NULL DEFAULT '**{{voter_name}}** just voted on **{{provider_name}}**!',
    "chatEmbedTemplateJson" TEXT,
    "adminDailySummary" BOOLEAN NOT NULL DEFAULT false,
    "adminWeeklySummary" BOOLEAN NOT NULL DEFAULT false,
    "adminVoteSpikeAlerts" BOOLEAN NOT NULL DEFAULT false,
    "adminPermanentFailAlerts" BOOLEAN NOT NULL DEFAULT false,
    "adminUsageWarnings" BOOLEAN NOT NULL DEFAULT false,
    "serverCallbackUrl" TEXT,
    "statsEpoch" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Organization" ("adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "status", "updatedAt") SELECT "adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "status", "updatedAt" FROM "Organization";
DROP TABLE "Organization";
ALTER TABLE "new_Organization" RENAME TO "Organization";
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ProviderDailyCount_organizationId_day_providerId_count_idx" ON "ProviderDailyCount"("organizationId", "day", "providerId", "count");
