// The dashboard is a GraphQL client like any other: urql over HTTP for queries and mutations, graphql-sse for the
// live vote feed, both with the signed-in key in Authorization.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createSseClient } from 'graphql-sse';

export function createGraphQLClient(apiKey: string, onStream: (state: 'connected' | 'lost') => void): Client {
  const authorization = `Bearer ${apiKey}`;
  const sse = createSseClient({
    url: `${location.origin}/graphql`,
    headers: { authorization },
    // Reconnect for ever with back-off: the live list resumes by itself after a lost connection.
    retryAttempts: Number.POSITIVE_INFINITY,
    retry: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** retries))),
    // A broken stream is reconnected with back-off; the top bar says so meanwhile.
    on: { connecting: (reconnecting) => reconnecting && onStream('lost'), connected: () => onStream('connected') },
  });
  return new Client({
    url: '/graphql',
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: { headers: { authorization, accept: 'application/graphql-response+json, application/json' } },
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (operation) => ({
          subscribe: (sink) => ({
            unsubscribe: sse.subscribe(
              { query: operation.query ?? '', variables: operation.variables },
              {
                next: (value) => sink.next(value as never),
                error: (error) => {
                  onStream('lost');
                  sink.error(error instanceof Error ? error : new Error(String(error)));
                },
                complete: () => sink.complete(),
              },
            ),
          }),
        }),
      }),
    ],
  });
}
