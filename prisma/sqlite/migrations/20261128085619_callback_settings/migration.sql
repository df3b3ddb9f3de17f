-- AlterTable (the column is last in the model, so adding it is the same table the engine would copy into, and SQLite adds a
-- NOT NULL column with a constant default in place)
ALTER TABLE "Callback" ADD COLUMN "settingsJson" TEXT NOT NULL DEFAULT '{}';
