-- CreateTable
CREATE TABLE "HookRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT,
    "providerKey" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "clientIp" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "protocol" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "errorCode" TEXT,
    "reason" TEXT,
    "voterName" TEXT,
    "voteId" TEXT,
    "durationMs" INTEGER NOT NULL,
    "headersJson" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "bodyBytes" INTEGER NOT NULL,
    CONSTRAINT "HookRequest_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HookRequest_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HookRequestDrop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT,
    "scope" TEXT NOT NULL,
    "clientIp" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstAt" DATETIME NOT NULL,
    "lastAt" DATETIME NOT NULL,
    CONSTRAINT "HookRequestDrop_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HookRequestDrop_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (a column added in place: no copy of the vote table)
ALTER TABLE "Vote" ADD COLUMN "test" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "HookRequest_providerId_receivedAt_idx" ON "HookRequest"("providerId", "receivedAt");

-- CreateIndex
CREATE INDEX "HookRequest_organizationId_providerId_receivedAt_idx" ON "HookRequest"("organizationId", "providerId", "receivedAt");

-- CreateIndex
CREATE INDEX "HookRequest_providerId_outcome_clientIp_receivedAt_idx" ON "HookRequest"("providerId", "outcome", "clientIp", "receivedAt");

-- CreateIndex
CREATE INDEX "HookRequestDrop_organizationId_providerId_idx" ON "HookRequestDrop"("organizationId", "providerId");

-- CreateIndex
CREATE UNIQUE INDEX "HookRequestDrop_scope_clientIp_key" ON "HookRequestDrop"("scope", "clientIp");
