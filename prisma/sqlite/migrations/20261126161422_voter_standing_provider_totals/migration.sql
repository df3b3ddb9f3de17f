-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_VoterStanding" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "monthTotal" INTEGER NOT NULL,
    "streakDays" INTEGER NOT NULL,
    "bestStreakDays" INTEGER NOT NULL,
    "lastDay" TEXT NOT NULL,
    "lastVoteAt" DATETIME NOT NULL,
    "providerTotalsJson" TEXT NOT NULL DEFAULT '{}',

    PRIMARY KEY ("organizationId", "voterKey")
);
INSERT INTO "new_VoterStanding" ("bestStreakDays", "lastDay", "lastVoteAt", "monthTotal", "organizationId", "streakDays", "total", "voterKey") SELECT "bestStreakDays", "lastDay", "lastVoteAt", "monthTotal", "organizationId", "streakDays", "total", "voterKey" FROM "VoterStanding";
DROP TABLE "VoterStanding";
ALTER TABLE "new_VoterStanding" RENAME TO "VoterStanding";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
-- Each standing gets its voter's site totals from their per-provider day rows (what a rebuild would write)
UPDATE "VoterStanding" SET "providerTotalsJson" = COALESCE((
  SELECT json_group_object(t."providerId", t.total)
  FROM (SELECT c."providerId", SUM(c."count") AS total FROM "VoterDailyCount" AS c
        WHERE c."organizationId" = "VoterStanding"."organizationId" AND c."voterKey" = "VoterStanding"."voterKey" GROUP BY c."providerId") AS t
), '{}');
