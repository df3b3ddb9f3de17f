// Unit tests beside the code; integration tests through HTTP, run once on SQLite and once on PostgreSQL.
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
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'] } },
      ...(wanted.includes('sqlite') ? [integration('sqlite')] : []),
      ...(wanted.includes('postgresql') ? [integration('postgresql')] : []),
    ],
  },
});
