-- AlterTable
ALTER TABLE "Callback" ADD COLUMN "disabledAt" DATETIME;
ALTER TABLE "Callback" ADD COLUMN "disabledReason" TEXT;
ALTER TABLE "Callback" ADD COLUMN "failingSince" DATETIME;
ALTER TABLE "Callback" ADD COLUMN "maxPerSecond" INTEGER;
ALTER TABLE "Callback" ADD COLUMN "nextSlotAt" DATETIME;
ALTER TABLE "Callback" ADD COLUMN "providerIdsJson" TEXT;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN "apiTokenEnc" TEXT;
ALTER TABLE "Provider" ADD COLUMN "bodyTimestampMaxAgeS" INTEGER;
ALTER TABLE "Provider" ADD COLUMN "bodyTimestampPath" TEXT;
ALTER TABLE "Provider" ADD COLUMN "recoveryCheckedAt" DATETIME;
ALTER TABLE "Provider" ADD COLUMN "recoveryCursor" TEXT;
ALTER TABLE "Provider" ADD COLUMN "recoveryError" TEXT;
ALTER TABLE "Provider" ADD COLUMN "recoveryLeaseUntil" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DeliveryAttempt" (
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
    "pacedMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DeliveryAttempt_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryAttempt_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "DeliveryJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DeliveryAttempt_voteId_fkey" FOREIGN KEY ("voteId") REFERENCES "Vote" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DeliveryAttempt" ("attempt", "createdAt", "durationMs", "error", "id", "jobId", "organizationId", "responseExcerpt", "statusCode", "success", "target", "voteId") SELECT "attempt", "createdAt", "durationMs", "error", "id", "jobId", "organizationId", "responseExcerpt", "statusCode", "success", "target", "voteId" FROM "DeliveryAttempt";
DROP TABLE "DeliveryAttempt";
ALTER TABLE "new_DeliveryAttempt" RENAME TO "DeliveryAttempt";
CREATE INDEX "DeliveryAttempt_voteId_createdAt_idx" ON "DeliveryAttempt"("voteId", "createdAt");
CREATE INDEX "DeliveryAttempt_jobId_idx" ON "DeliveryAttempt"("jobId");
CREATE TABLE "new_DeliveryJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "voteId" TEXT,
    "callbackId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "origin" TEXT NOT NULL DEFAULT 'vote',
    "pacedMs" INTEGER NOT NULL DEFAULT 0,
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
INSERT INTO "new_DeliveryJob" ("attempts", "callbackId", "createdAt", "id", "kind", "lastError", "lockedBy", "lockedUntil", "maxAttempts", "organizationId", "payloadJson", "priority", "runAt", "sentAt", "status", "uniqueKey", "updatedAt", "voteId") SELECT "attempts", "callbackId", "createdAt", "id", "kind", "lastError", "lockedBy", "lockedUntil", "maxAttempts", "organizationId", "payloadJson", "priority", "runAt", "sentAt", "status", "uniqueKey", "updatedAt", "voteId" FROM "DeliveryJob";
DROP TABLE "DeliveryJob";
ALTER TABLE "new_DeliveryJob" RENAME TO "DeliveryJob";
CREATE UNIQUE INDEX "DeliveryJob_uniqueKey_key" ON "DeliveryJob"("uniqueKey");
CREATE INDEX "DeliveryJob_status_runAt_voteId_priority_idx" ON "DeliveryJob"("status", "runAt", "voteId", "priority");
CREATE INDEX "DeliveryJob_voteId_idx" ON "DeliveryJob"("voteId");
CREATE INDEX "DeliveryJob_organizationId_kind_status_runAt_idx" ON "DeliveryJob"("organizationId", "kind", "status", "runAt");
CREATE INDEX "DeliveryJob_callbackId_status_idx" ON "DeliveryJob"("callbackId", "status");
CREATE TABLE "new_Vote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rawPayload" TEXT NOT NULL,
    "dedupKey" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "overLimit" BOOLEAN NOT NULL DEFAULT false,
    "chatStatus" TEXT NOT NULL DEFAULT 'skipped',
    "chatSentAt" DATETIME,
    "callbackStatus" TEXT NOT NULL DEFAULT 'skipped',
    "callbackSentAt" DATETIME,
    "callbackAttempts" INTEGER NOT NULL DEFAULT 0,
    "recovered" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Vote_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Vote_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Vote" ("callbackAttempts", "callbackSentAt", "callbackStatus", "chatSentAt", "chatStatus", "dedupKey", "id", "idempotencyKey", "organizationId", "overLimit", "providerId", "publicId", "rawPayload", "receivedAt", "voterKey", "voterName") SELECT "callbackAttempts", "callbackSentAt", "callbackStatus", "chatSentAt", "chatStatus", "dedupKey", "id", "idempotencyKey", "organizationId", "overLimit", "providerId", "publicId", "rawPayload", "receivedAt", "voterKey", "voterName" FROM "Vote";
DROP TABLE "Vote";
ALTER TABLE "new_Vote" RENAME TO "Vote";
CREATE UNIQUE INDEX "Vote_publicId_key" ON "Vote"("publicId");
CREATE INDEX "Vote_organizationId_receivedAt_idx" ON "Vote"("organizationId", "receivedAt");
CREATE INDEX "Vote_providerId_receivedAt_idx" ON "Vote"("providerId", "receivedAt");
CREATE INDEX "Vote_organizationId_voterKey_receivedAt_idx" ON "Vote"("organizationId", "voterKey", "receivedAt");
CREATE INDEX "Vote_providerId_dedupKey_receivedAt_idx" ON "Vote"("providerId", "dedupKey", "receivedAt");
CREATE INDEX "Vote_providerId_idempotencyKey_receivedAt_idx" ON "Vote"("providerId", "idempotencyKey", "receivedAt");
CREATE INDEX "Vote_organizationId_chatStatus_receivedAt_idx" ON "Vote"("organizationId", "chatStatus", "receivedAt");
CREATE INDEX "Vote_organizationId_callbackStatus_receivedAt_idx" ON "Vote"("organizationId", "callbackStatus", "receivedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
