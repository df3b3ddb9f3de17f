// Set-up file of the PostgreSQL projects: every test file gets a database of its own, made next to the run's. Files
// run side by side, and a delivery worker of one file (an in-process app or a spawned service) claims jobs from the
// whole database it is given: on a shared one it would send another file's votes with its own settings.
// testDatabaseUrl() answers this database; it is dropped when the file is done (the run's global teardown drops any
// a killed run left).
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { createOwnPostgresDatabase } from './app.js';

declare global {
  // The database of the test file running now (a worker runs its files one after another, modules kept loaded).
  var voteRelayFileDatabaseUrl: string | undefined;
}

const runUrl = inject('postgresUrl');
if (runUrl) {
  const own = await createOwnPostgresDatabase(`${new URL(runUrl).pathname.slice(1)}_f${randomBytes(4).toString('hex')}`);
  globalThis.voteRelayFileDatabaseUrl = own.url;
  afterAll(async () => {
    globalThis.voteRelayFileDatabaseUrl = undefined;
    await own.drop();
  });
}
