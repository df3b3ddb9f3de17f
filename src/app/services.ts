// Builds every domain service from the app's dependencies; entry points (GraphQL, REST, CLI) only call these.
import type { AppDeps } from './deps.js';
import { createOrganizationService } from '../modules/organization/organization.service.js';
import { createApiKeyService } from '../modules/api-keys/api-keys.service.js';
import { createChatTestService } from '../modules/organization/chat-test.service.js';
import { createProviderService } from '../modules/providers/providers.service.js';
import { createIngestService } from '../modules/votes/ingest.service.js';
import { createCallbackService } from '../modules/callbacks/callbacks.service.js';
import { createVoteService } from '../modules/votes/votes.service.js';
import { createStatsService } from '../modules/stats/stats.service.js';
import { createSiteWatch } from '../modules/stats/site-watch.js';
import { createPullService } from '../modules/plugin/pull.service.js';
import { createVoterService } from '../modules/voters/voters.service.js';
import { createRewardService } from '../modules/rewards/rewards.service.js';
import { createDiscordService } from '../modules/discord/discord.service.js';
import { createVotePageService } from '../modules/vote-page/vote-page.service.js';

export function createServices(deps: AppDeps) {
  const organizations = createOrganizationService(deps);
  const stats = createStatsService(deps);
  return {
    organizations,
    apiKeys: createApiKeyService(deps),
    chatTest: createChatTestService(deps, organizations),
    providers: createProviderService(deps),
    ingest: createIngestService(deps),
    callbacks: createCallbackService(deps),
    votes: createVoteService(deps, stats),
    stats,
    siteWatch: createSiteWatch(deps),
    pull: createPullService(deps),
    voters: createVoterService(deps),
    rewards: createRewardService(deps),
    discord: createDiscordService(deps),
    votePage: createVotePageService(deps, stats),
  };
}

export type Services = ReturnType<typeof createServices>;
