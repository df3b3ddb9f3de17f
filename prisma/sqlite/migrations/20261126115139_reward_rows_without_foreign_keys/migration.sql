-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Reminder" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "voteId" TEXT,

    PRIMARY KEY ("providerId", "voterKey")
);
INSERT INTO "new_Reminder" ("dueAt", "organizationId", "providerId", "voteId", "voterKey", "voterName") SELECT "dueAt", "organizationId", "providerId", "voteId", "voterKey", "voterName" FROM "Reminder";
DROP TABLE "Reminder";
ALTER TABLE "new_Reminder" RENAME TO "Reminder";
CREATE INDEX "Reminder_dueAt_idx" ON "Reminder"("dueAt");
CREATE TABLE "new_VoterStanding" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "monthTotal" INTEGER NOT NULL,
    "streakDays" INTEGER NOT NULL,
    "bestStreakDays" INTEGER NOT NULL,
    "lastDay" TEXT NOT NULL,
    "lastVoteAt" DATETIME NOT NULL,

    PRIMARY KEY ("organizationId", "voterKey")
);
INSERT INTO "new_VoterStanding" ("bestStreakDays", "lastDay", "lastVoteAt", "monthTotal", "organizationId", "streakDays", "total", "voterKey") SELECT "bestStreakDays", "lastDay", "lastVoteAt", "monthTotal", "organizationId", "streakDays", "total", "voterKey" FROM "VoterStanding";
DROP TABLE "VoterStanding";
ALTER TABLE "new_VoterStanding" RENAME TO "VoterStanding";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
