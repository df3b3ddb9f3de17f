-- CreateTable
CREATE TABLE "ServiceState" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceState_pkey" PRIMARY KEY ("key")
);
