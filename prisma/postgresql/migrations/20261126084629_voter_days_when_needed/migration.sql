/*
  Warnings:

  - You are about to drop the `ProviderVoterStanding` table. If the table is not empty, all the data it contains will be lost.

*/
-- DropForeignKey
ALTER TABLE "ProviderVoterStanding" DROP CONSTRAINT "ProviderVoterStanding_providerId_fkey";

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "localDaysKept" BOOLEAN NOT NULL DEFAULT false;

-- DropTable
DROP TABLE "ProviderVoterStanding";

-- Organizations whose days are not UTC days keep their voters' local days (VoterDay); the others' days are their
-- UTC rollups (VoterDailyCount), so their VoterDay rows go.
UPDATE "Organization" SET "localDaysKept" = true WHERE "timeZone" <> 'UTC';
DELETE FROM "VoterDay" WHERE "organizationId" IN (SELECT id FROM "Organization" WHERE NOT "localDaysKept");
