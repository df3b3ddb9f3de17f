-- CreateTable
CREATE TABLE "Organization" (
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
    "serverCallbackUrl" TEXT
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApiKey_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PluginToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "lastPolledAt" DATETIME,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PluginToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Provider" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "templateSlug" TEXT,
    "authMethod" TEXT NOT NULL,
    "authField" TEXT NOT NULL,
    "authValueEnc" TEXT NOT NULL,
    "authTimestampField" TEXT,
    "voteePath" TEXT NOT NULL,
    "eventPath" TEXT,
    "voteEventsJson" TEXT,
    "testEventsJson" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Provider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Vote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rawPayload" TEXT NOT NULL,
    "dedupKey" TEXT NOT NULL,
    "overLimit" BOOLEAN NOT NULL DEFAULT false,
    "chatStatus" TEXT NOT NULL DEFAULT 'skipped',
    "chatSentAt" DATETIME,
    "callbackStatus" TEXT NOT NULL DEFAULT 'skipped',
    "callbackSentAt" DATETIME,
    "callbackAttempts" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Vote_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Vote_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Callback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'http',
    "url" TEXT,
    "timeoutMs" INTEGER NOT NULL DEFAULT 5000,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "payloadTemplateJson" TEXT NOT NULL,
    "authSecretEnc" TEXT,
    "signingSecretEnc" TEXT NOT NULL,
    "host" TEXT,
    "port" INTEGER,
    "serviceName" TEXT,
    "votifierTokenEnc" TEXT,
    "votifierPublicKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Callback_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeliveryJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "voteId" TEXT,
    "callbackId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedBy" TEXT,
    "lockedUntil" DATETIME,
    "uniqueKey" TEXT,
    "payloadJson" TEXT,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DeliveryJob_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryJob_voteId_fkey" FOREIGN KEY ("voteId") REFERENCES "Vote" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryJob_callbackId_fkey" FOREIGN KEY ("callbackId") REFERENCES "Callback" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeliveryAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "voteId" TEXT,
    "attempt" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "statusCode" INTEGER,
    "success" BOOLEAN NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "responseExcerpt" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DeliveryAttempt_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryAttempt_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "DeliveryJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryAttempt_voteId_fkey" FOREIGN KEY ("voteId") REFERENCES "Vote" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProviderDailyCount" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("providerId", "day"),
    CONSTRAINT "ProviderDailyCount_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProviderDailyCount_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "VoterDailyCount" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "lastVoteAt" DATETIME NOT NULL,

    PRIMARY KEY ("providerId", "voterKey", "day"),
    CONSTRAINT "VoterDailyCount_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "VoterDailyCount_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AlertMarker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "periodKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AlertMarker_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "ApiKey_organizationId_createdAt_idx" ON "ApiKey"("organizationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PluginToken_tokenHash_key" ON "PluginToken"("tokenHash");

-- CreateIndex
CREATE INDEX "PluginToken_organizationId_createdAt_idx" ON "PluginToken"("organizationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Provider_organizationId_key_key" ON "Provider"("organizationId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Vote_publicId_key" ON "Vote"("publicId");

-- CreateIndex
CREATE INDEX "Vote_organizationId_receivedAt_idx" ON "Vote"("organizationId", "receivedAt");

-- CreateIndex
CREATE INDEX "Vote_providerId_receivedAt_idx" ON "Vote"("providerId", "receivedAt");

-- CreateIndex
CREATE INDEX "Vote_organizationId_voterKey_receivedAt_idx" ON "Vote"("organizationId", "voterKey", "receivedAt");

-- CreateIndex
CREATE INDEX "Vote_providerId_dedupKey_receivedAt_idx" ON "Vote"("providerId", "dedupKey", "receivedAt");

-- CreateIndex
CREATE INDEX "Vote_organizationId_chatStatus_receivedAt_idx" ON "Vote"("organizationId", "chatStatus", "receivedAt");

-- CreateIndex
CREATE INDEX "Vote_organizationId_callbackStatus_receivedAt_idx" ON "Vote"("organizationId", "callbackStatus", "receivedAt");

-- CreateIndex
CREATE INDEX "Callback_organizationId_priority_idx" ON "Callback"("organizationId", "priority");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryJob_uniqueKey_key" ON "DeliveryJob"("uniqueKey");

-- CreateIndex
CREATE INDEX "DeliveryJob_status_runAt_idx" ON "DeliveryJob"("status", "runAt");

-- CreateIndex
CREATE INDEX "DeliveryJob_voteId_idx" ON "DeliveryJob"("voteId");

-- CreateIndex
CREATE INDEX "DeliveryJob_organizationId_kind_status_runAt_idx" ON "DeliveryJob"("organizationId", "kind", "status", "runAt");

-- CreateIndex
CREATE INDEX "DeliveryAttempt_voteId_createdAt_idx" ON "DeliveryAttempt"("voteId", "createdAt");

-- CreateIndex
CREATE INDEX "DeliveryAttempt_jobId_idx" ON "DeliveryAttempt"("jobId");

-- CreateIndex
CREATE INDEX "ProviderDailyCount_organizationId_day_idx" ON "ProviderDailyCount"("organizationId", "day");

-- CreateIndex
CREATE INDEX "VoterDailyCount_organizationId_day_idx" ON "VoterDailyCount"("organizationId", "day");

-- CreateIndex
CREATE INDEX "VoterDailyCount_organizationId_voterKey_day_idx" ON "VoterDailyCount"("organizationId", "voterKey", "day");

-- CreateIndex
CREATE UNIQUE INDEX "AlertMarker_organizationId_kind_periodKey_key" ON "AlertMarker"("organizationId", "kind", "periodKey");
