-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "votePageJson" TEXT;

-- CreateTable
CREATE TABLE "VoteClick" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "voterName" TEXT NOT NULL,
    "voterId" TEXT,
    "addressHash" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VoteClick_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VoteClick_organizationId_at_idx" ON "VoteClick"("organizationId", "at");

-- CreateIndex
CREATE INDEX "VoteClick_providerId_addressHash_at_idx" ON "VoteClick"("providerId", "addressHash", "at");
