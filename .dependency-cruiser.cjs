// Import rules for src/ and rest-compat/ (npm run lint, part of npm test): no cycles, and no import from a lower
// layer into a higher one. The layers, lowest first (docs/architecture.md, "Layers"):
//   base      config, time, logger, errors and other modules that know nothing of votes
//   domain    src/domain/: the rules and types of votes and jobs, pure functions (no database, no network)
//   storage   src/storage/: the one module that talks to SQLite or PostgreSQL
//   the rest  services, delivery, HTTP, GraphQL, CLI, which use the storage through its ports
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
        path: '^(src/(storage|modules|delivery|live|auth|alerts|recovery|retention|votifier|metrics|http|graphql|cli|net)/|src/(app|app-deps|main|services)\\.ts|rest-compat/)',
      },
    },
    {
      name: 'storage-below-services',
      severity: 'error',
      comment: 'The storage module serves the layers above it and imports none of them (only base and domain).',
      from: { path: '^src/storage/' },
      to: {
        path: '^(src/(modules|delivery|live|auth|alerts|recovery|retention|votifier|metrics|http|graphql|cli|net)/|src/(app|app-deps|main|services)\\.ts|rest-compat/)',
      },
    },
    {
      name: 'base-below-everything',
      severity: 'error',
      comment: 'Base modules (config, time, logger, errors, …) know nothing of votes, storage or services.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(app|app-deps|main|services|startup-banner)\\.ts$' },
      to: {
        path: '^(src/(domain|storage|modules|delivery|live|auth|alerts|recovery|retention|votifier|metrics|http|graphql|cli|net)/|src/(app|app-deps|main|services)\\.ts|rest-compat/)',
      },
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
