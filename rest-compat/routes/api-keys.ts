// /v1/api-keys: list, create (key shown once), revoke.
import type { RestRoute } from '../route.js';

export const apiKeyRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/api-keys',
    summary: 'List API keys',
    document: `query { apiKeys { id name prefix scope last_used_at: lastUsedAt created_at: createdAt } }`,
    data: (r) => ({ keys: r.apiKeys }),
  },
  {
    method: 'post',
    path: '/api-keys',
    summary: 'Create an API key (shown once)',
    errors: ['PLAN_LIMIT'],
    document: `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key prefix scope } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    status: 201,
    data: (r) => r.createApiKey,
  },
  {
    method: 'delete',
    path: '/api-keys/:id',
    summary: 'Revoke an API key',
    document: `mutation ($id: ID!) { revokeApiKey(id: $id) { message } }`,
    variables: (req) => ({ id: req.params.id }),
    data: (r) => r.revokeApiKey,
  },
];
