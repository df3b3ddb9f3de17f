-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "voteCooldownJson" TEXT;

-- AlterTable
ALTER TABLE "Vote" ADD COLUMN     "nextVoteAt" TIMESTAMP(3),
ADD COLUMN     "providerVoterTotal" INTEGER,
ADD COLUMN     "voterBestStreakDays" INTEGER,
ADD COLUMN     "voterMonthTotal" INTEGER,
ADD COLUMN     "voterStreakDays" INTEGER,
ADD COLUMN     "voterTotal" INTEGER;

-- CreateTable
CREATE TABLE "VoterStanding" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "monthTotal" INTEGER NOT NULL,
    "streakDays" INTEGER NOT NULL,
    "bestStreakDays" INTEGER NOT NULL,
    "lastDay" TEXT NOT NULL,
    "lastVoteAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VoterStanding_pkey" PRIMARY KEY ("organizationId","voterKey")
);

-- CreateTable
CREATE TABLE "VoterDay" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "VoterDay_pkey" PRIMARY KEY ("organizationId","voterKey","day")
);

-- CreateTable
CREATE TABLE "ProviderVoterStanding" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "lastVoteAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderVoterStanding_pkey" PRIMARY KEY ("providerId","voterKey")
);

-- AddForeignKey
ALTER TABLE "VoterStanding" ADD CONSTRAINT "VoterStanding_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VoterDay" ADD CONSTRAINT "VoterDay_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderVoterStanding" ADD CONSTRAINT "ProviderVoterStanding_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill (README "Rewards"): every organization's days are UTC until its owner sets a time zone, so the standings
-- of the votes counted so far follow exactly from the per-provider voter rollups, which retention keeps.
INSERT INTO "VoterDay" ("organizationId", "voterKey", "day", "count")
SELECT "organizationId", "voterKey", "day", SUM("count") FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey", "day";

INSERT INTO "ProviderVoterStanding" ("organizationId", "providerId", "voterKey", "total", "lastVoteAt")
SELECT "organizationId", "providerId", "voterKey", SUM("count"), MAX("lastVoteAt") FROM "VoterDailyCount"
GROUP BY "organizationId", "providerId", "voterKey";

-- Streaks: runs of consecutive days (a day's number minus its rank is the same along a run).
WITH d AS (
  SELECT "organizationId" AS o, "voterKey" AS k, "day", "count",
    ("day"::date - DATE '1970-01-01') - ROW_NUMBER() OVER (PARTITION BY "organizationId", "voterKey" ORDER BY "day") AS grp
  FROM "VoterDay"
),
islands AS (SELECT o, k, grp, COUNT(*) AS len, MAX("day") AS "endDay" FROM d GROUP BY o, k, grp),
per AS (SELECT o, k, SUM("count") AS total, MAX("day") AS "lastDay" FROM d GROUP BY o, k),
best AS (SELECT o, k, MAX(len) AS best FROM islands GROUP BY o, k),
month AS (
  SELECT d.o, d.k, SUM(d."count") AS n FROM d JOIN per ON per.o = d.o AND per.k = d.k
  WHERE substr(d."day", 1, 7) = substr(per."lastDay", 1, 7) GROUP BY d.o, d.k
),
latest AS (SELECT "organizationId" AS o, "voterKey" AS k, MAX("lastVoteAt") AS at FROM "VoterDailyCount" GROUP BY "organizationId", "voterKey")
INSERT INTO "VoterStanding" ("organizationId", "voterKey", "total", "monthTotal", "streakDays", "bestStreakDays", "lastDay", "lastVoteAt")
SELECT per.o, per.k, per.total, month.n, cur.len, best.best, per."lastDay", latest.at
FROM per
JOIN month ON month.o = per.o AND month.k = per.k
JOIN islands AS cur ON cur.o = per.o AND cur.k = per.k AND cur."endDay" = per."lastDay"
JOIN best ON best.o = per.o AND best.k = per.k
JOIN latest ON latest.o = per.o AND latest.k = per.k;
