-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "payloadSource" TEXT NOT NULL DEFAULT 'json',
ADD COLUMN     "signatureFormat" TEXT;

-- AlterTable
ALTER TABLE "Vote" ADD COLUMN     "idempotencyKey" TEXT;

-- CreateIndex
CREATE INDEX "Vote_providerId_idempotencyKey_receivedAt_idx" ON "Vote"("providerId", "idempotencyKey", "receivedAt");

-- Existing providers keep receiving what they received: query-method providers read the query string (the
-- GET-style lists), hmac providers get the one signature format their site uses (top.gg's t=…,v1=… or plain).
UPDATE "Provider" SET "payloadSource" = 'query' WHERE "authMethod" = 'query';
UPDATE "Provider" SET "signatureFormat" = CASE
  WHEN "templateSlug" = 'topgg' OR lower("authField") = 'x-topgg-signature' THEN 'topgg' ELSE 'plain' END
  WHERE "authMethod" = 'hmac';
