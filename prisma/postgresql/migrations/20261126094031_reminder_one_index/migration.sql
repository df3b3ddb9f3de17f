-- DropIndex
DROP INDEX "Reminder_organizationId_voterKey_idx";
