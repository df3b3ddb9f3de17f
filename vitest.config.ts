// Unit tests beside the code; integration tests (test/integration/) through HTTP, run once on SQLite and once on PostgreSQL.
// VOTE_RELAY_TEST_DATABASES=sqlite|postgresql (comma-separated) narrows which database projects run.
import { defineConfig } from 'vitest/config';

const wanted = (process.env.VOTE_RELAY_TEST_DATABASES ?? 'sqlite,postgresql').split(',').map((s) => s.trim());

const integration = (dialect: 'sqlite' | 'postgresql') => ({
  extends: true as const,
  test: {
    name: dialect,
    include: ['test/integration/**/*.test.ts'],
    env: { VOTE_RELAY_TEST_DB: dialect },
    globalSetup: dialect === 'postgresql' ? ['test/kit/postgres-global-setup.ts'] : [],
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
        test: { name: 'unit', include: ['src/**/*.test.ts', 'rest-compat/**/*.test.ts', 'web/src/**/*.test.ts', 'test/tree/**/*.test.ts'] },
      },
      ...(wanted.includes('sqlite') ? [integration('sqlite')] : []),
      ...(wanted.includes('postgresql') ? [integration('postgresql')] : []),
    ],
  },
});
