// Import rules for src/ and rest-compat/ (npm run lint, part of npm test): no cycles, and no import from a lower
// layer into a higher one. The layers, lowest first (docs/architecture.md, "The basement"):
//   base      src/base/, src/config/, src/threads/: config, time, logger, errors and others that know nothing of votes
//   domain    src/domain/: the rules and types of votes and jobs, pure functions (no database, no network)
//   storage   src/storage/: the one module that talks to SQLite or PostgreSQL
//   the rest  services, delivery, HTTP, GraphQL, CLI, which use the storage through its ports; src/app/ puts them
//             together, and src/main.ts starts it
// Folders import one way too: .dependency-cruiser.folders.cjs.
// Folders that only the layers above storage hold (services, delivery, entries, the app's composition root).
const ABOVE_STORAGE = 'modules|delivery|live|live-server|auth|alerts|recovery|retention|votifier|votifier-server|metrics|http|graphql|cli|net|app';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules together so that none can be understood, tested or loaded alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stays-pure',
      severity: 'error',
      comment: 'src/domain/ holds rules only: it may import base modules, never storage or anything above it.',
      from: { path: '^src/domain/' },
      to: {
        path: `^(src/(storage|${ABOVE_STORAGE})/|src/main\\.ts|rest-compat/)`,
      },
    },
    {
      name: 'storage-below-services',
      severity: 'error',
      comment: 'The storage module serves the layers above it and imports none of them (only base and domain).',
      from: { path: '^src/storage/' },
      to: { path: `^(src/(${ABOVE_STORAGE})/|src/main\\.ts|rest-compat/)` },
    },
    {
      name: 'base-below-everything',
      severity: 'error',
      comment: 'Base modules (src/base/, src/config/, src/threads/: errors, time, logger, config, …) know nothing of votes, storage or services.',
      from: { path: '^src/(base|config|threads)/' },
      to: { path: `^(src/(domain|storage|${ABOVE_STORAGE})/|src/main\\.ts|rest-compat/)` },
    },
    {
      name: 'one-door-into-storage',
      severity: 'error',
      comment: 'Outside src/storage/, code reaches a database only through the storage module (createStorage and its ports).',
      from: { pathNot: '^(src/storage/|src/generated/)' },
      to: { path: '^(src/storage/(sqlite|postgres)/|node_modules/(better-sqlite3|pg|@prisma/adapter-[^/]+)/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^src/generated/|\\.test\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs'],
    },
  },
};
