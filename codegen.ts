// Writes schema.graphql from the Pothos schema (`npm run codegen`); `npm test` fails when the committed file is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: './scripts/print-schema.ts',
  generates: {
    'schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, sort: true },
    },
  },
  silent: true,
};

export default config;
