// Unit tests beside the code; integration tests (test/integration/) through HTTP, run once on SQLite and once on PostgreSQL.
// VOTE_RELAY_TEST_DATABASES=sqlite|postgresql (comma-separated) narrows which database projects run.
//
// How the suite is scheduled (README "Development"):
// - Modules are not re-imported for every file (`isolate: false`): a worker keeps the app's modules loaded between
//   files. Each file still starts its own app on its own database; no test mocks a module.
// - Most files run side by side (two workers on a two-core machine), the kill -9 and flood tests among them: what
//   they check (no vote lost, nobody rewarded twice, bounds kept) holds however slow the machine is. The files of
//   SERIAL run afterwards, two at a time (either database's), never beside a kill -9 or flood test: they read delivery
//   timing, or move an injected clock across days while deliveries are in flight, so a heavy neighbour's load would
//   change what they see. Two of them together leave the two cores about two-thirds busy (measured: 159 s for the
//   group, against about 250 s one at a time, every test passing in repeated runs).
// - Where the database does not matter (a browser page, a flood counted in memory, the argument checks of the CLI),
//   a test runs once, in the SQLite project (`skipIf(dialect !== 'sqlite')`, saying why).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const wanted = (process.env.VOTE_RELAY_TEST_DATABASES ?? 'sqlite,postgresql').split(',').map((s) => s.trim());
const SIDE_BY_SIDE = Math.max(2, availableParallelism() - 1);
const SERIAL_SIDE_BY_SIDE = 2;

const SERIAL = [
  // they read delivery timing, pacing and retry schedules, or move an injected clock across days while deliveries are
  // in flight: a neighbour's load changes what they see
  'alerts',
  'delivery',
  'delivery-thread',
  'discord',
  'failing-callbacks',
  'plugin-pull',
  'rcon',
  'reward-events',
  'site-silence',
  'stats',
  'voter-standing',
  'votifier-receive',
  // a kill -9 while a target holds its answer, timed against leases; SIGTERM while a request is in flight
  'uncertain',
  'lifecycle-sigterm',
].map((name) => `test/integration/${name}.test.ts`);

const integration = (dialect: 'sqlite' | 'postgresql', serial: boolean) => ({
  extends: true as const,
  test: {
    name: serial ? `${dialect}-serial` : dialect,
    include: serial ? SERIAL : ['test/integration/**/*.test.ts'],
    exclude: serial ? [] : SERIAL,
    env: { VOTE_RELAY_TEST_DB: dialect },
    // The service compiled once for the processes tests spawn; PostgreSQL's throw-away database.
    globalSetup: ['test/kit/service-build.ts', ...(dialect === 'postgresql' ? ['test/kit/postgres-global-setup.ts'] : [])],
    setupFiles: dialect === 'postgresql' ? ['test/kit/postgres-file-database.ts'] : [],
    isolate: false,
    maxWorkers: serial ? SERIAL_SIDE_BY_SIDE : SIDE_BY_SIDE,
    sequence: { groupOrder: serial ? 1 : 0 },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // One copy of graphql-js: Vite would otherwise load both its ESM (.mjs) and CJS builds ("another realm").
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      // Unit tests sit beside their code (src/, rest-compat/, the dashboard's pure logic in web/src/); test/tree/ checks
      // the tree itself (its import rules), once, whatever the database.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'rest-compat/**/*.test.ts', 'web/src/**/*.test.ts', 'test/tree/**/*.test.ts'],
          isolate: false,
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      ...(wanted.includes('sqlite') ? [integration('sqlite', false), integration('sqlite', true)] : []),
      ...(wanted.includes('postgresql') ? [integration('postgresql', false), integration('postgresql', true)] : []),
    ],
  },
});
