-- AlterTable
ALTER TABLE "HookRequest" ADD COLUMN "repairedFrom" TEXT;

-- AlterTable
ALTER TABLE "Vote" ADD COLUMN "repairedFrom" TEXT;
