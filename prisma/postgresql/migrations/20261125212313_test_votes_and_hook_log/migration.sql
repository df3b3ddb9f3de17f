-- AlterTable
ALTER TABLE "Vote" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "HookRequest" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT,
    "providerKey" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
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

    CONSTRAINT "HookRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HookRequestDrop" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT,
    "scope" TEXT NOT NULL,
    "clientIp" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HookRequestDrop_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "HookRequest" ADD CONSTRAINT "HookRequest_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HookRequest" ADD CONSTRAINT "HookRequest_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HookRequestDrop" ADD CONSTRAINT "HookRequestDrop_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HookRequestDrop" ADD CONSTRAINT "HookRequestDrop_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
