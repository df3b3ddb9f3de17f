-- AlterTable
ALTER TABLE "Callback" ADD COLUMN "previousSigningSecretEnc" TEXT;
ALTER TABLE "Callback" ADD COLUMN "previousSigningSecretUntil" DATETIME;
