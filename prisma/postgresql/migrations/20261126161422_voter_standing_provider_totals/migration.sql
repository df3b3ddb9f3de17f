-- AlterTable
ALTER TABLE "VoterStanding" ADD COLUMN     "providerTotalsJson" TEXT NOT NULL DEFAULT '{}';

-- Each standing gets its voter's site totals from their per-provider day rows (what a rebuild would write)
UPDATE "VoterStanding" AS s SET "providerTotalsJson" = COALESCE((
  SELECT json_object_agg(t."providerId", t.total)::text
  FROM (SELECT c."providerId", SUM(c.count)::int AS total FROM "VoterDailyCount" AS c
        WHERE c."organizationId" = s."organizationId" AND c."voterKey" = s."voterKey" GROUP BY c."providerId") AS t
), '{}');
