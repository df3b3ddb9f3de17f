-- AlterTable
ALTER TABLE "DeliveryJob" ADD COLUMN "sendingAt" DATETIME;
