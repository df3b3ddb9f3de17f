-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "voterAddressPath" TEXT,
ADD COLUMN     "voterKind" TEXT NOT NULL DEFAULT 'name';

-- CreateTable
CREATE TABLE "Voter" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "displayKey" TEXT NOT NULL,
    "nameAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Voter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VoterIdentity" (
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "voterId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VoterIdentity_pkey" PRIMARY KEY ("organizationId","kind","value")
);

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

CREATE TABLE "_VoterFold" AS
SELECT k."organizationId", k."voterKey", 'vtr_' || replace(gen_random_uuid()::text, '-', '') AS id
FROM (
  SELECT "organizationId", "voterKey" FROM "Vote" WHERE NOT test
  UNION SELECT "organizationId", "voterKey" FROM "VoterDailyCount"
  UNION SELECT "organizationId", "voterKey" FROM "VoterStanding"
  UNION SELECT "organizationId", "voterKey" FROM "VoterDay"
  UNION SELECT "organizationId", "voterKey" FROM "Reminder"
  UNION SELECT "organizationId", "voterKey" FROM "ReminderOptOut"
) AS k;
ALTER TABLE "_VoterFold" ADD PRIMARY KEY ("organizationId", "voterKey");

INSERT INTO "Voter" (id, "organizationId", "displayName", "displayKey", "nameAt", "createdAt")
SELECT f.id, f."organizationId", n.name, lower(n.name), n.at, CURRENT_TIMESTAMP
FROM "_VoterFold" AS f
CROSS JOIN LATERAL (
  SELECT name, at FROM (
    (SELECT v."voterName" AS name, v."receivedAt" AS at, 1 AS rank FROM "Vote" AS v
      WHERE v."organizationId" = f."organizationId" AND v."voterKey" = f."voterKey" AND NOT v.test ORDER BY v."receivedAt" DESC LIMIT 1)
    UNION ALL
    (SELECT d."voterName", d."lastVoteAt", 2 FROM "VoterDailyCount" AS d
      WHERE d."organizationId" = f."organizationId" AND d."voterKey" = f."voterKey" ORDER BY d.day DESC, d."lastVoteAt" DESC LIMIT 1)
    UNION ALL
    (SELECT r."voterName", r."dueAt", 3 FROM "Reminder" AS r WHERE r."organizationId" = f."organizationId" AND r."voterKey" = f."voterKey" LIMIT 1)
    UNION ALL
    (SELECT o."voterName", o."createdAt", 4 FROM "ReminderOptOut" AS o WHERE o."organizationId" = f."organizationId" AND o."voterKey" = f."voterKey")
    UNION ALL
    SELECT f."voterKey", CURRENT_TIMESTAMP, 5
  ) AS c ORDER BY rank LIMIT 1
) AS n;

INSERT INTO "VoterIdentity" ("organizationId", kind, value, "voterId", "createdAt")
SELECT "organizationId", 'name', "voterKey", id, CURRENT_TIMESTAMP FROM "_VoterFold";

UPDATE "Vote" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f
WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey" AND NOT t.test;
UPDATE "Vote" SET "voterKey" = 'test:' || "voterKey" WHERE test;
UPDATE "VoterDailyCount" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey";
UPDATE "VoterStanding" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey";
UPDATE "VoterDay" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey";
UPDATE "Reminder" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey";
UPDATE "ReminderOptOut" AS t SET "voterKey" = f.id FROM "_VoterFold" AS f WHERE f."organizationId" = t."organizationId" AND f."voterKey" = t."voterKey";

DROP TABLE "_VoterFold";
