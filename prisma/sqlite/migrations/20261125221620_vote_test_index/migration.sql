-- CreateIndex
CREATE INDEX "Vote_organizationId_test_receivedAt_idx" ON "Vote"("organizationId", "test", "receivedAt");
