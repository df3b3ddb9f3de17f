-- AlterTable
ALTER TABLE "DeliveryJob" ADD COLUMN "parkedAt" DATETIME;
ALTER TABLE "DeliveryJob" ADD COLUMN "parkedBy" TEXT;
