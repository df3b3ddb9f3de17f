-- DropIndex
DROP INDEX "DeliveryJob_status_runAt_idx";

-- CreateIndex
CREATE INDEX "DeliveryJob_status_runAt_voteId_priority_idx" ON "DeliveryJob"("status", "runAt", "voteId", "priority");
