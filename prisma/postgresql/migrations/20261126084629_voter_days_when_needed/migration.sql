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

-- Organizations whose days are not UTC days keep their voters local days (VoterDay), and so do those whose local days
-- differ from their UTC rollups summed per day (a time zone set once and since changed back to UTC: the days counted
-- then keep their day). The other organizations have their UTC rollups (VoterDailyCount) as days: their VoterDay rows go.
UPDATE "Organization" SET "localDaysKept" = true WHERE "timeZone" <> 'UTC' OR id IN (
  SELECT d."organizationId" FROM "VoterDay" AS d
  LEFT JOIN (SELECT "organizationId", "voterKey", day, SUM(count) AS c FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey", day) AS u
    ON u."organizationId" = d."organizationId" AND u."voterKey" = d."voterKey" AND u.day = d.day
  WHERE u.c IS NULL OR u.c <> d.count
  UNION
  SELECT u."organizationId" FROM (SELECT "organizationId", "voterKey", day FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey", day) AS u
  LEFT JOIN "VoterDay" AS d ON d."organizationId" = u."organizationId" AND d."voterKey" = u."voterKey" AND d.day = u.day
  WHERE d.count IS NULL
);
DELETE FROM "VoterDay" WHERE "organizationId" IN (SELECT id FROM "Organization" WHERE NOT "localDaysKept");
