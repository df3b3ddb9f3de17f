// Imports every module's types and builds the schema. Defines nothing itself.
import { builder } from '../graphql/builder.js';
import '../modules/organization/organization.graphql.js';
import '../modules/api-keys/api-keys.graphql.js';
import '../modules/providers/templates/templates.graphql.js';
import '../modules/providers/providers.graphql.js';
import '../modules/votes/hooks.graphql.js';
import '../modules/callbacks/callbacks.graphql.js';
import '../modules/votes/votes.graphql.js';
import '../modules/stats/stats.graphql.js';
import '../modules/plugin/plugin.graphql.js';
import '../modules/voters/voters.graphql.js';
import '../modules/rewards/rewards.graphql.js';
import '../modules/hook-requests/hook-requests.graphql.js';
import '../modules/discord/discord.graphql.js';

export const schema = builder.toSchema({ sortSchema: true });
