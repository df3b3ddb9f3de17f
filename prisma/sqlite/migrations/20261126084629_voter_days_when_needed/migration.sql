/*
  Warnings:

  - You are about to drop the `ProviderVoterStanding` table. If the table is not empty, all the data it contains will be lost.

*/
-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "ProviderVoterStanding";
PRAGMA foreign_keys=on;

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
    "statsEpoch" INTEGER NOT NULL DEFAULT 0,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "localDaysKept" BOOLEAN NOT NULL DEFAULT false,
    "milestonesJson" TEXT,
    "votePartyEvery" INTEGER,
    "votePartyProviderId" TEXT,
    "remindersEnabled" BOOLEAN NOT NULL DEFAULT false,
    "chatMilestoneTemplate" TEXT,
    "chatVotePartyTemplate" TEXT
);
INSERT INTO "new_Organization" ("adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatMilestoneTemplate", "chatNotificationsEnabled", "chatVotePartyTemplate", "chatWebhookUrl", "createdAt", "id", "milestonesJson", "name", "plan", "remindersEnabled", "serverCallbackUrl", "slug", "statsEpoch", "status", "timeZone", "updatedAt", "votePartyEvery", "votePartyProviderId") SELECT "adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatMilestoneTemplate", "chatNotificationsEnabled", "chatVotePartyTemplate", "chatWebhookUrl", "createdAt", "id", "milestonesJson", "name", "plan", "remindersEnabled", "serverCallbackUrl", "slug", "statsEpoch", "status", "timeZone", "updatedAt", "votePartyEvery", "votePartyProviderId" FROM "Organization";
DROP TABLE "Organization";
ALTER TABLE "new_Organization" RENAME TO "Organization";
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Organizations whose days are not UTC days keep their voters local days (VoterDay), and so do those whose local days
-- differ from their UTC rollups summed per day (a time zone set once and since changed back to UTC: the days counted
-- then keep their day). The other organizations have their UTC rollups (VoterDailyCount) as days: their VoterDay rows go.
UPDATE "Organization" SET "localDaysKept" = 1 WHERE "timeZone" <> 'UTC' OR id IN (
  SELECT d."organizationId" FROM "VoterDay" AS d
  LEFT JOIN (SELECT "organizationId", "voterKey", day, SUM(count) AS c FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey", day) AS u
    ON u."organizationId" = d."organizationId" AND u."voterKey" = d."voterKey" AND u.day = d.day
  WHERE u.c IS NULL OR u.c <> d.count
  UNION
  SELECT u."organizationId" FROM (SELECT "organizationId", "voterKey", day FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey", day) AS u
  LEFT JOIN "VoterDay" AS d ON d."organizationId" = u."organizationId" AND d."voterKey" = u."voterKey" AND d.day = u.day
  WHERE d.count IS NULL
);
DELETE FROM "VoterDay" WHERE "organizationId" IN (SELECT id FROM "Organization" WHERE "localDaysKept" = 0);
