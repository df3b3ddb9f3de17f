-- AlterTable
ALTER TABLE "DeliveryJob" ADD COLUMN     "parkedAt" TIMESTAMP(3),
ADD COLUMN     "parkedBy" TEXT;
