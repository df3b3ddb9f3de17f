/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n": typeof types.ViewerDocument,
    "\n  query PluginTokens { pluginTokens { waiting parked tokens { id name prefix connection lastPollAt createdAt parked } } }\n": typeof types.PluginTokensDocument,
    "\n  query ParkedVotes($tokenId: ID!, $page: Int) {\n    parkedVotes(tokenId: $tokenId, page: $page, limit: 50) { page pages total votes { id voterName providerName receivedAt parkedAt test } }\n  }\n": typeof types.ParkedVotesDocument,
    "\n  mutation CreatePluginToken($name: String!) { createPluginToken(name: $name) { id name token } }\n": typeof types.CreatePluginTokenDocument,
    "\n  mutation RevokePluginToken($id: ID!) { revokePluginToken(id: $id) { id } }\n": typeof types.RevokePluginTokenDocument,
    "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt test } }\n    voteParty { enabled every provider count progress remaining completed }\n    providers { providers { key name } }\n    quietSites { providerKey providerName message }\n  }\n": typeof types.OverviewDocument,
    "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt test }\n  }\n": typeof types.LiveVotesDocument,
    "\n  subscription LiveVoteParty {\n    votePartyProgress { enabled every provider count progress remaining completed }\n  }\n": typeof types.LiveVotePartyDocument,
    "\n  query Statistics($from: String, $to: String, $granularity: Granularity) {\n    voteTrend(from: $from, to: $to, granularity: $granularity) { granularity trend { date count } }\n    votesByProvider(from: $from, to: $to) { total providers { key name count percentage } }\n    conversionStats(from: $from, to: $to) { sites { provider name clicks votes convertedClicks conversion medianSecondsToVote } }\n  }\n": typeof types.StatisticsDocument,
    "\n  query Leaderboard($days: Int) { leaderboard(days: $days, limit: 25) { voters { name votes lastVote } } }\n": typeof types.LeaderboardDocument,
    "\n  query VoterPage($name: String!) {\n    voterStats(voterName: $name) {\n      voterName summary { total today thisWeek thisMonth firstVote lastVote } byProvider { key name count }\n      standing { streakDays bestStreakDays monthTotal timeZone sites { key name total nextVoteAt } }\n    }\n  }\n": typeof types.VoterPageDocument,
    "\n  query VoteDetail($publicId: String!) {\n    vote(publicId: $publicId) {\n      publicId voterName voterId repairedFrom providerName providerKey receivedAt chatStatus callbackStatus callbackAttempts recovered test\n      deliveryJobs { id kind event origin target status attempts maxAttempts nextAttemptAt lastError sentAt }\n      deliveryAttempts { id jobId kind event attempt target pluginToken statusCode success durationMs pacedMs error responseExcerpt createdAt }\n    }\n  }\n": typeof types.VoteDetailDocument,
    "\n  mutation RedeliverVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n": typeof types.RedeliverVoteDocument,
    "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }\n    }\n    providers { providers { key name } }\n  }\n": typeof types.VotesDocument,
    "\n  query UncertainVotes {\n    callbacks: votes(callbackStatus: uncertain, limit: 1) { total }\n    chat: votes(chatStatus: uncertain, limit: 1) { total }\n  }\n": typeof types.UncertainVotesDocument,
    "\n  mutation ResendVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n": typeof types.ResendVoteDocument,
    "\n  query Callbacks {\n    callbacks(includeDisabled: true) { count limit callbacks {\n      id name kind target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt\n    } }\n    callbackKinds { ...CallbackKindFields }\n    callbackVariables { name description example events }\n    providers { providers { key name } }\n  }\n": typeof types.CallbacksDocument,
    "\n  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }\n": typeof types.DeleteCallbackDocument,
    "\n  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }\n": typeof types.RotateCallbackSecretDocument,
    "\n  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload sent message } }\n": typeof types.TestCallbackDocument,
    "\n  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {\n    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }\n  }\n": typeof types.ReplayCallbackDocument,
    "\n  mutation CreateCallback($input: CreateCallbackInput!) {\n    createCallback(input: $input) { signingSecret callback { id name kind } }\n  }\n": typeof types.CreateCallbackDocument,
    "\n  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {\n    updateCallback(id: $id, input: $input) { id name target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt }\n  }\n": typeof types.UpdateCallbackDocument,
    "\n  query DiscordRoleGrants($page: Int, $status: DiscordRoleGrantStatus) {\n    discordRoleGrants(page: $page, limit: 20, status: $status) {\n      total page limit grants { voter discordId roleId callbackId status expiresAt lastError updatedAt }\n    }\n    organization { id settings { discordBotTokenSet discordGuildId } }\n  }\n": typeof types.DiscordRoleGrantsDocument,
    "\n  fragment CallbackSettingFields on CallbackSetting {\n    name restName type label help required nullable secret readAs widget placeholder default\n  }\n": typeof types.CallbackSettingFieldsFragmentDoc,
    "\n  fragment CallbackKindFields on CallbackKindInfo {\n    name label description events signed marksTests settings { ...CallbackSettingFields }\n  }\n": typeof types.CallbackKindFieldsFragmentDoc,
    "\n  query AddProviderChoices {\n    organization { slug hookBaseUrl hookAddressWarning votifierAddressWarning }\n    templates { id slug name description websiteUrl authMethod authField authKeySource setupInstructions }\n    providers { count limit providers { key webhookUrl } }\n  }\n": typeof types.AddProviderChoicesDocument,
    "\n  mutation CreateProvider($input: CreateProviderInput!) {\n    createProvider(input: $input) {\n      id key name authMethod authValue webhookUrl votifier { host port publicKey token }\n      provider { authField authTimestampField signatureFormat payloadSource voteePath }\n    }\n  }\n": typeof types.CreateProviderDocument,
    "\n  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {\n    updateProvider(key: $key, input: $input) { id key name webhookUrl }\n  }\n": typeof types.EditProviderDocument,
    "\n  query ProviderRequests($key: String!, $outcome: HookRequestOutcome, $first: Int, $after: String) {\n    provider(key: $key) {\n      id key name authMethod authField webhookUrl\n      requests(outcome: $outcome, first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { cursor node {\n          id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n        } }\n      }\n      requestDrops { clientIp count firstAt lastAt }\n    }\n  }\n": typeof types.ProviderRequestsDocument,
    "\n  subscription LiveProviderRequests($provider: String) {\n    hookRequestReceived(provider: $provider) {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n    }\n  }\n": typeof types.LiveProviderRequestsDocument,
    "\n  query Providers {\n    organization { hookAddressWarning votifierAddressWarning }\n    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }\n  }\n": typeof types.ProvidersDocument,
    "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n": typeof types.SetProviderEnabledDocument,
    "\n  mutation RegenerateProviderSecret($key: String!) {\n    regenerateProviderSecret(key: $key) { authValue webhookUrl votifier { host port publicKey token } }\n  }\n": typeof types.RegenerateProviderSecretDocument,
    "\n  mutation DeleteProvider($key: String!) {\n    deleteProvider(key: $key) { message votesDeleted }\n  }\n": typeof types.DeleteProviderDocument,
    "\n  mutation SetProviderApiToken($key: String!, $apiToken: String) {\n    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }\n  }\n": typeof types.SetProviderApiTokenDocument,
    "\n  mutation SendTestVote($key: String!, $voterName: String, $deliverToGameServers: Boolean) {\n    sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {\n      received voteId duplicate test ignored testVote voterName deliverToGameServers\n    }\n  }\n": typeof types.SendTestVoteDocument,
    "\n  query UnmatchedRequests($outcome: HookRequestOutcome, $page: Int, $limit: Int) {\n    hookRequests(outcome: $outcome, page: $page, limit: $limit) {\n      page pages total\n      requests { id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey }\n      dropped { clientIp count firstAt lastAt }\n    }\n  }\n": typeof types.UnmatchedRequestsDocument,
    "\n  subscription LiveOrganizationRequests {\n    hookRequestReceived {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey matched\n    }\n  }\n": typeof types.LiveOrganizationRequestsDocument,
    "\n  query RewardSettings {\n    organization { id slug settings {\n      votePage { enabled title showLeaderboard }\n      milestones { type every at provider }\n      votePartyEvery votePartyProvider chatMilestoneTemplate chatVotePartyTemplate remindersEnabled chatWebhookUrl chatNotificationsEnabled bedrockPrefix\n    } }\n    providers { providers { key name } }\n    voteParty { enabled every progress completed }\n    callbackVariables { name example }\n  }\n": typeof types.RewardSettingsDocument,
    "\n  query Settings {\n    organization { name slug plan settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n": typeof types.SettingsDocument,
    "\n  mutation UpdateOrganization($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { name slug settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n": typeof types.UpdateOrganizationDocument,
    "\n  mutation TestChatWebhook($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }\n": typeof types.TestChatWebhookDocument,
    "\n  query ApiKeys { apiKeys { id name prefix scope lastUsedAt createdAt } }\n": typeof types.ApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key scope } }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }\n": typeof types.RevokeApiKeyDocument,
    "\n  mutation UpdateBedrockPrefix($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { bedrockPrefix } }\n  }\n": typeof types.UpdateBedrockPrefixDocument,
    "\n  query DiscordSettings {\n    organization { id settings {\n      discordBotTokenSet discordGuildId leaderboardPosts { period top at } timeZone chatWebhookUrl\n    } }\n  }\n": typeof types.DiscordSettingsDocument,
    "\n  mutation UpdateDiscordBot($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { discordBotTokenSet discordGuildId } }\n  }\n": typeof types.UpdateDiscordBotDocument,
    "\n  mutation UpdateLeaderboardPosts($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { leaderboardPosts { period top at } } }\n  }\n": typeof types.UpdateLeaderboardPostsDocument,
    "\n  mutation UpdateEventMessages($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { chatMilestoneTemplate chatVotePartyTemplate } }\n  }\n": typeof types.UpdateEventMessagesDocument,
    "\n  mutation UpdateMilestones($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { milestones { type every at provider } } }\n  }\n": typeof types.UpdateMilestonesDocument,
    "\n  mutation UpdateReminders($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { remindersEnabled } }\n  }\n": typeof types.UpdateRemindersDocument,
    "\n  query ReminderOptOuts($page: Int) {\n    reminderOptOuts(page: $page, limit: 20) { total page limit optOuts { voterName createdAt } }\n  }\n": typeof types.ReminderOptOutsDocument,
    "\n  mutation SetVoterReminders($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) { voterName enabled } }\n": typeof types.SetVoterRemindersDocument,
    "\n  mutation UpdateVotePage($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePage { enabled title showLeaderboard } } }\n  }\n": typeof types.UpdateVotePageDocument,
    "\n  mutation UpdateVoteParty($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePartyEvery votePartyProvider } }\n  }\n": typeof types.UpdateVotePartyDocument,
    "\n  query VoterDetail($id: String!, $after: String) {\n    voter(id: $id) {\n      id displayName createdAt\n      identities { kind value createdAt }\n      standing { total monthTotal streakDays bestStreakDays lastVoteAt timeZone sites { key name total lastVoteAt nextVoteAt } }\n      votes(first: 25, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { publicId voterName repairedFrom providerName receivedAt chatStatus callbackStatus test } }\n      }\n    }\n  }\n": typeof types.VoterDetailDocument,
    "\n  query FindVotersToMerge($search: String!) {\n    voters(search: $search, limit: 6) { total voters { id displayName identities { kind value } standing { total } } }\n  }\n": typeof types.FindVotersToMergeDocument,
    "\n  mutation MergeVoters($id: String!, $other: String!) {\n    mergeVoters(id: $id, other: $other) { id displayName }\n  }\n": typeof types.MergeVotersDocument,
    "\n  mutation SplitVoterIdentity($id: String!, $kind: VoterIdentityKind!, $value: String!) {\n    splitVoterIdentity(id: $id, kind: $kind, value: $value) { id displayName }\n  }\n": typeof types.SplitVoterIdentityDocument,
    "\n  query Voters($search: String, $page: Int) {\n    voters(search: $search, page: $page, limit: 25) {\n      page pages total\n      voters { id displayName identities { kind value } standing { total streakDays lastVoteAt } }\n    }\n  }\n": typeof types.VotersDocument,
};
const documents: Documents = {
    "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n": types.ViewerDocument,
    "\n  query PluginTokens { pluginTokens { waiting parked tokens { id name prefix connection lastPollAt createdAt parked } } }\n": types.PluginTokensDocument,
    "\n  query ParkedVotes($tokenId: ID!, $page: Int) {\n    parkedVotes(tokenId: $tokenId, page: $page, limit: 50) { page pages total votes { id voterName providerName receivedAt parkedAt test } }\n  }\n": types.ParkedVotesDocument,
    "\n  mutation CreatePluginToken($name: String!) { createPluginToken(name: $name) { id name token } }\n": types.CreatePluginTokenDocument,
    "\n  mutation RevokePluginToken($id: ID!) { revokePluginToken(id: $id) { id } }\n": types.RevokePluginTokenDocument,
    "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt test } }\n    voteParty { enabled every provider count progress remaining completed }\n    providers { providers { key name } }\n    quietSites { providerKey providerName message }\n  }\n": types.OverviewDocument,
    "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt test }\n  }\n": types.LiveVotesDocument,
    "\n  subscription LiveVoteParty {\n    votePartyProgress { enabled every provider count progress remaining completed }\n  }\n": types.LiveVotePartyDocument,
    "\n  query Statistics($from: String, $to: String, $granularity: Granularity) {\n    voteTrend(from: $from, to: $to, granularity: $granularity) { granularity trend { date count } }\n    votesByProvider(from: $from, to: $to) { total providers { key name count percentage } }\n    conversionStats(from: $from, to: $to) { sites { provider name clicks votes convertedClicks conversion medianSecondsToVote } }\n  }\n": types.StatisticsDocument,
    "\n  query Leaderboard($days: Int) { leaderboard(days: $days, limit: 25) { voters { name votes lastVote } } }\n": types.LeaderboardDocument,
    "\n  query VoterPage($name: String!) {\n    voterStats(voterName: $name) {\n      voterName summary { total today thisWeek thisMonth firstVote lastVote } byProvider { key name count }\n      standing { streakDays bestStreakDays monthTotal timeZone sites { key name total nextVoteAt } }\n    }\n  }\n": types.VoterPageDocument,
    "\n  query VoteDetail($publicId: String!) {\n    vote(publicId: $publicId) {\n      publicId voterName voterId repairedFrom providerName providerKey receivedAt chatStatus callbackStatus callbackAttempts recovered test\n      deliveryJobs { id kind event origin target status attempts maxAttempts nextAttemptAt lastError sentAt }\n      deliveryAttempts { id jobId kind event attempt target pluginToken statusCode success durationMs pacedMs error responseExcerpt createdAt }\n    }\n  }\n": types.VoteDetailDocument,
    "\n  mutation RedeliverVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n": types.RedeliverVoteDocument,
    "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }\n    }\n    providers { providers { key name } }\n  }\n": types.VotesDocument,
    "\n  query UncertainVotes {\n    callbacks: votes(callbackStatus: uncertain, limit: 1) { total }\n    chat: votes(chatStatus: uncertain, limit: 1) { total }\n  }\n": types.UncertainVotesDocument,
    "\n  mutation ResendVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n": types.ResendVoteDocument,
    "\n  query Callbacks {\n    callbacks(includeDisabled: true) { count limit callbacks {\n      id name kind target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt\n    } }\n    callbackKinds { ...CallbackKindFields }\n    callbackVariables { name description example events }\n    providers { providers { key name } }\n  }\n": types.CallbacksDocument,
    "\n  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }\n": types.DeleteCallbackDocument,
    "\n  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }\n": types.RotateCallbackSecretDocument,
    "\n  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload sent message } }\n": types.TestCallbackDocument,
    "\n  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {\n    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }\n  }\n": types.ReplayCallbackDocument,
    "\n  mutation CreateCallback($input: CreateCallbackInput!) {\n    createCallback(input: $input) { signingSecret callback { id name kind } }\n  }\n": types.CreateCallbackDocument,
    "\n  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {\n    updateCallback(id: $id, input: $input) { id name target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt }\n  }\n": types.UpdateCallbackDocument,
    "\n  query DiscordRoleGrants($page: Int, $status: DiscordRoleGrantStatus) {\n    discordRoleGrants(page: $page, limit: 20, status: $status) {\n      total page limit grants { voter discordId roleId callbackId status expiresAt lastError updatedAt }\n    }\n    organization { id settings { discordBotTokenSet discordGuildId } }\n  }\n": types.DiscordRoleGrantsDocument,
    "\n  fragment CallbackSettingFields on CallbackSetting {\n    name restName type label help required nullable secret readAs widget placeholder default\n  }\n": types.CallbackSettingFieldsFragmentDoc,
    "\n  fragment CallbackKindFields on CallbackKindInfo {\n    name label description events signed marksTests settings { ...CallbackSettingFields }\n  }\n": types.CallbackKindFieldsFragmentDoc,
    "\n  query AddProviderChoices {\n    organization { slug hookBaseUrl hookAddressWarning votifierAddressWarning }\n    templates { id slug name description websiteUrl authMethod authField authKeySource setupInstructions }\n    providers { count limit providers { key webhookUrl } }\n  }\n": types.AddProviderChoicesDocument,
    "\n  mutation CreateProvider($input: CreateProviderInput!) {\n    createProvider(input: $input) {\n      id key name authMethod authValue webhookUrl votifier { host port publicKey token }\n      provider { authField authTimestampField signatureFormat payloadSource voteePath }\n    }\n  }\n": types.CreateProviderDocument,
    "\n  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {\n    updateProvider(key: $key, input: $input) { id key name webhookUrl }\n  }\n": types.EditProviderDocument,
    "\n  query ProviderRequests($key: String!, $outcome: HookRequestOutcome, $first: Int, $after: String) {\n    provider(key: $key) {\n      id key name authMethod authField webhookUrl\n      requests(outcome: $outcome, first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { cursor node {\n          id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n        } }\n      }\n      requestDrops { clientIp count firstAt lastAt }\n    }\n  }\n": types.ProviderRequestsDocument,
    "\n  subscription LiveProviderRequests($provider: String) {\n    hookRequestReceived(provider: $provider) {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n    }\n  }\n": types.LiveProviderRequestsDocument,
    "\n  query Providers {\n    organization { hookAddressWarning votifierAddressWarning }\n    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }\n  }\n": types.ProvidersDocument,
    "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n": types.SetProviderEnabledDocument,
    "\n  mutation RegenerateProviderSecret($key: String!) {\n    regenerateProviderSecret(key: $key) { authValue webhookUrl votifier { host port publicKey token } }\n  }\n": types.RegenerateProviderSecretDocument,
    "\n  mutation DeleteProvider($key: String!) {\n    deleteProvider(key: $key) { message votesDeleted }\n  }\n": types.DeleteProviderDocument,
    "\n  mutation SetProviderApiToken($key: String!, $apiToken: String) {\n    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }\n  }\n": types.SetProviderApiTokenDocument,
    "\n  mutation SendTestVote($key: String!, $voterName: String, $deliverToGameServers: Boolean) {\n    sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {\n      received voteId duplicate test ignored testVote voterName deliverToGameServers\n    }\n  }\n": types.SendTestVoteDocument,
    "\n  query UnmatchedRequests($outcome: HookRequestOutcome, $page: Int, $limit: Int) {\n    hookRequests(outcome: $outcome, page: $page, limit: $limit) {\n      page pages total\n      requests { id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey }\n      dropped { clientIp count firstAt lastAt }\n    }\n  }\n": types.UnmatchedRequestsDocument,
    "\n  subscription LiveOrganizationRequests {\n    hookRequestReceived {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey matched\n    }\n  }\n": types.LiveOrganizationRequestsDocument,
    "\n  query RewardSettings {\n    organization { id slug settings {\n      votePage { enabled title showLeaderboard }\n      milestones { type every at provider }\n      votePartyEvery votePartyProvider chatMilestoneTemplate chatVotePartyTemplate remindersEnabled chatWebhookUrl chatNotificationsEnabled bedrockPrefix\n    } }\n    providers { providers { key name } }\n    voteParty { enabled every progress completed }\n    callbackVariables { name example }\n  }\n": types.RewardSettingsDocument,
    "\n  query Settings {\n    organization { name slug plan settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n": types.SettingsDocument,
    "\n  mutation UpdateOrganization($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { name slug settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n": types.UpdateOrganizationDocument,
    "\n  mutation TestChatWebhook($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }\n": types.TestChatWebhookDocument,
    "\n  query ApiKeys { apiKeys { id name prefix scope lastUsedAt createdAt } }\n": types.ApiKeysDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key scope } }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }\n": types.RevokeApiKeyDocument,
    "\n  mutation UpdateBedrockPrefix($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { bedrockPrefix } }\n  }\n": types.UpdateBedrockPrefixDocument,
    "\n  query DiscordSettings {\n    organization { id settings {\n      discordBotTokenSet discordGuildId leaderboardPosts { period top at } timeZone chatWebhookUrl\n    } }\n  }\n": types.DiscordSettingsDocument,
    "\n  mutation UpdateDiscordBot($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { discordBotTokenSet discordGuildId } }\n  }\n": types.UpdateDiscordBotDocument,
    "\n  mutation UpdateLeaderboardPosts($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { leaderboardPosts { period top at } } }\n  }\n": types.UpdateLeaderboardPostsDocument,
    "\n  mutation UpdateEventMessages($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { chatMilestoneTemplate chatVotePartyTemplate } }\n  }\n": types.UpdateEventMessagesDocument,
    "\n  mutation UpdateMilestones($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { milestones { type every at provider } } }\n  }\n": types.UpdateMilestonesDocument,
    "\n  mutation UpdateReminders($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { remindersEnabled } }\n  }\n": types.UpdateRemindersDocument,
    "\n  query ReminderOptOuts($page: Int) {\n    reminderOptOuts(page: $page, limit: 20) { total page limit optOuts { voterName createdAt } }\n  }\n": types.ReminderOptOutsDocument,
    "\n  mutation SetVoterReminders($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) { voterName enabled } }\n": types.SetVoterRemindersDocument,
    "\n  mutation UpdateVotePage($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePage { enabled title showLeaderboard } } }\n  }\n": types.UpdateVotePageDocument,
    "\n  mutation UpdateVoteParty($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePartyEvery votePartyProvider } }\n  }\n": types.UpdateVotePartyDocument,
    "\n  query VoterDetail($id: String!, $after: String) {\n    voter(id: $id) {\n      id displayName createdAt\n      identities { kind value createdAt }\n      standing { total monthTotal streakDays bestStreakDays lastVoteAt timeZone sites { key name total lastVoteAt nextVoteAt } }\n      votes(first: 25, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { publicId voterName repairedFrom providerName receivedAt chatStatus callbackStatus test } }\n      }\n    }\n  }\n": types.VoterDetailDocument,
    "\n  query FindVotersToMerge($search: String!) {\n    voters(search: $search, limit: 6) { total voters { id displayName identities { kind value } standing { total } } }\n  }\n": types.FindVotersToMergeDocument,
    "\n  mutation MergeVoters($id: String!, $other: String!) {\n    mergeVoters(id: $id, other: $other) { id displayName }\n  }\n": types.MergeVotersDocument,
    "\n  mutation SplitVoterIdentity($id: String!, $kind: VoterIdentityKind!, $value: String!) {\n    splitVoterIdentity(id: $id, kind: $kind, value: $value) { id displayName }\n  }\n": types.SplitVoterIdentityDocument,
    "\n  query Voters($search: String, $page: Int) {\n    voters(search: $search, page: $page, limit: 25) {\n      page pages total\n      voters { id displayName identities { kind value } standing { total streakDays lastVoteAt } }\n    }\n  }\n": types.VotersDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer { scope }\n    organization { name slug plan }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PluginTokens { pluginTokens { waiting parked tokens { id name prefix connection lastPollAt createdAt parked } } }\n"): (typeof documents)["\n  query PluginTokens { pluginTokens { waiting parked tokens { id name prefix connection lastPollAt createdAt parked } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ParkedVotes($tokenId: ID!, $page: Int) {\n    parkedVotes(tokenId: $tokenId, page: $page, limit: 50) { page pages total votes { id voterName providerName receivedAt parkedAt test } }\n  }\n"): (typeof documents)["\n  query ParkedVotes($tokenId: ID!, $page: Int) {\n    parkedVotes(tokenId: $tokenId, page: $page, limit: 50) { page pages total votes { id voterName providerName receivedAt parkedAt test } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePluginToken($name: String!) { createPluginToken(name: $name) { id name token } }\n"): (typeof documents)["\n  mutation CreatePluginToken($name: String!) { createPluginToken(name: $name) { id name token } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokePluginToken($id: ID!) { revokePluginToken(id: $id) { id } }\n"): (typeof documents)["\n  mutation RevokePluginToken($id: ID!) { revokePluginToken(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt test } }\n    voteParty { enabled every provider count progress remaining completed }\n    providers { providers { key name } }\n    quietSites { providerKey providerName message }\n  }\n"): (typeof documents)["\n  query Overview {\n    organization { name plan usage { votesThisMonth votesLimit providersCount providersLimit } }\n    dashboardStats {\n      summary { today thisWeek thisMonth allTime }\n      byProvider { key name count }\n      dailyTrend { date count }\n    }\n    failingCallbacks { callback { id name } state failedAttemptsLast24h retryingDeliveries failedLast24h lastError lastFailedAt }\n    votes(limit: 10) { votes { publicId voterName providerKey providerName receivedAt test } }\n    voteParty { enabled every provider count progress remaining completed }\n    providers { providers { key name } }\n    quietSites { providerKey providerName message }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt test }\n  }\n"): (typeof documents)["\n  subscription LiveVotes {\n    voteReceived { publicId voterName providerKey providerName receivedAt test }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveVoteParty {\n    votePartyProgress { enabled every provider count progress remaining completed }\n  }\n"): (typeof documents)["\n  subscription LiveVoteParty {\n    votePartyProgress { enabled every provider count progress remaining completed }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Statistics($from: String, $to: String, $granularity: Granularity) {\n    voteTrend(from: $from, to: $to, granularity: $granularity) { granularity trend { date count } }\n    votesByProvider(from: $from, to: $to) { total providers { key name count percentage } }\n    conversionStats(from: $from, to: $to) { sites { provider name clicks votes convertedClicks conversion medianSecondsToVote } }\n  }\n"): (typeof documents)["\n  query Statistics($from: String, $to: String, $granularity: Granularity) {\n    voteTrend(from: $from, to: $to, granularity: $granularity) { granularity trend { date count } }\n    votesByProvider(from: $from, to: $to) { total providers { key name count percentage } }\n    conversionStats(from: $from, to: $to) { sites { provider name clicks votes convertedClicks conversion medianSecondsToVote } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Leaderboard($days: Int) { leaderboard(days: $days, limit: 25) { voters { name votes lastVote } } }\n"): (typeof documents)["\n  query Leaderboard($days: Int) { leaderboard(days: $days, limit: 25) { voters { name votes lastVote } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VoterPage($name: String!) {\n    voterStats(voterName: $name) {\n      voterName summary { total today thisWeek thisMonth firstVote lastVote } byProvider { key name count }\n      standing { streakDays bestStreakDays monthTotal timeZone sites { key name total nextVoteAt } }\n    }\n  }\n"): (typeof documents)["\n  query VoterPage($name: String!) {\n    voterStats(voterName: $name) {\n      voterName summary { total today thisWeek thisMonth firstVote lastVote } byProvider { key name count }\n      standing { streakDays bestStreakDays monthTotal timeZone sites { key name total nextVoteAt } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VoteDetail($publicId: String!) {\n    vote(publicId: $publicId) {\n      publicId voterName voterId repairedFrom providerName providerKey receivedAt chatStatus callbackStatus callbackAttempts recovered test\n      deliveryJobs { id kind event origin target status attempts maxAttempts nextAttemptAt lastError sentAt }\n      deliveryAttempts { id jobId kind event attempt target pluginToken statusCode success durationMs pacedMs error responseExcerpt createdAt }\n    }\n  }\n"): (typeof documents)["\n  query VoteDetail($publicId: String!) {\n    vote(publicId: $publicId) {\n      publicId voterName voterId repairedFrom providerName providerKey receivedAt chatStatus callbackStatus callbackAttempts recovered test\n      deliveryJobs { id kind event origin target status attempts maxAttempts nextAttemptAt lastError sentAt }\n      deliveryAttempts { id jobId kind event attempt target pluginToken statusCode success durationMs pacedMs error responseExcerpt createdAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n"): (typeof documents)["\n  mutation RedeliverVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }\n    }\n    providers { providers { key name } }\n  }\n"): (typeof documents)["\n  query Votes($page: Int, $provider: String, $voter: String, $from: String, $to: String, $chatStatus: DeliveryStatus, $callbackStatus: DeliveryStatus) {\n    votes(page: $page, limit: 25, provider: $provider, voter: $voter, from: $from, to: $to, chatStatus: $chatStatus, callbackStatus: $callbackStatus) {\n      page pages total\n      votes { publicId voterName providerKey providerName receivedAt chatStatus callbackStatus test }\n    }\n    providers { providers { key name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UncertainVotes {\n    callbacks: votes(callbackStatus: uncertain, limit: 1) { total }\n    chat: votes(chatStatus: uncertain, limit: 1) { total }\n  }\n"): (typeof documents)["\n  query UncertainVotes {\n    callbacks: votes(callbackStatus: uncertain, limit: 1) { total }\n    chat: votes(chatStatus: uncertain, limit: 1) { total }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n"): (typeof documents)["\n  mutation ResendVote($publicId: String!) {\n    redeliverVote(publicId: $publicId) { voteId requeued }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Callbacks {\n    callbacks(includeDisabled: true) { count limit callbacks {\n      id name kind target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt\n    } }\n    callbackKinds { ...CallbackKindFields }\n    callbackVariables { name description example events }\n    providers { providers { key name } }\n  }\n"): (typeof documents)["\n  query Callbacks {\n    callbacks(includeDisabled: true) { count limit callbacks {\n      id name kind target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt\n    } }\n    callbackKinds { ...CallbackKindFields }\n    callbackVariables { name description example events }\n    providers { providers { key name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }\n"): (typeof documents)["\n  mutation DeleteCallback($id: ID!) { deleteCallback(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }\n"): (typeof documents)["\n  mutation RotateCallbackSecret($id: ID!) { rotateCallbackSecret(id: $id) { id signingSecret } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload sent message } }\n"): (typeof documents)["\n  mutation TestCallback($id: ID!) { testCallback(id: $id) { url method headers payload sent message } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {\n    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }\n  }\n"): (typeof documents)["\n  mutation ReplayCallback($id: ID!, $since: String!, $until: String, $onlyFailed: Boolean) {\n    replayCallback(id: $id, since: $since, until: $until, onlyFailed: $onlyFailed) { callbackId queued since until onlyFailed }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCallback($input: CreateCallbackInput!) {\n    createCallback(input: $input) { signingSecret callback { id name kind } }\n  }\n"): (typeof documents)["\n  mutation CreateCallback($input: CreateCallbackInput!) {\n    createCallback(input: $input) { signingSecret callback { id name kind } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {\n    updateCallback(id: $id, input: $input) { id name target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt }\n  }\n"): (typeof documents)["\n  mutation UpdateCallback($id: ID!, $input: UpdateCallbackInput!) {\n    updateCallback(id: $id, input: $input) { id name target enabled priority timeoutMs events providers allProviders maxPerSecond disabledReason disabledAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DiscordRoleGrants($page: Int, $status: DiscordRoleGrantStatus) {\n    discordRoleGrants(page: $page, limit: 20, status: $status) {\n      total page limit grants { voter discordId roleId callbackId status expiresAt lastError updatedAt }\n    }\n    organization { id settings { discordBotTokenSet discordGuildId } }\n  }\n"): (typeof documents)["\n  query DiscordRoleGrants($page: Int, $status: DiscordRoleGrantStatus) {\n    discordRoleGrants(page: $page, limit: 20, status: $status) {\n      total page limit grants { voter discordId roleId callbackId status expiresAt lastError updatedAt }\n    }\n    organization { id settings { discordBotTokenSet discordGuildId } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CallbackSettingFields on CallbackSetting {\n    name restName type label help required nullable secret readAs widget placeholder default\n  }\n"): (typeof documents)["\n  fragment CallbackSettingFields on CallbackSetting {\n    name restName type label help required nullable secret readAs widget placeholder default\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CallbackKindFields on CallbackKindInfo {\n    name label description events signed marksTests settings { ...CallbackSettingFields }\n  }\n"): (typeof documents)["\n  fragment CallbackKindFields on CallbackKindInfo {\n    name label description events signed marksTests settings { ...CallbackSettingFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AddProviderChoices {\n    organization { slug hookBaseUrl hookAddressWarning votifierAddressWarning }\n    templates { id slug name description websiteUrl authMethod authField authKeySource setupInstructions }\n    providers { count limit providers { key webhookUrl } }\n  }\n"): (typeof documents)["\n  query AddProviderChoices {\n    organization { slug hookBaseUrl hookAddressWarning votifierAddressWarning }\n    templates { id slug name description websiteUrl authMethod authField authKeySource setupInstructions }\n    providers { count limit providers { key webhookUrl } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProvider($input: CreateProviderInput!) {\n    createProvider(input: $input) {\n      id key name authMethod authValue webhookUrl votifier { host port publicKey token }\n      provider { authField authTimestampField signatureFormat payloadSource voteePath }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateProvider($input: CreateProviderInput!) {\n    createProvider(input: $input) {\n      id key name authMethod authValue webhookUrl votifier { host port publicKey token }\n      provider { authField authTimestampField signatureFormat payloadSource voteePath }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {\n    updateProvider(key: $key, input: $input) { id key name webhookUrl }\n  }\n"): (typeof documents)["\n  mutation EditProvider($key: String!, $input: UpdateProviderInput!) {\n    updateProvider(key: $key, input: $input) { id key name webhookUrl }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProviderRequests($key: String!, $outcome: HookRequestOutcome, $first: Int, $after: String) {\n    provider(key: $key) {\n      id key name authMethod authField webhookUrl\n      requests(outcome: $outcome, first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { cursor node {\n          id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n        } }\n      }\n      requestDrops { clientIp count firstAt lastAt }\n    }\n  }\n"): (typeof documents)["\n  query ProviderRequests($key: String!, $outcome: HookRequestOutcome, $first: Int, $after: String) {\n    provider(key: $key) {\n      id key name authMethod authField webhookUrl\n      requests(outcome: $outcome, first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { cursor node {\n          id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n        } }\n      }\n      requestDrops { clientIp count firstAt lastAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveProviderRequests($provider: String) {\n    hookRequestReceived(provider: $provider) {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n    }\n  }\n"): (typeof documents)["\n  subscription LiveProviderRequests($provider: String) {\n    hookRequestReceived(provider: $provider) {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Providers {\n    organization { hookAddressWarning votifierAddressWarning }\n    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }\n  }\n"): (typeof documents)["\n  query Providers {\n    organization { hookAddressWarning votifierAddressWarning }\n    providers { count limit providers { id key name template authMethod enabled webhookUrl votesToday votesTotal authField authTimestampField signatureFormat payloadSource voteePath eventPath voteEvents testEvents votifier { host port publicKey } recovery { enabled checkedAt since error } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n"): (typeof documents)["\n  mutation SetProviderEnabled($key: String!, $enabled: Boolean!) {\n    updateProvider(key: $key, input: { enabled: $enabled }) { id enabled }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateProviderSecret($key: String!) {\n    regenerateProviderSecret(key: $key) { authValue webhookUrl votifier { host port publicKey token } }\n  }\n"): (typeof documents)["\n  mutation RegenerateProviderSecret($key: String!) {\n    regenerateProviderSecret(key: $key) { authValue webhookUrl votifier { host port publicKey token } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteProvider($key: String!) {\n    deleteProvider(key: $key) { message votesDeleted }\n  }\n"): (typeof documents)["\n  mutation DeleteProvider($key: String!) {\n    deleteProvider(key: $key) { message votesDeleted }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetProviderApiToken($key: String!, $apiToken: String) {\n    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }\n  }\n"): (typeof documents)["\n  mutation SetProviderApiToken($key: String!, $apiToken: String) {\n    updateProvider(key: $key, input: { apiToken: $apiToken }) { id recovery { enabled checkedAt since error } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTestVote($key: String!, $voterName: String, $deliverToGameServers: Boolean) {\n    sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {\n      received voteId duplicate test ignored testVote voterName deliverToGameServers\n    }\n  }\n"): (typeof documents)["\n  mutation SendTestVote($key: String!, $voterName: String, $deliverToGameServers: Boolean) {\n    sendTestVote(key: $key, voterName: $voterName, deliverToGameServers: $deliverToGameServers) {\n      received voteId duplicate test ignored testVote voterName deliverToGameServers\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UnmatchedRequests($outcome: HookRequestOutcome, $page: Int, $limit: Int) {\n    hookRequests(outcome: $outcome, page: $page, limit: $limit) {\n      page pages total\n      requests { id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey }\n      dropped { clientIp count firstAt lastAt }\n    }\n  }\n"): (typeof documents)["\n  query UnmatchedRequests($outcome: HookRequestOutcome, $page: Int, $limit: Int) {\n    hookRequests(outcome: $outcome, page: $page, limit: $limit) {\n      page pages total\n      requests { id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey }\n      dropped { clientIp count firstAt lastAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveOrganizationRequests {\n    hookRequestReceived {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey matched\n    }\n  }\n"): (typeof documents)["\n  subscription LiveOrganizationRequests {\n    hookRequestReceived {\n      id receivedAt clientIp method path protocol outcome status errorCode reason hint voterName voteId durationMs headers body bodyBytes providerKey matched\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RewardSettings {\n    organization { id slug settings {\n      votePage { enabled title showLeaderboard }\n      milestones { type every at provider }\n      votePartyEvery votePartyProvider chatMilestoneTemplate chatVotePartyTemplate remindersEnabled chatWebhookUrl chatNotificationsEnabled bedrockPrefix\n    } }\n    providers { providers { key name } }\n    voteParty { enabled every progress completed }\n    callbackVariables { name example }\n  }\n"): (typeof documents)["\n  query RewardSettings {\n    organization { id slug settings {\n      votePage { enabled title showLeaderboard }\n      milestones { type every at provider }\n      votePartyEvery votePartyProvider chatMilestoneTemplate chatVotePartyTemplate remindersEnabled chatWebhookUrl chatNotificationsEnabled bedrockPrefix\n    } }\n    providers { providers { key name } }\n    voteParty { enabled every progress completed }\n    callbackVariables { name example }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Settings {\n    organization { name slug plan settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n"): (typeof documents)["\n  query Settings {\n    organization { name slug plan settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateOrganization($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { name slug settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n"): (typeof documents)["\n  mutation UpdateOrganization($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { name slug settings {\n      chatWebhookUrl chatNotificationsEnabled chatMessageType chatMessageTemplate chatEmbedTemplate\n      chatAdminWebhookUrl adminDailySummary adminWeeklySummary adminVoteSpikeAlerts adminPermanentFailAlerts adminUsageWarnings\n    } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TestChatWebhook($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }\n"): (typeof documents)["\n  mutation TestChatWebhook($input: TestChatWebhookInput!) { testChatWebhook(input: $input) { success message } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiKeys { apiKeys { id name prefix scope lastUsedAt createdAt } }\n"): (typeof documents)["\n  query ApiKeys { apiKeys { id name prefix scope lastUsedAt createdAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key scope } }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { id name key scope } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateBedrockPrefix($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { bedrockPrefix } }\n  }\n"): (typeof documents)["\n  mutation UpdateBedrockPrefix($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { bedrockPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DiscordSettings {\n    organization { id settings {\n      discordBotTokenSet discordGuildId leaderboardPosts { period top at } timeZone chatWebhookUrl\n    } }\n  }\n"): (typeof documents)["\n  query DiscordSettings {\n    organization { id settings {\n      discordBotTokenSet discordGuildId leaderboardPosts { period top at } timeZone chatWebhookUrl\n    } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateDiscordBot($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { discordBotTokenSet discordGuildId } }\n  }\n"): (typeof documents)["\n  mutation UpdateDiscordBot($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { discordBotTokenSet discordGuildId } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateLeaderboardPosts($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { leaderboardPosts { period top at } } }\n  }\n"): (typeof documents)["\n  mutation UpdateLeaderboardPosts($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { leaderboardPosts { period top at } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateEventMessages($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { chatMilestoneTemplate chatVotePartyTemplate } }\n  }\n"): (typeof documents)["\n  mutation UpdateEventMessages($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { chatMilestoneTemplate chatVotePartyTemplate } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMilestones($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { milestones { type every at provider } } }\n  }\n"): (typeof documents)["\n  mutation UpdateMilestones($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { milestones { type every at provider } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateReminders($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { remindersEnabled } }\n  }\n"): (typeof documents)["\n  mutation UpdateReminders($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { remindersEnabled } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReminderOptOuts($page: Int) {\n    reminderOptOuts(page: $page, limit: 20) { total page limit optOuts { voterName createdAt } }\n  }\n"): (typeof documents)["\n  query ReminderOptOuts($page: Int) {\n    reminderOptOuts(page: $page, limit: 20) { total page limit optOuts { voterName createdAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetVoterReminders($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) { voterName enabled } }\n"): (typeof documents)["\n  mutation SetVoterReminders($voterName: String!, $enabled: Boolean!) { setVoterReminders(voterName: $voterName, enabled: $enabled) { voterName enabled } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateVotePage($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePage { enabled title showLeaderboard } } }\n  }\n"): (typeof documents)["\n  mutation UpdateVotePage($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePage { enabled title showLeaderboard } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateVoteParty($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePartyEvery votePartyProvider } }\n  }\n"): (typeof documents)["\n  mutation UpdateVoteParty($input: UpdateOrganizationInput!) {\n    updateOrganization(input: $input) { id settings { votePartyEvery votePartyProvider } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VoterDetail($id: String!, $after: String) {\n    voter(id: $id) {\n      id displayName createdAt\n      identities { kind value createdAt }\n      standing { total monthTotal streakDays bestStreakDays lastVoteAt timeZone sites { key name total lastVoteAt nextVoteAt } }\n      votes(first: 25, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { publicId voterName repairedFrom providerName receivedAt chatStatus callbackStatus test } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query VoterDetail($id: String!, $after: String) {\n    voter(id: $id) {\n      id displayName createdAt\n      identities { kind value createdAt }\n      standing { total monthTotal streakDays bestStreakDays lastVoteAt timeZone sites { key name total lastVoteAt nextVoteAt } }\n      votes(first: 25, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { publicId voterName repairedFrom providerName receivedAt chatStatus callbackStatus test } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FindVotersToMerge($search: String!) {\n    voters(search: $search, limit: 6) { total voters { id displayName identities { kind value } standing { total } } }\n  }\n"): (typeof documents)["\n  query FindVotersToMerge($search: String!) {\n    voters(search: $search, limit: 6) { total voters { id displayName identities { kind value } standing { total } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MergeVoters($id: String!, $other: String!) {\n    mergeVoters(id: $id, other: $other) { id displayName }\n  }\n"): (typeof documents)["\n  mutation MergeVoters($id: String!, $other: String!) {\n    mergeVoters(id: $id, other: $other) { id displayName }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SplitVoterIdentity($id: String!, $kind: VoterIdentityKind!, $value: String!) {\n    splitVoterIdentity(id: $id, kind: $kind, value: $value) { id displayName }\n  }\n"): (typeof documents)["\n  mutation SplitVoterIdentity($id: String!, $kind: VoterIdentityKind!, $value: String!) {\n    splitVoterIdentity(id: $id, kind: $kind, value: $value) { id displayName }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Voters($search: String, $page: Int) {\n    voters(search: $search, page: $page, limit: 25) {\n      page pages total\n      voters { id displayName identities { kind value } standing { total streakDays lastVoteAt } }\n    }\n  }\n"): (typeof documents)["\n  query Voters($search: String, $page: Int) {\n    voters(search: $search, page: $page, limit: 25) {\n      page pages total\n      voters { id displayName identities { kind value } standing { total streakDays lastVoteAt } }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;