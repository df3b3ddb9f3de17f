// graphql-yoga serving the Pothos schema at /graphql (GraphiQL for browsers, SSE subscriptions, masked errors).
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { Request } from 'express';
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import type { GraphQLContext } from './context.js';
import { AppError } from '../base/errors.js';
import { databaseUnavailableError, isDatabaseUnavailable } from '../storage/unavailable.js';
import { createLoaders } from './loaders.js';
import { queryLimitsRule, useDocumentNestingLimit } from './query-limits.js';
import { useSharedSubscriptionExecution } from './shared-execution.js';
import { graphiqlPage } from './graphiql.js';

const GRAPHIQL_DEFAULT_QUERY = `# Vote Relay: paste your API key after "Bearer " in the Headers tab below,
# then run this. The Docs panel (book icon) lists every query, mutation and the voteReceived subscription.
{
  organization { name slug plan usage { votesThisMonth votesLimit } }
  providers { providers { key name enabled votesToday } }
}
`;

export function internalError(): GraphQLError {
  return new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_ERROR' } });
}

/** Keeps domain errors (and GraphQL's own validation errors); replaces anything unexpected with INTERNAL_ERROR. */
export function maskUnexpected(error: unknown, deps: Pick<AppDeps, 'logger'>): Error {
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    if (!original || original instanceof AppError || original instanceof GraphQLError) return error;
    // PostgreSQL refuses NUL in text (22021): the input was bad, not the server.
    if (/22021|invalid byte sequence/.test(`${(original as { code?: string }).code ?? ''} ${original.message}`)) {
      return new AppError('VALIDATION_ERROR', 'Input contains characters that cannot be stored (NUL)', [
        { field: 'input', message: 'must not contain NUL characters' },
      ]);
    }
    if (isDatabaseUnavailable(original)) {
      deps.logger.warn({ err: (original as Error).message, path: error.path }, 'database unavailable');
      return databaseUnavailableError();
    }
    deps.logger.error({ err: original, path: error.path }, 'unexpected error in resolver');
    return internalError();
  }
  if (isDatabaseUnavailable(error)) {
    deps.logger.warn({ err: (error as Error).message }, 'database unavailable');
    return databaseUnavailableError();
  }
  deps.logger.error({ err: error }, 'unexpected error');
  return internalError();
}

export function createGraphQLServer(schema: GraphQLSchema, deps: AppDeps, services: Services): YogaServerInstance<{ req: Request }, GraphQLContext> {
  return createYoga<{ req: Request }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // GraphiQL's assets are bundled in @graphql-yoga/render-graphiql and served by this service as files (no inline
    // script, for the page's Content-Security-Policy): nothing is loaded from another host, so it works offline.
    // The headers tab opens with the one header every call needs.
    renderGraphiQL: graphiqlPage,
    graphiql: {
      title: 'Vote Relay GraphQL',
      // Paste the key after `Bearer ` (a bare `Bearer ` counts as no key, so introspection and the docs still load).
      headers: JSON.stringify({ Authorization: 'Bearer ' }, null, 2),
      defaultEditorToolsVisibility: 'headers',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    },
    logging: false,
    maskedErrors: { maskError: (error) => maskUnexpected(error, deps) },
    context: ({ req }) => ({
      deps,
      services,
      auth: req.auth ?? { kind: 'anonymous' },
      requestId: req.requestId,
      clientIp: req.ip ?? 'unknown',
      loaders: createLoaders(services),
    }),
    plugins: [
      useGraphQLSSE({ endpoint: '/graphql/stream' }),
      useDocumentNestingLimit(),
      useSharedSubscriptionExecution(),
      {
        onValidate: ({ addValidationRule }: { addValidationRule: (rule: unknown) => void }) => {
          addValidationRule(queryLimitsRule());
          if (!deps.config.graphqlIntrospection) addValidationRule(NoSchemaIntrospectionCustomRule);
        },
      },
    ],
  });
}
