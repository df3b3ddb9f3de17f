-- AlterTable
ALTER TABLE "Callback" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "disabledReason" TEXT,
ADD COLUMN     "failingSince" TIMESTAMP(3),
ADD COLUMN     "maxPerSecond" INTEGER,
ADD COLUMN     "nextSlotAt" TIMESTAMP(3),
ADD COLUMN     "providerIdsJson" TEXT;

-- AlterTable
ALTER TABLE "DeliveryAttempt" ADD COLUMN     "pacedMs" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "DeliveryJob" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'vote',
ADD COLUMN     "pacedMs" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "apiTokenEnc" TEXT,
ADD COLUMN     "bodyTimestampMaxAgeS" INTEGER,
ADD COLUMN     "bodyTimestampPath" TEXT,
ADD COLUMN     "recoveryCheckedAt" TIMESTAMP(3),
ADD COLUMN     "recoveryCursor" TEXT,
ADD COLUMN     "recoveryError" TEXT,
ADD COLUMN     "recoveryLeaseUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Vote" ADD COLUMN     "recovered" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "DeliveryJob_callbackId_status_idx" ON "DeliveryJob"("callbackId", "status");
