-- AlterTable
ALTER TABLE "DeliveryJob" ADD COLUMN     "sendingAt" TIMESTAMP(3);
