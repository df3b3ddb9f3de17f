// Writes schema.graphql from the Pothos schema, and the dashboard's typed documents (web/src/gql, client preset)
// from the same schema (`npm run codegen`); `npm test` fails when either committed output is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: './scripts/print-schema.ts',
  generates: {
    'schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: false, sort: true },
    },
    'web/src/gql/': {
      preset: 'client',
      documents: ['web/src/**/*.tsx', '!web/src/gql/**/*'],
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', JSON: 'unknown' } },
    },
  },
  silent: true,
};

export default config;
