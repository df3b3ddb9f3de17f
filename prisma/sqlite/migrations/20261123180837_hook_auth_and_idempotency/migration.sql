-- AlterTable
ALTER TABLE "Vote" ADD COLUMN "idempotencyKey" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Provider" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "templateSlug" TEXT,
    "authMethod" TEXT NOT NULL,
    "authField" TEXT NOT NULL,
    "authValueEnc" TEXT NOT NULL,
    "authTimestampField" TEXT,
    "signatureFormat" TEXT,
    "payloadSource" TEXT NOT NULL DEFAULT 'json',
    "voteePath" TEXT NOT NULL,
    "eventPath" TEXT,
    "voteEventsJson" TEXT,
    "testEventsJson" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Provider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Provider" ("authField", "authMethod", "authTimestampField", "authValueEnc", "createdAt", "enabled", "eventPath", "id", "key", "name", "organizationId", "templateSlug", "testEventsJson", "updatedAt", "voteEventsJson", "voteePath") SELECT "authField", "authMethod", "authTimestampField", "authValueEnc", "createdAt", "enabled", "eventPath", "id", "key", "name", "organizationId", "templateSlug", "testEventsJson", "updatedAt", "voteEventsJson", "voteePath" FROM "Provider";
DROP TABLE "Provider";
ALTER TABLE "new_Provider" RENAME TO "Provider";
CREATE UNIQUE INDEX "Provider_organizationId_key_key" ON "Provider"("organizationId", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Vote_providerId_idempotencyKey_receivedAt_idx" ON "Vote"("providerId", "idempotencyKey", "receivedAt");

-- Existing providers keep receiving what they received: query-method providers read the query string (the
-- GET-style lists), hmac providers get the one signature format their site uses (top.gg's t=…,v1=… or plain).
UPDATE "Provider" SET "payloadSource" = 'query' WHERE "authMethod" = 'query';
UPDATE "Provider" SET "signatureFormat" = CASE
  WHEN "templateSlug" = 'topgg' OR lower("authField") = 'x-topgg-signature' THEN 'topgg' ELSE 'plain' END
  WHERE "authMethod" = 'hmac';
