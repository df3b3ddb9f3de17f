-- CreateTable
CREATE TABLE "Voter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "displayKey" TEXT NOT NULL,
    "nameAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "VoterIdentity" (
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "voterId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("organizationId", "kind", "value")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Provider" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "templateSlug" TEXT,
    "voteCooldownJson" TEXT,
    "voteUrl" TEXT,
    "discordIdPath" TEXT,
    "voterKind" TEXT NOT NULL DEFAULT 'name',
    "voterAddressPath" TEXT,
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
    "votifierPort" INTEGER,
    "bodyTimestampPath" TEXT,
    "bodyTimestampMaxAgeS" INTEGER,
    "apiTokenEnc" TEXT,
    "recoveryCursor" TEXT,
    "recoveryCheckedAt" DATETIME,
    "recoveryError" TEXT,
    "recoveryLeaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Provider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Provider" ("apiTokenEnc", "authField", "authMethod", "authTimestampField", "authValueEnc", "bodyTimestampMaxAgeS", "bodyTimestampPath", "createdAt", "discordIdPath", "enabled", "eventPath", "id", "key", "name", "organizationId", "payloadSource", "recoveryCheckedAt", "recoveryCursor", "recoveryError", "recoveryLeaseUntil", "signatureFormat", "templateSlug", "testEventsJson", "updatedAt", "voteCooldownJson", "voteEventsJson", "voteUrl", "voteePath", "votifierPort") SELECT "apiTokenEnc", "authField", "authMethod", "authTimestampField", "authValueEnc", "bodyTimestampMaxAgeS", "bodyTimestampPath", "createdAt", "discordIdPath", "enabled", "eventPath", "id", "key", "name", "organizationId", "payloadSource", "recoveryCheckedAt", "recoveryCursor", "recoveryError", "recoveryLeaseUntil", "signatureFormat", "templateSlug", "testEventsJson", "updatedAt", "voteCooldownJson", "voteEventsJson", "voteUrl", "voteePath", "votifierPort" FROM "Provider";
DROP TABLE "Provider";
ALTER TABLE "new_Provider" RENAME TO "Provider";
CREATE UNIQUE INDEX "Provider_votifierPort_key" ON "Provider"("votifierPort");
CREATE UNIQUE INDEX "Provider_organizationId_key_key" ON "Provider"("organizationId", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Voter_organizationId_displayKey_idx" ON "Voter"("organizationId", "displayKey");

-- CreateIndex
CREATE INDEX "VoterIdentity_voterId_idx" ON "VoterIdentity"("voterId");

-- Data (README "Voters"): what each provider's voter name is, then one voter per name-keyed voter of before, with
-- that name as a `name` identity (the relay resolves a vote's stronger identities to it and links them on the voter's
-- next vote), and every per-voter row moved onto the voter's id. Test votes make no voter: "test:" and the name.
UPDATE "Provider" SET "voterKind" = CASE
  WHEN "templateSlug" IN ('hytale-servers-pro', 'hytalecharts', 'hylist', 'hytaleserver-xyz', 'hytalelobby', 'hytale-online-servers',
                          'serveurhytale-fr', 'hytale-game', 'hytaletop100') THEN 'hytale'
  WHEN "authMethod" = 'votifier' THEN 'minecraft'
  WHEN "discordIdPath" IS NOT NULL AND "discordIdPath" = "voteePath" THEN 'discord'
  ELSE 'name' END,
  "voterAddressPath" = CASE WHEN "authMethod" = 'votifier' THEN 'address' WHEN "templateSlug" IN ('topg', 'gaming-toplist') THEN 'ip' ELSE NULL END;

CREATE TABLE "_VoterFold" ("organizationId" TEXT NOT NULL, "voterKey" TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY ("organizationId", "voterKey"));
INSERT INTO "_VoterFold" ("organizationId", "voterKey", id)
SELECT "organizationId", "voterKey", 'vtr_' || lower(hex(randomblob(16)))
FROM (
  SELECT "organizationId", "voterKey" FROM "Vote" WHERE NOT test
  UNION SELECT "organizationId", "voterKey" FROM "VoterDailyCount"
  UNION SELECT "organizationId", "voterKey" FROM "VoterStanding"
  UNION SELECT "organizationId", "voterKey" FROM "VoterDay"
  UNION SELECT "organizationId", "voterKey" FROM "Reminder"
  UNION SELECT "organizationId", "voterKey" FROM "ReminderOptOut"
);

INSERT INTO "Voter" (id, "organizationId", "displayName", "displayKey", "nameAt", "createdAt")
SELECT f.id, f."organizationId", n.name, lower(n.name), n.at, CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM "_VoterFold" AS f
JOIN (
  SELECT f2."organizationId" AS o, f2."voterKey" AS k,
    COALESCE(
      (SELECT v."voterName" FROM "Vote" AS v WHERE v."organizationId" = f2."organizationId" AND v."voterKey" = f2."voterKey" AND NOT v.test ORDER BY v."receivedAt" DESC LIMIT 1),
      (SELECT d."voterName" FROM "VoterDailyCount" AS d WHERE d."organizationId" = f2."organizationId" AND d."voterKey" = f2."voterKey" ORDER BY d.day DESC, d."lastVoteAt" DESC LIMIT 1),
      (SELECT r."voterName" FROM "Reminder" AS r WHERE r."organizationId" = f2."organizationId" AND r."voterKey" = f2."voterKey" LIMIT 1),
      (SELECT o."voterName" FROM "ReminderOptOut" AS o WHERE o."organizationId" = f2."organizationId" AND o."voterKey" = f2."voterKey"),
      f2."voterKey") AS name,
    COALESCE(
      (SELECT MAX(v."receivedAt") FROM "Vote" AS v WHERE v."organizationId" = f2."organizationId" AND v."voterKey" = f2."voterKey" AND NOT v.test),
      (SELECT MAX(d."lastVoteAt") FROM "VoterDailyCount" AS d WHERE d."organizationId" = f2."organizationId" AND d."voterKey" = f2."voterKey"),
      CAST(strftime('%s', 'now') AS INTEGER) * 1000) AS at
  FROM "_VoterFold" AS f2
) AS n ON n.o = f."organizationId" AND n.k = f."voterKey";

INSERT INTO "VoterIdentity" ("organizationId", kind, value, "voterId", "createdAt")
SELECT "organizationId", 'name', "voterKey", id, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM "_VoterFold";

UPDATE "Vote" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "Vote"."organizationId" AND f."voterKey" = "Vote"."voterKey") WHERE NOT test;
UPDATE "Vote" SET "voterKey" = 'test:' || "voterKey" WHERE test;
UPDATE "VoterDailyCount" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "VoterDailyCount"."organizationId" AND f."voterKey" = "VoterDailyCount"."voterKey");
UPDATE "VoterStanding" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "VoterStanding"."organizationId" AND f."voterKey" = "VoterStanding"."voterKey");
UPDATE "VoterDay" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "VoterDay"."organizationId" AND f."voterKey" = "VoterDay"."voterKey");
UPDATE "Reminder" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "Reminder"."organizationId" AND f."voterKey" = "Reminder"."voterKey");
UPDATE "ReminderOptOut" SET "voterKey" = (SELECT f.id FROM "_VoterFold" AS f WHERE f."organizationId" = "ReminderOptOut"."organizationId" AND f."voterKey" = "ReminderOptOut"."voterKey");

DROP TABLE "_VoterFold";
