-- DropForeignKey
ALTER TABLE "Reminder" DROP CONSTRAINT "Reminder_organizationId_fkey";

-- DropForeignKey
ALTER TABLE "Reminder" DROP CONSTRAINT "Reminder_providerId_fkey";

-- DropForeignKey
ALTER TABLE "VoterStanding" DROP CONSTRAINT "VoterStanding_organizationId_fkey";
