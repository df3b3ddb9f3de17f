// /v1/providers: list, create, read, partial update, delete, regenerate the secret.
import { onlyIfSet, type RestRoute } from '../route.js';

const PROVIDER_FIELDS = `id key name
  auth_method: authMethod auth_field: authField auth_timestamp_field: authTimestampField
  signature_format: signatureFormat payload_source: payloadSource
  votee_path: voteePath event_path: eventPath vote_events: voteEvents test_events: testEvents vote_cooldown: voteCooldown vote_url: voteUrl
  discord_id_path: discordIdPath voter_kind: voterKind voter_address_path: voterAddressPath
  enabled webhook_url: webhookUrl votes_today: votesToday votes_total: votesTotal created_at: createdAt
  votifier { host port public_key: publicKey }
  body_timestamp_path: bodyTimestampPath body_timestamp_max_age: bodyTimestampMaxAge
  recovery { enabled checked_at: checkedAt since error }`;

const VOTIFIER_SETUP = `votifier { host port public_key: publicKey token }`;

/** Fields only some providers have (a null one is left out): other providers' answers keep their documented shape. */
const votifierOnlyIfSet = onlyIfSet([
  'votifier',
  'body_timestamp_path',
  'body_timestamp_max_age',
  'recovery',
  'vote_cooldown',
  'vote_url',
  'discord_id_path',
  'voter_address_path',
]);

export const providerRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/providers',
    summary: 'List providers',
    document: `query { providers { count limit providers {
      id key name auth_method: authMethod votee_path: voteePath enabled webhook_url: webhookUrl
      votes_today: votesToday votes_total: votesTotal } } }`,
    data: (r) => r.providers,
  },
  {
    method: 'post',
    path: '/providers',
    summary: 'Create a provider (its secret is shown here)',
    errors: ['PLAN_LIMIT'],
    document: `mutation ($input: CreateProviderInput!) { createProvider(input: $input) {
      id key name auth_value: authValue webhook_url: webhookUrl ${VOTIFIER_SETUP} } }`,
    variables: (req) => ({ input: req.body ?? {} }),
    status: 201,
    data: (r) => votifierOnlyIfSet(r.createProvider),
  },
  {
    method: 'get',
    path: '/providers/:key',
    summary: 'Read a provider',
    document: `query ($key: String!) { provider(key: $key) { ${PROVIDER_FIELDS} } }`,
    variables: (req) => ({ key: req.params.key }),
    omitMeta: true,
    data: (r) => votifierOnlyIfSet(r.provider),
  },
  {
    method: 'patch',
    path: '/providers/:key',
    summary: 'Update a provider (only the fields given change)',
    document: `mutation ($key: String!, $input: UpdateProviderInput!) { updateProvider(key: $key, input: $input) { ${PROVIDER_FIELDS} } }`,
    variables: (req) => ({ key: req.params.key, input: req.body ?? {} }),
    data: (r) => votifierOnlyIfSet(r.updateProvider),
  },
  {
    method: 'delete',
    path: '/providers/:key',
    summary: 'Delete a provider and all its votes',
    document: `mutation ($key: String!) { deleteProvider(key: $key) { message votes_deleted: votesDeleted } }`,
    variables: (req) => ({ key: req.params.key }),
    data: (r) => r.deleteProvider,
  },
  {
    method: 'post',
    path: '/providers/:key/regenerate-secret',
    summary: "Regenerate a provider's secret",
    document: `mutation ($key: String!) { regenerateProviderSecret(key: $key) { auth_value: authValue webhook_url: webhookUrl ${VOTIFIER_SETUP} } }`,
    variables: (req) => ({ key: req.params.key }),
    data: (r) => votifierOnlyIfSet(r.regenerateProviderSecret),
  },
];
