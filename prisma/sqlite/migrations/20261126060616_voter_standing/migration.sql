-- AlterTable
ALTER TABLE "Provider" ADD COLUMN "voteCooldownJson" TEXT;

-- AlterTable
ALTER TABLE "Vote" ADD COLUMN "nextVoteAt" DATETIME;
ALTER TABLE "Vote" ADD COLUMN "providerVoterTotal" INTEGER;
ALTER TABLE "Vote" ADD COLUMN "voterBestStreakDays" INTEGER;
ALTER TABLE "Vote" ADD COLUMN "voterMonthTotal" INTEGER;
ALTER TABLE "Vote" ADD COLUMN "voterStreakDays" INTEGER;
ALTER TABLE "Vote" ADD COLUMN "voterTotal" INTEGER;

-- CreateTable
CREATE TABLE "VoterStanding" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "monthTotal" INTEGER NOT NULL,
    "streakDays" INTEGER NOT NULL,
    "bestStreakDays" INTEGER NOT NULL,
    "lastDay" TEXT NOT NULL,
    "lastVoteAt" DATETIME NOT NULL,

    PRIMARY KEY ("organizationId", "voterKey"),
    CONSTRAINT "VoterStanding_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;

-- CreateTable
CREATE TABLE "VoterDay" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("organizationId", "voterKey", "day"),
    CONSTRAINT "VoterDay_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;

-- CreateTable
CREATE TABLE "ProviderVoterStanding" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "lastVoteAt" DATETIME NOT NULL,

    PRIMARY KEY ("providerId", "voterKey"),
    CONSTRAINT "ProviderVoterStanding_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Organization" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'starter',
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "chatWebhookUrl" TEXT,
    "chatAdminWebhookUrl" TEXT,
    "chatNotificationsEnabled" BOOLEAN NOT NULL DEFAULT true,
    "chatMessageType" TEXT NOT NULL DEFAULT 'simple',
    "chatMessageTemplate" TEXT NOT NULL DEFAULT '**{{voter_name}}** just voted on **{{provider_name}}**!',
    "chatEmbedTemplateJson" TEXT,
    "adminDailySummary" BOOLEAN NOT NULL DEFAULT false,
    "adminWeeklySummary" BOOLEAN NOT NULL DEFAULT false,
    "adminVoteSpikeAlerts" BOOLEAN NOT NULL DEFAULT false,
    "adminPermanentFailAlerts" BOOLEAN NOT NULL DEFAULT false,
    "adminUsageWarnings" BOOLEAN NOT NULL DEFAULT false,
    "serverCallbackUrl" TEXT,
    "statsEpoch" INTEGER NOT NULL DEFAULT 0,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC'
);
INSERT INTO "new_Organization" ("adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "statsEpoch", "status", "updatedAt") SELECT "adminDailySummary", "adminPermanentFailAlerts", "adminUsageWarnings", "adminVoteSpikeAlerts", "adminWeeklySummary", "chatAdminWebhookUrl", "chatEmbedTemplateJson", "chatMessageTemplate", "chatMessageType", "chatNotificationsEnabled", "chatWebhookUrl", "createdAt", "id", "name", "plan", "serverCallbackUrl", "slug", "statsEpoch", "status", "updatedAt" FROM "Organization";
DROP TABLE "Organization";
ALTER TABLE "new_Organization" RENAME TO "Organization";
CREATE UNIQUE INDEX "Organization_slug_key" ON "Organization"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
    CAST(julianday("day") AS INTEGER) - ROW_NUMBER() OVER (PARTITION BY "organizationId", "voterKey" ORDER BY "day") AS grp
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
