-- AlterTable
ALTER TABLE "Callback" ADD COLUMN     "previousSigningSecretEnc" TEXT,
ADD COLUMN     "previousSigningSecretUntil" TIMESTAMP(3);
