-- DropIndex
DROP INDEX "ProviderDailyCount_organizationId_day_idx";

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "statsEpoch" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "ProviderDailyCount_organizationId_day_providerId_count_idx" ON "ProviderDailyCount"("organizationId", "day", "providerId", "count");
