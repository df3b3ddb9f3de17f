// Folders import one way (npm run lint, part of npm test): no two folders of src/ and rest-compat/ import each other,
// directly or around a loop, as dependency-cruiser aggregates them (a folder holds its subfolders; files directly in
// src/ count as src itself, so only src/main.ts lives there). Value imports only: a type-only import is gone once
// compiled (AppDeps, src/app/deps.ts, is a type every layer imports). Its rules for files are .dependency-cruiser.cjs.
const files = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Two folders that import each other (directly or around a loop) cannot be understood, moved or tested apart.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    ...files.options,
    includeOnly: '^(src|rest-compat|test/fixtures)/',
    tsPreCompilationDeps: false,
  },
};
