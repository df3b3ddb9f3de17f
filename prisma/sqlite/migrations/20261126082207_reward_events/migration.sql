-- AlterTable
ALTER TABLE "Provider" ADD COLUMN "voteUrl" TEXT;

-- CreateTable
CREATE TABLE "VotePartyCounter" (
    "organizationId" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "VotePartyCounter_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Reminder" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "voteId" TEXT,

    PRIMARY KEY ("providerId", "voterKey"),
    CONSTRAINT "Reminder_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Reminder_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReminderOptOut" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("organizationId", "voterKey"),
    CONSTRAINT "ReminderOptOut_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Callback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'http',
    "url" TEXT,
    "timeoutMs" INTEGER NOT NULL DEFAULT 5000,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "payloadTemplateJson" TEXT NOT NULL,
    "eventsJson" TEXT NOT NULL DEFAULT '["vote"]',
    "eventTemplatesJson" TEXT,
    "authSecretEnc" TEXT,
    "signingSecretEnc" TEXT NOT NULL,
    "previousSigningSecretEnc" TEXT,
    "previousSigningSecretUntil" DATETIME,
    "host" TEXT,
    "port" INTEGER,
    "serviceName" TEXT,
    "votifierTokenEnc" TEXT,
    "votifierPublicKey" TEXT,
    "providerIdsJson" TEXT,
    "maxPerSecond" INTEGER,
    "nextSlotAt" DATETIME,
    "failingSince" DATETIME,
    "disabledReason" TEXT,
    "disabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Callback_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Callback" ("authSecretEnc", "createdAt", "disabledAt", "disabledReason", "enabled", "failingSince", "host", "id", "kind", "maxPerSecond", "name", "nextSlotAt", "organizationId", "payloadTemplateJson", "port", "previousSigningSecretEnc", "previousSigningSecretUntil", "priority", "providerIdsJson", "serviceName", "signingSecretEnc", "timeoutMs", "updatedAt", "url", "votifierPublicKey", "votifierTokenEnc") SELECT "authSecretEnc", "createdAt", "disabledAt", "disabledReason", "enabled", "failingSince", "host", "id", "kind", "maxPerSecond", "name", "nextSlotAt", "organizationId", "payloadTemplateJson", "port", "previousSigningSecretEnc", "previousSigningSecretUntil", "priority", "providerIdsJson", "serviceName", "signingSecretEnc", "timeoutMs", "updatedAt", "url", "votifierPublicKey", "votifierTokenEnc" FROM "Callback";
DROP TABLE "Callback";
ALTER TABLE "new_Callback" RENAME TO "Callback";
CREATE INDEX "Callback_organizationId_priority_idx" ON "Callback"("organizationId", "priority");
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
    "milestonesJson" TEXT,
    "votePartyEvery" INTEGER,
    "votePartyProviderId" TEXT,
    "remindersEnabled" BOOLEAN NOT NULL DEFAULT false,
    "chatMilestoneTemplate" TEXT,
    "chatVotePartyTemplate" TEXT
);
INSERT INTO "new_Organization" ("adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "statsEpoch", "status", "timeZone", "updatedAt") SELECT "adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "statsEpoch", "status", "timeZone", "updatedAt" FROM "Organization";
DROP TABLE "Organization";
ALTER TABLE "new_Organization" RENAME TO "Organization";
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Reminder_dueAt_idx" ON "Reminder"("dueAt");

-- CreateIndex
CREATE INDEX "Reminder_organizationId_voterKey_idx" ON "Reminder"("organizationId", "voterKey");

-- CreateIndex
CREATE INDEX "ReminderOptOut_organizationId_createdAt_idx" ON "ReminderOptOut"("organizationId", "createdAt");
