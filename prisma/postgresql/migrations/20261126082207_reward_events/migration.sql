-- AlterTable
ALTER TABLE "Callback" ADD COLUMN     "eventTemplatesJson" TEXT,
ADD COLUMN     "eventsJson" TEXT NOT NULL DEFAULT '["vote"]';

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "chatMilestoneTemplate" TEXT,
ADD COLUMN     "chatVotePartyTemplate" TEXT,
ADD COLUMN     "milestonesJson" TEXT,
ADD COLUMN     "remindersEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "votePartyEvery" INTEGER,
ADD COLUMN     "votePartyProviderId" TEXT;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "voteUrl" TEXT;

-- CreateTable
CREATE TABLE "VotePartyCounter" (
    "organizationId" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "VotePartyCounter_pkey" PRIMARY KEY ("organizationId")
);

-- CreateTable
CREATE TABLE "Reminder" (
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "voteId" TEXT,

    CONSTRAINT "Reminder_pkey" PRIMARY KEY ("providerId","voterKey")
);

-- CreateTable
CREATE TABLE "ReminderOptOut" (
    "organizationId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReminderOptOut_pkey" PRIMARY KEY ("organizationId","voterKey")
);

-- CreateIndex
CREATE INDEX "Reminder_dueAt_idx" ON "Reminder"("dueAt");

-- CreateIndex
CREATE INDEX "Reminder_organizationId_voterKey_idx" ON "Reminder"("organizationId", "voterKey");

-- CreateIndex
CREATE INDEX "ReminderOptOut_organizationId_createdAt_idx" ON "ReminderOptOut"("organizationId", "createdAt");

-- AddForeignKey
ALTER TABLE "VotePartyCounter" ADD CONSTRAINT "VotePartyCounter_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Reminder" ADD CONSTRAINT "Reminder_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Reminder" ADD CONSTRAINT "Reminder_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReminderOptOut" ADD CONSTRAINT "ReminderOptOut_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
