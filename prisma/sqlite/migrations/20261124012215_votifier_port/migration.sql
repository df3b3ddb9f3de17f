/*
  Warnings:

  - A unique constraint covering the columns `[votifierPort]` on the table `Provider` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Provider" ADD COLUMN "votifierPort" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "Provider_votifierPort_key" ON "Provider"("votifierPort");
