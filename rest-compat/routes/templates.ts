// /v1/templates: the public provider template catalogue.
import type { RestRoute } from '../route.js';

export const templateRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/templates',
    summary: 'List the provider templates',
    document: `query { templates {
      id slug name description
      website_url: websiteUrl logo_url: logoUrl
      auth_method: authMethod auth_field: authField auth_key_source: authKeySource
      auth_timestamp_field: authTimestampField
      default_votee_path: defaultVoteePath
      event_path: eventPath vote_events: voteEvents test_events: testEvents
      method signature_format: signatureFormat
      payload_example: payloadExample
      setup_instructions: setupInstructions
      body_timestamp_path: bodyTimestampPath body_timestamp_max_age: bodyTimestampMaxAge
      retry_horizon_seconds: retryHorizonSeconds recovery
    } }`,
    omitMeta: true,
    data: (r) => ({ templates: r.templates }),
  },
];
