-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "bedrockPrefix" TEXT;
