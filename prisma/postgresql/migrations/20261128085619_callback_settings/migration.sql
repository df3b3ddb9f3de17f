-- AlterTable
ALTER TABLE "Callback" ADD COLUMN     "settingsJson" TEXT NOT NULL DEFAULT '{}';
